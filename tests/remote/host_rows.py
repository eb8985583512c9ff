"""Rows of other machines for the TUI's tests, as the merged catalog will list them (a row with its
``host``, its path ``HOST:PATH``), served by a catalog that always says the same (``FixedCatalog``)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Iterable

from core.catalog.attention import Attention
from core.catalog.catalog import Record
from core.catalog.rows import OverviewRow


def remote_row(host: str, path: str, name: str, **fields: Any) -> OverviewRow:
    """A pideck session's row on ``host`` (its ``path`` there)."""
    base = OverviewRow(path=f"{host}:{path}", name=name, cwd="/home/me/project", kind="pideck", read_only=False,
                       entries=12, todos_settled=1, todos_total=3, lowest_confidence=70, work_items=(1, 0, 0, 1),
                       milestones=0, recorded=0, packets=0, last_activity_ms=None, flag=None, warnings=0, host=host)
    return replace(base, **fields)


class FixedCatalog:
    """What ``PideckApp(catalog=...)`` takes: these rows in these states, at every look."""

    def __init__(self, rows: Iterable[OverviewRow], attentions: dict[str, Attention]) -> None:
        self._rows = list(rows)
        self._attentions = attentions
        self.moved, self.pending = False, 0

    def look(self) -> list[Record]:
        return []

    def ranked(self) -> list[Record]:
        return [Record(r.path, r.kind, r.name, self._attentions[r.path], (r.todos_settled, r.todos_total),
                       entries=r.entries, row=r)
                for r in self._rows if r.path in self._attentions]

    @property
    def rows(self) -> list[OverviewRow]:
        return list(self._rows)

    def attentions(self) -> dict[str, Attention]:
        return dict(self._attentions)
