"""What one tool call or command may store (docs/session-format.md#limits).

Each entry of a primitive holds its whole state, so one huge value is written again with every
later change and read back by every later open: a 50 MB milestone made every small call after it
take seconds. pideck refuses to write beyond these limits, with nothing changed, and keeps reading
files that exceed them (someone else wrote those).
"""

from __future__ import annotations

from typing import Any

MAX_FIELD_CHARS = 65_536
"""The longest text one field may hold (an id, a content, a milestone, a packet field)."""
MAX_ENTRY_BYTES = 1 << 20
"""The largest line pideck appends: one entry, with the whole set it holds (1 MiB)."""


def field_too_long(value: Any) -> str | None:
    """The refusal for the first text in ``value`` (a tool's arguments, a command line) longer than
    ``MAX_FIELD_CHARS``, or None."""
    longest = _longest(value)
    if longest <= MAX_FIELD_CHARS:
        return None
    return (f"Refused: a text of {longest:,} characters is longer than the {MAX_FIELD_CHARS:,} pideck stores "
            "in one field. Nothing was changed.")


def entry_too_large(size: int) -> str | None:
    """The refusal for an entry of ``size`` bytes over ``MAX_ENTRY_BYTES``, or None."""
    if size <= MAX_ENTRY_BYTES:
        return None
    return (f"Refused: the entry would be {size:,} bytes, over the {MAX_ENTRY_BYTES:,} pideck writes in one "
            "entry (a set that large belongs in a file of its own). Nothing was changed.")


def _longest(value: Any, depth: int = 0) -> int:
    if isinstance(value, str):
        return len(value)
    if depth > 64:  # (deeper than any argument pideck takes: the core's own checks answer it)
        return 0
    if isinstance(value, dict):
        return max((_longest(v, depth + 1) for v in (*value.keys(), *value.values())), default=0)
    if isinstance(value, (list, tuple)):
        return max((_longest(v, depth + 1) for v in value), default=0)
    return 0
