"""Budgets (docs/attention.md#budgets): a conversation over a budget of `[budget]` is **over budget**,
one whose last answer filled `context_percent` of its window **context nearly full**, ranked right
after "needs you", told once per crossing (docs/notifications.md), counted by `pideck status`. On
the real samples (tests/fixtures/agent-transcripts): Claude Code's Task-tools run costs $0.00495 by
the end of its first turn and $0.00945 in all, Codex's $0.00935 (their models' prices)."""

from __future__ import annotations

import io
import json
import os
from datetime import datetime, timezone
from pathlib import Path

import pytest

from discovery_helpers import BETWEEN_TURNS, CLAUDE_TASKS, CLAUDE_TODOWRITE, CODEX, SESSION_IDS, sample_input

from core.catalog.catalog import Catalog
from core.catalog.notify import Notifier, choose, deliver, notification_text
from core.catalog.overview import Overview
from core.config.settings import BudgetConfig, ConfigError, NotifyConfig, load_budget_config, set_config_value
from core.deck.deck import Deck
from core.session.log import SessionLog
from core.sources.log import ConversationLog
from core.sources.reading import Reading
from core.usage.of_log import usage_of

NOW_MS = int(datetime(2026, 12, 1, 7, 20, tzinfo=timezone.utc).timestamp() * 1000)
"""A few minutes after the samples' answers: the same local day as theirs, wherever the test runs."""
DAY_MS = 86_400_000
LOCAL_DAY = datetime.fromtimestamp(NOW_MS / 1000).strftime("%Y-%m-%d")
OPEN_TODO = {"todos": [{"id": "t1", "content": "Parse", "status": "in_progress", "priority": "high", "confidence": 80}]}


def catalog_of(homes, budget: BudgetConfig, now_ms: int = NOW_MS) -> Catalog:
    return Catalog(homes.cwd, budget=budget, now_ms=lambda: now_ms)


def claude_tasks(homes, lines: int | None = None) -> Path:
    """The Task-tools conversation (its first ``lines``), its Claude Code running and idle."""
    path = homes.install(CLAUDE_TASKS, lines=lines)
    homes.claude_live(os.getpid(), SESSION_IDS[CLAUDE_TASKS], "idle")
    return path


def narrow_codex(homes) -> Path:
    """Codex's rollout as if its model's window were 80 tokens: its last answer (70) fills 88%."""
    path = homes.install(CODEX)
    path.write_text(path.read_text().replace('"model_context_window":258400', '"model_context_window":80'))
    return path


class Told:
    """A notifier fed each look of ``catalog``, its notifications written as the terminal gets them
    (OSC 777, as foot takes it)."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self.notifier = Notifier(NotifyConfig(per_conversation_s=0))
        self.choice = choose(NotifyConfig(), {"TERM": "foot"}, "linux", lambda name: None)
        self.out = io.StringIO()

    def look(self, now: int, on_screen: str | None = None) -> list[str]:
        """The notifications of one look, as the terminal got them."""
        before = len(self.out.getvalue())
        told = self.notifier.take(self.catalog.look(), self.catalog.records, now, lambda path: path == on_screen)
        for record in told:
            deliver(self.choice, notification_text(record), write=self.out.write, run=lambda argv: None)
        return self.out.getvalue()[before:].split("\x07")[:-1]


OVER = "\x1b]777;notify;pideck;Claude Code conversation 2aa06482 over budget: $0.0095 of $0.0050 for this conversation (conversation_usd)"


def test_a_crossing_is_told_once_until_it_drops_below_and_crosses_again(homes, pideck) -> None:
    path = str(claude_tasks(homes, BETWEEN_TURNS[CLAUDE_TASKS]))
    told = Told(catalog_of(homes, BudgetConfig(conversation_usd=0.005)))
    assert told.look(0) == []
    assert told.catalog.records[path].attention.state == "stopped with open work"  # ($0.00495: under)
    claude_tasks(homes)  # its second turn
    assert told.look(1_000) == [OVER]
    assert told.look(2_000) == []
    # an ask, then the agent goes on: the ask is told, the crossing not again
    pideck("hook", "claude", stdin=json.dumps(sample_input("claude-notification.json", homes, CLAUDE_TASKS)))
    assert told.look(3_000) == ["\x1b]777;notify;pideck;Claude Code conversation 2aa06482 needs you: Claude needs "
                                "your permission to use Bash"]
    pideck("hook", "claude", stdin=json.dumps(sample_input("claude-user-prompt-submit.json", homes, CLAUDE_TASKS)))
    assert told.look(4_000) == []
    assert told.catalog.records[path].attention.state == "over budget"
    # the budget raised above what it spent: under it; lowered again: a crossing anew, told
    told.catalog.budget = BudgetConfig(conversation_usd=0.01)
    assert told.look(5_000) == []
    assert told.catalog.records[path].attention.state == "waiting"
    told.catalog.budget = BudgetConfig(conversation_usd=0.005)
    assert told.look(6_000) == [OVER]


def test_never_for_the_conversation_on_screen_nor_for_one_over_at_the_start(homes) -> None:
    path = str(claude_tasks(homes, BETWEEN_TURNS[CLAUDE_TASKS]))
    told = Told(catalog_of(homes, BudgetConfig(conversation_usd=0.005)))
    assert told.look(0) == []
    claude_tasks(homes)
    assert told.look(1_000, on_screen=path) == []  # the person sees it
    assert told.look(2_000) == []  # (dropped, not held)
    assert told.catalog.records[path].attention.state == "over budget"
    again = Told(catalog_of(homes, BudgetConfig(conversation_usd=0.005)))  # the app started again
    assert again.look(0) == [] and again.look(1_000) == []  # over budget already: no crossing


@pytest.mark.parametrize("budget, evidence", [
    (BudgetConfig(conversation_usd=0.005), "$0.0095 of $0.0050 for this conversation (conversation_usd)"),
    (BudgetConfig(conversation_tokens=1000), "1,470 of 1,000 tokens for this conversation (conversation_tokens)"),
    (BudgetConfig(day_usd=0.009), "$0.0095 of $0.0090 today, all conversations together (day_usd)"),
    (BudgetConfig(day_tokens=1000), "1,470 of 1,000 tokens today, all conversations together (day_tokens)"),
    # its second task had 4 answers of the 21
    (BudgetConfig(item_usd=0.0015), '$0.0018 of $0.0015 on the item "Add the --session flag" (item_usd)'),
    (BudgetConfig(item_tokens=250), '280 of 250 tokens on the item "Add the --session flag" (item_tokens)'),
    (BudgetConfig(item_usd=0.0015, conversation_tokens=1000),  # the conversation's first
     "1,470 of 1,000 tokens for this conversation (conversation_tokens)"),
])
def test_the_evidence_says_which_budget_and_the_numbers(homes, budget, evidence) -> None:
    path = str(claude_tasks(homes))
    catalog = catalog_of(homes, budget)
    catalog.look()
    attention = catalog.records[path].attention
    assert (attention.state, attention.evidence) == ("over budget", evidence)


def test_the_day_budget_is_every_conversations_today_together(homes) -> None:
    paths = [str(claude_tasks(homes)), str(homes.install(CODEX))]  # $0.00945 + $0.00935: each under $0.0095
    catalog = catalog_of(homes, BudgetConfig(day_usd=0.0095))
    catalog.look()
    assert [(r.attention.state, r.attention.evidence) for r in map(catalog.records.get, paths)] == [
        ("over budget", "$0.0188 of $0.0095 today, all conversations together (day_usd)")] * 2
    day = catalog.records[paths[0]].row.day
    assert day == LOCAL_DAY and catalog.records[paths[0]].crossed == (f"day_usd {day}",)
    tomorrow = catalog_of(homes, BudgetConfig(day_usd=0.0095), NOW_MS + DAY_MS)  # nothing spent that day
    tomorrow.look()
    assert [tomorrow.records[p].attention.state for p in paths] == ["waiting", "waiting"]


def test_context_nearly_full(homes) -> None:
    path = str(narrow_codex(homes))
    catalog = catalog_of(homes, BudgetConfig(context_percent=85))
    catalog.look()
    attention = catalog.records[path].attention
    assert (attention.state, attention.evidence) == (
        "context nearly full", "the last answer filled 88% of the context window (context_percent 85)")
    catalog.budget = BudgetConfig(context_percent=90)
    catalog.look()
    assert catalog.records[path].attention.state == "waiting"


def test_ranked_right_after_needs_you_and_counted_by_status(homes, pideck) -> None:
    claude_tasks(homes)  # $0.00945: over $0.0094
    narrow_codex(homes)  # $0.00935: under, its context 88% full
    homes.install(CLAUDE_TODOWRITE, lines=BETWEEN_TURNS[CLAUDE_TODOWRITE])
    homes.claude_live(os.getppid(), SESSION_IDS[CLAUDE_TODOWRITE], "idle")
    pideck("hook", "claude", stdin=json.dumps(sample_input("claude-notification.json", homes, CLAUDE_TODOWRITE)))
    Deck(SessionLog.create_for_cwd(homes.cwd)).call_tool("todo", OPEN_TODO)
    (homes.cwd.parent / "config.toml").write_text("[budget]\nconversation_usd = 0.0094\ncontext_percent = 85\n")
    # `pideck status` never loads the price table: what no earlier run priced has no cost for it yet
    assert pideck("status") == (0, "1 needs you · 1 context nearly full · 1 working · 1 waiting\n", "")
    assert pideck("overview", "--json")[0] == 0  # (prices with the table, and keeps the rates)
    assert pideck("status") == (0, "1 needs you · 1 over budget · 1 context nearly full · 1 working\n", "")
    catalog = Catalog(homes.cwd)
    catalog.look()
    assert [(r.kind, r.attention.state) for r in catalog.ranked()] == [
        ("claude", "needs you"), ("claude", "over budget"), ("codex", "context nearly full"), ("pideck", "working")]


def test_a_conversations_usage_is_kept_with_its_reading(homes) -> None:
    """The catalog's fold of a conversation is written with its reading's cache: a new process, or
    the conversation's own log, takes it from there (docs/caches.md)."""
    path = claude_tasks(homes)
    (row,) = Overview(homes.cwd).refresh().changed
    assert (row.cost, row.tokens_total) == (0.00945, 1470)
    reading = Reading(path, "claude")
    reading.sync()
    kept = reading.kept("usage")
    assert kept is not None and kept["covers"] == reading.count == 37
    usage = usage_of(ConversationLog.open_transcript(path))
    assert usage is not None and (usage["cost"], usage["tokens"]["total"]) == (0.00945, 1470)
    assert Overview(homes.cwd).refresh().changed == [row]


def test_budget_settings_are_checked(homes) -> None:
    config = homes.cwd.parent / "config.toml"
    config.write_text('[budget]\nconversation_usd = 2\nday_usd = "five"\nitem_tokens = -3\ncontext_percent = 120\n'
                      'month_usd = 9\n')
    assert load_budget_config(config) == (BudgetConfig(conversation_usd=2.0), [
        f'{config}: day_usd must be a number of dollars of at least 0, 0 for none (got \'five\'); using 0.0.',
        f"{config}: item_tokens must be an integer of at least 0 (got -3); using 0.",
        f"{config}: context_percent must be an integer from 0 to 100, 0 for none (got 120); using 0.",
        f"{config}: unknown key 'month_usd' ignored.",
    ])
    set_config_value("budget.day_usd", "7.5")
    set_config_value("budget.context_percent", "85")
    assert load_budget_config(config)[0] == BudgetConfig(conversation_usd=2.0, day_usd=7.5, context_percent=85)
    with pytest.raises(ConfigError, match=r"context_percent must be an integer from 0 to 100, 0 for none \(got 101\)"):
        set_config_value("budget.context_percent", "101")
    with pytest.raises(ConfigError, match=r"item_usd must be a number of dollars of at least 0, 0 for none \(got -1\)"):
        set_config_value("budget.item_usd", "-1")
    with pytest.raises(ConfigError, match=r"day_usd must be a number of dollars of at least 0, 0 for none \(got True\)"):
        set_config_value("budget.day_usd", True)


def test_every_budget_key_is_documented() -> None:
    docs = (Path(__file__).parents[2] / "docs" / "attention.md").read_text()
    for key in BudgetConfig._fields:
        assert f"| `{key}` |" in docs, key
