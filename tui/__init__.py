"""pideck TUI (Textual)."""
