"""The overview screen's model: an ``Overview`` of the scope's sessions and conversations with an
``AttentionWatch`` over it, on the screen's thread.

The scope (this directory or every session pideck knows) comes with the job that starts a look
(``restart``): rows always come back labelled with the scope they were read for, however fast the
person toggles it.
"""

from __future__ import annotations

from typing import Any, Callable

from core.attention import AttentionWatch
from core.overview import Overview, OverviewRow, ranked
from core.todo.config import TodoConfig
from tui.messages import RowsChanged
from tui.models.thread import Model

BUDGET_S = 0.1
"""Seconds of conversation reading per tick, so the first rows show at once however many there are."""


class _Ticks:
    """The model's ``Overview`` as the ``AttentionWatch`` looks at it, keeping each refresh's
    ``Tick`` (what changed, how many conversations are left to read)."""

    def __init__(self, overview: Overview) -> None:
        self.overview = overview
        self.tick: Any = None

    def refresh(self) -> Any:
        self.tick = self.overview.refresh()
        return self.tick

    @property
    def rows(self) -> list[OverviewRow]:
        return self.overview.rows


class OverviewModel(Model):
    name = "overview"

    def __init__(self, cwd: str, *, clock: Callable[[], int], todo_config: TodoConfig | None) -> None:
        super().__init__()
        self.cwd = cwd
        self._clock = clock
        self._todo_config = todo_config
        self._show_all = False
        self._watch: AttentionWatch | None = None
        self._ticks: _Ticks | None = None

    def restart(self, show_all: bool) -> None:
        """Read the scope's rows from the start: every session pideck knows, else the directory's."""
        self._show_all = show_all
        cwd = None if show_all else self.cwd
        self._ticks = _Ticks(Overview(cwd, todo_config=self._todo_config, budget_s=BUDGET_S))
        self._watch = AttentionWatch(cwd, todo_config=self._todo_config, now_ms=self._clock, overview=self._ticks)
        self._tick(force=True)

    def idle(self, look: bool) -> bool:
        return self._tick()

    def _tick(self, force: bool = False) -> bool:
        """One look; True while conversations are left to read (the next look follows at once)."""
        watch, ticks = self._watch, self._ticks
        if watch is None or ticks is None:
            return False
        moved = watch.look()  # (refreshes the overview: ``ticks.tick``)
        tick = ticks.tick
        if force or tick.changed or tick.removed or moved:
            scope = "every session pideck knows" if self._show_all else self.cwd
            attentions = {path: seen.attention for path, seen in watch.seen.items()}
            self.post(RowsChanged(ranked(ticks.rows, attentions), scope, self._show_all, attentions))
        return bool(tick.pending)
