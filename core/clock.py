"""The wall clock in milliseconds, the unit of pi's entry timestamps and of the todo machine's
timers; everything that needs time takes a clock like this one, so tests inject theirs."""

from __future__ import annotations

import time
from datetime import datetime, timezone


def wall_clock_ms() -> int:
    return int(time.time() * 1000)


def iso_from_ms(ms: int | None) -> str | None:
    """``2026-12-01T21:56:55.123Z`` (UTC, milliseconds, as pi writes its timestamps); None for None."""
    if ms is None:
        return None
    return datetime.fromtimestamp(ms / 1000, timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.") + f"{ms % 1000:03d}Z"


def ago(ms: int | None, now_ms: int, *, short: bool = False) -> str:
    """``12 s ago``, ``5 min ago``, ``3 h ago``, ``2 d ago`` (``short``: ``12s ago``, ``5m ago``);
    ``—`` without a time."""
    if ms is None:
        return "—"
    seconds = max(0, (now_ms - ms) // 1000)
    for size, unit in ((86400, "d"), (3600, "h"), (60, "m" if short else "min")):
        if seconds >= size:
            return f"{seconds // size}{'' if short else ' '}{unit} ago"
    return f"{seconds}{'s' if short else ' s'} ago"


def iso_ms(value: object) -> int | None:
    """Milliseconds since the epoch of an ISO 8601 time with a zone, or None for anything else (a
    time that is no longer a year 1-9999 one in UTC among them)."""
    if not isinstance(value, str):
        return None
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
        if moment.tzinfo is None:
            return None
        moment.astimezone(timezone.utc)
        return int(moment.timestamp() * 1000)
    except (ValueError, OverflowError):
        return None
