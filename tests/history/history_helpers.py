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


def random_session(path: Path, n: int, seed: int) -> PiSession:
    """A pi-shaped session of ``n`` entries with every kind of entry the derived state reads (some
    invalid), todo calls with their results, gate entries, and a jump back every few entries (a
    /tree move): the shape the every-entry checks walk."""
    import random

    rng = random.Random(seed)
    s = PiSession(path)
    ids: list[str] = []
    statuses = ("pending", "in_progress", "completed", "cancelled")
    for k in range(n):
        parent: str | bool = True
        if ids and rng.random() < 0.06:
            parent = rng.choice(ids[-12:])
        roll = rng.random()
        if roll < 0.15:
            items = [{"id": f"w{j}", "content": f"Work {j}", "status": rng.choice(("open", "in_progress", "blocked", "done"))}
                     for j in range(rng.randint(0, 4))]
            eid = s.state(items, objective=rng.choice((None, "Ship it", "Ship it now")), parent=parent)
        elif roll < 0.25:
            current = [f"m{j}" for j in range(rng.randint(0, 4))]
            baseline = rng.random() < 0.6
            eid = s.progress(current, current[:rng.randint(0, len(current))] if baseline else [], baseline, parent=parent)
        elif roll < 0.33:
            eid = s.packets(*({"schemaVersion": 1, "id": f"h{j}", "source": "a", "goal": f"Goal {j}"}
                              for j in range(rng.randint(0, 3))), parent=parent)
        elif roll < 0.37:
            eid = s.custom(rng.choice(("agent-state-state", "agent-handoff-state", "pi-jtodo/state")),
                           {"schemaVersion": 3}, parent=parent)  # invalid
        elif roll < 0.50:
            todos = [todo(f"t{j}", rng.choice(statuses), rng.choice((None, 50, 97)),
                          completion_confidence=rng.choice((None, 90, 99))) for j in range(rng.randint(0, 5))]
            call = f"c{k}"
            s.assistant("todo", (call, "todo", {"todos": todos}), parent=parent)
            ids.append(s.leaf or "")
            eid = s.tool_result(call, "todo", "ok", {"todos": todos, "plan": {"understands_user_intent": 90}, "goals": []})
        elif roll < 0.55:
            todos = [todo(f"t{j}", rng.choice(statuses)) for j in range(rng.randint(0, 3))]
            eid = s.custom("pi-jtodo/state", {"schemaVersion": 1, "todos": todos, "plan": {}, "goals": []}, parent=parent)
        elif roll < 0.62:
            eid = s.custom("pi-jtodo/cycle", rng.choice(({"armed": True, "reason": "new_work"},
                                                          {"armed": False, "reason": "passed"}, {"armed": True})),
                           parent=parent)
        elif roll < 0.70:
            eid = s.followup("z", rng.choice(("poke", "digest", "completion", "spike", "nudge", "watchdog")),
                             [f"t{rng.randint(0, 4)}"], parent=parent)
        elif roll < 0.85:
            eid = s.assistant("thinking", stop="stop", parent=parent)
        elif roll < 0.95:
            eid = s.user("go on", parent=parent)
        else:
            eid = s.put({"type": rng.choice(("label", "session_info")), "targetId": rng.choice(ids or ["x"]),
                         "label": "mark", "name": f"name {k}"}, parent=parent)
        ids.append(eid)
    return s
