"""Review: B17 over every tool result of a run, not only the first few (jtodo.md §2, §13.2)."""

from __future__ import annotations

import re

from todo_helpers import assistant, item, make

from core.todo.tool_schema import TODO_TOOL

SECRETS = re.compile(r"96|60|15|threshold", re.IGNORECASE)


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
