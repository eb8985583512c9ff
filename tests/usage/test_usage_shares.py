"""An answer made while several items were in progress is shared out among them evenly, in whole
tokens and whole millionths of a dollar, the remainder one each to the first items (docs/usage.md):
the ledger sums the answers and shares the sums out when the plan changes or a view reads it, and
every item must get what sharing each answer at once gives."""

from __future__ import annotations

import random
from typing import Any

import pytest

from core.usage.ledger import Ledger


def todo_result(at: str, statuses: list[str]) -> dict[str, Any]:
    todos = [{"id": str(k), "content": f"item {k}", "status": status} for k, status in enumerate(statuses)]
    return {"type": "message", "timestamp": at,
            "message": {"role": "toolResult", "toolName": "todo", "details": {"todos": todos}}}


def answer(at: str, tokens: list[int], cost: float | None) -> dict[str, Any]:
    usage: dict[str, Any] = dict(zip(("input", "output", "cacheRead", "cacheWrite"), tokens))
    if cost is not None:
        usage["cost"] = {"total": cost}
    return {"type": "message", "timestamp": at, "message": {"role": "assistant", "model": "m", "usage": usage}}


def shared_at_once(plans: list[tuple[list[str], list[tuple[list[int], float | None]]]]) -> dict[str, list[int]]:
    """Each item's answers, tokens, cost and priced answers, sharing each answer out as it comes."""
    got: dict[str, list[int]] = {}
    for statuses, answers in plans:
        doing = [f"item {k}" for k, status in enumerate(statuses) if status == "in_progress"]
        for tokens, cost in answers:
            micro = round(cost * 1_000_000) if cost is not None else None
            for k, key in enumerate(doing):
                share = got.setdefault(key, [0, 0, 0, 0, 0, 0, 0])
                share[0] += 1
                for part, amount in enumerate(tokens):
                    q, r = divmod(amount, len(doing))
                    share[1 + part] += q + (1 if k < r else 0)
                if micro is not None:
                    q, r = divmod(micro, len(doing))
                    share[5] += q + (1 if k < r else 0)
                    share[6] += 1
    return got


@pytest.mark.parametrize("seed", range(8))
def test_each_item_gets_what_sharing_each_answer_out_gives(seed: int) -> None:
    rng = random.Random(seed)
    plans = []
    for _ in range(4):
        statuses = [rng.choice(["in_progress", "in_progress", "pending", "completed"]) for _ in range(rng.randint(1, 9))]
        answers = [([rng.randint(0, 10_000) for _ in range(4)], rng.choice([None, rng.random() / 7]))
                   for _ in range(rng.randint(0, 40))]
        plans.append((statuses, answers))
    ledger = Ledger()
    minute = 0
    for statuses, answers in plans:
        minute += 1
        ledger.add(todo_result(f"2026-12-01T10:{minute:02d}:00.000Z", statuses))
        for tokens, cost in answers:
            ledger.add(answer(f"2026-12-01T10:{minute:02d}:30.000Z", tokens, cost))
        if seed % 2:
            ledger.json()  # (a view reading in between shares out what was summed so far)
    items = {item["content"]: item for item in ledger.json()["items"]}
    expected = shared_at_once(plans)
    assert {key: [item["answers"], *(item["tokens"][k] for k in ("input", "output", "cacheRead", "cacheWrite"))]
            for key, item in items.items() if item["answers"]} == {key: share[:5] for key, share in expected.items()}
    for key, share in expected.items():
        assert items[key]["cost"] == (share[5] / 1_000_000 if share[6] else None), key
    assert {key: item["inProgressMs"] for key, item in items.items()} == in_progress_ms(plans)


def in_progress_ms(plans: list[tuple[list[str], list[Any]]]) -> dict[str, int]:
    """How long each item was in progress, the time of each step added as it comes: the todo
    result at minute:00, its answers at minute:30, the next plan a minute later."""
    ms: dict[str, int] = {}
    doing: list[str] = []
    last = None
    for minute, (statuses, answers) in enumerate(plans, 1):
        times = [minute * 60_000] + [minute * 60_000 + 30_000] * len(answers)
        for step, at in enumerate(times):
            if last is not None and at > last:
                for key in doing:
                    ms[key] = ms.get(key, 0) + at - last
            last = max(at, last or at)
            if step == 0:
                doing = [f"item {k}" for k, status in enumerate(statuses) if status == "in_progress"]
                for key in doing:
                    ms.setdefault(key, 0)
    return ms
