"""The README's key table, generated from the bindings (``tui.screens.help.key_rows``, the help's
own list), so a key and what it does are written once: in its ``Binding``.

``uv run python -m tui.readme_keys`` writes the table into README.md between its two markers;
``tests/tui/test_tui_screens.py`` checks that the README holds the table the bindings give.
"""

from __future__ import annotations

import sys
from pathlib import Path

START = "<!-- keys: generated from the bindings by `uv run python -m tui.readme_keys` -->"
END = "<!-- /keys -->"
README = Path(__file__).resolve().parents[1] / "README.md"


def key_table() -> str:
    from tui.app import PideckApp
    from tui.screens.deck import DeckScreen
    from tui.screens.help import key_rows

    lines = ["| key | action |", "|---|---|"]
    for key, what in key_rows(DeckScreen.BINDINGS, PideckApp.BINDINGS):
        lines.append(f"| {key.replace('|', '/')} | {what} |")
    return "\n".join(lines)


def with_table(readme: str) -> str:
    """``readme`` with the generated table between the markers."""
    start, end = readme.index(START) + len(START), readme.index(END)
    return f"{readme[:start]}\n{key_table()}\n{readme[end:]}"


def main() -> int:
    text = README.read_text(encoding="utf-8")
    updated = with_table(text)
    if updated != text:
        README.write_text(updated, encoding="utf-8")
        print(f"updated the key table in {README}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
