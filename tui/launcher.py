"""The ``pideck`` console script: the command line, with the TUI as its front end.

Textual is imported only when the TUI opens, so the headless commands start as fast as core lets
them.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Sequence

if TYPE_CHECKING:
    from core.opening import Opened


def run_tui(opened: Opened | None) -> int:
    """Run the app until the person quits (``opened`` None: on the sessions overview); a crash is
    never exit status 0."""
    from tui.app import PideckApp

    app = PideckApp(opened.deck if opened else None, warnings=opened.warnings if opened else ())
    app.run()
    return app.return_code or 0


def main(argv: Sequence[str] | None = None) -> int:
    from core.cli import main as cli_main

    return cli_main(argv, tui=run_tui)


if __name__ == "__main__":
    sys.exit(main())
