"""TodoAdapter on the real session log, where big message entries are lazy index records."""

from __future__ import annotations

import json

from todo_helpers import item

from core.session.log import SessionLog
from core.primitives.todo.adapter import TodoAdapter
from core.primitives.todo import constants as c


def _write_line(log: SessionLog, entry: dict) -> None:
    entry = {"type": entry["type"], "id": entry["id"], "parentId": log.leaf_id,
             "timestamp": "2026-12-01T10:00:00.000Z", **{k: v for k, v in entry.items() if k not in ("type", "id")}}
    with open(log.path, "a", encoding="utf-8") as f:
        f.write(json.dumps(entry, separators=(",", ":"), ensure_ascii=False) + "\n")
    log.refresh()


def _assistant(id: str, call_id: str, arguments: dict) -> dict:
    return {"type": "message", "id": id, "message": {
        "role": "assistant", "content": [{"type": "text", "text": "x" * 5000},
                                         {"type": "toolCall", "id": call_id, "name": "todo",
                                          "arguments": arguments}]}}


def _result(id: str, call_id: str, details: dict) -> dict:
    return {"type": "message", "id": id, "message": {
        "role": "toolResult", "toolCallId": call_id, "toolName": "todo",
        "content": [{"type": "text", "text": "..."}], "details": details, "isError": False}}


def test_adapter_on_a_session_log(tmp_path):
    log = SessionLog.create(tmp_path / "s.jsonl", tmp_path)
    adapter = TodoAdapter(log)
    params = {"todos": [item("a")], "plan": {"understands_user_intent": 50}}
    state = {"todos": [dict(item("a"), confidence_history=[70])],
             "plan": {"understands_user_intent": 50, "understands_user_intent_history": [50]}, "goals": []}
    _write_line(log, _assistant("aaaa0001", "call-1", params))
    _write_line(log, _result("aaaa0002", "call-1", state))
    assert adapter.load() == []
    assert [t.id for t in adapter.todos] == ["a"]
    assert len(adapter.observations) == 1
    text, notice = adapter.settle()
    assert text == c.POKE_TEXT.format(n=1, s="")
    entry = log.branch_entries()[-1]
    assert entry["customType"] == "pi-jtodo/followup" and entry["details"] == {"kind": "poke", "ids": ["a"]}
    assert adapter.cycle.targets == ["a"]
    adapter.call_tool("todo", {"todos": [item("a", "in_progress")]})
    assert log.branch_entries()[-1]["customType"] == "pi-jtodo/state"
    assert adapter.todos[0].status == "in_progress"
    assert adapter.replay().newest_entry_ms is not None
    reopened = TodoAdapter(SessionLog.open(log.path))
    assert reopened.snapshot() == adapter.snapshot()


def test_assistant_bodies_stay_lazy(tmp_path):
    log = SessionLog.create(tmp_path / "s.jsonl", tmp_path)
    _write_line(log, _assistant("aaaa0001", "call-1", {}))
    assert not isinstance(log.branch_entries()[-1], dict)
    adapter = TodoAdapter(log)
    assert adapter.replay().assistant_turns_since_write == 1
    assert adapter.replay() is adapter.replay()  # cached per branch
