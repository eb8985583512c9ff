"""pideck core: pure Python, never imports Textual."""

__version__ = "0.1.0"
