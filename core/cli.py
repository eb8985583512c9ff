"""``pideck``: the TUI launcher and the headless commands for scripts and agents."""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
import time
from pathlib import Path
from typing import Any, Sequence, TextIO

from core import __version__
from core.adapters.dispatch import UnknownTool
from core.agents.install import add_install_parser
from core.deck import Deck
from core.inspect import inspect_json, inspect_text
from core.session import ReadOnlySession, SessionError, SessionLog
from core.session.discovery import list_sessions, new_session_path, newest_session
from core.todo import ConfigError, config_path, load_config, set_config_value, show_config
from core.untrusted import visible_controls

COMMANDS = ("run", "tool", "inspect", "sessions", "gate", "config", "demo", "install")

EXIT_OK, EXIT_WARNING, EXIT_USAGE = 0, 1, 2


def emit(text: str, stream: TextIO | None = None) -> None:
    """Print text that may quote the session log. On a terminal its control characters are made
    visible (an escape sequence in a work item must not drive the terminal); piped to a harness or
    a script it is printed exactly, as the upstream texts are."""
    stream = stream or sys.stdout
    print(visible_controls(text, multiline=True) if stream.isatty() else text, file=stream)


def open_session(path: str | None, write: bool) -> SessionLog:
    """Session selection shared by every command: ``--session PATH``, else ``$PIDECK_SESSION``,
    else the newest session for the current directory (pideck's or pi's), else a new pideck
    session. A PATH that does not exist becomes a new pideck session there. pi's own files open
    read-only unless ``write`` is set."""
    cwd = os.getcwd()
    writable = True if write else None  # None: the log decides by where the file lives
    chosen = path or os.environ.get("PIDECK_SESSION") or None
    if chosen is not None:
        target = Path(chosen)
        if not target.exists():
            return SessionLog.create(target, cwd=cwd)
        return SessionLog.open(target, writable=writable)
    newest = newest_session(cwd)
    if newest is not None:
        return SessionLog.open(newest.path, writable=writable)
    new_path, session_id, timestamp = new_session_path(cwd)
    return SessionLog.create(new_path, cwd=cwd, session_id=session_id, timestamp=timestamp)


def open_deck(session: str | None, write: bool = False) -> Deck:
    """The Deck over the session chosen as ``open_session`` chooses it, with the user's config."""
    config, warnings = load_config()
    for warning in warnings:
        print(f"pideck: config: {warning}", file=sys.stderr)
    log = open_session(session, write)
    return Deck(log, read_only_error=ReadOnlySession, todo_config=config)


def cmd_run(args: argparse.Namespace) -> int:
    deck = open_deck(args.session, getattr(args, "write", False))
    notices = deck.apply(args.line)
    for notice in notices:
        emit(notice.message)
    return EXIT_WARNING if any(n.level != "info" for n in notices) else EXIT_OK


def read_params(raw: str | None) -> Any:
    if raw is None:
        return {}
    text = sys.stdin.read() if raw == "-" else raw
    return json.loads(text, parse_constant=_not_json)


def _not_json(name: str) -> Any:
    """Python's json accepts NaN and Infinity; JSON (and JSON.parse) does not."""
    raise json.JSONDecodeError(f"{name} is not valid JSON", name, 0)


def cmd_tool(args: argparse.Namespace) -> int:
    try:
        params = read_params(args.params)
    except json.JSONDecodeError as exc:
        print(f"pideck tool: malformed JSON parameters: {exc}", file=sys.stderr)
        return EXIT_USAGE
    deck = open_deck(args.session, getattr(args, "write", False))
    try:
        emit(deck.call_tool(args.name, params))
    except UnknownTool as exc:
        print(f"pideck tool: {exc}", file=sys.stderr)
        return EXIT_USAGE
    return EXIT_OK


def cmd_inspect(args: argparse.Namespace) -> int:
    deck = open_deck(args.session, getattr(args, "write", False))
    if args.json:
        # on a terminal every non-ASCII character is escaped, so no log text can drive it
        print(json.dumps(inspect_json(deck), ensure_ascii=sys.stdout.isatty(), indent=2))
    else:
        emit(inspect_text(deck))
    return EXIT_OK


def cmd_gate(args: argparse.Namespace) -> int:
    """One turn-end settle: the follow-up goes to stdout (exit 2: the agent should go on), the
    display-only notice to stderr; exit 0 when there is nothing to say."""
    deck = open_deck(args.session, getattr(args, "write", False))
    followup, notice = deck.settle()
    if notice is not None:
        emit(notice.message, sys.stderr)
    if followup is not None:
        emit(followup)
        return EXIT_USAGE
    return EXIT_OK


def cmd_config(args: argparse.Namespace) -> int:
    if args.action == "show":
        print(show_config(), end="")
        return EXIT_OK
    try:
        set_config_value(args.key, args.value)
    except ConfigError as exc:
        print(f"pideck config: {exc}", file=sys.stderr)
        return EXIT_USAGE
    print(f"Set {args.key} = {args.value} in {config_path()}.")
    return EXIT_OK


def cmd_sessions(args: argparse.Namespace) -> int:
    sessions = list_sessions(os.getcwd())
    if not sessions:
        print("No sessions for this directory. `pideck` starts one.")
        return EXIT_OK
    print(f"{'KIND':<7} {'ENTRIES':>7} {'SIZE':>9}  {'LAST CHANGE':<19}  PATH")
    for s in sessions:
        changed = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(s.mtime))
        print(f"{s.kind:<7} {s.entries:>7} {human_size(s.size):>9}  {changed:<19}  {s.path}")
    return EXIT_OK


def human_size(size: int) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if size < 1024 or unit == "GB":
            return f"{size} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024  # type: ignore[assignment]
    raise AssertionError("unreachable")


def _session_options(parser: argparse.ArgumentParser, write: bool = True) -> None:
    parser.add_argument("--session", metavar="PATH", help="session file (default: $PIDECK_SESSION, "
                        "else the newest session for this directory, else a new one)")
    if write:
        parser.add_argument("--write", action="store_true",
                            help="allow appending to a pi session (pi's files are read-only otherwise)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="pideck",
        description="A live deck for a coding agent's declared state, kept in a pi session log.",
        epilog="Without a command, `pideck [PATH]` opens the TUI on PATH or on the newest session "
               "for this directory.",
    )
    parser.add_argument("--version", action="version", version=f"pideck {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("run", help="run one slash command line", description="Run one slash "
                       "command line, print each message; exit 0 when all are info, 1 otherwise.")
    _session_options(p)
    p.add_argument("line", metavar="LINE", help='e.g. "/agent-state add a Do it"')
    p.set_defaults(func=cmd_run)

    p = sub.add_parser("tool", help="call one model tool", description="Call one model tool and "
                       "print its result text (tool errors are texts, exit 0); exit 2 for an unknown "
                       "tool or malformed JSON.")
    _session_options(p)
    p.add_argument("name", metavar="NAME", help="tool name, e.g. agent_state_add_work_item")
    p.add_argument("params", metavar="JSON", nargs="?", help="parameters as JSON, or - to read stdin "
                   "(default: {})")
    p.set_defaults(func=cmd_tool)

    p = sub.add_parser("inspect", help="print the derived state", description="Print the derived "
                       "state of every primitive without the TUI.")
    _session_options(p, write=False)
    p.add_argument("--json", action="store_true", help="one JSON object instead of status texts")
    p.set_defaults(func=cmd_inspect)

    p = sub.add_parser("gate", help="run one turn-end settle of the todo gates",
                       description="Run one turn-end settle (what a harness calls when the agent "
                       "stops): print the follow-up on stdout and exit 2 when the agent should go "
                       "on; print the notice on stderr; exit 0 when there is nothing to say.")
    _session_options(p)
    p.set_defaults(func=cmd_gate)

    p = sub.add_parser("config", help="show or set the todo configuration",
                       description="Show or set the [todo] table of the config file "
                       "($PIDECK_CONFIG overrides the path).")
    config_sub = p.add_subparsers(dest="action", metavar="ACTION", required=True)
    config_sub.add_parser("show", help="print the effective configuration")
    q = config_sub.add_parser("set", help="set one key")
    q.add_argument("key", metavar="KEY")
    q.add_argument("value", metavar="VALUE")
    p.set_defaults(func=cmd_config)

    p = sub.add_parser("demo", help="open the TUI on a generated demo session",
                       description="Write a demo session (every pane populated) to a temp dir and "
                       "open it in the TUI, writable.")
    p.set_defaults(func=cmd_demo)

    p = sub.add_parser("sessions", help="list sessions for this directory",
                       description="List pi's and pideck's sessions for this directory, newest first.")
    p.set_defaults(func=cmd_sessions)
    add_install_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    if not argv or (argv[0] not in COMMANDS and not argv[0].startswith("-")):
        return cmd_tui(argv, parser)
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except (SessionError, OSError) as exc:  # e.g. a session path that is a folder, or unreachable
        print(f"pideck: {exc}", file=sys.stderr)
        return EXIT_USAGE


def cmd_tui(argv: list[str], parser: argparse.ArgumentParser) -> int:
    """``pideck [PATH] [--write]``: the TUI on PATH or on the default session (as ``--session``)."""
    tui_parser = argparse.ArgumentParser(prog="pideck", description="Open the TUI.")
    tui_parser.add_argument("path", metavar="PATH", nargs="?", help="session file (default: as --session)")
    tui_parser.add_argument("--write", action="store_true", help="allow appending to a pi session")
    args = tui_parser.parse_args(argv)
    try:
        deck = open_deck(args.path, args.write)
    except (SessionError, OSError) as exc:
        print(f"pideck: {exc}", file=sys.stderr)
        return EXIT_USAGE
    _tui_app()(deck).run()
    return EXIT_OK


def cmd_demo(args: argparse.Namespace) -> int:
    """``pideck demo``: write a session with every pane populated to a temp dir and open it."""
    import tempfile

    path = Path(tempfile.mkdtemp(prefix="pideck-demo-")) / "demo.jsonl"
    deck = importlib.import_module("tui.demo").write_demo(path)
    _tui_app()(deck).run()
    print(f"The demo session is kept at {path}")
    return EXIT_OK


def _tui_app() -> Any:
    """``tui.app.PideckApp``, imported only when the TUI runs: core never loads Textual."""
    return importlib.import_module("tui.app").PideckApp


if __name__ == "__main__":
    sys.exit(main())
