"""Pausing Python's cycle collector while a big read builds its objects.

A read of a big file allocates hundreds of thousands of objects that live on (an index, events)
and none that form cycles: every collection the allocations trigger meanwhile walks the whole
growing heap again for nothing. The bigger the process's heap already is (a test run, a TUI),
the more each walk costs.
"""

from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import Iterator


@contextmanager
def paused_collector() -> Iterator[None]:
    """The collector off for the block, and back on after it if it was on (a caller that turned
    it off for longer keeps it off)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
