"""How a slash command is declared: its sub-commands, their arguments and where Tab finds words.

Each adapter declares its sub-commands once (``SUBCOMMANDS`` in its commands module); the command
line's completion, the palette, the help screen and ``pideck run --help`` all read those
declarations through ``core.deck.registry``, so adding a sub-command touches one place.
"""

# (No ``from __future__ import annotations``: typing would compile the string annotations of the
# NamedTuples below, and inspect, run, tool and the hooks compile nothing: core/slotted.py.)

from enum import Enum
from typing import NamedTuple


class Words(str, Enum):
    """A list of existing ids that completes an argument, read from the derived state."""

    WORK_ITEMS = "work items"
    MILESTONES = "declared milestones"
    PACKETS = "packets"


class Arg(NamedTuple):  # (NamedTuples, as in core/primitives/host.py: made quickly at start-up)
    """One argument as the usage line shows it (``<id>``, ``open|done``, ``[PATH]``)."""

    usage: str
    choices: tuple[str, ...] = ()  # fixed words Tab offers
    words: Words | None = None  # ids of the current state Tab offers


class SubCommand(NamedTuple):
    """``/<namespace> <sub> <args...>``; ``sub`` is empty for the bare command."""

    namespace: str
    sub: str
    args: tuple[Arg, ...]
    help: str

    @property
    def text(self) -> str:
        return f"/{self.namespace} {self.sub}".rstrip()

    @property
    def usage(self) -> str:
        return " ".join([self.text, *(a.usage for a in self.args)])

    @property
    def fill(self) -> str:
        """What choosing it puts on the command line (a space when arguments follow)."""
        return self.text + (" " if self.args else "")


def arg(usage: str, *choices: str, words: Words | None = None) -> Arg:
    return Arg(usage, tuple(choices), words)


CONFIRM = arg("--yes", "--yes")
