"""What an adapter needs from its host and gives back: a place to append entries, notices, tool
definitions and tool results.

The upstream pi adapters talk to pi's ExtensionAPI; pideck's adapters talk to this small surface
instead (``AppendCustom``), so the same adapter runs on a session file and on the in-memory log the
tests use.

The values are NamedTuples, not frozen dataclasses: every command loads this module, and a frozen
dataclass costs its import the compiling of six generated methods (a NamedTuple's class is made in
a tenth of the time). ``tests/cli/test_command_imports.py`` keeps ``pideck gate``'s imports in view.
"""

# (No ``from __future__ import annotations`` here: typing would compile the string annotations of
# the NamedTuples below, and the first compile() of a process costs every command ~1 ms; see
# core/slotted.py.)

from typing import TYPE_CHECKING, Any, Callable, Iterable, Literal, Mapping, NamedTuple

if TYPE_CHECKING:
    from core.shapes import Schema
else:  # (a NamedTuple's annotations are evaluated: a plain dict at run time, and core.shapes unloaded)
    Schema = dict

Level = Literal["info", "warning", "refused"]


class Notice(NamedTuple):
    """One notification (pi's ``ctx.ui.notify(message, level)``). Adapters notify ``info`` or
    ``warning`` as upstream does; ``refused`` is pideck's own: the log refused a write (a read-only
    session), which front ends report as a failure of their own."""

    message: str
    level: Level = "info"


class ToolDef(NamedTuple):
    """A model tool as registered with pi: name, label, description and JSON parameter schema."""

    name: str
    label: str
    description: str
    parameters: Schema


class ToolResult(NamedTuple):
    """A tool call's outcome: the text the model reads (byte-exact with upstream, where errors are
    ordinary texts) and whether nothing changed because the call was turned down.

    ``rejected``: invalid input, a duplicate, an unknown id, the todo ownership gate, or a write
    the log refused. ``refused``: that last case alone (a read-only session), which front ends
    report as their own failure rather than as the tool's answer.
    """

    text: str
    rejected: bool = False
    refused: bool = False


AppendCustom = Callable[[str, Any], object]
"""``append_custom(custom_type, data)``: persist one ``custom`` entry (pi's ``appendEntry``)."""


def latest_custom(entries: Iterable[Mapping[str, Any]], custom_type: str) -> Mapping[str, Any] | None:
    """The last ``custom`` entry of ``custom_type`` on a branch (the one an adapter restores from),
    or None."""
    found = None
    for entry in entries:
        if entry.get("type") == "custom" and entry.get("customType") == custom_type:
            found = entry
    return found
