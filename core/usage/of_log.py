"""The usage of a log (a pi or pideck session, a followed conversation, a past point of either),
kept up to date as the log grows: one ``Ledger`` per log object, fed only the entries added
since it last looked (docs/usage.md)."""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Any, cast

from core.usage.ledger import EVENTS_READ, TODO_STATE, TODO_TOOL, Ledger

if TYPE_CHECKING:
    from core.session.log import SessionLog
    from core.session.records import EntryRecord
    from core.sources.reading import Reading
    from core.usage.ledger import Pricer, Saved, UsageJson

KEPT = "usage"
"""The name a conversation's ledger is kept under with its reading's cache (``keep_derived``)."""


def wanted(record: EntryRecord) -> bool:
    """Whether the ledger reads the entry (what the index knows of it: only those are loaded)."""
    return wanted_kind(record.type, record.custom_type, record.role, record.tool_name)


def wanted_kind(kind: str | None, custom_type: str | None, role: str | None, tool: str | None) -> bool:
    """``wanted`` from an entry's kind, as the index keeps it."""
    if kind == "message":
        return role in ("assistant", "user") or tool == TODO_TOOL
    if kind == "custom":
        return custom_type == TODO_STATE
    return kind in ("usage", "compaction", "branch_summary")


def pricer(table: bool = True) -> Pricer:
    """Rates by model: from the table when ``table`` (loaded at the first model no earlier run
    priced), else only those an earlier run saved (core/usage/prices.py)."""
    from core.usage.prices import prices

    known = prices()

    def rates(provider: str | None, model: str) -> Any:
        return known.rates(provider, model, table)

    return rates


def _followed_conversation(log: Any) -> bool:
    """Whether ``log`` is a followed conversation (core/sources/log.py: its entries are its
    reading's events, and what is derived of them is kept with the reading), not a session file
    or a past point of one (every log has an ``agent`` method: that tells nothing)."""
    return getattr(log, "reading", None) is not None


class _Followed:
    __slots__ = ("ledger", "covered", "generation", "table")

    def __init__(self, ledger: Ledger, covered: int, generation: int, table: bool) -> None:
        self.ledger, self.covered, self.generation, self.table = ledger, covered, generation, table


_followed: weakref.WeakKeyDictionary[Any, _Followed] = weakref.WeakKeyDictionary()


def ledger_of(log: Any, table: bool = True) -> Ledger:
    """The ledger of ``log``'s entries so far (``log.records``, file order), fed what is new since
    the last call for the same log. A followed conversation's is kept with its reading, so a new
    run reads only what came since (a ledger priced without the table is never kept)."""
    generation = getattr(log, "generation", 0)
    followed = _followed.get(log)
    if followed is None or followed.generation != generation or (table and not followed.table):
        kept = _kept_ledger(log, table)
        followed = _Followed(*(kept or (Ledger(pricer(table)), 0)), generation, table)
        _followed[log] = followed
    records = log.records
    if len(records) > followed.covered:
        if _followed_conversation(log):  # (its entries are its reading's events: those are folded, unmade)
            reading, kinds = log.reading, log.reading.kinds
            for i in range(followed.covered, len(records)):
                if kinds[i] in EVENTS_READ:
                    followed.ledger.add_event(reading.event(i))
        elif _session_file(log):
            feed_session(log, followed.ledger, followed.covered)
        elif (past := _past_of_session_file(log)) is not None:  # (its entries are the file's, up to the point)
            feed_session(past[0], followed.ledger, followed.covered, end=past[1])
        else:
            for i in range(followed.covered, len(records)):
                record = records[i]
                if wanted(record):
                    followed.ledger.add(record.load())
        followed.covered = len(records)
        if table and _keep(log, followed):
            from core.usage.prices import prices

            prices().save()  # (with the ledger: the rates it was priced at, for a run without the table)
    return followed.ledger


def _keep(log: Any, followed: _Followed) -> bool:
    """Offer the ledger to be kept for later runs where the log keeps results; False where it
    keeps none (a past point of a session, a log in memory)."""
    if _followed_conversation(log):
        log.keep_derived(KEPT, followed.covered, followed.ledger.save)
    elif _session_file(log):
        log.keep_in_file(KEPT, followed.covered, followed.ledger.save)
    else:
        return False
    return True


def _session_file(log: Any) -> bool:
    """Whether ``log`` is a session file read through its index (core/session/log.py), whose
    ledger is read from its lines and kept beside its saved index."""
    from core.session.log import SessionLog

    return isinstance(log, SessionLog)


def _past_of_session_file(log: Any) -> tuple[SessionLog, int] | None:
    """(the session file, how many of its entries) when ``log`` is a session file as it was at an
    earlier entry (core/session/cut.py: the timeline's preview, ``inspect --at``)."""
    from core.session.cut import CutLog
    from core.session.log import SessionLog

    if isinstance(log, CutLog) and isinstance(log.live, SessionLog):
        return log.live, log.position + 1
    return None


def _kept_ledger(log: Any, table: bool) -> tuple[Ledger, int] | None:
    """The ledger an earlier run kept for ``log``, with the entries it covers."""
    if not table:
        return None
    if _followed_conversation(log):
        kept = log.derived(KEPT)
    elif _session_file(log):
        kept = log.derived_in_file(KEPT)
    else:
        return None
    if kept is None or not isinstance(kept[0], dict):
        return None
    return Ledger(pricer(table), cast("Saved", kept[0])), kept[1]


FIELDS_MIN = 256
"""Messages from which on ``feed_session`` decodes only the fields the ledger reads of the lines
the scan did not (msgspec, loaded by then on any session that big) rather than each whole line."""
SAID_ROLES = ("assistant", "user")
"""The messages whose fields alone the ledger reads (``Ledger.add_message``): answers and prompts."""


def feed_session(log: SessionLog, ledger: Ledger, start: int, end: int | None = None) -> None:
    """Feed ``ledger`` the entries of a session file from position ``start`` on, in file order.
    Most of them are answers and prompts, and most of their bytes are what the agent said, while
    the ledger reads five fields of each: those the scan of the file decoded come from it
    (``SessionLog.take_said``); the others are read many lines at a time and decoded for those
    fields alone (``core/usage/said.py``). Each is folded as it comes. Any other entry, and a line
    that does not decode so, is read whole as ``add`` reads it: the fold is the same either way.
    ``end``: only the entries before it (a past point of the file, which leaves the scan's fields
    to the file's own ledger)."""
    picked = log.select(wanted_kind, start, end)
    records, ids = log.records, log.index.ids
    said, add_message = log.take_said() if end is None else {}, ledger.add_message
    unread = [(i, kind) for i, kind in picked if i not in said]
    lines = None
    if sum(1 for _, kind in unread if kind[0] == "message" and kind[2] in SAID_ROLES) >= FIELDS_MIN:
        from core.usage.said import fields_of

        lines = log.lines_at([i for i, _ in unread])
    for i, kind in picked:
        fields = said.get(i)
        if fields is None and lines is not None:
            line = next(lines)[1]
            if line is not None and kind[0] == "message" and kind[2] in SAID_ROLES:
                fields = fields_of(line, ids[i])
        if fields is not None:
            add_message(*fields)
        else:
            ledger.add(records[i].load())


def usage_of(log: Any, table: bool = True) -> UsageJson | None:
    """``ledger_of(log).json()``, or None when the log holds no answer with tokens."""
    ledger = ledger_of(log, table)
    return ledger.json(branch_plan(log)) if ledger.total["answers"] else None


def branch_plan(log: Any) -> object:
    """The todo list the current branch ends with when the file has other branches (None when it
    has none: the ledger's newest list is the branch's then)."""
    if _followed_conversation(log):
        return None  # (its entries are one line)
    if len(log.branch()) == len(log.records):
        return None
    picked, _, record_at, _ = log.branch_select(_plan_entry)  # (from the index: a long branch makes no records)
    for _, kind, key in reversed(picked):
        entry = record_at(key)
        if kind[0] == "message":
            message = entry.get("message")
            details = message.get("details") if isinstance(message, dict) else None
            if isinstance(details, dict) and isinstance(details.get("todos"), list):
                return details["todos"]
        else:
            data = entry.get("data")
            if isinstance(data, dict) and isinstance(data.get("todos"), list):
                return data["todos"]
    return []


def _plan_entry(kind: str | None, custom_type: str | None, role: str | None, tool: str | None) -> bool:
    """A todo result or a todo state entry: what holds a whole list of the plan."""
    return (kind == "message" and role == "toolResult" and tool == TODO_TOOL) or (kind == "custom"
                                                                                 and custom_type == TODO_STATE)


_folded: weakref.WeakKeyDictionary[Any, _Followed] = weakref.WeakKeyDictionary()


def ledger_of_reading(reading: Reading, table: bool = True) -> Ledger:
    """The ledger of a conversation's reading (what the catalog holds of a conversation, without
    its log: core/catalog/overview.py), fed the events it made since the last call for the same
    reading, exactly as ``ledger_of`` feeds the entries of its log (one entry per event). With
    ``table`` it is kept in the reading's cache at each write of it (``Reading.keep_with_cache``),
    under the name ``ledger_of`` keeps the log's: a new process, or the conversation's own log,
    takes it from there and feeds it only what came since."""
    followed = _followed_reading(reading, table)
    if reading.count > followed.covered:
        _feed(reading, followed)
    lazy = followed.ledger.pricer
    if table and isinstance(lazy, _Lazy) and lazy.rates is not None:
        lazy.rates = None  # (looked up again at its next answer: a few, not one per row of the catalog)
        from core.usage.prices import prices

        prices().save()  # (the rates found, here or as the cache was written, for ``pideck status``)
    return followed.ledger


class _Lazy:
    """``pricer(table)``, made at the first answer to price: a catalog's rows whose ledgers were
    kept price nothing, and never look for pideck's home to find the rates."""

    __slots__ = ("table", "rates")

    def __init__(self, table: bool) -> None:
        self.table = table
        self.rates: Pricer | None = None

    def __call__(self, provider: str | None, model: str) -> Any:
        if self.rates is None:
            self.rates = pricer(self.table)
        return self.rates(provider, model)


def _followed_reading(reading: Reading, table: bool) -> _Followed:
    """The reading's fold as far as it went, made anew (from what the cache kept, if anything)
    for a new reading, events made anew, or the table wanted where it was not used."""
    followed = _folded.get(reading)
    if followed is not None and followed.generation == reading.generation and (followed.table or not table):
        return followed
    kept = reading.kept(KEPT)
    if kept is not None and isinstance(kept["value"], dict) and 0 < kept["covers"] <= reading.count:
        followed = _Followed(Ledger(_Lazy(table), cast("Saved", kept["value"])), kept["covers"], reading.generation,
                             table)
    else:
        followed = _Followed(Ledger(_Lazy(table)), 0, reading.generation, table)
    _folded[reading] = followed
    if table:
        keep_usage(reading)
    return followed


def keep_usage(reading: Reading) -> None:
    """Have the reading's cache keep its ledger (priced with the table) at each of its writes from
    now on: called before its first sync, the write of a first read holds it already."""
    from core.session import sidecar

    if sidecar.mode() != "off":  # (as a log keeps nothing then: ``ConversationLog.keep_derived``)
        reading.keep_with_cache(KEPT, _kept_with_cache)


def _feed(reading: Reading, followed: _Followed) -> None:
    kinds, ledger = reading.kinds, followed.ledger
    for i in range(followed.covered, reading.count):
        if kinds[i] in EVENTS_READ:
            ledger.add_event(reading.event(i))
    followed.covered = reading.count


def _kept_with_cache(reading: Reading) -> tuple[int, object] | None:
    """What the reading's cache keeps of its ledger as it is written: the ledger fed first, so that
    it covers every event the write holds."""
    followed = _followed_reading(reading, True)
    if reading.count > followed.covered:
        _feed(reading, followed)
    return (followed.covered, followed.ledger.save()) if followed.covered else None
