"""``pideck usage``'s report (docs/usage-report.md): the usage of many logs (``usage_of``'s ledger
of each), added up by day, by agent or by conversation over a range of local dates, or one
conversation's by plan item, as one JSON object.

Sums are made of each ledger's own shares (whole tokens and millionths of a dollar, the count of
answers priced among them: core/usage/ledger.py), so the rows add up to the total exactly and a
row knows how many of its answers no price was found for. A row's ``cost`` is what its priced
answers cost (None when none was priced); ``unpricedAnswers`` says how many were not, and the
report's ``unpriced`` names their models: such answers count with their tokens, never at $0.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, TypedDict

from core.usage.ledger import TokensJson

if TYPE_CHECKING:
    from core.usage.ledger import Ledger, Share

By = Literal["day", "agent", "conversation", "item"]
BY: tuple[By, ...] = ("day", "agent", "conversation", "item")


class SumJson(TypedDict):
    answers: int
    unpricedAnswers: int  # answers no price was found for (their tokens count, their cost does not)
    tokens: TokensJson
    cost: float | None  # USD of the priced answers; None when none was priced


class _ReportJson(TypedDict):
    by: By
    scope: str | None  # the directory reported on; None: every directory
    since: str | None
    until: str | None
    conversations: int  # logs with answers in the range
    rows: list[dict[str, Any]]  # each a SumJson with what it is of (day, agent, conversation, item)
    total: SumJson
    unpriced: list[str]  # models without a price among the answers counted


class ReportJson(_ReportJson, total=False):
    """``pideck usage --json`` (docs/usage-report.md#json); ``--session`` adds its path, ``--by
    item`` the conversation's kind, id and name and what no item was in progress for."""

    session: str  # the conversation's path (``--session``)
    agent: str
    id: str
    name: str
    unplanned: SumJson


@dataclass
class Sum:
    """Answers added up: tokens as ``(input, output, cacheRead, cacheWrite)``, cost in millionths
    of a dollar of the ``priced`` answers among them."""

    answers: int = 0
    tokens: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    micros: int = 0
    priced: int = 0

    @classmethod
    def of(cls, share: Share) -> Sum:
        """A ledger's share, in the form the ledger keeps it (``answers``, ``tokens`` as four
        counts, ``cost`` in millionths, ``priced``: core/usage/ledger.py)."""
        return cls(share["answers"], list(share["tokens"]), share["cost"], share["priced"])

    def add(self, other: Sum) -> None:
        self.answers += other.answers
        self.tokens = [a + b for a, b in zip(self.tokens, other.tokens)]
        self.micros += other.micros
        self.priced += other.priced

    @property
    def total_tokens(self) -> int:
        return sum(self.tokens)

    @property
    def cost(self) -> float | None:
        return round(self.micros / 1_000_000, 6) if self.priced else None

    def json(self) -> SumJson:
        t = self.tokens
        return {"answers": self.answers, "unpricedAnswers": self.answers - self.priced,
                "tokens": {"input": t[0], "output": t[1], "cacheRead": t[2], "cacheWrite": t[3], "total": sum(t)},
                "cost": self.cost}


@dataclass(frozen=True)
class Conversation:
    """One log's usage, as the report needs it: what it is, and its ledger."""

    path: str
    agent: str  # the kind: claude, codex, gemini, qwen, opencode, copilot, pi, pideck
    name: str  # the first prompt of a conversation, a session's name, else the file's name (the log's text)
    id: str  # the session id
    cwd: str | None
    ledger: Ledger

    def days(self, since: str | None, until: str | None) -> dict[str, Sum]:
        """Its answers by local date, within ``since`` .. ``until`` (inclusive; None: open)."""
        return {day: Sum.of(share) for day, share in self.ledger.days.items()
                if (since is None or day >= since) and (until is None or day <= until)}

    def within(self, since: str | None, until: str | None) -> Sum:
        """Its answers within the range; without one, all of them (an answer without a time too)."""
        if since is None and until is None:
            return Sum.of(self.ledger.total)
        whole = Sum()
        for part in self.days(since, until).values():
            whole.add(part)
        return whole


def report(conversations: list[Conversation], by: By, *, scope: str | None, since: str | None = None,
           until: str | None = None, session: str | None = None) -> ReportJson:
    """The report of ``conversations`` by ``by`` (``item``: of the one conversation given, whole);
    ``session``: they are the one conversation at that path."""
    if by == "item":
        (one,) = conversations
        return item_report(one, scope)
    total, counted = Sum(), 0
    groups: dict[str, Sum] = {}
    about: dict[str, dict[str, Any]] = {}  # what each row is of
    unpriced: list[str] = []
    for c in conversations:
        days = c.days(since, until)
        whole = c.within(since, until)
        if by == "day":  # (the days' rows add up to the total: an answer without a time has no day)
            whole = Sum()
            for part in days.values():
                whole.add(part)
        if not whole.answers:
            continue
        counted += 1
        total.add(whole)
        if whole.answers > whole.priced:
            unpriced += [m for m in c.ledger.unpriced if m not in unpriced]
        if by == "day":
            for day, part in days.items():
                groups.setdefault(day, Sum()).add(part)
                about[day] = {"day": day}
        elif by == "agent":
            groups.setdefault(c.agent, Sum()).add(whole)
            about.setdefault(c.agent, {"agent": c.agent, "conversations": 0})["conversations"] += 1
        else:
            groups[c.path] = whole
            about[c.path] = {"path": c.path, "agent": c.agent, "id": c.id, "name": c.name, "cwd": c.cwd}
    # (days in order; agents and conversations the costliest first, then by tokens)
    keys = sorted(groups) if by == "day" else sorted(groups, key=lambda k: (-groups[k].micros,
                                                                           -groups[k].total_tokens, k))
    result: ReportJson = {"by": by, "scope": scope, "since": since, "until": until, "conversations": counted,
                          "rows": [{**about[k], **groups[k].json()} for k in keys], "total": total.json(),
                          "unpriced": unpriced}
    if session is not None:
        result["session"] = session
    return result


def item_report(one: Conversation, scope: str | None) -> ReportJson:
    """One conversation by plan item: each item ever in progress when an answer was made (deleted
    ones too), what no item was in progress for, and the whole, which they add up to."""
    ledger = one.ledger
    total = Sum.of(ledger.total)
    rows = [{"id": item["id"], "content": item["content"], "status": item["status"], "deleted": item["deleted"],
             "inProgressMs": item["inProgressMs"],
             # (the ledger's own share of the item, keyed as it keys them: its unpriced answers known)
             **Sum.of(ledger.items[f"{item['id']}\0{item['content']}"]).json()}
            for item in ledger.json()["items"]]
    return {"by": "item", "scope": scope, "since": None, "until": None, "conversations": 1 if total.answers else 0,
            "rows": rows, "total": total.json(),
            "unpriced": list(ledger.unpriced) if total.answers > total.priced else [],
            "session": one.path, "agent": one.agent, "id": one.id, "name": one.name, "unplanned": Sum.of(ledger.unplanned).json()}
