"""Parsing one line of a session file: the header, entries, and what is skipped with a warning.

pi reads each line with ``JSON.parse``; a line pi cannot parse is skipped. pideck does the same,
with one speed-up for big files: a large ``message`` line written in pi's own key order is indexed
from its head (type, id, parentId, role, toolName) without decoding its body, which is what makes
opening a 200 MB session cheap. Such a record is marked unverified; its body is checked when it is
read, and the last entry of the file (the leaf) is always checked in full. The price: a torn large
message line that happens to end in ``}}`` and is not the last entry is indexed as an entry (pi
would skip it); it stays off the branch unless another entry names its id as parent.
"""

from __future__ import annotations

import json
import re
from typing import Any

ENTRY_TYPES = frozenset({
    "message", "model_change", "thinking_level_change", "usage", "compaction", "context_edit",
    "branch_summary", "custom", "custom_message", "label", "session_info",
})
"""Every entry type pi writes (pi-session.md §8); others are kept as tree nodes of unknown type."""

FAST_MIN = 1024
"""Lines at least this long may be indexed from their head (see module docstring)."""

# pi's key order for message entries: type, id, parentId, timestamp, message{role, ...};
# a toolResult message continues with toolCallId, toolName. Only escape-free strings are matched,
# so every captured value is exactly what JSON.parse would return.
_FAST_HEAD = re.compile(
    rb'\{"type":"message","id":"([^"\\]*)","parentId":(?:"([^"\\]*)"|null),'
    rb'"timestamp":"[^"\\]*","message":\{"role":"([^"\\]*)"'
    rb'(?:,"toolCallId":"[^"\\]*","toolName":"([^"\\]*)")?'
)

_BLANK = b" \t\r\n\x0b\x0c"


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")  # JSON.parse rejects NaN / Infinity


def loads_line(raw: bytes) -> Any:
    """``JSON.parse`` of one line as pi reads it: the file is read as text
    (``readFileSync(path, "utf8")``), so bytes that are not UTF-8 become U+FFFD; no NaN/Infinity.
    Raises ValueError."""
    return json.loads(raw.decode("utf-8", "replace"), parse_constant=_reject_constant)


FAST_TAILS = (b"}}", b"}}\r")
"""A complete message line in pi's order ends by closing the message and the entry."""


def fast_head(buf: bytes, start: int, end: int) -> tuple[str, str | None, str, str | None] | None:
    """``(id, parentId, role, toolName)`` read from the head of a large message line written in pi's
    key order, or None when the line must be parsed in full. The body is not looked at: its JSON is
    checked when it is read (decoding 200 MB costs more than the whole index)."""
    m = _FAST_HEAD.match(buf, start, end)
    if m is None or not buf.endswith(FAST_TAILS, start, end):
        return None
    id_, parent, role, tool = m.groups()
    try:
        return (id_.decode("utf-8"), parent.decode("utf-8") if parent is not None else None,
                role.decode("utf-8"), tool.decode("utf-8") if tool is not None else None)
    except UnicodeDecodeError:
        return None


def parse_line(buf: bytes, start: int, end: int) -> Any:
    """``JSON.parse`` of ``buf[start:end]`` (one line without its ``\\n``); None for a blank line.
    Raises ValueError with a short reason for a line pi would skip."""
    raw = buf[start:end]
    if not raw.strip(_BLANK):
        return None
    try:
        return loads_line(raw)
    except ValueError as exc:
        raise ValueError(f"invalid JSON ({exc})") from None


def is_header(value: Any) -> bool:
    """pi's test for a session header: an object with ``type == "session"`` and a string ``id``."""
    return isinstance(value, dict) and value.get("type") == "session" and isinstance(value.get("id"), str)


def header_version(header: dict[str, Any]) -> int:
    """The header's format version; a header without a number is a version-1 file."""
    version = header.get("version")
    return version if isinstance(version, int) and not isinstance(version, bool) else 1


def upgrade_legacy_message(entry: dict[str, Any]) -> dict[str, Any]:
    """Read a version < 3 entry as version 3 does: the message role ``hookMessage`` is ``custom``."""
    message = entry.get("message")
    if entry.get("type") == "message" and isinstance(message, dict) and message.get("role") == "hookMessage":
        entry = dict(entry, message=dict(message, role="custom"))
    return entry
