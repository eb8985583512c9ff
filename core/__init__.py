"""pideck core: pure Python, never imports Textual."""
