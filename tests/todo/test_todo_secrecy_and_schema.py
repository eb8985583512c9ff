"""The secrecy rule (docs/todo-gates.md#the-calibration-constants-and-the-secrecy-rule), the tool
definition, and the jcode reference cases on continuations and schema."""

from __future__ import annotations

import json
import re

from todo_helpers import GOOD_GOAL, item, make, assistant

from core.primitives.todo.tool_schema import TODO_TOOL
from core.primitives.todo.adapter import TodoAdapter
from core.primitives.todo import constants as c

SECRETS = re.compile(r"96|60|15|threshold", re.IGNORECASE)


def _visible_constants() -> list[str]:
    return [v for k, v in vars(c).items() if k.isupper() and isinstance(v, str)]


def test_B17_no_model_visible_text_discloses_calibration():
    adapter, log, clock = make(idle_nudge_after_assistant_turns=2)
    texts = [TODO_TOOL.description, json.dumps(TODO_TOOL.parameters)]
    calls = [
        {"todos": [item("a", conf=40), item("b", conf=50, group="g")],
         "plan": {"user_intention": "build it", "understands_user_intent": 30},
         "goals": [{"group": "g", "closed_feedback_loop": 50, "feedback_loop": "check"}]},
        {"todos": [item("a", "completed", 40), item("b", "completed", 50, group="g")]},  # rejected
        {"todos": "nonsense"},
        {"todos": [item("a", "completed", 40, completion_confidence=90), item("b", conf=50, group="g")],
         "plan": {"understands_user_intent": 80}, "goals": [GOOD_GOAL]},
        {},
    ]
    for params in calls:
        texts.append(adapter.call_tool("todo", params).text)
    for _ in range(2):
        log.add(assistant())
        adapter.after_assistant_message()
    adapter.settle()  # poke
    clock.advance(100_000)
    adapter.watchdog_tick()
    adapter.call_tool("todo", {"todos": [item("a", "completed", 40, completion_confidence=90),
                                         item("b", "completed", 50, group="g", completion_confidence=80)],
                               "goals": [{"group": "g", "end_to_end_ownership": 99}]}).text
    for _ in range(4):
        adapter.settle()  # digest, completion, ...
    adapter.call_tool("todo", {"todos": [item("a", "completed", 40, completion_confidence=100),
                                         item("b", "completed", 50, group="g", completion_confidence=100)]}).text
    adapter.command("poke on")
    for _ in range(3):
        adapter.settle()
    followups = [e["content"] for e in log.appended if e["type"] == "custom_message"]
    assert {e["details"]["kind"] for e in log.appended if e["type"] == "custom_message"} >= {
        "poke", "watchdog", "nudge", "digest", "completion", "spike"}
    texts += followups
    assert c.INTENT_CONTINUATION in texts[2] and c.OWNERSHIP_CONTINUATION in texts[3]
    for text in texts + _visible_constants():
        assert not SECRETS.search(text), text
    schema = json.dumps(TODO_TOOL.parameters).lower()
    assert "threshold" not in schema and "quality gate" not in schema


def test_continuations_name_their_action():
    assert "`end_to_end_ownership`" in c.OWNERSHIP_CONTINUATION
    assert "call the todo tool again" in c.OWNERSHIP_CONTINUATION
    assert "unchanged" in c.OWNERSHIP_CONTINUATION
    assert "completion_confidence" in c.COMPLETION_CONTINUATION


def test_tool_definition():
    assert TodoAdapter.TOOLS == (TODO_TOOL,)
    assert (TODO_TOOL.name, TODO_TOOL.label) == ("todo", "Todo")
    assert TODO_TOOL.description == (
        "Read or update structured todo items and optional goal-level assessments.")
    props = TODO_TOOL.parameters["properties"]
    assert list(props) == ["todos", "plan", "goals"]
    items = props["todos"]["items"]
    assert items["required"] == ["content", "status", "priority", "id", "confidence"]
    assert items["properties"]["status"]["enum"] == ["pending", "in_progress", "completed", "cancelled"]
    assert items["properties"]["priority"]["enum"] == ["high", "medium", "low"]
    plan = props["plan"]
    assert list(plan["properties"]) == ["user_intention", "understands_user_intent"]
    assert plan["required"] == ["user_intention", "understands_user_intent"]
    goal = props["goals"]["items"]
    assert list(goal["properties"]) == ["group", "closed_feedback_loop", "feedback_loop",
                                        "end_to_end_ownership"]
    assert goal["required"] == ["closed_feedback_loop", "feedback_loop"]
    assert "intent" not in props
    assert (TodoAdapter.COMMAND, TodoAdapter.ENTRY_TYPE) == ("todos", "pi-jtodo/state")


def test_core_never_imports_textual():
    import pathlib
    import core.primitives.todo as todo
    root = pathlib.Path(todo.__file__).parent
    for path in root.glob("*.py"):  # (a theme's name such as "textual-dark" is only data)
        text = path.read_text()
        assert "import textual" not in text and "from textual" not in text, path


def test_B17_every_tool_result_and_follow_up_of_a_full_cycle_keeps_the_calibration_private():
    adapter, log, clock = make(idle_nudge_after_assistant_turns=1, completion_gate_max_attempts=2)
    texts = [TODO_TOOL.description, str(TODO_TOOL.parameters)]
    run_tool = adapter.run_tool

    def recording(name, params):
        result = run_tool(name, params)
        texts.append(result.text)
        return result

    adapter.run_tool = recording
    goal = {"group": "g", "closed_feedback_loop": 40, "feedback_loop": "check it"}
    adapter.call_tool("todo", {"todos": [item("a", conf=40, group="g"), item("b", conf=50)],
                               "plan": {"user_intention": "build", "understands_user_intent": 30},
                               "goals": [goal]}).text  # severe nudge in-band
    adapter.call_tool("todo", {"plan": {"understands_user_intent": 70}}).text  # Plan updates
    adapter.call_tool("todo", {"goals": [dict(goal, closed_feedback_loop=45)]}).text  # Goal updates
    adapter.call_tool("todo", {"todos": [item("a", "completed", 40, group="g")]}).text  # rejected
    adapter.call_tool("todo", {"todos": [{"id": "x"}]}).text  # invalid
    adapter.call_tool("todo", {}).text  # read
    log.add(assistant())
    adapter.after_assistant_message()  # nudge
    adapter.settle()  # poke
    clock.advance(100_000)
    adapter.watchdog_tick()  # watchdog
    adapter.call_tool("todo", {
        "todos": [item("a", "completed", 40, group="g", completion_confidence=90),
                  item("b", "completed", 50, completion_confidence=99)],
        "goals": [dict(goal, end_to_end_ownership=99),
                  {"group": None, "end_to_end_ownership": 99, "closed_feedback_loop": 99}]}).text
    for _ in range(4):
        adapter.settle()  # digest, completion, completion, stalled
    adapter.command("poke on")
    adapter.call_tool("todo", {"todos": [
        item("a", "completed", 40, group="g", completion_confidence=100),
        item("b", "completed", 50, completion_confidence=99)]}).text
    adapter.settle()  # spike
    followups = [e for e in log.appended if e["type"] == "custom_message"]
    assert {e["details"]["kind"] for e in followups} == {
        "poke", "watchdog", "nudge", "digest", "completion", "spike"}
    texts += [e["content"] for e in followups]
    assert len(texts) == 2 + 8 + len(followups)
    for text in texts:
        assert not SECRETS.search(text), text
