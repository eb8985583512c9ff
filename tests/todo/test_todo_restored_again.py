"""A todo result's items equal to the previous result's are taken over instead of checked again
(core/primitives/todo/restore.py ``_items``): the fold must come out exactly as when every
candidate is restored on its own, whatever the log holds."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from todo_helpers import assistant, tool_result

from core.primitives.todo import constants as c
from core.primitives.todo import replay as replay_module
from core.primitives.todo.replay import Replay, replay
from core.primitives.todo.restore import restore_tool_details

PLAIN = {"content": "Write it", "status": "pending", "priority": "high", "id": "1"}
AGENT = {"content": "Write it", "status": "pending", "id": "1", "activeForm": "Writing it", "blocks": ["2"]}

# Items that equal each other (==) while only some are valid: a number where an integer must be,
# a bool for 1, and the shapes around them.
VARIANTS: list[Any] = [
    PLAIN, AGENT, dict(PLAIN), {**PLAIN, "priority": None}, {k: v for k, v in PLAIN.items() if k != "priority"},
    {**PLAIN, "confidence": 50}, {**PLAIN, "confidence": 50.0}, {**PLAIN, "confidence": 1}, {**PLAIN, "confidence": True},
    {**PLAIN, "completion_confidence": 0}, {**PLAIN, "completion_confidence": False}, {**PLAIN, "completion_confidence": 0.0},
    {**PLAIN, "confidence_history": [1, 100]}, {**PLAIN, "confidence_history": [True, 100]},
    {**PLAIN, "confidence_history": [1.0, 100]}, {**PLAIN, "confidence_history": [101]},
    {**PLAIN, "id": " "}, {**PLAIN, "id": 1}, {**PLAIN, "id": True}, {**PLAIN, "group": " g "}, {**PLAIN, "group": "g"},
    {**PLAIN, "group": ""}, {**PLAIN, "group": 1}, {**PLAIN, "unknown": 1.0}, {**PLAIN, "unknown": 1},
    {**AGENT, "blocks": [2]}, {**AGENT, "blocks": ["2"]}, {**AGENT, "blocks": None}, {**AGENT, "madeBy": 1},
    {**AGENT, "madeBy": "helper"}, {**AGENT, "description": ["x"]}, {**AGENT, "confidence": 7},
    {**AGENT, "confidence": 7.0}, "1", 1, None, [PLAIN], {},
]
AGENT_PLAN = {"agent": "claude", "tool": "TaskCreate/TaskUpdate", "noun": "task"}


def _text(state: Any) -> str:
    """A state as text in which 1, 1.0 and true differ (null: an invalid candidate)."""
    return json.dumps(None if state is None else state.to_json())


@pytest.mark.parametrize("agent_before", [False, True])
@pytest.mark.parametrize("agent_now", [False, True])
def test_an_item_taken_over_restores_as_it_would_alone(agent_before, agent_now):
    for before in VARIANTS:
        earlier_details = {"todos": [before, PLAIN], **({"agentPlan": AGENT_PLAN} if agent_before else {})}
        earlier = restore_tool_details(earlier_details)
        if earlier is None:
            continue
        for now in VARIANTS:
            details = {"todos": [json.loads(json.dumps(now)), dict(PLAIN)],
                       **({"agentPlan": AGENT_PLAN} if agent_now else {})}
            alone = restore_tool_details(details)
            again = restore_tool_details(details, (earlier_details["todos"], earlier))
            assert _text(again) == _text(alone), (before, now)


def test_an_unchanged_item_is_taken_over_and_a_changed_one_made_anew():
    first = {"todos": [AGENT, {**AGENT, "id": "2"}], "agentPlan": AGENT_PLAN}
    then = {"todos": [dict(AGENT), {**AGENT, "id": "2", "status": "completed"}, {**AGENT, "id": "3"}],
            "agentPlan": AGENT_PLAN}
    earlier = restore_tool_details(first)
    assert earlier is not None
    state = restore_tool_details(then, (first["todos"], earlier))
    assert state is not None
    assert state.todos[0] is earlier.todos[0]
    assert state.todos[1] is not earlier.todos[1] and state.todos[1].status == "completed"
    assert [t.id for t in state.todos] == ["1", "2", "3"]


# -- whole folds ------------------------------------------------------------------------------

GOALS = [[], [{"group": "g", "closed_feedback_loop": 40}], [{"group": None, "closed_feedback_loop": 97}], "x"]
PLANS = [None, {}, {"understands_user_intent": 50}, {"understands_user_intent": 97.0}, "x"]


def _random_log(rng: random.Random) -> list[dict[str, Any]]:
    """A branch of todo calls and results as pi-jtodo, an agent's plan, or a hand-written log
    holds them: lists growing and changing an item at a time, valid and invalid items, goals,
    rejections, errors, results with no call, state entries and follow-ups between them."""
    entries: list[dict[str, Any]] = []
    items: list[Any] = []
    agent = rng.random() < 0.5
    for step in range(rng.randrange(1, 40)):
        roll = rng.random()
        if roll < 0.1 or not items:
            items.append(rng.choice(VARIANTS) if rng.random() < 0.05 else {**(AGENT if agent else PLAIN), "id": str(len(items) + 1)})
        elif roll < 0.5:
            at = rng.randrange(len(items))
            item = items[at]
            if isinstance(item, dict):
                key = rng.choice(["status"] * 6 + ["confidence", "confidence_history", "group", "blocks", "id"])
                value = {"status": ["pending", "in_progress", "completed", "cancelled", "odd"],
                         "confidence": [10, 97, 97.0, True, None], "confidence_history": [[10], [True], [1.0]],
                         "group": ["g", " g", None, 3], "blocks": [["1"], [1]], "id": ["1", " ", "9"]}[key]
                items[at] = {**item, key: rng.choice(value)}
        elif roll < 0.6 and len(items) > 1:
            items.pop(rng.randrange(len(items)))
        details: dict[str, Any] = {"todos": [json.loads(json.dumps(t)) for t in items]}
        if rng.random() < 0.3:
            details["plan"] = rng.choice(PLANS)
        if rng.random() < 0.3:
            details["goals"] = rng.choice(GOALS)
        if agent and rng.random() < 0.9:
            details["agentPlan"] = dict(AGENT_PLAN)
        call = f"call{step}"
        kind = rng.random()
        if kind < 0.7:
            arguments = {"todos": details["todos"]} if rng.random() < 0.8 else {"action": "list"}
            entries.append(assistant(tool_calls=[{"id": call, "name": "todo", "arguments": arguments}]))
        if kind < 0.05:
            entries.append(tool_result(details, call, is_error=True))
        elif kind < 0.1:
            entries.append(tool_result(details, call, text="[]\n\n" + c.OWNERSHIP_CONTINUATION))
        elif kind < 0.13:
            entries.append({"type": "custom", "customType": c.STATE_CUSTOM_TYPE,
                            "data": {"schemaVersion": 1, "todos": details["todos"], "plan": {}, "goals": []}})
        else:
            entries.append(tool_result(details, call))
        if rng.random() < 0.1:
            text = rng.choice([c.DIGEST_PREFIX + "\n- x", c.COMPLETION_CONTINUATION + "\n- y",
                               "You have 2 incomplete todos. Continue working, or update the todo tool."])
            entries.append({"type": "custom_message", "customType": c.FOLLOWUP_CUSTOM_TYPE, "content": text,
                            "display": True})
    return entries


def _fold(entries: list[dict[str, Any]]) -> str:
    result: Replay = replay(entries, True, 3)
    return json.dumps({"state": result.state.to_json(), "flags": result.flags.to_json(),
                       "poke": result.flags.poke_state, "observations": result.observations,
                       "warnings": result.warnings, "dead": result.dead_watchdog_pokes,
                       "turns": result.assistant_turns_since_write, "candidate": result.has_candidate})


def test_a_fold_comes_out_as_when_every_candidate_is_restored_alone(monkeypatch):
    logs = [_random_log(random.Random(seed)) for seed in range(300)]
    folds = [_fold(entries) for entries in logs]
    alone = replay_module.restore_tool_details
    monkeypatch.setattr(replay_module, "restore_tool_details", lambda details, earlier=None: alone(details))
    assert [_fold(entries) for entries in logs] == folds
    assert sum('"state": {"todos": []' not in fold for fold in folds) > 75  # (many end on a list)
    assert sum('"observations": []' not in fold for fold in folds) > 100
