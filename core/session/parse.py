"""Parsing one line of a session file: the header, entries, and what is skipped with a warning.

pi reads each line with ``JSON.parse``; a line pi cannot parse is skipped. pideck does the same,
with one speed-up for big files: a large ``message`` line written in pi's own key order is indexed
from its head (type, id, parentId, role, toolName) without decoding its body, which is what makes
opening a 200 MB session cheap. Such a record is marked unverified; its body is JSON-checked when it
is read, and the last entry of the file (the leaf) is always checked in full.
"""

from __future__ import annotations

import json
import re
from typing import Any

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
    """``JSON.parse`` of one line: strict UTF-8, no NaN/Infinity. Raises ValueError."""
    return json.loads(raw.decode("utf-8"), parse_constant=_reject_constant)


class FastHead:
    """What the head of a large message line says (body not decoded)."""

    __slots__ = ("id", "parent_id", "role", "tool_name")

    def __init__(self, id: str, parent_id: str | None, role: str, tool_name: str | None) -> None:
        self.id, self.parent_id, self.role, self.tool_name = id, parent_id, role, tool_name


def parse_line(buf: bytes, start: int, end: int, fast_min: int | None = FAST_MIN) -> Any:
    """Parse ``buf[start:end]`` (one line without its ``\\n``).

    Returns None for a blank line, a ``FastHead`` for a large message line in pi's key order, a
    decoded JSON value otherwise; raises ValueError (with a short reason) for a line pi would skip.
    """
    if fast_min is not None and end - start >= fast_min:
        m = _FAST_HEAD.match(buf, start, end)
        # A complete message line in pi's order ends by closing the message and the entry.
        if m and buf[end - 3:end].rstrip(b"\r").endswith(b"}}"):
            line = buf[start:end]
            if line.isascii() or _is_utf8(line):
                id_, parent, role, tool = (g.decode("utf-8") if g is not None else None for g in m.groups())
                if role != "toolResult" or tool is not None:
                    return FastHead(id_, parent, role, tool)
    raw = buf[start:end]
    if not raw.strip(_BLANK):
        return None
    try:
        return loads_line(raw)
    except UnicodeDecodeError:
        raise ValueError("invalid UTF-8") from None
    except ValueError as exc:
        raise ValueError(f"invalid JSON ({exc})") from None


def _is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


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
