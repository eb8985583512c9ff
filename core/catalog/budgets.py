"""Budgets (docs/attention.md#budgets): which of ``[budget]``'s limits a row crossed, and the state
that makes of it: **over budget** (a limit of dollars or tokens: the conversation's, the day's of
every conversation in scope together, a plan item's) or **context nearly full** (its last answer
filled ``context_percent`` or more of the model's window).

Each crossing has a key saying which limit and of what (``conversation_usd``, ``day_usd
2026-12-02``, ``item_tokens Write the tests``, ``context_percent``): a notification is told once
per key, and again only after the key was gone from the row for a look (it dropped below, a new
day began) and came back (core/catalog/notify.py).
"""

from __future__ import annotations

import time
from typing import Iterable, NamedTuple

from core.catalog.attention import Attention
from core.catalog.rows import OverviewRow
from core.catalog.states import CONTEXT_FULL, ENDED, NEEDS_YOU, OVER_BUDGET
from core.config.settings import BudgetConfig
from core.sources.plan import cost_text, first_line

CONTEXT = "context_percent"
ITEM_TEXT = 60
"""Characters of an item's text in the evidence at most."""


class Crossing(NamedTuple):
    key: str  # which limit, of what (the module's docstring)
    evidence: str  # in a person's words, with the numbers


def day_of(now_ms: int) -> str:
    """The local date at ``now_ms``, as the ledger names its days (core/usage/ledger.py)."""
    return time.strftime("%Y-%m-%d", time.localtime(now_ms / 1000))


def next_day_ms(now_ms: int) -> int:
    """When the local date after ``now_ms``'s begins (the day's budget starts again)."""
    t = time.localtime(now_ms / 1000)
    midnight = time.mktime((t.tm_year, t.tm_mon, t.tm_mday + 1, 0, 0, 0, 0, 0, -1))
    return int(midnight * 1000)


def day_spent(rows: Iterable[OverviewRow], today: str) -> tuple[float, int]:
    """Dollars and tokens of today's answers of every row together."""
    cost, tokens = 0.0, 0
    for row in rows:
        if row.day == today:
            cost += row.cost_day or 0.0
            tokens += row.tokens_day
    return cost, tokens


def crossings(row: OverviewRow, budget: BudgetConfig, today: str, day: tuple[float, int]) -> list[Crossing]:
    """The limits ``row`` is over now, the conversation's first, then the day's, a plan item's, the
    context's; ``day``: what every row in scope spent ``today`` (``day_spent``)."""
    found: list[Crossing] = []
    if budget.conversation_usd and row.cost is not None and row.cost > budget.conversation_usd:
        found.append(Crossing("conversation_usd", f"{cost_text(row.cost)} of {cost_text(budget.conversation_usd)} "
                                                  "for this conversation (conversation_usd)"))
    if budget.conversation_tokens and (row.tokens_total or 0) > budget.conversation_tokens:
        found.append(Crossing("conversation_tokens", f"{row.tokens_total:,} of {budget.conversation_tokens:,} tokens "
                                                     "for this conversation (conversation_tokens)"))
    spent_today = row.day == today and (bool(row.cost_day) or row.tokens_day > 0)
    if budget.day_usd and spent_today and day[0] > budget.day_usd:
        found.append(Crossing(f"day_usd {today}", f"{cost_text(day[0])} of {cost_text(budget.day_usd)} today, "
                                                  "all conversations together (day_usd)"))
    if budget.day_tokens and spent_today and day[1] > budget.day_tokens:
        found.append(Crossing(f"day_tokens {today}", f"{day[1]:,} of {budget.day_tokens:,} tokens today, "
                                                     "all conversations together (day_tokens)"))
    if budget.item_usd and row.item_cost is not None and row.item_cost > budget.item_usd:
        name = row.item_cost_name or ""
        found.append(Crossing(f"item_usd {name}", f"{cost_text(row.item_cost)} of {cost_text(budget.item_usd)} "
                                                  f"on the item \"{first_line(name, ITEM_TEXT)}\" (item_usd)"))
    if budget.item_tokens and row.item_tokens > budget.item_tokens:
        name = row.item_tokens_name or ""
        found.append(Crossing(f"item_tokens {name}", f"{row.item_tokens:,} of {budget.item_tokens:,} tokens "
                                                     f"on the item \"{first_line(name, ITEM_TEXT)}\" (item_tokens)"))
    share = row.context_share
    if budget.context_percent and share is not None and share * 100 >= budget.context_percent:
        found.append(Crossing(CONTEXT, f"the last answer filled {share * 100:.0f}% of the context window "
                                       f"(context_percent {budget.context_percent})"))
    return found


def judged(state: Attention, row: OverviewRow, budget: BudgetConfig, today: str,
           day: tuple[float, int]) -> tuple[Attention, tuple[str, ...], str | None]:
    """The row's state with its budgets: over budget, else context nearly full, in place of any
    state but needs you (the person is asked already) and ended (nothing more is spent); with the
    keys of every limit crossed, and the key of the one the state shows (None: it shows none)."""
    found = crossings(row, budget, today, day)
    keys = tuple(c.key for c in found)
    if not found or state.state in (NEEDS_YOU, ENDED):
        return state, keys, None
    over = [c for c in found if c.key != CONTEXT]
    shown = over[0] if over else found[0]
    return Attention(OVER_BUDGET if over else CONTEXT_FULL, row.last_activity_ms, shown.evidence), keys, shown.key
