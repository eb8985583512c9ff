"""Session files for the history tests: pi-shaped sessions built entry by entry, and files cut at
an entry (the reference a past point is checked against)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
BRANCHED = FIXTURES / "pi_sessionmanager_branched.jsonl"
BRANCHED_084 = FIXTURES / "pi_sessionmanager_branched_0.84.2.jsonl"
SPEC_15_2 = FIXTURES / "2026-11-30T14-53-16-479Z_01a22cf2-253f-70fd-b26f-f043e48c877f.jsonl"
PI_CLI = FIXTURES / "pi_cli_session.jsonl"
PI_FIXTURES = [BRANCHED, BRANCHED_084, SPEC_15_2, PI_CLI]
HEADER = {"type": "session", "version": 3, "id": "01a22cf2-253f-70fd-b26f-f043e48c877f",
          "timestamp": "2026-11-30T14:53:16.479Z", "cwd": "/home/user/project"}


def dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def cut(path: Path, entry_id: str, out: Path) -> Path:
    """``path`` up to and including the line of ``entry_id``: the file as it was when that entry
    was the last one written."""
    kept = []
    for raw in path.read_text(encoding="utf-8").splitlines(keepends=True):
        kept.append(raw)
        try:
            value = json.loads(raw)
        except ValueError:
            continue
        if isinstance(value, dict) and value.get("id") == entry_id and value.get("type") != "session":
            break
    out.write_text("".join(kept), encoding="utf-8")
    return out


class PiSession:
    """A pi session written line by line: ids e0000001, e0000002 ..., one second apart, each entry
    the child of the previous one unless ``parent`` says otherwise."""

    def __init__(self, path: Path, header: dict[str, Any] = HEADER) -> None:
        self.path = path
        self.n = 0
        self.leaf: str | None = None
        path.write_text(dumps(header) + "\n", encoding="utf-8")

    def put(self, entry: dict[str, Any], parent: str | None | bool = True) -> str:
        self.n += 1
        eid = f"e{self.n:07d}"
        parent_id = self.leaf if parent is True else (None if parent is False else parent)
        ts = f"2026-11-30T15:{self.n // 60:02d}:{self.n % 60:02d}.000Z"
        common = {"id": eid, "parentId": parent_id, "timestamp": ts}
        if entry["type"] in ("custom", "custom_message"):
            line = {**entry, **common}
        else:
            line = {"type": entry["type"], **common, **{k: v for k, v in entry.items() if k != "type"}}
        with self.path.open("a", encoding="utf-8") as fh:
            fh.write(dumps(line) + "\n")
        self.leaf = eid
        return eid

    def custom(self, custom_type: str, data: Any, **kw: Any) -> str:
        return self.put({"type": "custom", "customType": custom_type, "data": data}, **kw)

    def state(self, work_items: list[dict[str, str]], objective: str | None = None, decisions: Any = (), **kw: Any) -> str:
        state: dict[str, Any] = {"schemaVersion": 1, "workItems": work_items, "decisions": list(decisions)}
        if objective is not None:
            state["objective"] = objective
        return self.custom("agent-state-state", {"schemaVersion": 1, "state": state}, **kw)

    def progress(self, current: list[str], recorded: list[str] = (), baseline: bool = False, **kw: Any) -> str:  # type: ignore[assignment]
        return self.custom("agent-progress-state", {"schemaVersion": 1, "hasBaseline": baseline,
                                                    "currentMilestones": current, "recordedMilestones": list(recorded)}, **kw)

    def packets(self, *packets: dict[str, Any], **kw: Any) -> str:
        return self.custom("agent-handoff-state", {"schemaVersion": 1, "packets": list(packets)}, **kw)

    def user(self, text: str, **kw: Any) -> str:
        return self.put({"type": "message", "message": {"role": "user", "content": [{"type": "text", "text": text}]}}, **kw)

    def assistant(self, text: str, *calls: tuple[str, str, Any], stop: str = "toolUse", **kw: Any) -> str:
        content: list[Any] = [{"type": "text", "text": text}]
        content += [{"type": "toolCall", "id": cid, "name": name, "arguments": args} for cid, name, args in calls]
        return self.put({"type": "message", "message": {"role": "assistant", "content": content, "stopReason": stop}}, **kw)

    def tool_result(self, call_id: str, name: str, text: str, details: Any = None, is_error: bool = False, **kw: Any) -> str:
        message: dict[str, Any] = {"role": "toolResult", "toolCallId": call_id, "toolName": name,
                                   "content": [{"type": "text", "text": text}]}
        if details is not None:
            message["details"] = details
        message["isError"] = is_error
        return self.put({"type": "message", "message": message}, **kw)

    def todo_write(self, call_id: str, todos: list[dict[str, Any]], text: str = "Todos updated.", **kw: Any) -> str:
        """An assistant's todo call and its result, as pi-jtodo writes them."""
        self.assistant("Updating the todos.", (call_id, "todo", {"todos": todos}), **kw)
        return self.tool_result(call_id, "todo", text, {"todos": todos, "plan": {}, "goals": []})

    def followup(self, text: str, kind: str | None = None, ids: list[str] = (), **kw: Any) -> str:  # type: ignore[assignment]
        entry: dict[str, Any] = {"type": "custom_message", "customType": "pi-jtodo/followup", "content": text,
                                 "display": True}
        if kind is not None:
            entry["details"] = {"kind": kind, "ids": list(ids)}
        return self.put(entry, **kw)


def todo(tid: str, status: str = "pending", confidence: int | None = 70, **fields: Any) -> dict[str, Any]:
    item: dict[str, Any] = {"content": fields.pop("content", f"Todo {tid}"), "status": status,
                            "priority": fields.pop("priority", "medium"), "id": tid}
    if confidence is not None:
        item["confidence"] = confidence
    item.update(fields)
    return item
