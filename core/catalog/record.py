"""One record of the catalog (``core/catalog/catalog.py``): a session or conversation as the
catalog last saw it, here or on a host (``core/catalog/hosts.py`` makes a host's from its feed)."""

from __future__ import annotations

from typing import NamedTuple, NotRequired

from core.catalog import attention as att
from core.catalog.attention import Attention
from core.catalog.rows import OverviewRow


class RecordJson(att.AttentionJson):
    """A record as ``pideck status --json`` and ``pideck watch --json`` print it."""

    path: str
    kind: str
    name: str
    conversation: str | None
    previous: str | None
    entries: int
    todos: dict[str, int]  # settled, total
    host: NotRequired[str]  # the ``[[hosts]]`` name of its machine; absent: this one


class Record(NamedTuple):
    """One session or conversation as the catalog last saw it: its row (kind, name, counts, last
    activity) and its state, since when it holds and what says so."""

    path: str
    kind: str
    name: str
    attention: Attention
    todos: tuple[int, int]  # settled, total
    previous: str | None = None  # the state it changed from (None: first seen)
    session_id: str | None = None  # an agent's conversation: its id
    entries: int = 0  # the entries of its log (a conversation's: of the agent's transcript, as read)
    row: OverviewRow | None = None
    crossed: tuple[str, ...] = ()  # the keys of the budgets it is over now (core/catalog/budgets.py)
    crossing: str | None = None  # the key of the one its state shows (over budget, context nearly full)
    baseline: bool = False
    """Seen at a look before every row was read once (the first, or one with rows still pending):
    the budgets it is over were so already, not crossed now (the day's total grows as rows are read)."""

    @property
    def host(self) -> str | None:
        """The ``[[hosts]]`` name of the machine it is on (None: this one)."""
        return self.row.host if self.row is not None else None

    def json(self) -> RecordJson:
        out: RecordJson = {"path": self.path, "kind": self.kind, "name": self.name, "conversation": self.session_id,
                           **self.attention.json(), "previous": self.previous, "entries": self.entries,
                           "todos": {"settled": self.todos[0], "total": self.todos[1]}}
        if self.host is not None:
            out["host"] = self.host
        return out
