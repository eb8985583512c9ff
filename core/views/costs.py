"""What a conversation used and cost, in the words and cells the front ends draw
(docs/usage.md): the header's cost, context bar and compaction mark, the overview's cost and
context cells, and what one plan item or one turn cost.

Everything here reads a ``UsageJson`` (``core.usage.of_log.usage_of``) and only formats it: a
model the price table does not know is named ("no price for MODEL"), never shown as $0.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from core.clock import iso_ms
from core.sources.plan import cost_text
from core.usage.ledger import CompactionJson, ItemJson, ShareJson, TurnJson, UsageJson

__all__ = ["UsageJson", "usage_of"]  # (what the front ends read of core/usage: they reach it through the views)

def short_count(n: int) -> str:
    """``950``, ``12.3k``, ``48k``, ``1.2M``."""
    for size, unit in ((1_000_000, "M"), (1000, "k")):
        if n >= size:
            value = n / size
            return f"{value:.1f}{unit}" if value < 10 else f"{value:.0f}{unit}"
    return str(n)


BAR_CELLS = 8
FULL, EMPTY = "█", "░"


def usage_of(log: Any) -> UsageJson | None:
    """``core.usage.of_log.usage_of``: what a screen's own log (the timeline's) used and cost."""
    from core.usage.of_log import usage_of as of_log

    return of_log(log)


def money(cost: float | None) -> str:
    """``$0.0094``; ``""`` for None (nothing priced)."""
    return "" if cost is None else cost_text(cost)


def cost_words(usage: UsageJson) -> str:
    """The cost so far: ``$0.0094``; with models the table has no price for, ``no price for
    MODEL`` (after the priced part's cost when some answers were priced)."""
    parts = [money(usage["cost"])] if usage["cost"] is not None else []
    unpriced = usage["unpriced"]
    if unpriced:
        more = f" +{len(unpriced) - 1}" if len(unpriced) > 1 else ""
        parts.append(f"no price for {unpriced[0]}{more}")
    return " + ".join(parts)


def bar(share: float, cells: int = BAR_CELLS) -> str:
    """``███░░░░░``: ``share`` of ``cells`` filled (a sliver shows as one cell, a full one fills all)."""
    filled = min(cells, max(0, round(share * cells)))
    if share > 0 and filled == 0:
        filled = 1
    return FULL * filled + EMPTY * (cells - filled)


def percent(share: float) -> str:
    """``42%``; ``<1%`` for a sliver."""
    return "<1%" if 0 < share < 0.005 else f"{share * 100:.0f}%"


@dataclass(frozen=True)
class Meter:
    """The header's usage: its cost words, the context (share of the window, else its tokens) and
    the last compaction's mark."""

    cost: str = ""
    share: float | None = None
    context_tokens: int | None = None
    compacted: str = ""

    @property
    def empty(self) -> bool:
        return not (self.cost or self.share is not None or self.context_tokens is not None or self.compacted)

    def context_text(self) -> str:
        """``ctx ███░░░░░ 42%`` where the window is known, else ``ctx 84k``; ``""`` without either."""
        if self.share is not None:
            return f"ctx {bar(self.share)} {percent(self.share)}"
        if self.context_tokens is not None:
            return f"ctx {short_count(self.context_tokens)}"
        return ""


def meter(usage: UsageJson | None) -> Meter:
    if usage is None:
        return Meter()
    context = usage["context"]
    compactions = usage["compactions"]
    return Meter(cost_words(usage), context["share"] if context else None, context["tokens"] if context else None,
                 compaction_words(compactions[-1]) if compactions else "")


def compaction_words(compaction: CompactionJson) -> str:
    """``compacted 182k→40k`` (``?`` for a side the log does not say)."""
    before, after = compaction.get("before"), compaction.get("after")
    return (f"compacted {short_count(before) if isinstance(before, int) else '?'}"
            f"→{short_count(after) if isinstance(after, int) else '?'}")


def duration(ms: int) -> str:
    """``45 s``, ``1 min 35 s``, ``3 h 5 min``, ``2 d 4 h``: how long, in its two largest units."""
    seconds = max(ms // 1000, 0)
    if seconds < 60:
        return f"{seconds} s"
    minutes, seconds = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes} min {seconds} s" if seconds else f"{minutes} min"
    hours, minutes = divmod(minutes, 60)
    if hours < 24:
        return f"{hours} h {minutes} min" if minutes else f"{hours} h"
    days, hours = divmod(hours, 24)
    return f"{days} d {hours} h" if hours else f"{days} d"


def share_words(share: ShareJson) -> str:
    """``12.3k tokens · $0.0041`` (``answers`` is not said: a turn or an item is read by its cost)."""
    words = f"{short_count(share['tokens']['total'])} tokens"
    return words + (f" · {money(share['cost'])}" if share["cost"] is not None else "")


def usage_words(usage: UsageJson) -> str:
    """``438k tokens in 4 answers · $0.3750``: the whole conversation's (the Conversation pane's)."""
    words = f"{short_count(usage['tokens']['total'])} tokens in {usage['answers']} answer{'' if usage['answers'] == 1 else 's'}"
    return words + (f" · {cost}" if (cost := cost_words(usage)) else "")


def item_of(usage: UsageJson | None, item_id: str, content: str) -> ItemJson | None:
    """What the plan item ``(item_id, content)`` cost, or None when it cost nothing."""
    if usage is None:
        return None
    return next((i for i in usage["items"] if i["id"] == item_id and i["content"] == content), None)


def item_words(item: ItemJson | None) -> str:
    """``12.3k tokens · $0.0041 · 2 min in progress``; ``""`` for an item that cost nothing."""
    if item is None or not (item["answers"] or item["inProgressMs"]):
        return ""
    words = share_words(item) if item["answers"] else ""
    if item["inProgressMs"]:
        words += f"{' · ' if words else ''}{duration(item['inProgressMs'])} in progress"
    return words


def spent_by_item(usage: UsageJson | None) -> dict[tuple[str, str], str]:
    """``item_words`` of every item that cost something, by (id, content)."""
    if usage is None:
        return {}
    return {(i["id"], i["content"]): words for i in usage["items"] if (words := item_words(i))}


def goal_costs(usage: UsageJson | None, todos: Sequence[Any]) -> dict[str | None, float]:
    """What the todos of each group (the goal table's rows; an agent's plan is one row, its
    items ungrouped) cost, of those whose cost is known; a group none of whose todos cost anything
    is not in it."""
    out: dict[str | None, float] = {}
    for todo in todos:
        item = item_of(usage, todo.id, todo.content)
        if item is not None and item["cost"] is not None:
            out[todo.group] = out.get(todo.group, 0.0) + item["cost"]
    return out


def turn_at(turns: Sequence[TurnJson], timestamp: str | None) -> TurnJson | None:
    """The turn ``timestamp`` falls in: the last whose prompt came at or before it."""
    at = iso_ms(timestamp)
    if at is None:
        return None
    found = None
    for turn in turns:
        start = iso_ms(turn["at"])
        if start is not None and start <= at:
            found = turn
    return found


def cost_cell(cost: float | None) -> str:
    """The overview's cost cell: blank when nothing was priced."""
    return money(cost)


def context_cell(share: float | None) -> str:
    """The overview's context cell: ``42%``, blank when the window is not known."""
    return "" if share is None else percent(share)
