"""Parsing and reply texts of `/todos` (docs/todo-views.md#the-todos-commands)."""

from __future__ import annotations

from core.primitives.grammar import SubCommand, arg
from core.primitives.todo.constants import COMMAND, DESCRIPTION, plural_s

EXPORT_FORMATS = ("md", "json")
POKE_ACTIONS = ("on", "off", "status", "trigger")

SUBCOMMANDS: tuple[SubCommand, ...] = tuple(SubCommand(COMMAND, sub, args, help) for sub, args, help in (
    ("", (), "Open the todos overlay"),
    ("export", (arg("[md|json]", *EXPORT_FORMATS), arg("[PATH]"), arg("[--force]", "--force")),
     "Write the todos overlay as Markdown, or the list as JSON (default todos.md; --force replaces a file)"),
    ("clear", (arg("[--yes]", "--yes"),), "Clear the todo list, plan and goals"),
    ("poke", (arg("on|off|status|trigger", *POKE_ACTIONS),), "Control the auto-poke cycle"),
))

USAGE = "Usage: /todos [export [md|json] [PATH] [--force] | clear [--yes] | poke on|off|status|trigger]"
POKE_USAGE = "Usage: /todos poke on|off|status|trigger"
CLEARED = "Todos cleared."
ALREADY_EMPTY = "Todos are already empty."
CONFIRM_CLEAR = (
    "This removes every todo, the plan and the goals from the session. "
    "Run /todos clear --yes to confirm."
)
POKE_ON_NOTHING_OPEN = (
    "Auto-poke enabled. Nothing unfinished right now; we'll poke the agent if it stops with "
    "todos left."
)
POKE_ON_BUSY = (
    "👉 Poke queued. We'll re-check for unfinished todos after this turn. /todos poke off to stop."
)
POKE_ON_IDLE = "👉 {n} incomplete todo{s}. We poked the agent. /todos poke off to stop."
POKE_OFF = "Auto-poke disabled."
POKE_STATUS = "Auto-poke: {state}. {n} incomplete todo{s}."
POKE_STATUS_BUSY = " A turn is currently running."
EXPORTED = "Exported todos to {path}."


def poke_on_idle(n: int) -> str:
    return POKE_ON_IDLE.format(n=n, s=plural_s(n))


def poke_status(armed: bool, n: int, busy: bool) -> str:
    text = POKE_STATUS.format(state="ON" if armed else "OFF", n=n, s=plural_s(n))
    return text + (POKE_STATUS_BUSY if busy else "")


def parse_export(tokens: list[str]) -> tuple[str, str | None, bool] | None:
    """``[md|json] [PATH] [--force]`` -> (format, path or None, force); None for anything else,
    such as too many words or a bare word that is neither a format nor a path (``xml``: a mistyped
    format must not become a file of that name; a path has a ``.`` or a ``/``)."""
    force = bool(tokens) and tokens[-1] == "--force"
    if force:
        tokens = tokens[:-1]
    fmt = None
    if tokens and tokens[0] in EXPORT_FORMATS:
        fmt, tokens = tokens[0], tokens[1:]
    if len(tokens) > 1:
        return None
    path = tokens[0] if tokens else None
    if path is not None and not ("." in path or "/" in path):
        return None
    if fmt is None:
        fmt = "json" if path and path.lower().endswith(".json") else "md"
    return fmt, path, force
