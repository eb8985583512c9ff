"""Tools a person can discover (issue 29, item 7): ``pideck tool NAME --help`` lists the tool's
parameters from its schema, and a call upstream refuses as "invalid ... input." keeps that text on
stdout while stderr says which field is missing or wrong."""

from __future__ import annotations

import json

import pytest

from core.deck.registry import TOOLS, tool
from core.deck.tool_schema import problems


def test_a_tool_s_help_lists_its_parameters(pideck) -> None:
    code, out, err = pideck("tool", "agent_state_add_work_item", "--help")
    assert code == 0 and err == ""
    assert out.splitlines()[:2] == ["usage: pideck tool agent_state_add_work_item [JSON]", ""]
    assert out.splitlines()[-4:] == [
        "parameters (a JSON object):",
        "  id (string, required): Caller-supplied work item id.",
        "  content (string, required): Caller-declared description of the work item.",
        "  status (string, optional, one of open|in_progress|blocked|done): Exact caller-declared work item status.",
    ]


def test_nested_parameters_are_indented_under_their_field(pideck) -> None:
    out = pideck("tool", "todo", "-h")[1]
    assert "  todos (array of objects, optional): Todo list to save." in out
    assert "    status (string, required, one of pending|in_progress|completed|cancelled): Status." in out
    assert "  plan (object, optional): " in out
    assert "    understands_user_intent (integer, required, 0..100): " in out


def test_a_tool_without_parameters_says_so(pideck) -> None:
    assert pideck("tool", "agent_progress_judge", "--help")[1].endswith("parameters (a JSON object):\n  (none)\n")


def test_help_before_a_name_is_the_command_s_help_with_the_list_of_tools(pideck) -> None:
    code, out, _ = pideck("tool", "--help")
    assert code == 0 and out.startswith("usage: pideck tool [-h] [--session PATH] [--write] NAME [JSON]")
    assert "  agent_handoff_create" in out and "`pideck tool NAME --help` lists the tool's parameters" in out


@pytest.mark.parametrize("args", [("todoo", "--help"), ("todoo",)])
def test_a_mistyped_tool_gets_the_nearest(pideck, args) -> None:
    code, _, err = pideck("tool", *args)
    assert code == 2
    assert "did you mean 'todo'?" in err.casefold()  # (as argparse's choices say it)


def test_a_refused_call_keeps_upstream_s_text_and_names_the_fields(pideck) -> None:
    code, out, err = pideck("tool", "agent_state_add_work_item", '{"id": "x", "status": "nope", "owner": "me"}')
    assert code == 0
    assert out == "Agent State: invalid agent state input.\n"  # upstream's text, unchanged
    assert err.splitlines() == [
        "pideck tool: content: required, missing",
        'pideck tool: status: must be one of open, in_progress, blocked, done, not "nope"',
        "pideck tool: owner: not a parameter (the parameters are id, content, status)",
    ]


def test_an_accepted_call_or_one_refused_for_another_reason_says_nothing_more(pideck) -> None:
    assert pideck("tool", "agent_state_add_work_item", '{"id": "x", "content": "Do it"}')[2] == ""
    code, out, err = pideck("tool", "agent_state_add_work_item", '{"id": "x", "content": "Again"}')
    assert "x" in out and err == ""  # a duplicate: the parameters fit the schema


@pytest.mark.parametrize("name, params, expected", [
    ("agent_handoff_create", {"schemaVersion": 2, "id": 7},
     ["source: required, missing", "goal: required, missing", "schemaVersion: must be 1",
      "id: must be a string, not an integer"]),
    ("todo", {"todos": [{"content": "a", "status": "done", "priority": "high", "id": "t", "confidence": True}]},
     ['todos[0].status: must be one of pending, in_progress, completed, cancelled, not "done"',
      "todos[0].confidence: must be an integer, not a boolean"]),
    ("todo", {"todos": [{"content": "a", "status": "pending", "priority": "high", "id": "t", "confidence": 101}]},
     ["todos[0].confidence: must be at most 100"]),
    ("agent_progress_judge", [], ["the parameters: must be an object, not an array"]),
    ("todo", {"todos": "all of them"}, ["todos: must be an array, not a string"]),
])
def test_what_does_not_fit_the_schema(name, params, expected) -> None:
    found = tool(name)
    assert found is not None
    assert problems(found.parameters, params) == expected


@pytest.mark.parametrize("name", [t.name for t in TOOLS])
def test_every_tool_s_help_lists_each_property_of_its_schema(pideck, name) -> None:
    out = pideck("tool", name, "--help")[1]
    parameters = tool(name).parameters  # type: ignore[union-attr]
    for key in parameters.get("properties", {}):
        assert f"  {key} (" in out, (key, out)
    assert json.dumps(parameters)  # (a schema is JSON)


def test_a_packet_that_fits_the_schema_but_not_the_core_names_its_fields(pideck) -> None:
    params = '{"schemaVersion": 1, "id": "p", "source": "me", "goal": "  "}'
    code, out, err = pideck("tool", "agent_handoff_create", params)
    assert code == 0 and out.startswith("Agent Handoff: change rejected as invalid;")
    assert err.splitlines() == ["pideck tool: goal: required, but empty"]
    pideck("tool", "agent_handoff_create", '{"schemaVersion": 1, "id": "p", "source": "me", "goal": "Go"}')
    err = pideck("tool", "agent_handoff_create", '{"schemaVersion": 1, "id": "p", "source": "me", "goal": "Again"}')[2]
    assert err.splitlines() == ["pideck tool: id: a packet 'p' exists already"]
