"""Counterparts of jcode's own todo tests not covered by the suites
(docs/todo-gates.md#how-the-todo-model-is-tested)."""

from __future__ import annotations

from todo_helpers import GOOD_GOAL, item, make

from core.primitives.todo import constants as c
from core.primitives.todo.followups import build_gate_digest
from core.primitives.todo.model import TodoGoal, TodoPlan
from core.primitives.todo.observations import Observation


def test_digest_still_raises_a_point_whose_score_climbed_late():
    adapter, _, _ = make()
    for score in (70, 80, 92):
        adapter.call_tool("todo", {"todos": [item("a")], "plan": {"understands_user_intent": score}})
    adapter.call_tool("todo", {"plan": {"understands_user_intent": 97 - 1}})
    digest = build_gate_digest(adapter.observations, adapter.plan, adapter.goals)
    assert digest.split("\n") == [
        c.DIGEST_PREFIX,
        f"- {c.DIGEST_INTENT_CLEARED} (flagged 3 times this turn)",
        c.DIGEST_FOOTER,
    ]
    for secret in ("70", "96", "threshold"):
        assert secret not in digest


def test_digest_reports_a_point_that_never_resolved():
    digest = build_gate_digest([Observation("intent_understanding", None, 70)],
                               TodoPlan(understands_user_intent=70), [])
    assert digest.startswith(c.DIGEST_PREFIX) and "double-check" in digest
    assert "70" not in digest and "96" not in digest and "threshold" not in digest


def test_digest_separates_goals_in_its_exact_wording():
    observations = [Observation("intent_understanding", None, s) for s in (70, 80, 92)]
    observations.append(Observation("closed_feedback_loop", "speed", 50))
    plan = TodoPlan(understands_user_intent=97)
    goals = [TodoGoal(group="speed", closed_feedback_loop=50)]
    assert build_gate_digest(observations, plan, goals) == (
        "[automated todo quality review - not a user message] Before you treat this turn as finished,"
        " double-check the weak points it surfaced. Do not reply conversationally or wait for the user.\n"
        "- you started this work without understanding what the user actually wants, and only settled it"
        " later. Re-check the work you did before it settled against the request you now understand, and"
        " state any interpretation you had to guess at. (flagged 3 times this turn)\n"
        '- the goal for "speed" never closed its feedback loop: no observation reported back on whether'
        " the work satisfied the requirements. Confirm the result is actually better, with concrete"
        " evidence rather than inspection.\n"
        "Address the points above, then update the todo tool with the assessments that reflect what you"
        " verified."
    )
    assert build_gate_digest([], plan, goals) is None


def test_observation_log_is_capped_oldest_first():
    adapter, _, _ = make()
    for n in range(130):
        adapter.call_tool("todo", {"todos": [item("a", group="g")],
                                   "plan": {"understands_user_intent": n % 90},
                                   "goals": [{"group": "g", "closed_feedback_loop": n % 90}]}).text
    log = adapter.observations
    assert len(log) == 256
    assert log[0] == Observation("intent_understanding", None, 2)
    small, _, _ = make(max_gate_observations=3)
    for n in range(5):
        small.call_tool("todo", {"todos": [item("a")], "plan": {"understands_user_intent": n}})
    assert [o.score for o in small.observations] == [2, 3, 4]


def test_digest_ids_name_items_of_flagged_loop_groups():
    adapter, log, _ = make()
    adapter.call_tool("todo", {"todos": [item("a", conf=90, group="g"), item("b", conf=90)],
                               "plan": {"understands_user_intent": 50},
                               "goals": [{"group": "g", "closed_feedback_loop": 50}, GOOD_GOAL]}).text
    adapter.call_tool("todo", {"todos": [item("a", "completed", 90, completion_confidence=99),
                                         item("b", "completed", 90, completion_confidence=99)],
                               "goals": [{"group": "g", "end_to_end_ownership": 99}, GOOD_GOAL]}).text
    text, _ = adapter.settle()
    assert text.startswith(c.DIGEST_PREFIX)
    assert log.appended[-1]["details"] == {"kind": "digest", "ids": ["a"]}
    assert adapter.cycle.targets == ["a"]
