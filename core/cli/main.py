"""``pideck``: the command line for people, scripts and agents: its grammar and the dispatch.

Each command is a module of this folder named after it, with a ``run(args)``; it is imported only
when it runs (``_run``), so ``pideck --version`` and ``pideck gate``, which are called often, load
nothing of the others (tests/cli/test_command_imports.py lists what each command loads). Opening the
TUI is handed to the front end the launcher passes in (``main(argv, tui=...)``), so core never
imports the TUI; the TUI's own form (``pideck [PATH]``) is handled here.
"""

from __future__ import annotations

import argparse
import os
import sys
from functools import partial  # (loaded already: re needs it)
from importlib import import_module

from core import __version__
from core.cli.common import EXIT_USAGE, EXIT_WARNING, UsageError, check_text, emit
from core.session.errors import ReadOnlySession, SessionError

TYPE_CHECKING = False  # (typing's own constant, without importing typing: mypy reads it the same)
if TYPE_CHECKING:
    from typing import Any, Callable, NoReturn, Sequence

    from core.cli.common import OpenTui
    Subcommands = argparse._SubParsersAction["_Parser"]
    """Where each command's grammar is added (``GRAMMARS``)."""


# -- commands ---------------------------------------------------------------------------------------


def cmd_tui(args: argparse.Namespace, tui: OpenTui) -> int:
    """``pideck [--session PATH | PATH] [--write]``, options in any order; ``pideck --overview``."""
    if (conflict := selection_conflict(args)) is not None:
        print(f"pideck: {conflict}", file=sys.stderr)
        return EXIT_USAGE
    if args.read_only:  # (``pideck serve`` without --write starts its apps so: docs/serve.md)
        if args.write:
            print("pideck: --read-only refuses every write: not with --write", file=sys.stderr)
            return EXIT_USAGE
        from core.session.access import refuse_every_write
        from core.session.errors import SERVED_READ_ONLY

        refuse_every_write(SERVED_READ_ONLY)
    shown = {"show_all": True} if args.all else {}  # (every session pideck knows: the overview, the header's count)
    if args.host is not None:
        return on_host_overview(args, tui)
    if args.overview:
        return tui(None, **shown)
    args.session = args.session if args.path is None else args.path
    from core.catalog.opening import Waiting, describe_missing, follow_directory, in_database, is_bare_word
    from core.catalog.opening import open_deck as open_session_deck

    named = args.session
    # A person typed this path: a typo must not become a session (docs/session-format.md#what-pideck-path-opens).
    # (A conversation inside an agent's database has a name no file has: opening it says what is wrong.)
    if named is not None and not os.path.lexists(named) and not in_database(named):
        if args.path is not None and is_bare_word(named):
            return unknown_command(named)
        if not args.new:
            emit(f"pideck: {describe_missing(named)}", sys.stderr)
            return EXIT_WARNING
        return tui(lambda: open_session_deck(named, write=args.write), **shown)
    directory = named is not None and os.path.isdir(named)
    if named is not None and not directory:
        return tui(lambda: open_session_deck(named, write=args.write), **shown)
    if named is None and os.environ.get("PIDECK_SESSION"):
        return tui(lambda: open_session_deck(None, write=args.write), **shown)
    # No file named: the app follows the directory (docs/tui.md#following-the-directory). Nothing is
    # opened or created before the app knows it has a terminal; pideck's own session is made at the
    # person's first command (``--new``: whatever the directory holds).
    folder = os.path.abspath(named or os.getcwd())
    if args.new:
        return tui(lambda: Waiting(folder, follow=False), **shown)
    from core.config.settings import load_tui_config

    prefer = load_tui_config()[0].prefer_kind  # (its warnings are the app's to show)
    return tui(lambda: follow_directory(folder, prefer=prefer, write=args.write, folders=directory), **shown)


def on_host_overview(args: argparse.Namespace, tui: OpenTui) -> int:
    """``pideck --host NAME``: the overview of that ``[[hosts]]`` machine's sessions and
    conversations (every one of its directories), live; Enter opens one's deck from there."""
    if args.path is not None or args.session is not None:
        print("pideck: --host opens the overview of that host's sessions, not one session", file=sys.stderr)
        return EXIT_USAGE
    from core.config.settings import config_path, load_hosts

    names = [h.name for h in load_hosts()[0]]
    if args.host not in names:
        from core.untrusted import visible_controls

        known = f"it names {', '.join(names)}" if names else "it names none"
        emit(f"pideck: no host named {visible_controls(args.host)} in the [[hosts]] of {config_path()} ({known})",
             sys.stderr)
        return EXIT_USAGE
    return tui(None, show_all=True, host=args.host)


def selection_conflict(args: argparse.Namespace) -> str | None:
    """What is wrong with the session a command line names (PATH, --session, --overview), or None:
    the app's form and ``pideck serve`` read them alike."""
    if args.path is not None and args.session is not None:
        return "give the session once: either PATH or --session PATH"
    if args.overview and (args.path is not None or args.session is not None):
        return "--overview opens the sessions overview, not one session"
    return None


def unknown_command(word: str) -> int:
    """``pideck WORD`` where WORD is no file and reads as a command: argparse's own answer to an
    unknown command (its usage, ``invalid choice``, exit 2), never the app on a new file named WORD."""
    try:
        build_parser(help_lists=False).parse_args([word])
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else EXIT_USAGE
    return EXIT_USAGE  # (not reached: WORD is no command, or the app's form would not have been chosen)


# -- parsing ----------------------------------------------------------------------------------------


class _Parser(argparse.ArgumentParser):
    """argparse's parser, whose help formatter is given the width argparse would give it, found
    without shutil: argparse makes a formatter for every option it is given (to check its metavar),
    each of which asks shutil for the terminal's width, and importing shutil (with zlib, bz2 and
    lzma) would cost every command some 1.5 ms. The commands' parsers are of this class too
    (``add_subparsers`` makes them of the class of their parent)."""

    def __init__(self, *, formatter_class: type[argparse.HelpFormatter] = argparse.HelpFormatter, **kwargs: Any) -> None:
        super().__init__(formatter_class=partial(formatter_class, width=_help_width()), **kwargs)

    def error(self, message: str) -> NoReturn:
        """argparse's error, with the nearest choice named when a word is none of the choices
        (``pideck stauts``: did you mean ``status``?), case-folded."""
        super().error(message + did_you_mean(message))


def did_you_mean(message: str) -> str:
    """`` (did you mean 'status'?)`` for argparse's "invalid choice: 'X' (choose from ...)", else ""."""
    import re

    found = re.search(r"invalid choice: '([^']*)' \(choose from (.*)\)", message)
    if found is None:
        return ""
    typed, choices = found.group(1), re.findall(r"'([^']*)'", found.group(2)) or found.group(2).split(", ")
    nearest = nearest_word(typed, choices)
    return f" (did you mean {nearest!r}?)" if nearest else ""


def nearest_word(typed: str, words: Sequence[str]) -> str | None:
    """The word ``typed`` most likely means: the same word in another case, else the closest by
    spelling (difflib), else None."""
    import difflib

    folded = {w.casefold(): w for w in words}
    if typed.casefold() in folded:
        return folded[typed.casefold()]
    close = difflib.get_close_matches(typed.casefold(), list(folded), n=1, cutoff=0.6)
    return folded[close[0]] if close else None


def _help_width() -> int:
    """``shutil.get_terminal_size().columns - 2``, argparse's width, worked out as shutil does it:
    $COLUMNS, else the width of the terminal under stdout, else 80 columns."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):  # no stdout, or not a terminal
            columns = 0
    return (columns or 80) - 2


def _session_options(parser: argparse.ArgumentParser, write: bool = True) -> None:
    parser.add_argument("--session", metavar="PATH", help="session file (default: $PIDECK_SESSION, "
                        "else the newest session for this directory, else a new one)")
    if write:
        parser.add_argument("--write", action="store_true",
                            help="allow appending to a pi session (pi's files are read-only otherwise)")


def _commands_epilog() -> str:
    from core.deck.commands import SUBCOMMANDS

    width = max(len(c.usage) for c in SUBCOMMANDS)
    return "slash commands:\n" + "\n".join(f"  {c.usage:<{width}}  {c.help}" for c in SUBCOMMANDS)


def _tools_epilog() -> str:
    from core.deck.registry import TOOLS

    width = max(len(t.name) for t in TOOLS)
    return "tools:\n" + "\n".join(f"  {t.name:<{width}}  {t.label}" for t in TOOLS)


# Each command's grammar is built by a function of its own, so that a command line that can reach
# one command builds that one alone (``commands_reached``): building all fourteen would add some
# 2 ms to every ``pideck gate``.


def _run_grammar(sub: Subcommands, help_lists: bool) -> None:
    p = sub.add_parser("run", help="run one slash command line", formatter_class=argparse.RawDescriptionHelpFormatter,
                       description="Run one slash command line, print each message; exit 0 when all "
                       "are info, 1 otherwise (a write refused on a read-only session: exit 1, the "
                       "hint on stderr).", epilog=_commands_epilog() if help_lists else None)
    _session_options(p)
    p.add_argument("line", metavar="LINE", help='e.g. "/agent-state add a Do it"')
    p.set_defaults(command="run")


class _ToolHelp(argparse.Action):
    """``-h`` after a tool's name: that tool's description and parameters (``pideck tool todo
    --help``); before one, the command's help with the list of tools. (argparse has taken the
    positional words before the option by the time it meets it.)"""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help="show this help, or "
                         "with NAME the tool's parameters, and exit")

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        name = getattr(namespace, "name", None)
        if not name:
            parser.print_help()
            parser.exit()
        from core.deck.registry import TOOLS, tool
        from core.deck.tool_schema import describe

        found = tool(name)
        if found is None:
            nearest = nearest_word(name, [t.name for t in TOOLS])
            parser.exit(EXIT_USAGE, f"pideck tool: unknown tool {name!r}" + (f" (did you mean {nearest!r}?)"
                                                                              if nearest else "") + "\n")
        print(describe(found))
        parser.exit()


def _tool_grammar(sub: Subcommands, help_lists: bool) -> None:
    p = sub.add_parser("tool", help="call one model tool", formatter_class=argparse.RawDescriptionHelpFormatter,
                       description="Call one model tool and print its result text (the tool's own "
                       "error texts too, exit 0; what the parameters lack, by the tool's schema, on "
                       "stderr); exit 1 when the session refused the write (the hint on stderr); exit 2 "
                       "for an unknown tool or malformed JSON. `pideck tool NAME --help` lists the "
                       "tool's parameters.",
                       epilog=_tools_epilog() if help_lists else None, add_help=False)
    p.add_argument("-h", "--help", action=_ToolHelp)
    _session_options(p)
    p.add_argument("name", metavar="NAME", help="tool name, e.g. agent_state_add_work_item")
    p.add_argument("params", metavar="JSON", nargs="?", help="parameters as JSON, or - to read stdin "
                   "(default: {})")
    p.set_defaults(command="tool")


def _inspect_grammar(sub: Subcommands, help_lists: bool) -> None:
    p = sub.add_parser("inspect", help="print the derived state", description="Print the derived "
                       "state of every primitive without the TUI.")
    _session_options(p, write=False)
    p.add_argument("--json", action="store_true", help="one JSON object instead of status texts")
    p.add_argument("--at", metavar="ENTRY", help="the state as of this entry id (or leaf), read-only; "
                   "with --json an asOf object says where it sits")
    p.set_defaults(command="inspect")


def _diff_grammar(sub: Subcommands, help_lists: bool) -> None:
    p = sub.add_parser("diff", help="what changed between two entries",
                       description="Print what was added, removed and changed in work items, decisions, "
                       "the objective, milestones, packets and todos between two entries of a session "
                       "(any branches). An entry is an entry id or leaf (the file's last entry).")
    _session_options(p, write=False)
    p.add_argument("--json", action="store_true", help="one JSON object: from, to and the changes")
    p.add_argument("start", metavar="FROM", help="entry id, or leaf")
    p.add_argument("end", metavar="TO", help="entry id, or leaf")
    p.set_defaults(command="diff")


def _gate_grammar(sub: Subcommands, help_lists: bool) -> None:
    p = sub.add_parser("gate", help="run one turn-end settle of the todo gates",
                       description="Run one turn-end settle (what a harness calls when the agent "
                       "stops): print the follow-up on stdout and on stderr and exit 2 when the "
                       "agent should go on; print the notice on stderr; exit 0 when there is "
                       "nothing to say.")
    _session_options(p)
    p.set_defaults(command="gate")


def _mcp_grammar(sub: Subcommands, help_lists: bool) -> None:
    p = sub.add_parser("mcp", help="serve the twelve tools to an agent over MCP (stdio)",
                       description="Serve the twelve model tools over the Model Context Protocol on "
                       "stdin/stdout until stdin closes. With --session or $PIDECK_SESSION every call "
                       "goes there; else each call goes to the pideck session of the agent conversation "
                       "that runs the server, else to the newest pideck session of this directory that "
                       "belongs to no conversation (never pi's), else a new one (docs/mcp-and-hooks.md).")
    _session_options(p)
    p.set_defaults(command="mcp")


def _hook_grammar(sub: Subcommands, help_lists: bool) -> None:
    p = sub.add_parser("hook", help="answer an agent's Stop hook (claude, codex, qwen or copilot)",
                       description="Read a Stop hook's JSON on stdin and run one turn-end settle of "
                       "the todo gates on the session for its cwd (--session, else $PIDECK_SESSION, "
                       "else the newest pideck session there). Print {\"decision\":\"block\",...} "
                       "when the agent should go on, a systemMessage for a notice, nothing otherwise; "
                       "exit 0. Input it cannot read: one line on stderr, exit 1.")
    p.add_argument("agent", metavar="AGENT", help="claude, codex, qwen or copilot")
    _session_options(p)
    p.set_defaults(command="hook")


def _config_grammar(sub: Subcommands, help_lists: bool) -> None:
    p = sub.add_parser("config", help="show or set the todo configuration",
                       description="Show or set the [todo] table of the config file "
                       "($PIDECK_CONFIG overrides the path).")
    config_sub = p.add_subparsers(dest="action", metavar="ACTION", required=True)
    config_sub.add_parser("show", help="print the effective configuration")
    q = config_sub.add_parser("set", help="set one key")
    q.add_argument("key", metavar="KEY")
    q.add_argument("value", metavar="VALUE")
    p.set_defaults(command="config")


def _demo_grammar(sub: Subcommands, help_lists: bool) -> None:
    p = sub.add_parser("demo", help="open the TUI on a generated demo session",
                       description="Write a demo session (every pane populated) to a temp dir and "
                       "open it in the TUI, writable; the message log says its path, so another "
                       "shell can drive it (pideck tool --session PATH ...). The temp dir is removed "
                       "when the app ends.")
    p.add_argument("--keep", action="store_true", help="keep the demo session when the app ends, and print its path")
    p.set_defaults(command="demo", needs_tui=True)


def _overview_grammar(sub: Subcommands, help_lists: bool) -> None:
    p = sub.add_parser("overview", help="one row per session: todos, work items, milestones, packets, activity",
                       description="One row per session of this directory (pi's and pideck's, and the "
                       "conversations of Claude Code, Codex and Gemini CLI), the most "
                       "recently active first: kind, name, todos settled/total with the lowest confidence, "
                       "work items open/in progress/blocked/done, declared milestones, packets, last "
                       "activity and a flag when the agent stopped with todos open (poked: a gate "
                       "follow-up is unanswered; waiting: the agent ended its turn; gave up: the gates "
                       "stopped poking; ended: an agent's process is gone). An agent's conversation "
                       "shows its own plan as the todos and its status (working, waiting, ended). "
                       "The TUI shows the same rows live: `pideck --overview`.")
    p.add_argument("--all", action="store_true",
                   help="every session pideck knows, in pi's and pideck's folders, and every agent conversation")
    p.add_argument("--json", action="store_true", help="a JSON array of the rows, for scripts")
    p.set_defaults(command="overview")


def _status_grammar(sub: Subcommands, help_lists: bool) -> None:
    p = sub.add_parser("status", help="one line: how many sessions and conversations need you, work, wait",
                       description="One short line for a shell prompt or a status bar: how many of this "
                       "directory's sessions and agent conversations are in each state, who needs you "
                       "first: needs you (the agent asked, through its Notification or PermissionRequest "
                       "hook), stopped with open work, working, waiting, ended (docs/attention.md).")
    p.add_argument("--all", action="store_true", help="every session and conversation pideck knows, on this "
                   "machine and on the hosts of [[hosts]] (docs/hosts.md)")
    p.add_argument("--local", action="store_true", help="with --all: this machine only, not the hosts")
    p.add_argument("--json", action="store_true", help="the line and the counts per state, per host (docs/hosts.md)")
    p.set_defaults(command="status")


def _watch_grammar(sub: Subcommands, help_lists: bool) -> None:
    p = sub.add_parser("watch", help="one line per change of state, until interrupted",
                       description="Follow who needs you: one line per session and conversation of this "
                       "directory at the start, then one per change of state (needs you, stopped with "
                       "open work, working, waiting, ended), with how long it has been in it and the "
                       "evidence, until interrupted (docs/attention.md).")
    p.add_argument("--all", action="store_true", help="every session and conversation pideck knows")
    p.add_argument("--json", action="store_true", help="JSON lines: path, kind, name, conversation, state, since, "
                   "evidence, previous, todos")
    p.add_argument("--interval", type=float, default=0.5, help=argparse.SUPPRESS)
    p.add_argument("--feed", action="store_true",
                   help="the JSON lines another machine's pideck follows this one by (with --all; docs/hosts.md)")
    p.set_defaults(command="watch")


def _sessions_grammar(sub: Subcommands, help_lists: bool) -> None:
    p = sub.add_parser("sessions", help="list sessions for this directory",
                       description="List pi's and pideck's sessions and the conversations of Claude Code, "
                       "Codex and Gemini CLI for this directory, newest first.")
    p.add_argument("--all", action="store_true", help="of every directory")
    p.set_defaults(command="sessions")


def _usage_grammar(sub: Subcommands, help_lists: bool) -> None:
    p = sub.add_parser("usage", help="tokens and cost of the answers, by day, agent, conversation or plan item",
                       description="What the answers of this directory's sessions and agent conversations "
                       "(the ones `pideck sessions` lists) used and cost: answers, input, output and cache "
                       "tokens, and the cost (the log's own, else from the price table; a model without a "
                       "price counts its tokens and is named, never $0), by local day with a bar per day, "
                       "by agent, by conversation, or one conversation by plan item (docs/usage-report.md).")
    p.add_argument("--by", choices=("day", "agent", "conversation", "item"), default="day",
                   help="how to add the answers up (default: day); item: one conversation's plan items, "
                   "with --session")
    p.add_argument("--session", metavar="PATH", help="only this session or conversation (a file, as "
                   "`pideck PATH` opens it)")
    p.add_argument("--since", metavar="YYYY-MM-DD", help="only answers of this local date or later")
    p.add_argument("--until", metavar="YYYY-MM-DD", help="only answers of this local date or earlier")
    p.add_argument("--all", action="store_true", help="of every directory")
    p.add_argument("--json", action="store_true", help="one JSON object, for scripts")
    p.set_defaults(command="usage")


def _cache_grammar(sub: Subcommands, help_lists: bool) -> None:
    p = sub.add_parser("cache", help="how much pideck keeps to read faster; sweep or clear it",
                       description="What pideck keeps in its home only to read faster (conversations' "
                       "mirrors, sessions' saved indexes, status lines and saved rows), how much, and "
                       "how much of it belongs to files that are gone (docs/caches.md).")
    action = p.add_mutually_exclusive_group()
    action.add_argument("--sweep", action="store_true", help="remove what belongs to files that are gone, "
                        "and the oldest beyond the limit")
    action.add_argument("--clear", action="store_true", help="remove all of it (the next reads make it again)")
    p.add_argument("--json", action="store_true", help="the figures as JSON, for scripts")
    p.set_defaults(command="cache")


def _install_grammar(sub: Subcommands, help_lists: bool) -> None:
    from core.agents import NAMES as AGENT_NAMES

    p = sub.add_parser(
        "install", help="set an agent up to use pideck's MCP server and Stop hook",
        description="Merge pideck's MCP server (and, for Claude Code and Codex, its Stop hook) into "
                    "the config files the agent reads; other servers, hooks and keys are kept. A "
                    "changed file is backed up beside itself; a second run changes nothing.")
    p.add_argument("agent", metavar="AGENT", choices=sorted(AGENT_NAMES),
                   help="claude, codex, gemini or cursor")
    p.add_argument("--scope", choices=("project", "user"),
                   help="this project's files or your user files (default: project; codex: user)")
    p.add_argument("--dry-run", action="store_true", help="print the changes as a diff, write nothing")
    p.set_defaults(command="install")


def _tail_grammar(sub: Subcommands, help_lists: bool) -> None:
    p = sub.add_parser("tail", help="write a file's bytes from an offset, then follow it (a remote deck's mirror)",
                       description="Write the bytes of PATH from offset N on stdout, then whatever is appended "
                       "to it, until the reader goes away; it never writes, creates or locks anything. Once "
                       "the bytes there were are written, stderr says `pideck tail: following at OFFSET`. "
                       "Exit 1: PATH is missing or not a regular file; exit 3: it was replaced, removed or "
                       "truncated (said on stderr). pideck runs it on another machine over ssh to keep a "
                       "local copy of a session there (docs/hosts.md).")
    p.add_argument("path", metavar="PATH", help="the file to follow")
    p.add_argument("--from", dest="start", metavar="N", type=int, default=0, help="the offset to start at (default: 0)")
    p.set_defaults(command="tail")


# -- --host NAME: a command run by the pideck of another machine (core/cli/on_host.py) ----------------

ON_HOST = ("overview", "status", "watch", "sessions", "inspect")
"""The commands that take ``--host NAME``."""


def _host_options(sub: Subcommands) -> None:
    """``--host NAME`` (and its ``--host-timeout``) on each command of ``ON_HOST`` built here."""
    for name in ON_HOST:
        if (p := sub.choices.get(name)) is not None:
            p.add_argument("--host", metavar="NAME", help="run it on that host of [[hosts]] over ssh; paths "
                           "are the host's (docs/on-host.md)")
            p.add_argument("--host-timeout", type=float, metavar="S", help="with --host: stop a host that gave no "
                           "answer in S seconds (default: 30; not for watch)")


def _runs_on_host(args: argparse.Namespace) -> bool:
    """A command of ``ON_HOST`` given ``--host`` (the TUI's own ``--host`` is the app's)."""
    return getattr(args, "command", None) in ON_HOST and getattr(args, "host", None) is not None


def _on_host(args: argparse.Namespace, argv: Sequence[str]) -> int:
    from core.cli.on_host import run_on_host

    return run_on_host(args, argv)


def _serve_grammar(sub: Subcommands, help_lists: bool) -> None:
    p = sub.add_parser("serve", help="the deck in a browser (textual-serve), read-only unless --write",
                       description="Serve the app to a web browser with textual-serve, one app per page "
                       "opened, on the session pideck would open (PATH, --session, --overview, as for "
                       "`pideck`). Read-only unless --write: every write typed in the page is refused. "
                       "Listens on this machine only unless --bind names another address and --expose "
                       "says so; the address it prints carries a secret token every page needs "
                       "(docs/serve.md).")
    p.add_argument("path", metavar="PATH", nargs="?", help="session file, or a directory: its newest session")
    p.add_argument("--session", metavar="PATH", help="session file (default: as `pideck` chooses)")
    p.add_argument("--overview", action="store_true", help="open on the sessions overview")
    p.add_argument("--all", action="store_true", help="the overview covers every session pideck knows")
    p.add_argument("--bind", metavar="ADDR", help="the address to listen on (default: "
                   "127.0.0.1); one other machines can reach needs --expose")
    p.add_argument("--port", metavar="N", help="the port to listen on (default: 8420)")
    p.add_argument("--write", action="store_true", help="let the page write, as `pideck` in a terminal does")
    p.add_argument("--expose", action="store_true", help="serve on a --bind address other machines can reach: "
                   "anyone who reaches it and has the token sees the sessions (and with --write can write)")
    p.add_argument("--allow-host", metavar="NAME", action="append", help="a host name the page may be "
                   "reached by (repeatable; default: only IP addresses and localhost, so another site's "
                   "name pointed at this server is refused)")
    p.set_defaults(command="serve")


GRAMMARS: dict[str, Callable[[Subcommands, bool], None]] = {
    "run": _run_grammar,
    "tool": _tool_grammar,
    "inspect": _inspect_grammar,
    "diff": _diff_grammar,
    "gate": _gate_grammar,
    "mcp": _mcp_grammar,
    "hook": _hook_grammar,
    "config": _config_grammar,
    "demo": _demo_grammar,
    "overview": _overview_grammar,
    "status": _status_grammar,
    "watch": _watch_grammar,
    "sessions": _sessions_grammar,
    "usage": _usage_grammar,
    "cache": _cache_grammar,
    "install": _install_grammar,
    "tail": _tail_grammar,
    "serve": _serve_grammar,
}
"""Each command's grammar, in the order the help lists them."""
COMMANDS = tuple(GRAMMARS)


def build_parser(*, help_lists: bool = True, commands: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The command-line grammar. ``help_lists`` adds the registry's commands and tools to the help
    of ``run`` and ``tool`` (it loads their declarations, which ``--version`` does not need).
    ``commands``: build the grammar of these commands alone (None: of all of them), for an argv
    that can reach no other (``commands_reached``); each is built the same either way."""
    parser = _Parser(
        prog="pideck",
        usage="pideck [--session PATH | PATH] [--new] [--write]\n       pideck --overview\n       pideck COMMAND [options]",
        description="A live deck for a coding agent's declared state, kept in a pi session log. "
                    "Without a command, pideck opens the TUI on PATH (a directory: its newest session; "
                    "a PATH that does not exist only with --new) or on the newest session for "
                    "this directory.",
    )
    parser.add_argument("--version", action="version", version=f"pideck {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", prog="pideck")
    for name in GRAMMARS if commands is None else commands:
        GRAMMARS[name](sub, help_lists)
    _host_options(sub)
    return parser


def build_tui_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="pideck", usage="pideck [--session PATH | PATH] [--new] [--write] | pideck --overview",
                     description="Open the TUI.")
    parser.add_argument("path", metavar="PATH", nargs="?", help="session file, or a directory: its newest "
                        "session (default: as --session)")
    _session_options(parser)
    parser.add_argument("--new", action="store_true", help="create PATH when it does not exist (without PATH: "
                        "a new session for this directory)")
    parser.add_argument("--overview", action="store_true",
                        help="open on the sessions overview of this directory (every session, live)")
    parser.add_argument("--all", action="store_true",
                        help="the overview and the header's count of who needs you cover every session pideck "
                        "knows, not only this directory's")
    parser.add_argument("--host", metavar="NAME", help="open on the overview of the sessions of that machine "
                        "of the config's [[hosts]] (docs/hosts.md)")


    parser.add_argument("--read-only", action="store_true", help=argparse.SUPPRESS)  # (pideck serve's: docs/serve.md)
    parser.set_defaults(func=cmd_tui, needs_tui=True)
    return parser


def opens_tui(argv: Sequence[str]) -> bool:
    """Whether ``argv`` is the TUI form: no command word among its positionals. ``--session``
    takes a value; the first other word decides."""
    words = iter(argv)
    for word in words:
        if word in ("-h", "--help", "--version"):
            return False
        if word in ("--session", "--host"):
            next(words, None)
        elif word == "--":
            return True
        elif not word.startswith("-"):
            return word not in COMMANDS
    return True


def innermost(parser: argparse.ArgumentParser, args: argparse.Namespace) -> argparse.ArgumentParser:
    """The parser of the (sub-)command ``args`` were parsed for: ``pideck config set`` for
    ``config set``, ``parser`` itself when no command was given."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            chosen = getattr(args, action.dest, None)
            if isinstance(chosen, str) and chosen in action.choices:
                return innermost(action.choices[chosen], args)
    return parser


def commands_reached(argv: Sequence[str]) -> tuple[str, ...] | None:
    """The commands whose grammar parsing ``argv`` can reach (None: any of them). argparse reads
    the words in order: a first word that is a command hands every later word to that command's
    parser, and a first ``--version`` prints the version before any later word is read."""
    first = argv[0] if argv else None
    if first in COMMANDS:
        return (first,)
    return () if first == "--version" else None


def main(argv: Sequence[str] | None = None, *, tui: OpenTui | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    wants_tui = opens_tui(argv)
    help_lists = any(word in ("-h", "--help") for word in argv)  # (only help shows them)
    try:
        parser = build_tui_parser() if wants_tui else build_parser(help_lists=help_lists, commands=commands_reached(argv))
        args, extra = parser.parse_known_args(argv)
        if extra:  # (said by the parser of the command given, with its usage, not pideck's)
            innermost(parser, args).error(f"unrecognized arguments: {' '.join(extra)}")
    except SystemExit as exc:
        # An agent reads a hook's exit 2 as "block, the reason is on stderr": a mistyped hook
        # command must not send the agent back to work with a usage text.
        if exc.code == EXIT_USAGE and argv[:1] == ["hook"]:
            return EXIT_WARNING
        raise
    if getattr(args, "func", None) is None and getattr(args, "command", None) is None:  # (`pideck --write` alone is the TUI form; this is not)
        build_parser().print_usage(sys.stderr)
        return EXIT_USAGE
    _never_fail_to_encode()
    try:
        status = _on_host(args, argv) if _runs_on_host(args) else _run(args, tui)
        sys.stdout.flush()  # a closed pipe shows here, not after main returned
        return status
    except BrokenPipeError:  # the reader stopped early (`pideck inspect | head`): end quietly
        _drop_stdout()
        return EXIT_WARNING
    except UsageError as exc:
        emit(f"pideck: {exc}", sys.stderr)
        return EXIT_USAGE
    except ReadOnlySession as exc:  # a create refused (the system's cause or pideck's rule named, nothing
        emit(f"pideck: {exc}", sys.stderr)  # changed): exit 1, as a write refused inside a command is
        return EXIT_WARNING
    except (SessionError, OSError) as exc:  # no session yet, a session path that is a folder, unreachable:
        emit(f"pideck: {exc}", sys.stderr)  # what the files hold, not how the command was typed (exit 2)
        return EXIT_WARNING


def _run(args: argparse.Namespace, tui: OpenTui | None) -> int:
    for name in ("line", "name", "key", "value"):  # text handed on as it is (paths may be any bytes)
        if isinstance(value := getattr(args, name, None), str):
            check_text(value, name.upper())
    # Each command's module is imported now, when it runs: the one place where the command line's
    # start-up laziness lives (tests/cli/test_command_imports.py lists what each command loads).
    command = import_module(f"core.cli.{args.command}").run if getattr(args, "command", None) else args.func
    if getattr(args, "needs_tui", False):
        if tui is None:
            print("pideck: the TUI is not available from this entry point; run `pideck`", file=sys.stderr)
            return EXIT_USAGE
        return int(command(args, tui))
    return int(command(args))


def _never_fail_to_encode() -> None:
    """Whatever reaches stdout is written: a path whose bytes are not UTF-8 (Python holds them as
    lone surrogates) prints as ``\\udcff``, as stderr already does, instead of failing the command.
    Text from the log goes through ``emit`` first, which escapes the same way."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.reconfigure(errors="backslashreplace")  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):  # not a TextIOWrapper (an in-process caller's stream)
            pass


def _drop_stdout() -> None:
    """Point stdout at /dev/null, so the interpreter's last flush does not fail on the closed pipe."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # no file descriptor (an in-process caller's stream)
        pass


if __name__ == "__main__":
    sys.exit(main())
