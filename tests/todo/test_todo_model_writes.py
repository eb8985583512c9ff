"""Suite A at the model level: merges, histories, the Changes line, the ownership gate."""

from __future__ import annotations

import json

from todo_helpers import item, todo_state

from core.primitives.todo.constants import INTENT_CONTINUATION, OWNERSHIP_CONTINUATION
from core.primitives.todo.model import TodoState
from core.primitives.todo.write import apply_todo_call


def run(*calls):
    state = TodoState()
    result = None
    for params in calls:
        result = apply_todo_call(state, params)
        state = result.state
    return result


def test_A02_replace_on_membership():
    r = run({"todos": [item("a"), item("b")]}, {"todos": [item("b"), item("c")]})
    assert [t.id for t in r.state.todos] == ["b", "c"]
    assert r.text.endswith("\n\nChanges: 1 new; removed #a")


def test_A03_inheritance_of_group_and_completion_confidence():
    first = item("a", "completed", 90, group="g", completion_confidence=98)
    r = run(
        {"todos": [first], "goals": [{"group": "g", "end_to_end_ownership": 97}]},
        {"todos": [item("a", "completed", 90)]},
    )
    a = r.state.todos[0]
    assert (a.group, a.completion_confidence) == ("g", 98)
    assert r.text.endswith("\n\nChanges: none")


def test_A04_blank_group_clears():
    r = run({"todos": [item("a", group="g")]}, {"todos": [item("a", group="")]})
    assert r.state.todos[0].group is None
    assert r.text.endswith("\n\nChanges: 1 updated; group cleared on #a")


def test_A05_full_changes_line():
    r = run(
        {"todos": [item("a"), item("b"), item("x", group="g"), item("y", group="g")]},
        {
            "todos": [
                item("a", "in_progress"),
                item("b", "in_progress"),
                item("y", group=""),
                item("n"),
            ]
        },
    )
    assert r.text.endswith("\n\nChanges: 3 updated; 1 new; removed #x; group cleared on #y")


def test_changes_line_examples():
    r = run({"todos": [item("a"), item("b")]}, {"todos": []})
    assert r.text.endswith("Changes: removed #a, #b")
    r = run({"todos": [item("a")]}, {"plan": {"understands_user_intent": 97}})
    assert r.text.endswith("Changes: none")
    r = run({"todos": [item("a")]}, {"todos": [item("b"), item("a")][::-1]})
    assert r.text.endswith("Changes: 1 new")


def test_A06_forged_histories_discarded():
    r = run({"todos": [item("a", conf=80, confidence_history=[1, 2, 3])]})
    assert r.state.todos[0].confidence_history == [80]
    r = run(
        {"plan": {"user_intention": "x", "understands_user_intent": 70}},
        {"plan": {"understands_user_intent": 88, "understands_user_intent_history": [1, 2, 3]}},
    )
    assert r.state.plan.understands_user_intent_history == [70, 88]
    r = apply_todo_call(r.state, {"plan": {"understands_user_intent": 88}})
    assert r.state.plan.understands_user_intent_history == [70, 88]


def test_A07_history_dedupe_and_one_observation_per_write():
    r = run({"todos": [item("a", conf=75)]}, {"todos": [item("a", conf=75)]})
    assert r.state.todos[0].confidence_history == [75]
    r = apply_todo_call(r.state, {"todos": [item("a", conf=90)]})
    assert r.state.todos[0].confidence_history == [75, 90]
    r = run(
        {"todos": [item("a", conf=70)]},
        {
            "todos": [item("a", "completed", 90, completion_confidence=100)],
            "goals": [{"group": None, "end_to_end_ownership": 99}],
        },
    )
    assert r.state.todos[0].confidence_history == [70, 100]
    legacy = todo_state([{"content": "x", "status": "pending", "priority": "low", "id": "a", "confidence": 70}])
    r = apply_todo_call(legacy, {"todos": [item("a", conf=70)]})
    assert r.state.todos[0].confidence_history == [70]


def test_A08_plan_field_merge_and_plan_updates():
    r = run(
        {"plan": {"user_intention": "make search feel instant", "understands_user_intent": 60}},
        {"plan": {"understands_user_intent": 95}},
    )
    assert r.state.plan.user_intention == "make search feel instant"
    assert r.state.plan.understands_user_intent_history == [60, 95]
    section = r.text.split("\n\nPlan updates:\n")[1].split("\n\nChanges:")[0]
    assert json.loads(section)["fields"] == ["understands_user_intent"]
    assert r.text.endswith("\n\nChanges: none")


def test_A09_goal_field_merge():
    r = run(
        {"goals": [{"group": "a", "closed_feedback_loop": 20, "feedback_loop": "la"},
                   {"group": "b", "closed_feedback_loop": 90, "end_to_end_ownership": 50}]},
        {"goals": [{"group": " a ", "closed_feedback_loop": 30}]},
    )
    goals = r.state.goals
    assert [g.group for g in goals] == ["a", "b"]
    assert goals[0].closed_feedback_loop == 30
    assert goals[0].closed_feedback_loop_history == [20, 30]
    assert goals[0].feedback_loop == "la"
    r = apply_todo_call(r.state, {"goals": [{"group": "b"}]})
    b = r.state.goals[0]
    assert (b.group, b.closed_feedback_loop, b.end_to_end_ownership) == ("b", 90, 50)
    assert b.closed_feedback_loop_history == [90]


def test_A10_ownership_rejection_keeps_the_saved_list():
    stored = run({"todos": [item("p1", "in_progress", group="parser")]}).state
    r = apply_todo_call(stored, {"todos": [item("p1", "completed", group="parser")]})
    assert r.outcome == "rejected" and not r.is_error
    assert r.text.startswith(json.dumps([t.to_json() for t in stored.todos], indent=2))
    assert OWNERSHIP_CONTINUATION in r.text
    assert r.text.endswith('\nFailing groups: "parser".')
    assert "Changes:" not in r.text
    assert r.state.same_as(stored)


def test_A11_failing_groups_in_order():
    stored = run({"todos": [item("p", group="parser"), item("u")]}).state
    r = apply_todo_call(
        stored, {"todos": [item("p", "completed", group="parser"), item("u", "completed")]}
    )
    assert r.text.endswith('\nFailing groups: "parser", (ungrouped).')


def test_A12_ownership_in_the_same_write_passes():
    stored = run({"todos": [item("p", group="parser")]}).state
    r = apply_todo_call(
        stored,
        {
            "todos": [item("p", "completed", completion_confidence=97)],
            "goals": [{"group": "parser", "end_to_end_ownership": 96}],
        },
    )
    assert r.outcome == "accepted"


def test_A13_ownership_95_null_or_missing_rejects():
    stored = run({"todos": [item("p", group="parser")]}).state
    for goals in ([{"group": "parser", "end_to_end_ownership": 95}],
                  [{"group": "parser", "end_to_end_ownership": None}], [], None):
        params = {"todos": [item("p", "completed")]}
        if goals is not None:
            params["goals"] = goals
        assert apply_todo_call(stored, params).outcome == "rejected"
    for score in (0, 95):
        r = apply_todo_call(stored, {"todos": [item("p", "completed")],
                                     "goals": [{"group": "parser", "end_to_end_ownership": score}]})
        assert r.outcome == "rejected"


def test_A14_ungrouped_needs_null_goal_and_groups_normalise():
    stored = run({"todos": [item("u")]}).state
    r = apply_todo_call(stored, {"todos": [item("u", "completed")],
                                 "goals": [{"group": "other", "end_to_end_ownership": 99}]})
    assert r.outcome == "rejected"
    r = apply_todo_call(stored, {"todos": [item("u", "completed")],
                                 "goals": [{"group": None, "end_to_end_ownership": 99}]})
    assert r.outcome == "accepted"
    stored = run({"todos": [item("s", group="ship")]}).state
    r = apply_todo_call(stored, {"todos": [item("s", "completed")],
                                 "goals": [{"group": " ship ", "end_to_end_ownership": 99}]})
    assert r.outcome == "accepted"


def test_A15_grandfathering_cancelled_and_progress_moves():
    done = run(
        {"todos": [item("a", group="g")]},
        {"todos": [item("a", "completed", group="g")],
         "goals": [{"group": "g", "end_to_end_ownership": 97}]},
    ).state
    done = done.replace(goals=[])
    assert apply_todo_call(done, {"todos": [item("a", "completed", group="g")]}).outcome == "accepted"
    stored = run({"todos": [item("a", group="g"), item("b", group="g")]}).state
    r = apply_todo_call(stored, {"todos": [item("a", "completed"), item("b", "cancelled")]})
    assert r.outcome == "accepted"
    r = apply_todo_call(stored, {"todos": [item("a", "in_progress"), item("b", "in_progress")]})
    assert r.outcome == "accepted"
    r = apply_todo_call(stored, {"todos": [item("a", "completed")]})
    assert r.outcome == "rejected"  # the remaining member closes the group
    r = apply_todo_call(stored, {"todos": []})
    assert r.outcome == "accepted"  # removing items never fails the gate


def test_A16_severe_first_intent_nudges_in_band():
    r = run({"todos": [item("a")], "plan": {"user_intention": "x", "understands_user_intent": 40}})
    assert r.outcome == "accepted"
    assert r.state.plan.understands_user_intent_history == [40]
    assert r.text.endswith("\n\n" + INTENT_CONTINUATION)
    again = apply_todo_call(r.state, {"plan": {"understands_user_intent": 40}})
    assert again.text.endswith("\n\n" + INTENT_CONTINUATION)
    second = apply_todo_call(r.state, {"plan": {"understands_user_intent": 41}})
    assert second.state.plan.understands_user_intent_history == [40, 41]
    assert INTENT_CONTINUATION not in second.text
    assert "40" not in INTENT_CONTINUATION and "threshold" not in INTENT_CONTINUATION


def test_A19_validation_errors():
    def err(params):
        r = apply_todo_call(TodoState(), params)
        assert r.is_error and r.state.same_as(TodoState())
        return r.text

    base = item("a")
    assert err({"todos": [dict(base, status="done")]}) == (
        "Invalid todo input: todos[0].status must be one of pending, in_progress, completed,"
        ' cancelled (got "done").'
    )
    no_conf = dict(base)
    del no_conf["confidence"]
    assert err({"todos": [no_conf]}) == "Invalid todo input: todos[0].confidence is required."
    assert err({"todos": [dict(base, confidence=101)]}) == (
        "Invalid todo input: todos[0].confidence must be an integer from 0 to 100 (got 101)."
    )
    assert err({"todos": [base, base]}) == (
        'Invalid todo input: todos contains the id "a" more than once.'
    )
    assert err({"todos": [item("x"), dict(base, priority="urgent")]}) == (
        "Invalid todo input: todos[1].priority must be one of high, medium, low (got \"urgent\")."
    )
    assert err([1]) == "Invalid todo input: the input must be an object."
    assert err({"todos": [dict(base, confidence=True)]}).endswith("(got true).")
    assert err({"todos": [dict(base, id="  ")]}) == (
        "Invalid todo input: todos[0].id must be a non-empty string."
    )
    assert err({"todos": [dict(base, group=3)]}) == (
        "Invalid todo input: todos[0].group must be a string."
    )
    assert err({"plan": [1]}) == "Invalid todo input: plan must be an object."
    assert err({"goals": [{"group": 1}]}) == (
        "Invalid todo input: goals[0].group must be a string or null."
    )
    assert err({"goals": [{"end_to_end_ownership": -1}]}) == (
        "Invalid todo input: goals[0].end_to_end_ownership must be an integer from 0 to 100"
        " (got -1)."
    )


def test_A20_lenient_parsing():
    r = run({"todos": json.dumps([item("a", conf=80)])})
    assert r.state.todos[0].confidence == 80
    s = json.dumps(dict(item("a", "completed"), confidence="85", completion_confidence="95"))
    r = run({"todos": [s], "goals": [{"group": None, "end_to_end_ownership": "97"}]})
    assert (r.state.todos[0].confidence, r.state.todos[0].completion_confidence) == (85, 95)
    r = run({"todos": [dict(item("a"), confidence=90.0, completion_confidence="")]})
    assert r.state.todos[0].confidence == 90
    assert r.state.todos[0].completion_confidence is None
    assert run({"todos": ""}).outcome == "read"
    assert run({"todos": "not json at all"}).text == "Invalid todo input: todos must be an array."
    r = run({"plan": json.dumps({"user_intention": "x", "understands_user_intent": "96"})})
    assert r.state.plan.understands_user_intent == 96
    r = run({"plan": {"user_intention": "x", "user_intention_alignment": 70},
             "goals": [{"group": "g", "hill_climbability": 80, "feedback_loop": "f"}]})
    assert r.state.plan.understands_user_intent == 70
    assert r.state.goals[0].closed_feedback_loop == 80
    assert "hill_climbability" not in r.text and "alignment" not in r.text
    r = run({"todos": [item("a")], "intent": "ignored"})
    assert r.outcome == "accepted"


def test_A21_byte_format_of_the_parser_write():
    params = json.loads(
        '{"todos":[{"content":"Write the parser","status":"in_progress","priority":"high",'
        '"id":"parse","group":"parser","confidence":80}],"plan":{"user_intention":'
        '"Ship the JSONL parser","understands_user_intent":97},"goals":[{"group":"parser",'
        '"closed_feedback_loop":97,"feedback_loop":"run the parser tests"}]}'
    )
    r = run(params)
    expected = (
        '[\n  {\n    "content": "Write the parser",\n    "status": "in_progress",\n'
        '    "priority": "high",\n    "id": "parse",\n    "group": "parser",\n'
        '    "confidence": 80,\n    "confidence_history": [\n      80\n    ]\n  }\n]\n\n'
        'Plan:\n{\n  "user_intention": "Ship the JSONL parser",\n'
        '  "understands_user_intent": 97,\n  "understands_user_intent_history": [\n    97\n'
        '  ]\n}\n\nGoals:\n[\n  {\n    "group": "parser",\n    "closed_feedback_loop": 97,\n'
        '    "closed_feedback_loop_history": [\n      97\n    ],\n'
        '    "feedback_loop": "run the parser tests"\n  }\n]\n\nChanges: 1 new'
    )
    assert r.text == expected
