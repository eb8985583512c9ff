"""Documented rules (docs/todo-gates.md) the other todo tests stated but did not make able to fail.

Each test here failed against a deliberate one-line mutation of core/todo that the rest of
tests/todo let through (a digest sent twice per cycle, no legacy history seed, the completion
bar moved by one, Goal updates without stored goals, ...).
"""

from __future__ import annotations

import json

from todo_helpers import GOOD_GOAL, GOOD_PLAN, assistant, item, make, todo_state

from core.primitives.todo import constants as c
from core.primitives.todo.followups import completion_text
from core.primitives.todo.gate_checks import confidence_summary
from core.primitives.todo.model import TodoItem, TodoState
from core.primitives.todo.write import apply_todo_call


def test_B03_the_digest_is_sent_once_per_cycle_even_when_new_points_arrive_after_it():
    adapter, log, _ = make()
    weak_plan = {"user_intention": "x", "understands_user_intent": 80}
    adapter.call_tool("todo", {"todos": [item("a", conf=90)], "plan": weak_plan, "goals": [GOOD_GOAL]})
    adapter.call_tool("todo", {"todos": [item("a", "completed", 90, completion_confidence=50)],
                               "goals": [GOOD_GOAL]}).text
    assert adapter.settle()[0].startswith(c.DIGEST_PREFIX)
    # a new weak point after the digest, within the same cycle
    adapter.call_tool("todo", {"todos": [item("a", "completed", 90, completion_confidence=51),
                                         item("b", conf=90)], "goals": [GOOD_GOAL]}).text
    assert adapter.observations != []
    assert adapter.settle()[0].startswith("You have 1 incomplete todo.")
    adapter.call_tool("todo", {"todos": [item("a", "completed", 90, completion_confidence=52)],
                               "goals": [GOOD_GOAL]}).text
    assert adapter.observations != [] and adapter.cycle.digest_delivered
    text, notice = adapter.settle()
    assert text.startswith(c.COMPLETION_CONTINUATION)
    assert notice.message == c.NOTICE_COMPLETION_CHALLENGED


def test_A07_the_legacy_seed_is_the_stored_score():
    legacy = todo_state([
        {"content": "x", "status": "pending", "priority": "low", "id": "a", "confidence": 70},
        {"content": "y", "status": "completed", "priority": "low", "id": "b", "confidence": 70,
         "completion_confidence": 98},
        {"content": "z", "status": "completed", "priority": "low", "id": "c", "confidence": 70}])
    r = apply_todo_call(legacy, {"todos": [item("a", conf=80), item("b", conf=80),
                                           item("c", "completed", 80, completion_confidence=99)]})
    assert r.outcome == "accepted", r.text
    assert [t.confidence_history for t in r.state.todos] == [[70, 80], [98, 80], [70, 99]]


def test_completed_scores_below_the_bar_are_named_weak_at_the_boundary():
    def done(id, cc):
        return TodoItem(content=id, status="completed", priority="high", id=id, confidence=cc,
                        completion_confidence=cc, confidence_history=[cc])
    summary = confidence_summary([done("hi", 100), done("edge", 95)])
    assert summary.weak == ["edge"] and summary.needs_validation
    assert completion_text(summary).endswith(
        "\n- The recorded completion_confidence is not strong enough for: #edge.")
    summary = confidence_summary([done("ok", 96)])
    assert summary.weak == [] and not summary.needs_validation


def test_goal_updates_only_when_goals_were_stored():
    first = apply_todo_call(TodoState(), {"todos": [item("a")]}).state
    r = apply_todo_call(first, {"goals": [{"group": None, "closed_feedback_loop": 50}]})
    assert "Goal updates:" not in r.text and r.text.endswith("\n\nChanges: none")
    r = apply_todo_call(r.state, {"goals": [{"group": None, "closed_feedback_loop": 51}]})
    section = r.text.split("\n\nGoal updates:\n")[1].split("\n\nChanges:")[0]
    assert [u["fields"] for u in json.loads(section)] == [["closed_feedback_loop"]]


def test_group_cleared_on_names_only_items_that_had_a_group():
    stored = apply_todo_call(TodoState(), {"todos": [item("a"), item("b", group="g")]}).state
    r = apply_todo_call(stored, {"todos": [item("a", group=" "), item("b", group="")]})
    assert r.text.endswith("\n\nChanges: 1 updated; group cleared on #b")


def test_negative_whole_floats_are_not_coerced():
    r = apply_todo_call(TodoState(), {"todos": [item("a", conf=-1.0)]})
    assert r.text == "Invalid todo input: todos[0].confidence must be an integer from 0 to 100 (got -1.0)."


def test_idle_nudge_off_sends_no_nudge():
    adapter, log, _ = make(idle_nudge=False, idle_nudge_after_assistant_turns=1)
    adapter.call_tool("todo", {"todos": [item("a")], "plan": GOOD_PLAN})
    for _ in range(3):
        log.add(assistant())
        assert adapter.after_assistant_message() is None
    assert [e["customType"] for e in log.appended] == ["pi-jtodo/state"]


def test_overlay_sorts_by_priority_then_content_then_id_and_shows_history_from_two_values():
    adapter, _, _ = make()
    adapter.call_tool("todo", {"todos": [
        item("a9", content="beta", priority="low"), item("y1", content="alpha", priority="low"),
        item("b2", content="alpha", priority="low"), item("h", content="zeta", priority="high")]}).text
    adapter.call_tool("todo", {"todos": [
        item("a9", content="beta", priority="low", conf=71), item("y1", content="alpha", priority="low"),
        item("b2", content="alpha", priority="low"), item("h", content="zeta", priority="high")]}).text
    md = adapter.overlay_markdown()
    order = [line.split("`")[1] for line in md.split("\n") if line.startswith("- ○ ")]
    assert order == ["#h", "#b2", "#y1", "#a9"]
    assert md.count("  - history: ") == 1 and "  - history: `70 → 71`" in md


def test_strip_header_omits_a_blank_intention():
    adapter, _, _ = make()
    adapter.call_tool("todo", {"todos": [item("a")], "plan": {"user_intention": " \u00a0"}})
    assert adapter.strip_text().split("\n")[0] == "● Todos (0/1)"
