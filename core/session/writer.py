"""Serialising entries exactly as pi writes them (docs/session-format.md#how-pideck-writes-an-entry).

pideck writes only the header of a new file, ``custom`` and ``custom_message`` entries.
"""

from __future__ import annotations

import math
import os
import time
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any, Callable, Container, Final

from core.jsutil import compact_json, escape_lone_surrogates

if TYPE_CHECKING:
    from core.session.entry import Entry, Header

Clock = Callable[[], datetime]
IdFactory = Callable[[], str]

MISSING: Any = object()
"""``data`` left out of a ``custom`` entry (pi's ``appendEntry(type)`` with ``data`` undefined)."""


def utc_now() -> datetime:
    return datetime.now(timezone.utc)


def iso_timestamp(moment: datetime) -> str:
    """``new Date().toISOString()``: UTC, milliseconds, ``Z``."""
    moment = moment.astimezone(timezone.utc)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def short_id() -> str:
    """pi's entry id: the first 8 hex characters of a random UUID. Those are 4 random bytes of a
    version 4 UUID (its version and variant bits come later), read here without loading ``uuid``,
    which costs a ``pideck gate`` more than the rest of an append."""
    return os.urandom(4).hex()


def unique_id(taken: Container[str], factory: IdFactory = short_id) -> str:
    """A fresh id not in ``taken``: up to 100 tries, then a full UUID, as pi does."""
    for _ in range(100):
        candidate = factory()
        if candidate not in taken:
            return candidate
    import uuid

    return str(uuid.uuid4())


def uuid7(moment: datetime | None = None) -> str:
    """A UUIDv7: 48-bit Unix milliseconds, version 7, variant ``10``, the rest random."""
    import secrets  # (here: only a new session needs them)
    import uuid

    ms = int(moment.timestamp() * 1000) if moment is not None else time.time_ns() // 1_000_000
    value = (ms & ((1 << 48) - 1)) << 80 | secrets.randbits(80)
    value = (value & ~(0xF << 76)) | (0x7 << 76)  # version
    value = (value & ~(0x3 << 62)) | (0x2 << 62)  # variant
    return str(uuid.UUID(int=value))


def js_float_text(value: float) -> str:
    """``Number.prototype.toString`` of a finite float. The digits are the shortest round trip, as
    in ``repr``; only the notation differs: JavaScript writes fixed notation from 1e-7 up to 1e21
    (Python from 1e-4 up to 1e16), never writes ``.0`` and never pads the exponent
    (``1.5e-7``, Python ``1.5e-07``)."""
    text = repr(value)
    if "e" not in text:
        return text[:-2] if text.endswith(".0") else text
    mantissa, exponent = text.split("e")
    e = int(exponent)
    sign = "-" if mantissa.startswith("-") else ""
    digits = mantissa.lstrip("-").replace(".", "")
    if -7 < e < 0:
        return f"{sign}0.{'0' * (-e - 1)}{digits}"
    if 0 <= e < 21:  # an integral float of 1e16 or more: the shortest digits, then zeros
        return f"{sign}{digits}{'0' * (e + 1 - len(digits))}"
    return f"{mantissa}e{'+' if e > 0 else '-'}{abs(e)}"


def _js_value(value: Any, raw: dict[str, str]) -> Any:
    """What ``JSON.stringify`` would see: integral floats print as integers, NaN/Infinity as null.
    A float whose JavaScript text differs from Python's is replaced by a placeholder string that
    ``serialise`` swaps for that text (collected in ``raw``)."""
    if isinstance(value, float):
        if not math.isfinite(value):
            return None
        if value.is_integer() and abs(value) < 2**53:
            return int(value)  # exact, and what JavaScript prints
        if (text := js_float_text(value)) != repr(value):
            key = f"\x00{len(raw)}:{_NONCE}"
            raw[key] = text
            return key
        return value
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 2**53:
        try:  # a JavaScript number holds no exact integer this big: pi would write the double
            return _js_value(float(value), raw)
        except OverflowError:
            return None  # JSON.parse gives Infinity, which JSON.stringify writes as null
    if isinstance(value, dict):
        out = {k: _js_value(v, raw) for k, v in value.items()}
        if any(isinstance(k, str) and _is_array_index(k) for k in out):
            # a JavaScript object lists its array-index keys first, in ascending numeric order
            index = sorted((k for k in out if isinstance(k, str) and _is_array_index(k)), key=int)
            out = {**{k: out[k] for k in index}, **{k: v for k, v in out.items() if k not in index}}
        return out
    if isinstance(value, (list, tuple)):
        return [_js_value(v, raw) for v in value]
    return value


def _is_array_index(key: str) -> bool:
    """A canonical array index: ``"0"`` to ``"4294967294"``, no sign, no leading zero."""
    return key.isascii() and key.isdigit() and (key == "0" or key[0] != "0") and int(key) < 2**32 - 1


_NONCE = os.urandom(8).hex()  # (``secrets.token_hex(8)``, without loading ``secrets`` on every start)
"""Makes a float placeholder impossible to meet in real text (a string holding it would need to
guess this process's random nonce)."""


def serialise(entry: Entry) -> bytes:
    """One log line: compact JSON, non-ASCII as is, lone surrogates escaped, ``\\n``, UTF-8."""
    raw: dict[str, str] = {}
    text = compact_json(_js_value(entry, raw))
    for key, number in raw.items():
        text = text.replace(compact_json(key), number, 1)
    return (escape_lone_surrogates(text) + "\n").encode("utf-8")


WRITER_KEY: Final = "pideckBy"
"""Who had pideck write an entry (docs/session-format.md#who-wrote-an-entry): a key after pi's own,
which pi's loader and the upstream adapters never read (they restore from ``data``), so the entry
means to them exactly what it meant without it."""
PERSON, AGENT = "person", "agent"
"""Its values: a person (the app's command line, palette and form; ``pideck run``) or an agent
(``pideck tool``, the MCP server, the hooks)."""


def custom_entry(custom_type: str, data: Any, id: str, parent_id: str | None, timestamp: str) -> Entry:
    """A ``custom`` entry in pi's key order (``data`` omitted when MISSING)."""
    entry: Entry = {"type": "custom", "customType": custom_type}
    if data is not MISSING:
        entry["data"] = data
    entry.update({"id": id, "parentId": parent_id, "timestamp": timestamp})
    return entry


def custom_message_entry(
    custom_type: str, content: Any, display: bool, details: Any, id: str, parent_id: str | None, timestamp: str
) -> Entry:
    """A ``custom_message`` entry in pi's key order (``details`` omitted when None)."""
    entry: Entry = {"type": "custom_message", "customType": custom_type, "content": content, "display": display}
    if details is not None:
        entry["details"] = details
    entry.update({"id": id, "parentId": parent_id, "timestamp": timestamp})
    return entry


def header_entry(session_id: str, timestamp: str, cwd: str) -> Header:
    return {"type": "session", "version": 3, "id": session_id, "timestamp": timestamp, "cwd": cwd}
