"""Replay effects (docs/todo-replay.md#replay-from-the-branch) that the other todo tests do not pin down."""

from __future__ import annotations

from todo_helpers import assistant, item, tool_result

from memory_log import MemoryLog
from core.primitives.todo.adapter import TodoAdapter
from core.primitives.todo import constants as c

WEAK_WRITE = {"todos": [item("a")], "plan": {"understands_user_intent": 50}}
WEAK_STATE = {"todos": [dict(item("a"), confidence_history=[70])],
              "plan": {"understands_user_intent": 50, "understands_user_intent_history": [50]}}


def _followup(content: str) -> dict:
    """A follow-up as pi-jtodo writes it: no published details, so the kind comes from the text."""
    return {"type": "custom_message", "customType": "pi-jtodo/followup", "content": content,
            "display": True}


def test_only_an_empty_state_entry_clears_the_log_not_an_empty_tool_result():
    # the log is cleared by a digest and by a *pi-jtodo/state* entry whose todos, plan and
    # goals are all empty; a todo tool result that writes the empty state only appends (nothing).
    write = {"id": "w1", "name": "todo", "arguments": WEAK_WRITE}
    empty = {"id": "w2", "name": "todo", "arguments": {"todos": []}}
    log = MemoryLog(entries=[assistant(tool_calls=[write]), tool_result(WEAK_STATE, "w1"),
                             assistant(tool_calls=[empty]),
                             tool_result({"todos": [], "plan": {}, "goals": []}, "w2")])
    adapter = TodoAdapter(log)
    assert adapter.todos == []
    assert len(adapter.observations) == 1
    log.entries.append(MemoryLog.custom("pi-jtodo/state",
                                        {"schemaVersion": 1, "todos": [], "plan": {}, "goals": []}))
    assert adapter.observations == []


def test_poke_text_is_recognised_with_ascii_digits_only():
    # pi-jtodo's own pokes are recognised by ^You have \d+ incomplete todos?\. ...$ with
    # JavaScript's \d ([0-9]).
    state = MemoryLog.custom("pi-jtodo/state", {"schemaVersion": 1, **WEAK_STATE, "goals": []})
    log = MemoryLog(entries=[state, _followup(
        "You have \u0663 incomplete todos. Continue working, or update the todo tool.")])
    adapter = TodoAdapter(log)
    assert adapter.replay().observations != []  # not a digest either
    assert adapter.cycle.poke_state is None
    log.entries.append(_followup(
        "You have 12 incomplete todos. Continue working, or update the todo tool."))
    assert adapter.cycle.poke_state is not None
    log.entries.append(_followup(
        "You have 1 incomplete todo. Continue working, or update the todo tool. More."))
    assert adapter.cycle.unchanged_settles == 0  # not a poke: the count did not move


def test_follow_up_kinds_come_from_the_text_when_details_are_absent():
    state = MemoryLog.custom("pi-jtodo/state", {"schemaVersion": 1, **WEAK_STATE, "goals": []})
    log = MemoryLog(entries=[state])
    adapter = TodoAdapter(log)
    assert len(adapter.observations) == 1
    log.entries.append(_followup(c.DIGEST_PREFIX + "\n- x"))
    assert adapter.cycle.digest_delivered and adapter.observations == []
    log.entries.append(_followup(c.COMPLETION_CONTINUATION + "\n- y"))
    assert (adapter.cycle.attempts, adapter.cycle.spike_challenged) == (1, False)
    log.entries.append(_followup(c.SPIKE_CONTINUATION + "\n- z"))
    assert (adapter.cycle.attempts, adapter.cycle.spike_challenged) == (2, True)
    assert adapter.cycle.targets == []  # ids default to []
    log.entries.append(_followup(c.NUDGE_TEXT))  # not recognised without details: ignored
    assert adapter.cycle.attempts == 2


def test_a_rejected_or_failed_write_call_is_not_a_write_even_with_its_tool_call():
    call = {"id": "w1", "name": "todo", "arguments": WEAK_WRITE}
    rejected = tool_result(WEAK_STATE, "w1", text="[]\n\n" + c.OWNERSHIP_CONTINUATION)
    log = MemoryLog(entries=[assistant(tool_calls=[call]), rejected])
    adapter = TodoAdapter(log)
    assert adapter.todos[0].id == "a"  # still the state candidate
    assert adapter.observations == []
    log.entries[1] = tool_result(WEAK_STATE, "w1", is_error=True)
    assert adapter.observations == []
    log.entries[1] = tool_result(WEAK_STATE, "w1")
    assert len(adapter.observations) == 1


def test_no_fallback_and_a_later_valid_candidate_clears_the_warning():
    bad = MemoryLog.custom("pi-jtodo/state", {"schemaVersion": 1, "todos": [{}], "plan": {},
                                              "goals": []})
    good = MemoryLog.custom("pi-jtodo/state", {"schemaVersion": 1, **WEAK_STATE, "goals": []})
    log = MemoryLog(entries=[good, bad])
    adapter = TodoAdapter(log)
    assert [n.message for n in adapter.load()] == [c.RESTORE_WARNING] and adapter.todos == []
    log.entries.append(good)
    assert adapter.load() == [] and adapter.todos[0].id == "a"
