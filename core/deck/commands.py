"""Every slash command pideck offers, read from the primitives' own declarations, and how a command
line splits into the texts it stores. Light enough for every command that runs one (``Deck.apply``
checks the length of each text); the tools' schemas are ``registry.py``'s.
"""

from __future__ import annotations

from core.primitives.grammar import SubCommand
from core.primitives.handoff import commands as handoff_commands
from core.primitives.progress import commands as progress_commands
from core.primitives.state import commands as state_commands
from core.primitives.todo import commands as todo_commands

SUBCOMMANDS: tuple[SubCommand, ...] = (
    *state_commands.SUBCOMMANDS,
    *progress_commands.SUBCOMMANDS,
    *handoff_commands.SUBCOMMANDS,
    *todo_commands.SUBCOMMANDS,
)
"""Every sub-command, in the order help and the palette list them."""

NAMESPACES: tuple[str, ...] = tuple(dict.fromkeys(c.namespace for c in SUBCOMMANDS))


def subcommands(namespace: str) -> list[SubCommand]:
    return [c for c in SUBCOMMANDS if c.namespace == namespace]


def find(namespace: str, sub: str) -> SubCommand | None:
    for command in SUBCOMMANDS:
        if command.namespace == namespace and command.sub == sub:
            return command
    return None


def command_fields(line: str) -> list[str]:
    """The texts a command line may store, each as one field: its words, except that the last
    argument of a command, when it is free text (no choices, no ids), may take the rest of the line
    (``/agent-state add parse Write the parser`` holds ``parse`` and ``Write the parser``). The
    length limit is checked on these, so a refusal counts the text that is too long, not the line."""
    words = line.strip().split(" ")
    command = find(words[0][1:], words[1]) if len(words) > 1 and words[0].startswith("/") else None
    if command is None or not command.args or command.args[-1].choices or command.args[-1].words is not None:
        return words
    return line.strip().split(" ", 1 + len(command.args))


READING_SUBS = frozenset({"", "status", "show", "export"})
"""Sub-commands that never append to the log (``/todos`` and its export write a file at most)."""


def appends(command: SubCommand) -> bool:
    """The command may append an entry, so a read-only session refuses it."""
    return command.sub not in READING_SUBS
