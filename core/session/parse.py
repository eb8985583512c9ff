"""Parsing one line of a session file: the header, entries, and what is skipped with a warning.

pi reads each line with ``JSON.parse`` and skips a line it cannot parse; pideck does the same. The
index reads most lines through ``scan.py`` (the identity fields only); this module is the full
parse used for the header, for bodies read back from the file and for every line the scanner
refuses.

One limit pi does not have: a line nested more than ``MAX_DEPTH`` levels deep is skipped with a
warning. Python's parsers and everything that walks a decoded value recurse once per level, so a
line like ``[[[[...]]]]`` five thousand levels deep would otherwise end in a RecursionError (and
no real session nests anywhere near this deep).
"""

from __future__ import annotations

import json
import os
from typing import TYPE_CHECKING, Any, TypeGuard

if TYPE_CHECKING:  # (the type checker's alone: a TypedDict compiles its annotations as it is made)
    from core.session.entry import Entry, Header

ENTRY_TYPES = frozenset({
    "message", "model_change", "thinking_level_change", "usage", "compaction", "context_edit",
    "branch_summary", "custom", "custom_message", "label", "session_info",
})
"""Every entry type pi writes; others are kept as tree nodes of unknown type."""

MAX_DEPTH = 256
"""Deepest nesting of arrays and objects a line may have (see the module docstring)."""

_BLANK = b" \t\r\n\x0b\x0c"
_BRACKETS = bytes.maketrans(b"{}", b"[]")
_NOT_STRUCTURE = bytes(set(range(256)) - set(b'"[{]}'))  # kept: quotes and brackets


class TooDeep(ValueError):
    """A line nested more than ``MAX_DEPTH`` levels deep."""

    def __init__(self) -> None:
        super().__init__(f"nested more than {MAX_DEPTH} levels deep")


def too_deep(raw: bytes | bytearray | memoryview) -> bool:
    """True when ``raw`` nests arrays and objects more than ``MAX_DEPTH`` levels deep. Counting the
    brackets settles almost every line; a line with more brackets than the limit has its strings
    taken out, and its innermost pairs of brackets removed a level at a time."""
    if len(raw) <= 2 * MAX_DEPTH:
        return False
    raw = bytes(raw)
    if raw.count(b"[") + raw.count(b"{") <= MAX_DEPTH:
        return False
    # Outside its strings: with escaped backslashes and quotes gone, every quote left opens or
    # closes a string, so every other piece between quotes is structure.
    if b"\\" in raw:
        raw = raw.replace(b"\\\\", b"").replace(b'\\"', b"")
    structure = raw.translate(_BRACKETS, _NOT_STRUCTURE)
    brackets = b"".join(structure.split(b'"')[::2])
    for _ in range(MAX_DEPTH):
        inner = brackets.replace(b"[]", b"")
        if len(inner) == len(brackets):  # empty, or not balanced (not JSON: the parser says so)
            return False
        brackets = inner
    return bool(brackets)


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")  # JSON.parse rejects NaN / Infinity


def loads_line(raw: bytes | bytearray | memoryview, depth_checked: bool = False) -> Any:
    """``JSON.parse`` of one line as pi reads it: the file is read as text
    (``readFileSync(path, "utf8")``), so bytes that are not UTF-8 become U+FFFD; no NaN/Infinity.
    Raises ValueError (``TooDeep`` for a line nested beyond ``MAX_DEPTH``, unless the caller
    already knows it is not)."""
    if not depth_checked and too_deep(raw):
        raise TooDeep()
    return _loads(raw)


def _number(digits: str) -> Any:
    """An integer as ``JSON.parse`` reads it: past Python's limit on digits (4300) a float, as
    JavaScript reads every number (``Infinity`` when too big), never a line refused for it."""
    try:
        return int(digits)
    except ValueError:
        return float(digits)


def _loads(raw: bytes | bytearray | memoryview) -> Any:
    try:
        return json.loads(bytes(raw).decode("utf-8", "replace"), parse_constant=_reject_constant, parse_int=_number)
    except RecursionError:  # deeper than this stack allows
        raise TooDeep() from None


def parse_line(buf: bytes | bytearray, start: int, end: int) -> Any:
    """``JSON.parse`` of ``buf[start:end]`` (one line without its ``\\n``) for the index; None for a
    blank line. Raises ValueError with a short reason for a line pi would skip, ``TooDeep`` when
    the parser runs out of stack (the index decides about lesser depths by the entry's type)."""
    raw = buf[start:end]
    if not raw.strip(_BLANK):
        return None
    try:
        return _loads(raw)
    except TooDeep:
        raise
    except ValueError as exc:
        raise ValueError(f"invalid JSON ({exc})") from None


def is_entry(value: object) -> TypeGuard[Entry]:
    """Whether a parsed line is an object, the one thing pi reads as an entry: the one place a
    line's JSON is taken as an ``Entry`` (its values are still whatever the line held)."""
    return isinstance(value, dict)


def is_header(value: object) -> TypeGuard[Header]:
    """pi's test for a session header: an object with ``type == "session"`` and a string ``id``."""
    return is_entry(value) and value.get("type") == "session" and isinstance(value.get("id"), str)


def header_version(header: Header) -> int:
    """The header's format version; a header without a number is a version-1 file."""
    version = header.get("version")
    return version if isinstance(version, int) and not isinstance(version, bool) else 1


def upgrade_legacy_message(entry: Entry) -> Entry:
    """Read a version < 3 entry as version 3 does: the message role ``hookMessage`` is ``custom``."""
    message = entry.get("message")
    if entry.get("type") == "message" and isinstance(message, dict) and message.get("role") == "hookMessage":
        entry = {**entry, "message": {**message, "role": "custom"}}
    return entry


def read_header(path: str | os.PathLike[str], max_bytes: int = 1 << 16) -> Header | None:
    """The header of ``path`` (its first parsed line), or None when it is not a session."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(max_bytes)
    except OSError:
        return None
    for raw in head.split(b"\n")[:-1]:  # complete lines only
        if not raw.strip():
            continue
        try:
            value = loads_line(raw)
        except ValueError:
            continue
        return value if is_header(value) else None
    return None
