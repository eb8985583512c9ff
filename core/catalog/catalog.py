"""The catalog: every session and conversation in scope (a directory, or every one pideck knows),
one ``Record`` each with its one state from one vocabulary (``core/catalog/states.py``, judged in
``core/catalog/attention.py``) and the evidence for it, kept current by one watch that reads only
what changed (``Overview``).

Every view of a state reads a catalog and nothing else: the deck's header, its bell and the inbox,
notifications, the overview screen, ``pideck status``, ``watch`` and ``overview``; the app's session
picker takes its entry counts (``with_entries``). So they cannot disagree: a state and an entry count
are worked out here once. (``pideck sessions`` lists files without reading them: it counts a
file's lines, which is a conversation's count here too, and a session's but for lines that are not
entries.) The app keeps exactly
one catalog (``tui/models/catalog.py``); a command makes one for its own run.
"""

from __future__ import annotations

import os
import time
from typing import TYPE_CHECKING, Callable, Iterable, Mapping, Sequence

from core.catalog import attention as att
from core.catalog import budgets, cache
from core.catalog import states
from core.catalog.attention import Attention, attention_of, sort_key
from core.catalog.overview import Overview
from core.catalog.record import Record as Record
from core.catalog.record import RecordJson as RecordJson
from core.catalog.rows import OverviewRow
from core.catalog.saved import SavedRows
from core.catalog.sessions import SessionInfo
from core.clock import wall_clock_ms
from core.config.places import AGENT_KINDS
from core.config.settings import BudgetConfig, HostConfig, TodoConfig, load_config, load_hosts, load_table

if TYPE_CHECKING:
    from core.catalog.hosts import Follower, HostView


def ranked(rows: Iterable[OverviewRow], attentions: Mapping[str, att.Attention]) -> list[OverviewRow]:
    """The rows who needs the person first (``core.catalog.attention.sort_key``: needs you, over
    budget, context nearly full, stopped with open work, working, waiting, ended; within a state the
    most recently active first), then by path; a row without a state (a conversation not read yet)
    last, the most recently active first."""
    def key(row: OverviewRow) -> tuple[int, int, str]:
        state = attentions.get(row.path)
        if state is None:
            return len(states.ORDER), -(row.last_activity_ms or 0), row.path
        return (*att.sort_key(state, row.last_activity_ms), row.path)
    return sorted(rows, key=key)


def written(row: OverviewRow) -> bool:
    """Whether a row stands for something anyone wrote: a pi or pideck session holding only its
    header (pideck started, nothing happened yet) is neither working nor waiting, and is not
    counted, listed in the inbox or told of until its first entry."""
    return row.entries > 0 or row.kind in AGENT_KINDS


class Catalog:
    """The records of every session and conversation of ``cwd`` (None: of every one pideck knows),
    and which changed state at each ``look``. Not thread-safe: one thread looks (in the app, the
    catalog's own model thread).

    ``budget_s`` (the app): a look reads conversations for at most that long and leaves the rest
    pending for the next looks (``Overview``); None (the commands): everything in one look.
    ``sweep``: each look sweeps what pideck keeps to read faster, hourly (``core/catalog/cache.py``);
    ``pideck status``, called by prompts, leaves that to the others.
    ``budget``: the ``[budget]`` table (None: the config file's); ``table`` False prices with the
    rates saved alone, never loading the price table (``pideck status``: core/usage/prices.py).
    ``hosts``: the other machines whose records join these (None: with ``cwd`` None, the config
    file's ``[[hosts]]``, else none; ``()`` none), each followed on a thread of its own (core/catalog/hosts.py) from now until
    ``close``; a look takes what they know, never waiting for the network (docs/hosts.md)."""

    def __init__(self, cwd: str | os.PathLike[str] | None, *, todo_config: TodoConfig | None = None,
                 now_ms: Callable[[], int] | None = None, budget_s: float | None = None,
                 overview: Overview | None = None, sweep: bool = True, budget: BudgetConfig | None = None,
                 table: bool = True, hosts: Sequence[HostConfig] | None = None) -> None:
        self.cwd = None if cwd is None else os.fspath(cwd)
        self.config = todo_config if todo_config is not None else load_config()[0]
        self.budget: BudgetConfig = budget if budget is not None else load_table("budget")[0]
        self.overview = overview if overview is not None else Overview(
            cwd, todo_config=self.config, budget_s=budget_s, saved=SavedRows(self.cwd), table=table)
        self._now_ms = now_ms or wall_clock_ms
        self._sweep = sweep
        self._settled = False  # a look found every row read (``Record.baseline``)
        self.records: dict[str, Record] = {}
        # (a directory here is not one there: the hosts join the catalog of every directory)
        self.warnings: list[str] = []  # what was wrong in the ``[[hosts]]`` it read (the commands say it)
        if hosts is None and cwd is None:
            hosts, self.warnings = load_hosts()
        self.hosts: list[HostConfig] = list(hosts or ())
        self._followers: list[Follower] = []
        if self.hosts:
            from core.catalog.hosts import followers

            self._followers = followers(self.hosts)
        self._remote_moved = False

    def close(self) -> None:
        """End the hosts' threads and their ssh (safe to call twice, from any thread)."""
        for follower in self._followers:
            follower.close()

    def wait_hosts(self, timeout_s: float) -> None:
        """Until every host caught up (its feed read everything once) or failed once, for at most
        ``timeout_s``: a command that prints once (``overview``) looks after this."""
        deadline = time.monotonic() + timeout_s
        for follower in self._followers:
            follower.wait_settled(deadline)

    def host_views(self) -> list[HostView]:
        """What each host's follower knows now."""
        return [follower.view() for follower in self._followers]

    def look(self) -> list[Record]:
        """Read what changed, and return the records whose state changed since the last look (at
        the first look, every one), who needs the person first. One that is gone is dropped."""
        self.overview.refresh()
        if self._sweep:
            cache.sweep_now_and_then()  # (what went while no pideck ran: docs/caches.md)
        now = self._now_ms()
        listed = self.overview.rows
        rows = {row.path: row for row in listed if not row.pending and written(row)}
        baseline = not self._settled
        self._settled = self._settled or not any(row.pending for row in listed)
        changed: list[Record] = []
        remote = self._remote_records()
        for path in [p for p in self.records if p not in rows and p not in remote]:
            self._remote_moved = self._remote_moved or self.records[path].host is not None
            del self.records[path]
        recorded = att.recorded_conversations()
        today = budgets.day_of(now)
        day = budgets.day_spent(rows.values(), today)
        for path, row in rows.items():
            state = attention_of(row, now, self.config.watchdog_idle_ms, recorded)
            state, crossed, crossing = budgets.judged(state, row, self.budget, today, day)
            before = self.records.get(path)
            todos = (row.todos_settled, row.todos_total)
            if before is not None and before.attention.state == state.state:
                # the same state: since when it is in it stays as first seen, the evidence is now's
                self.records[path] = before._replace(
                    name=row.name, todos=todos, entries=row.entries, row=row,
                    attention=state._replace(since_ms=before.attention.since_ms), crossed=crossed,
                    crossing=crossing, baseline=baseline)
                continue
            record = Record(path, row.kind, row.name, state, todos, before.attention.state if before else None,
                            row.session_id, row.entries, row, crossed, crossing, baseline)
            self.records[path] = record
            changed.append(record)
        for path, seen in remote.items():
            before = self.records.get(path)
            self._remote_moved = self._remote_moved or before is None or before.row != seen.row
            if before is not None and before.attention.state == seen.attention.state:
                self.records[path] = seen._replace(previous=before.previous, baseline=baseline)
                continue
            record = seen._replace(previous=before.attention.state if before else None, baseline=baseline)
            self.records[path] = record
            changed.append(record)
        return sorted(changed, key=lambda r: sort_key(r.attention))

    def _remote_records(self) -> dict[str, Record]:
        """Every host's records as they show now (``core.catalog.hosts.records_of``), by path."""
        self._remote_moved = False
        if not self._followers:
            return {}
        from core.catalog.hosts import records_of

        merged: dict[str, Record] = {}
        for view in self.host_views():
            merged.update(records_of(view))
        return merged

    def ranked(self) -> list[Record]:
        """Every record, who needs the person first; within a state the most recently active first."""
        return sorted(self.records.values(),
                      key=lambda r: (sort_key(r.attention, r.row.last_activity_ms if r.row else None), r.path))

    @property
    def rows(self) -> list[OverviewRow]:
        """Every row, read or still pending, the most recently active first; a session nobody
        wrote in yet is none (``written``)."""
        local = [row for row in self.overview.rows if written(row)]
        if not self._followers:
            return local
        remote = [r.row for r in self.records.values() if r.row is not None and r.row.host is not None]
        return sorted([*local, *remote], key=lambda row: -(row.last_activity_ms or 0))

    @property
    def moved(self) -> bool:
        """The last look found a row new, changed or gone (a state may stay while its counts move)."""
        tick = self.overview.last_tick
        return bool(tick.changed or tick.removed) or self._remote_moved

    @property
    def pending(self) -> int:
        """Conversations listed but left for the next looks (a look with a budget)."""
        return self.overview.last_tick.pending

    def attentions(self) -> dict[str, Attention]:
        """The state of every row read, by path."""
        return {path: record.attention for path, record in self.records.items()}


def with_entries(sessions: Iterable[SessionInfo], records: Iterable[Record]) -> list[SessionInfo]:
    """The sessions listed (``core/catalog/sessions.py``) with the entry count the catalog has for
    each it knows, so that a list of files says the number every other view says (a conversation:
    the entries read from its transcript, not the transcript's lines)."""
    counts = {os.path.realpath(r.path): r.entries for r in records}
    return [s._replace(entries=counts.get(os.path.realpath(s.path), s.entries)) for s in sessions]
