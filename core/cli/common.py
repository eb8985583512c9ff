"""What the commands share: exit statuses, printing text that may quote a log, opening the session a
command names, the usage error, and holding ctrl+c while a command makes what it must undo."""

from __future__ import annotations

import argparse
import os
import sys

TYPE_CHECKING = False  # (typing's own constant, without importing typing: mypy reads it the same)
if TYPE_CHECKING:
    from typing import Any, Callable, TextIO

    from core.catalog.opening import Opened
    from core.views.timetravel import TimeMachine

    OpenTui = Callable[..., int]
    """Runs the TUI on an opened session (None: on the sessions overview) until the person quits
    (``show_all=True``: ``pideck --all``); returns the exit status."""


EXIT_OK, EXIT_WARNING, EXIT_USAGE = 0, 1, 2


def emit(text: str, stream: TextIO | None = None) -> None:
    """Print text that may quote the session log. On a terminal its control characters are made
    visible (an escape sequence in a work item must not drive the terminal); piped to a harness or
    a script it is printed exactly, as the upstream texts are, except a lone surrogate (a string
    may hold one, UTF-8 cannot), which is written as its ``\\udxxx`` escape."""
    stream = stream or sys.stdout
    if stream.isatty():
        from core.untrusted import visible_controls  # (its patterns are compiled as it loads: only here)

        print(visible_controls(text, multiline=True), file=stream)
    else:
        from core.jsutil import escape_lone_surrogates

        print(escape_lone_surrogates(text), file=stream)


class UsageError(Exception):
    """Input pideck will not act on (exit 2, the message on stderr)."""


def check_text(value: str, what: str) -> str:
    """``value`` if it came from valid UTF-8. Python hands undecodable bytes of the command line
    over as lone surrogates; they would be stored as ``\\udcxx`` instead of what was meant."""
    from core.jsutil import has_surrogates

    if has_surrogates(value):
        raise UsageError(f"{what} is not valid UTF-8")
    return value


def open_deck(args: argparse.Namespace, *, create: bool = True, for_agent: bool = False) -> Opened:
    """The session named by ``--session`` (else the default choice), its config warnings printed.
    ``for_agent`` (a tool call): without ``--session``, the session is chosen as the MCP server
    chooses one for a call (``core/agents/routing.py``), never pi's, whose files refuse writes."""
    from core.catalog.opening import open_deck as open_session_deck

    path = args.session
    if for_agent:
        from core.agents.routing import route

        path = route(args.session).path
    opened = open_session_deck(path, write=getattr(args, "write", False), create=create, pideck_only=for_agent)
    for warning in opened.warnings:
        print(f"pideck: {warning}", file=sys.stderr)
    return opened


def print_json(value: Any, *, line: bool = False) -> None:
    """One JSON document on stdout (``line``: compact, on one line), lone surrogates escaped as pi
    writes them. On a terminal every non-ASCII character is escaped too, so no log text can drive
    it, and the output is still JSON (``emit``'s visible controls are not JSON escapes)."""
    import json

    from core.jsutil import escape_lone_surrogates

    text = json.dumps(value, ensure_ascii=sys.stdout.isatty(), indent=None if line else 2,
                      separators=(",", ":") if line else None)
    print(escape_lone_surrogates(text))


def open_time_machine(args: argparse.Namespace) -> TimeMachine:
    """The session ``--session`` names (else the default choice; never a new one), for reading
    past points with the user's todo configuration."""
    from core.catalog.opening import choose_session
    from core.config.settings import load_config
    from core.views.timetravel import TimeMachine

    config, problems = load_config()
    for problem in problems:
        print(f"pideck: config: {problem}", file=sys.stderr)
    return TimeMachine(choose_session(args.session, create=False), todo_config=config)


def visible_path(path: str | os.PathLike[str]) -> str:
    """A path on one line, whatever its name holds: control characters (a newline too) visible,
    bytes that are not UTF-8 as ``\\udcxx``."""
    from core.untrusted import visible_controls

    return visible_controls(os.fspath(path))


def human_size(size: float) -> str:
    for unit in ("B", "KB", "MB"):
        if size < 1024:
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
    return f"{size:.1f} GB"


class HeldInterrupts:
    """``with HeldInterrupts():`` ctrl+c waits while the block runs and lands as it ends, as a
    KeyboardInterrupt at that point. For a block that makes something and, last, undertakes to undo
    it: an interrupt between the two left the thing behind. (The main thread only: the mask is the
    calling thread's. ``signal`` is imported here: every command loads this module, one uses this.)"""

    def __enter__(self) -> None:
        import signal

        self._held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})

    def __exit__(self, *exception: object) -> None:
        import signal

        signal.pthread_sigmask(signal.SIG_SETMASK, self._held)
