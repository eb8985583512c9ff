"""The wall clock in milliseconds, the unit of pi's entry timestamps and of the todo machine's
timers; everything that needs time takes a clock like this one, so tests inject theirs."""

from __future__ import annotations

import time


def wall_clock_ms() -> int:
    return int(time.time() * 1000)
