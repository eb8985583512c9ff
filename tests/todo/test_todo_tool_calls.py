"""Suite A through TodoAdapter: what is appended, the derived observation log, exact bytes."""

from __future__ import annotations

import json

from todo_helpers import GOOD_GOAL, item, make, todo_state

from core.jsutil import compact_json
from core.primitives.todo import constants as c
from core.primitives.todo.followups import build_gate_digest
from core.primitives.todo.model import TodoGoal, TodoPlan, TodoState
from core.primitives.todo.observations import Observation, record_reframe_observations
from core.primitives.todo.restore import restore_state_data

PARSER_WRITE = json.loads(
    '{"todos":[{"content":"Write the parser","status":"in_progress","priority":"high",'
    '"id":"parse","group":"parser","confidence":80}],"plan":{"user_intention":'
    '"Ship the JSONL parser","understands_user_intent":97},"goals":[{"group":"parser",'
    '"closed_feedback_loop":97,"feedback_loop":"run the parser tests"}]}'
)


def test_A01_read_returns_the_echo_and_appends_nothing():
    adapter, log, _ = make()
    adapter.call_tool("todo", PARSER_WRITE)
    before = adapter.snapshot()
    n = len(log.entries)
    result = adapter.run_tool("todo", {})
    assert result.outcome == "read" and not result.is_error
    assert result.details == adapter.state.to_json()
    assert "Changes:" not in result.text
    assert result.text.startswith('[\n  {\n    "content": "Write the parser"')
    assert result.text.endswith('"feedback_loop": "run the parser tests"\n  }\n]')
    assert len(log.entries) == n and adapter.snapshot() == before
    empty, _, _ = make()
    assert empty.call_tool("todo", {}).text == "[]"


def test_A10_rejection_appends_nothing_and_keeps_histories():
    adapter, log, _ = make()
    adapter.call_tool("todo", {"todos": [item("p1", "in_progress", group="parser")]})
    n, before = len(log.entries), adapter.snapshot()
    result = adapter.run_tool("todo", {"todos": [item("p1", "completed", group="parser")]})
    assert result.outcome == "rejected" and not result.is_error
    assert result.text.endswith('\nFailing groups: "parser".')
    assert len(log.entries) == n and adapter.snapshot() == before
    assert result.details == adapter.state.to_json()


def test_A17_moderate_first_write_goes_to_the_digest_only():
    adapter, log, _ = make()
    text = adapter.call_tool("todo", {
        "todos": [item("s", group="speed")],
        "plan": {"user_intention": "faster", "understands_user_intent": 82},
        "goals": [{"group": "speed", "closed_feedback_loop": 80, "feedback_loop": "bench"}]}).text
    assert "not high enough" not in text and text.endswith("Changes: 1 new")
    assert len(adapter.observations) == 2
    assert adapter.plan.understands_user_intent_history == [82]
    assert adapter.goals[0].closed_feedback_loop_history == [80]
    text = adapter.call_tool("todo", {"plan": {"understands_user_intent": 97}}).text
    assert "not high enough" not in text
    assert adapter.plan.understands_user_intent_history == [82, 97]
    digest = build_gate_digest(adapter.observations, adapter.plan, adapter.goals)
    assert "started this work without understanding" in digest and "feedback loop" in digest


def _obs(plan, goals, todos, previous=()):
    state = todo_state(todos, plan, goals)
    prev = todo_state(previous)
    return record_reframe_observations(state.plan, state.goals, state.todos, prev.todos)


def test_A18_observation_rules():
    open_g = [item("a", group="g")]
    assert _obs({"understands_user_intent": 95}, [{"group": "g", "closed_feedback_loop": 96}], open_g) == [
        Observation("intent_understanding", None, 95)]
    assert _obs({"understands_user_intent": 97}, [{"group": "g", "closed_feedback_loop": 95}], open_g) == [
        Observation("closed_feedback_loop", "g", 95)]
    assert _obs({}, [{"group": "g"}], open_g) == [
        Observation("intent_understanding", None, None), Observation("closed_feedback_loop", "g", None)]
    done = [item("a", "completed", group="g")]
    assert _obs({}, [{"group": "g"}], done, previous=[item("a", group="g")]) == [
        Observation("closed_feedback_loop", "g", None)]
    assert _obs({}, [{"group": "g"}], done, previous=done) == []
    assert _obs({"understands_user_intent": 97}, [{"group": "other"}], open_g) == []
    assert _obs({"understands_user_intent": 97}, [{"group": None}], [item("u")]) == [
        Observation("closed_feedback_loop", None, None)]
    adapter, _, _ = make()
    for _ in range(2):
        adapter.call_tool("todo", {"todos": [item("a", group="g")], "plan": {"understands_user_intent": 97},
                                   "goals": [{"group": "g", "closed_feedback_loop": 95}]}).text
    assert len(adapter.observations) == 2


def test_A19_invalid_input_is_an_error_and_appends_nothing():
    adapter, log, _ = make()
    result = adapter.run_tool("todo", {"todos": [item("a", status="done")]})
    assert result.is_error
    assert result.text == ("Invalid todo input: todos[0].status must be one of pending, in_progress,"
                           ' completed, cancelled (got "done").')
    assert log.entries == []


def test_A21_appended_state_entry_bytes():
    adapter, log, _ = make()
    adapter.call_tool("todo", PARSER_WRITE)
    assert [e["customType"] for e in log.appended] == ["pi-jtodo/state"]
    assert compact_json(log.appended[0]["data"]) == (
        '{"schemaVersion":1,"todos":[{"content":"Write the parser","status":"in_progress",'
        '"priority":"high","id":"parse","group":"parser","confidence":80,"confidence_history":[80]}],'
        '"plan":{"user_intention":"Ship the JSONL parser","understands_user_intent":97,'
        '"understands_user_intent_history":[97]},"goals":[{"group":"parser","closed_feedback_loop":97,'
        '"closed_feedback_loop_history":[97],"feedback_loop":"run the parser tests"}]}'
    )


def test_every_accepted_write_appends_even_without_change():
    adapter, log, _ = make()
    adapter.call_tool("todo", {"todos": [item("a")]})
    adapter.call_tool("todo", {"todos": [item("a")]})
    assert [e["customType"] for e in log.appended] == ["pi-jtodo/state"] * 2


def test_disabled_tool_and_unknown_tool():
    adapter, log, _ = make(enabled=False)
    result = adapter.run_tool("todo", {"todos": [item("a")]})
    assert result.is_error and result.text == (
        "The todo tool is disabled in the pideck configuration ([todo] enabled = false).")
    assert adapter.settle() == (None, None) and log.entries == []
    adapter, _, _ = make()
    assert adapter.run_tool("nope", {}).is_error


def test_severe_nudge_through_the_adapter():
    adapter, _, _ = make()
    text = adapter.call_tool("todo", {"todos": [item("a")], "plan": {"user_intention": "x",
                                                                     "understands_user_intent": 40}}).text
    assert text.endswith("\n\nChanges: 1 new\n\n" + c.INTENT_CONTINUATION)


def test_state_roundtrip_through_restore():
    adapter, log, _ = make()
    adapter.call_tool("todo", PARSER_WRITE)
    assert restore_state_data(log.appended[0]["data"]).same_as(adapter.state)
    assert TodoGoal(group="g").to_json() == {"group": "g"}
    assert TodoPlan().to_json() == {}
