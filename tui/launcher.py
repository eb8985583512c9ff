"""The ``pideck`` console script: the command line, with the TUI as its front end.

Textual is imported only when the TUI opens, so the headless commands start as fast as core lets
them.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Sequence

if TYPE_CHECKING:
    from core.opening import Opened


NO_TERMINAL = ("pideck: the app needs a terminal, and its input or output is not one; `pideck inspect` "
               "prints the same state without it")


def has_terminal() -> bool:
    """Whether stdin and stdout are a terminal: without one the app would run unseen, forever."""
    return sys.stdin.isatty() and sys.stdout.isatty()


def run_tui(opened: Opened | None, show_all: bool = False) -> int:
    """Run the app until the person quits (``opened`` None: on the sessions overview; ``show_all``:
    ``pideck --all``); a crash is never exit status 0. Without a terminal: one line, exit 2."""
    import gc

    if not has_terminal():
        print(NO_TERMINAL, file=sys.stderr)
        return 2

    from tui.app import PideckApp

    app = PideckApp(opened.deck if opened else None, warnings=opened.warnings if opened else (),
                    why=opened.why if opened else None, show_all=show_all)
    # What is loaded now (the session's index, Textual's modules) lives as long as the app: kept
    # out of the collector's way, the collections while the app runs scan only what it makes.
    gc.freeze()
    app.run()
    return app.return_code or 0


def main(argv: Sequence[str] | None = None) -> int:
    from core.cli import main as cli_main

    return cli_main(argv, tui=run_tui)


def run() -> None:
    """The console script: ``main``, then a quick exit. Once a headless command's output is
    flushed, nothing is left to do but free what it built (a big session's index, thousands of
    objects), which the interpreter would do one object at a time; ``os._exit`` skips that. The
    TUI exits the usual way (Textual restores the terminal as the app ends, and its threads are
    joined), and so does a run whose output cannot be flushed (the usual error is printed)."""
    status = main()
    if "textual" not in sys.modules:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except (OSError, ValueError):
            pass
        else:
            os._exit(status)
    sys.exit(status)


if __name__ == "__main__":
    run()
