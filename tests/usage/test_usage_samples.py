"""Usage on every real conversation and the pi fixtures (usage_samples.py): each answer counted
once, with its own tokens, as the agent's own accounting counts the conversation; each plan
item's share of it; and the items with ``unplanned`` adding up to the total exactly, in tokens
and in millionths of a dollar (docs/usage.md)."""

from __future__ import annotations

import json
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest
from genai_prices import Usage, calc_price

from usage.usage_samples import AGENTS, CASES, Case

from core.catalog.opening import open_log
from core.usage.ledger import Ledger
from core.usage.of_log import pricer, usage_of, wanted

COUNTS = ("input", "output", "cacheRead", "cacheWrite")


def opened(case: Case, tmp_path: Path) -> tuple[Any, Path]:
    path = case.open(tmp_path / "home")
    return open_log(path, writable=False), path


def micro(dollars: float | None) -> int | None:
    return None if dollars is None else round(dollars * 1_000_000)


def per_answer(case: Case) -> int | None:
    """One fake answer's cost (50 in, 20 out) in millionths of a dollar, as genai-prices' own
    ``calc_price`` says it: 0 where the agent's store says its cost (opencode's $0), None for a
    model the table does not know."""
    if case.provider == "fake":
        return 0
    try:
        price = calc_price(Usage(input_tokens=50, output_tokens=20), case.model or "", provider_id=case.provider)
    except LookupError:
        return None
    return round(float(price.total_price) * 1_000_000)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_every_answer_counts_once_as_the_agent_counts_it(case: Case, tmp_path: Path) -> None:
    log, path = opened(case, tmp_path)
    usage = usage_of(log)
    tally = case.tally(path)
    assert usage is not None
    assert [usage["tokens"][k] for k in COUNTS] == tally.tokens
    if tally.answers is not None:
        assert usage["answers"] == tally.answers
    if case.model is not None:  # an agent's: one usage entry per answer, with the answer's own tokens
        answers = [r.load() for r in log.records if r.type == "usage"]
        assert len(answers) == usage["answers"] == sum(tally.tokens) // 70
        assert {(a["kind"], a["provider"], a["model"]) for a in answers} == {("answer", case.provider, case.model)}
        assert [a["usage"]["totalTokens"] for a in answers] == [70] * len(answers)
        assert [[a["usage"][k] for k in COUNTS] for a in answers] == [[50, 20, 0, 0]] * len(answers)
    if tally.cost is not None:  # Claude Code's cost-state, opencode's messages, pi's own costs
        assert micro(usage["cost"]) == micro(tally.cost)
    price = per_answer(case) if case.model is not None else 0
    assert micro(usage["cost"]) == (None if price is None else price * usage["answers"])
    assert usage["unpriced"] == ([case.model] if price is None else [])
    own = case.model is None or case.provider == "fake"  # (pi's and opencode's logs say each answer's cost)
    assert usage["costFrom"] == (None if price is None else "log" if own else "prices")


@pytest.mark.parametrize("name", ["claude-tasks", "claude-subagent", "claude-todowrite"])
def test_claude_codes_own_cost_is_ours(name: str, tmp_path: Path) -> None:
    """Claude Code's last line (``cost-state``) says what the conversation cost as Claude counts
    it, its subagent's answers included: pideck's total, priced from genai-prices' table, is the same."""
    case = next(c for c in CASES if c.name == name)
    log, path = opened(case, tmp_path)
    usage = usage_of(log)
    assert usage is not None and micro(usage["cost"]) == micro(case.tally(path).cost) == {
        "claude-tasks": 9450, "claude-subagent": 9450, "claude-todowrite": 5400}[name]


STANDARD = ([("1", "Read the CLI entry point", 140), ("2", "Add the --session flag", 140), ("3", "Test the flag", 70),
             ("4", "Document the flag in the README", 70)], 350)
"""The scripted run (the samples' README): the answer that runs ``ls`` and the one that completes
item 1 are made while item 1 is in progress, the turn's closing text and the call that completes
item 2 while item 2 is, one call each for items 3 and 4; the other five (the plan made, item 1
started, item 4 added, item 2 started, the last closing text) while none is. opencode tells a
step's cost when the step ends, after the tool it called ran (docs/usage.md#how-answers-are-counted):
there the call that starts an item counts to it and the one that completes it to none, which
comes to the same shares."""
ITEMS: dict[str, tuple[list[tuple[str, str, int]], int]] = {
    **{name: STANDARD for name in ("codex-update-plan", "gemini-write-todos", "gemini-resume-next-minute",
                                   "qwen-todo-write", "opencode-todowrite")},
    "copilot-sql-todos": ([("read-entry-point", "Read the CLI entry point", 140),
                           ("add-session-flag", "Add the --session flag", 140), ("test-flag", "Test the flag", 70),
                           ("document-flag", "Document the flag in the README", 70)], 350),
    "claude-todowrite": (STANDARD[0], 420),  # (and the ToolSearch call that found TodoWrite)
    # (TaskList and TaskGet are calls too: two while item 2 is in progress, one while item 3 is)
    "claude-tasks": ([("1", "Read the CLI entry point", 140), ("2", "Add the --session flag", 280),
                      ("3", "Test the flag", 210), ("4", "Document the flag in the README", 70)], 770),
    # the subagent's answers count to the conversation's item 1 (delegating) and to its own items
    # 3 and 4, in progress with it: half each
    "claude-subagent": ([("1", "Delegate the --session flag to a subagent", 770), ("3", "Find the argument parser", 35),
                         ("4", "Add the --session option", 105), ("2", "Check the subagent's report", 70)], 490),
    "pi-cli": ([], 2662),
    "pi-small-branched": ([], 2),
    # item "parse" was in progress while no answer came; "cli" during one (T-branch's last)
    "pi-sessionmanager": ([("parse", "Write the JSONL parser", 0), ("cli", "Add the inspect command", 15)], 30),
    "pi-sessionmanager-0.84.2": ([("parse", "Write the JSONL parser", 0), ("cli", "Add the inspect command", 15)], 30),
}


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_each_item_costs_the_answers_made_while_it_was_in_progress(case: Case, tmp_path: Path) -> None:
    log, _ = opened(case, tmp_path)
    usage = usage_of(log)
    assert usage is not None
    items, unplanned = ITEMS[case.name]
    assert [(i["id"], i["content"], i["tokens"]["total"]) for i in usage["items"]] == items
    assert usage["unplanned"]["tokens"]["total"] == unplanned
    price = per_answer(case) if case.model is not None else 0
    for item in usage["items"]:  # (each fake answer is 70 tokens: an item's cost is its share of them)
        answers_worth = item["tokens"]["total"] * price // 70 if price is not None and item["answers"] else None
        assert (item["id"], micro(item["cost"])) == (item["id"], answers_worth)
    # as the plan the branch ends with says: every item completed (pi's branch: "cli" in progress)
    assert {(i["status"], i["deleted"]) for i in usage["items"]} == (
        {("completed", False), ("in_progress", False)} if case.name.startswith("pi-sessionmanager")
        else {("completed", False)} if items else set())


def shares(usage: Any) -> list[Any]:
    return [*usage["items"], usage["unplanned"]]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_items_and_unplanned_add_up_to_the_total(case: Case, tmp_path: Path) -> None:
    """Exactly, in whole tokens and in millionths of a dollar; so do the days, the models and the
    turns (each answer came after a prompt in every sample)."""
    log, _ = opened(case, tmp_path)
    usage = usage_of(log)
    assert usage is not None
    for parts in (shares(usage), list(usage["days"].values()), list(usage["models"].values()), usage["turns"]):
        for count in (*COUNTS, "total"):
            assert (count, sum(p["tokens"][count] for p in parts)) == (count, usage["tokens"][count])
        if usage["cost"] is not None:
            assert sum(micro(p["cost"]) or 0 for p in parts) == micro(usage["cost"])
        else:
            assert {p["cost"] for p in parts} == {None}
    assert sum(t["answers"] for t in usage["turns"]) == usage["answers"]
    assert usage["unplanned"]["answers"] + sum(i["answers"] for i in usage["items"]) >= usage["answers"]


@pytest.mark.parametrize("case", AGENTS, ids=[c.name for c in AGENTS])
def test_the_context_is_the_last_answers(case: Case, tmp_path: Path) -> None:
    """The last answer's 70 tokens, of the model's window: the log's where it says it (Codex),
    else the price table's (none for a model it does not know, nor for opencode's fake model)."""
    log, _ = opened(case, tmp_path)
    usage = usage_of(log)
    assert usage is not None
    window = {"claude-sonnet-4-5": 200_000, "gpt-5.5": 258_400, "gemini-2.5-pro": 1_048_576,
              "gpt-4.1": 1_000_000}.get(case.model or "")  # (Codex's from its token_count lines)
    assert usage["context"] == {"tokens": 70, "window": window, "model": case.model,
                                "share": round(70 / window, 4) if window else None}
    assert usage["compactions"] == []


@pytest.mark.parametrize("case", AGENTS, ids=[c.name for c in AGENTS])
def test_the_events_fold_as_their_entries(case: Case, tmp_path: Path) -> None:
    """A followed conversation's ledger takes in its events (``add_event``, what a long transcript
    needs to be quick); fed the entries they make instead (``add``, as any log's), it says the same."""
    log, _ = opened(case, tmp_path)
    by_entries = Ledger(pricer())
    for record in log.records:
        if wanted(record):
            by_entries.add(record.load())
    assert by_entries.json() == usage_of(log)


def test_the_documented_example_is_what_inspect_says(tmp_path: Path, pideck: Any) -> None:
    """docs/usage.md's example: the usage object of the claude-todowrite sample (its one day is
    the local date of its answers: 2026-12-01 in UTC)."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "usage.md").read_text(encoding="utf-8")
    documented = json.loads(text.split("```json\n", 1)[1].split("```", 1)[0])
    path = next(c for c in CASES if c.name == "claude-todowrite").open(tmp_path / "home")
    code, out, err = pideck("inspect", "--json", "--session", str(path))
    assert (code, err) == (0, "")
    shown = json.loads(out)["usage"]
    day = time.strftime("%Y-%m-%d", time.localtime(datetime(2026, 12, 1, 7, 16, tzinfo=timezone.utc).timestamp()))
    assert shown == {**documented, "days": {day: documented["days"]["2026-12-01"]}}
