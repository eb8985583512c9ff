"""What a conversation's answers used and cost, folded from its entries in file order
(docs/usage.md): the tokens and dollars in all, per model, per day and per turn, the context the
last answer filled, the compactions, and what each item of the plan cost.

Every answer is one entry: a pi assistant message with its ``usage``, or a ``usage`` entry (pi's
own, or what a followed agent's answer is: core/sources/reader.py). Its cost is the log's own
where the log says it (pi, opencode), else the price table's (``prices.py``); a model the table
does not know keeps its tokens and is named in ``unpriced``, never priced at $0.

Each answer's tokens and cost go to the items of the plan in progress when it was made, shared
evenly (whole millionths of a dollar and whole tokens, the remainder to the first items), or to
``unplanned`` when none was: the items and ``unplanned`` add up to the total exactly. The plan is
the newest list a todo entry on the way held (pideck's todos, or the agent's own plan: both are
``todo`` tool results with the whole list), so an item deleted later keeps what it cost.

The whole file counts, in file order (a branch left behind was paid for too, as pi's own footer
counts it). The fold goes on from where it stopped (``add``) and saves as JSON (``save``).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence, TypedDict

from core.clock import iso_ms

if TYPE_CHECKING:
    from typing import NotRequired

    from core.usage.rates import Rates

COUNTS = ("input", "output", "cacheRead", "cacheWrite")
IN_PROGRESS = "in_progress"
TODO_TOOL = "todo"
TODO_STATE = "pi-jtodo/state"
EVENTS_READ = "uptc"
"""The kinds of a conversation's events the fold reads (``add_event``): answers paid for, prompts,
plan changes and compactions (an ``a`` event carries no usage since the cache's format 6)."""
TURNS_KEPT = 500
"""The newest turns whose cost is kept (the timeline shows the recent ones)."""

# The JSON shapes are the type checker's alone: a TypedDict made at run time, in a module whose
# annotations are strings, compiles each of them, and ``inspect --json`` compiles nothing
# (core/slotted.py). At run time each name is ``dict``, so importing one works anywhere.
if TYPE_CHECKING:
    Pricer = Callable[[str | None, str], "Rates | None"]
    """``(provider, model)`` to the model's rates, or None (no price)."""

    class TokensJson(TypedDict):
        input: int
        output: int
        cacheRead: int
        cacheWrite: int
        total: int

    class ShareJson(TypedDict):
        """What a part of the conversation (a model, a day, a turn, an item, the unplanned) used."""

        answers: int
        tokens: TokensJson
        cost: float | None  # USD of its priced answers; None when none was priced

    class ItemJson(ShareJson):
        id: str
        content: str
        status: str  # as the plan the log ends with says (its current branch's), else the newest list that held it
        deleted: bool  # the plan the log ends with no longer holds it
        inProgressMs: int  # how long it was in progress, in all

    class ContextJson(TypedDict):
        tokens: int  # in the last answer's context (its input, cache, output)
        window: int | None  # the model's context window: the log's, else the table's
        share: float | None  # tokens / window
        model: str | None

    class CompactionJson(TypedDict):
        at: str | None
        before: int | None  # tokens in the context before, as the log says
        after: int | None  # in the next answer's context

    class UsageJson(ShareJson):
        """``inspect --json``'s ``usage`` (docs/usage.md#the-usage-object)."""

        costFrom: str | None  # log, prices, both, or None (nothing priced)
        unpriced: list[str]  # models the price table has no price for (their tokens count, not their cost)
        models: dict[str, ShareJson]
        days: dict[str, ShareJson]  # by the local date of the answers
        context: ContextJson | None
        compactions: list[CompactionJson]
        items: list[ItemJson]  # every item ever in progress when an answer was made, in order of first cost
        unplanned: ShareJson
        turns: list[TurnJson]  # the newest TURNS_KEPT

    class TurnJson(ShareJson):
        at: str | None  # when the prompt came

    class Share(TypedDict):
        """A share as the ledger keeps (and saves) it: its answers' tokens (input, output,
        cacheRead, cacheWrite) and the cost of those with a price, in millionths of a dollar."""

        answers: int
        tokens: list[int]
        cost: int
        priced: int  # how many of its answers had a price

    class Item(Share):
        id: str
        content: str
        ms: int  # in progress so long, in all
        status: NotRequired[str]  # as the newest list that held it said

    class Turn(Share):
        at: str | None

    class Context(TypedDict):
        tokens: int
        window: int | None
        model: str | None

    class Saved(TypedDict, total=False):
        """What ``save`` gives and ``Ledger`` takes back (kept as JSON with a conversation's cache)."""

        total: Share
        sources: list[str]  # where the costs came from: log, prices
        unpriced: list[str]
        models: dict[str, Share]
        days: dict[str, Share]
        items: dict[str, Item]  # by "id\0content"
        unplanned: Share
        doing: list[str]  # the keys of the items in progress now
        plan: list[str]  # the keys of the newest list
        turns: list[Turn]
        context: Context | None
        compactions: list[CompactionJson]
        last_ms: int | None
        windows: dict[str, int]  # model -> the window its log said
else:
    Pricer = TokensJson = ShareJson = ItemJson = ContextJson = CompactionJson = UsageJson = TurnJson = dict
    Share = Item = Turn = Context = Saved = dict


def _share() -> Share:
    return {"answers": 0, "tokens": [0, 0, 0, 0], "cost": 0, "priced": 0}


def _add(share: Share, tokens: list[int], cost: int | None) -> None:
    share["answers"] += 1
    kept = share["tokens"]
    kept[0] += tokens[0]
    kept[1] += tokens[1]
    kept[2] += tokens[2]
    kept[3] += tokens[3]
    if cost is not None:
        share["cost"] += cost
        share["priced"] += 1


class _Shared:
    """The answers made while the same several items were in progress, summed as they come so
    that sharing the sums out (``share_out``) gives each item exactly what sharing out each answer
    would (each amount divided by the items in whole units, the remainder one each to the first
    items): item ``k`` gets the sum of the whole parts, plus one for each answer whose remainder
    was more than ``k``. A long session
    with many items in progress at once pays one step per answer instead of one per item."""

    __slots__ = ("n", "answers", "priced", "whole", "over")

    def __init__(self, n: int) -> None:
        self.n, self.answers, self.priced = n, 0, 0
        self.whole = [0, 0, 0, 0, 0]  # input, output, cacheRead, cacheWrite, cost
        self.over = [[0] * n for _ in range(5)]  # over[part][r]: answers that left a remainder of r

    def add(self, tokens: list[int], cost: int | None) -> None:
        n, whole, over = self.n, self.whole, self.over
        self.answers += 1
        for part, amount in enumerate(tokens):
            q, r = divmod(amount, n)
            whole[part] += q
            over[part][r] += 1
        if cost is not None:
            q, r = divmod(cost, n)
            whole[4] += q
            over[4][r] += 1
            self.priced += 1

    def share_out(self, items: list[Item]) -> None:
        """Add the sums to ``items``, the items in progress in their order."""
        extra = []
        for counts in self.over:  # (extra[part][k]: answers whose remainder was more than k)
            above, running = [], 0
            for r in range(self.n - 1, -1, -1):
                above.append(running)
                running += counts[r]
            extra.append(above[::-1])
        for k, item in enumerate(items):
            item["answers"] += self.answers
            kept = item["tokens"]
            for part in range(4):
                kept[part] += self.whole[part] + extra[part][k]
            if self.priced:
                item["cost"] += self.whole[4] + extra[4][k]
                item["priced"] += self.priced


class Ledger:
    """The fold. ``pricer``: the rates of a model (None: the log's own costs alone)."""

    def __init__(self, pricer: Pricer | None = None, saved: Saved | None = None) -> None:
        self.pricer = pricer
        s: Saved = saved or {}
        self.total: Share = s.get("total") or _share()
        self.sources: list[str] = list(s.get("sources") or [])
        self.unpriced: list[str] = list(s.get("unpriced") or [])
        self.models: dict[str, Share] = dict(s.get("models") or {})
        self.days: dict[str, Share] = dict(s.get("days") or {})
        self.items: dict[str, Item] = dict(s.get("items") or {})
        self.unplanned: Share = s.get("unplanned") or _share()
        self.doing: list[str] = list(s.get("doing") or [])
        self.plan: list[str] = list(s.get("plan") or [])
        self.turns: list[Turn] = list(s.get("turns") or [])
        self._context_was: Context | None = s.get("context")
        self._last: tuple[int, str | None, object, object] | None = None  # (the last answer's, not yet in ``context``)
        self.compactions: list[CompactionJson] = list(s.get("compactions") or [])
        self.last_ms: int | None = s.get("last_ms")
        self.windows: dict[str, int] = dict(s.get("windows") or {})
        self._rates: dict[tuple[str | None, str], Rates | None] = {}  # (what ``pricer`` said, in this run)
        self._days: dict[int, str] = {}  # a quarter of an hour -> its local date (time zones move by quarters)
        self._shared: _Shared | None = None  # answers not yet shared out among ``doing`` (more than one)
        self._ms_from = self.last_ms  # the time from which on ``doing`` were in progress, not yet added to them

    def save(self) -> Saved:
        self._share_out()
        return {"total": self.total, "sources": self.sources, "unpriced": self.unpriced, "models": self.models,
                "days": self.days, "items": self.items, "unplanned": self.unplanned, "doing": self.doing,
                "plan": self.plan, "turns": self.turns, "context": self.context, "compactions": self.compactions,
                "last_ms": self.last_ms, "windows": self.windows}

    # -- the fold ---------------------------------------------------------------------------------

    def add(self, entry: Mapping[str, object]) -> None:
        """Take in the next entry of the file. (Its parts are checked to be ``dict``s, as JSON
        gives them: ``isinstance`` of typing's ``Mapping`` costs some 15 µs each, a fifth of a
        second on a long transcript's answers.)"""
        kind = entry.get("type")
        if kind == "message":
            message = entry.get("message")
            if not isinstance(message, dict):
                self.add_message(entry.get("timestamp"), None, None, None, None)
            elif message.get("role") == "toolResult" and message.get("toolName") == TODO_TOOL:
                at = self._at(entry.get("timestamp"))
                details = message.get("details")
                if isinstance(details, dict):
                    self._plan(details.get("todos"), at)
            else:
                self.add_message(entry.get("timestamp"), message.get("role"), message.get("usage"),
                                 message.get("provider"), message.get("model"))
            return
        at = self._at(entry.get("timestamp"))
        if kind == "usage":
            self._answer(at, entry.get("usage"), entry.get("provider"), entry.get("model"), entry.get("contextWindow"))
        elif kind == "compaction":
            self._compacted(entry.get("timestamp"), entry.get("tokensBefore"))
            if isinstance(entry.get("usage"), dict):  # (pi's summary of the context was an answer too)
                self._answer(at, entry.get("usage"), None, None, None, context=False)
        elif kind == "branch_summary" and isinstance(entry.get("usage"), dict):
            self._answer(at, entry.get("usage"), None, None, None, context=False)
        elif kind == "custom" and entry.get("customType") == TODO_STATE:
            data = entry.get("data")
            if isinstance(data, dict):
                self._plan(data.get("todos"), at)

    def add_message(self, timestamp: object, role: object, usage: object, provider: object, model: object) -> None:
        """Take in the next entry of the file when it is a message other than a todo result, from
        the fields ``add`` would read of it (a session's reader decodes only those:
        core/usage/of_log.py)."""
        at = self._at(timestamp)
        if role == "assistant":
            self._answer(at, usage, provider, model, None)
        elif role == "user":
            self._turn(timestamp)

    def _at(self, timestamp: object) -> int | None:
        """The entry's time in milliseconds (None when it has none), the clock moved on to it."""
        at = iso_ms(timestamp)
        if at is not None:
            self._tick(at)
        return at

    def add_event(self, event: Sequence[Any]) -> None:
        """Take in a followed conversation's next event (core/sources/reader.py) as ``add`` takes
        in the entry ``entry_of`` makes of it, without making the entry: a long transcript's
        thousands of answers are folded in a fraction of the time."""
        kind = event[0]
        if kind not in EVENTS_READ:
            return
        at = self._at(event[1])
        if kind == "u":
            tokens = event[4]
            if isinstance(tokens, list) and len(tokens) == 4:
                self._paid(at, [n if type(n) is int and n >= 0 else 0 for n in tokens], event[5], event[2], event[3],
                           event[6])
        elif kind == "p":
            self._turn(event[1])
        elif kind == "t":
            self._plan(event[4], at)
        elif kind == "c":
            self._compacted(event[1], event[2])

    def _turn(self, at: object) -> None:
        """A prompt came: a new turn (the oldest beyond ``TURNS_KEPT`` dropped)."""
        turn: Turn = {"at": at if isinstance(at, str) else None, "answers": 0, "tokens": [0, 0, 0, 0], "cost": 0,
                      "priced": 0}
        self.turns = [*self.turns[1 - TURNS_KEPT:], turn]

    def _compacted(self, at: object, before: object) -> None:
        self.compactions.append({"at": at if isinstance(at, str) else None,
                                 "before": before if type(before) is int else None, "after": None})

    def _tick(self, at: int) -> None:
        """Time passed to ``at``: the items in progress were so that long (added to them when
        they change or a view reads them: ``_share_out``)."""
        if self.last_ms is None:
            self._ms_from = at
        if self.last_ms is None or at > self.last_ms:
            self.last_ms = at

    def _plan(self, todos: object, at: int | None) -> None:
        if not isinstance(todos, list):
            return
        self._share_out()  # (what was made while the items in progress were the ones so far)
        keys, doing = [], []
        for todo in todos:
            if not isinstance(todo, dict) or not isinstance(todo.get("content"), str):
                continue
            key = f"{todo.get('id', '')}\0{todo['content']}"
            keys.append(key)
            given = todo.get("status")
            status = given if isinstance(given, str) else "pending"
            item = self.items.get(key)
            if item is None and status == IN_PROGRESS:
                item = self.items[key] = {"id": str(todo.get("id", "")), "content": todo["content"], "ms": 0,
                                          "answers": 0, "tokens": [0, 0, 0, 0], "cost": 0, "priced": 0}
            if item is not None:
                item["status"] = status
            if status == IN_PROGRESS:
                doing.append(key)
        self.plan, self.doing = keys, doing

    def _answer(self, at: int | None, usage: object, provider: object, model: object, window: object,
                context: bool = True) -> None:
        if not isinstance(usage, dict):
            return
        tokens = [n if type(n := usage.get(k)) is int and n >= 0 else 0 for k in COUNTS]
        logged = usage.get("cost")
        self._paid(at, tokens, logged.get("total") if isinstance(logged, dict) else None, provider, model, window,
                   context)

    def _paid(self, at: int | None, tokens: list[int], logged: object, provider: object, model: object,
              window: object, context: bool = True) -> None:
        """One answer: its tokens (input, output, cacheRead, cacheWrite) and the cost the log says
        of it in USD (else None), to every share it belongs to."""
        name = model if isinstance(model, str) and model else None
        cost = self._cost(logged, provider if isinstance(provider, str) and provider else None, name, tokens)
        _add(self.total, tokens, cost)
        if name is not None:
            _add(self.models.setdefault(name, _share()), tokens, cost)
        if at is not None:
            quarter = at // 900_000
            day = self._days.get(quarter)
            if day is None:
                day = self._days[quarter] = time.strftime("%Y-%m-%d", time.localtime(at / 1000))
            _add(self.days.setdefault(day, _share()), tokens, cost)
        if self.turns:
            _add(self.turns[-1], tokens, cost)
        if len(self.doing) == 1:
            _add(self.items[self.doing[0]], tokens, cost)
        elif self.doing:
            if self._shared is None:
                self._shared = _Shared(len(self.doing))
            self._shared.add(tokens, cost)
        else:
            _add(self.unplanned, tokens, cost)
        if context:
            # (what the context is, worked out only when a view asks: ``context``)
            if window is not None and type(window) is int and window > 0 and name is not None:
                self.windows[name] = window  # (the log said it: it holds for the model's later answers too)
            self._last = (sum(tokens), name, provider, window)
            if self.compactions and self.compactions[-1]["after"] is None:
                self.compactions[-1]["after"] = self._last[0]

    def _cost(self, logged: object, provider: str | None, model: str | None, tokens: list[int]) -> int | None:
        """The answer's cost in millionths of a dollar: the log's (``logged``, USD), else the
        table's; None when neither says it."""
        if isinstance(logged, (int, float)) and not isinstance(logged, bool) and 0 <= logged < 1e9:
            self._from("log")
            return round(logged * 1_000_000)
        if model is None or self.pricer is None or not any(tokens):
            return 0 if not any(tokens) else None
        rates = self._rates_of(provider, model)
        if rates is None:
            if model not in self.unpriced:
                self.unpriced.append(model)
            return None
        self._from("prices")
        return rates.micro_dollars(tokens)

    def _rates_of(self, provider: str | None, model: str) -> Rates | None:
        key = (provider, model)
        if key not in self._rates and self.pricer is not None:
            self._rates[key] = self.pricer(provider, model)
        return self._rates.get(key)

    def _share_out(self) -> None:
        """What the items in progress were given since they last changed, added to them: the time
        (the clock only moves forward, so the time of each step adds up to the last time less the
        first) and the answers summed while several were in progress."""
        if self.doing and self._ms_from is not None and self.last_ms is not None and self.last_ms > self._ms_from:
            for key in self.doing:
                self.items[key]["ms"] += self.last_ms - self._ms_from
        self._ms_from = self.last_ms
        if self._shared is not None:
            shared, self._shared = self._shared, None
            shared.share_out([self.items[key] for key in self.doing])

    def _from(self, source: str) -> None:
        if source not in self.sources:
            self.sources.append(source)

    @property
    def context(self) -> Context | None:
        """The last answer's context (tokens, window, model), once there was one."""
        if self._last is not None:
            self._context(*self._last)
            self._last = None
        return self._context_was

    def _context(self, used: int, model: str | None, provider: object, window: object) -> None:
        if type(window) is int and window > 0 and model is not None:
            self.windows[model] = window
        size = self.windows.get(model or "")
        if size is None and model is not None and self.pricer is not None:
            rates = self._rates_of(provider if isinstance(provider, str) and provider else None, model)
            size = rates.window if rates is not None else None
        if size is not None and used > size:  # (Claude's long-context variants say so only by using it)
            size = None
        self._context_was = {"tokens": used, "window": size, "model": model}

    # -- what views read --------------------------------------------------------------------------

    def json(self, plan: object = None) -> UsageJson:
        """What views read. ``plan``: the todo list the log's current branch ends with, when the
        file has branches (pi's ``/tree``): an item's status and whether it was deleted are that
        list's, not the newest list of the file, which may sit on a branch left behind."""
        self._share_out()
        items: list[ItemJson] = []
        statuses: dict[str, str] | None = None
        if isinstance(plan, list):
            statuses = {}
            for todo in plan:
                if isinstance(todo, dict) and isinstance(todo.get("content"), str):
                    status = todo.get("status")
                    statuses[f"{todo.get('id', '')}\0{todo['content']}"] = status if isinstance(status, str) else "pending"
        newest = set(self.plan)
        for key, item in self.items.items():
            if not item["answers"] and not item["ms"]:
                continue
            if statuses is None:
                status, deleted = item.get("status", "pending"), key not in newest
            else:
                status, deleted = statuses.get(key, item.get("status", "pending")), key not in statuses
            items.append({"id": item["id"], "content": item["content"], "status": status,
                          "deleted": deleted, "inProgressMs": item["ms"], **_share_json(item)})
        context: ContextJson | None = None
        if self.context is not None:
            size = self.context["window"]
            context = {"tokens": self.context["tokens"], "window": size, "model": self.context["model"],
                       "share": round(self.context["tokens"] / size, 4) if size else None}
        sources = self.sources
        return {
            **_share_json(self.total),
            "costFrom": "both" if len(sources) > 1 else sources[0] if sources else None,
            "unpriced": list(self.unpriced),
            "models": {k: _share_json(v) for k, v in self.models.items()},
            "days": {k: _share_json(v) for k, v in sorted(self.days.items())},
            "context": context,
            "compactions": [c.copy() for c in self.compactions],
            "items": items,
            "unplanned": _share_json(self.unplanned),
            "turns": [{"at": t["at"], **_share_json(t)} for t in self.turns],
        }


def _share_json(share: Share) -> ShareJson:
    tokens = share["tokens"]
    return {"answers": share["answers"],
            "tokens": {"input": tokens[0], "output": tokens[1], "cacheRead": tokens[2], "cacheWrite": tokens[3],
                       "total": sum(tokens)},
            "cost": round(share["cost"] / 1_000_000, 6) if share["priced"] else None}

