"""Builders shared by the todo tests: items, a fake clock and a log that stamps entries with it."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from memory_log import MemoryLog
from core.primitives.todo.adapter import TodoAdapter
from core.config.settings import TodoConfig
from core.primitives.todo.model import TodoGoal, TodoItem, TodoPlan, TodoState

START_MS = 1_795_000_000_000


def item(id: str, status: str = "pending", conf: int = 70, **extra: Any) -> dict[str, Any]:
    d: dict[str, Any] = {
        "content": extra.pop("content", f"Task {id}"),
        "status": status,
        "priority": extra.pop("priority", "high"),
        "id": id,
        "confidence": conf,
    }
    d.update(extra)
    return d


def todo_state(todos: Any = (), plan: dict[str, Any] | None = None, goals: Any = ()) -> TodoState:
    """A stored state from plain dicts (the shapes the tool and the log hold)."""
    return TodoState(todos=[TodoItem(**t) for t in todos], plan=TodoPlan(**(plan or {})),
                     goals=[TodoGoal(**g) for g in goals])


def iso(ms: int) -> str:
    dt = datetime.fromtimestamp(ms / 1000, tz=timezone.utc)
    return dt.isoformat(timespec="milliseconds").replace("+00:00", "Z")


class FakeClock:
    def __init__(self, start: int = START_MS) -> None:
        self.now = start

    def __call__(self) -> int:
        return self.now

    def advance(self, ms: int) -> None:
        self.now += ms


@dataclass
class ClockedLog(MemoryLog):
    """A MemoryLog whose entries carry timestamps from the fake clock, like the session log."""

    clock: FakeClock = field(default_factory=FakeClock)

    def _stamp(self) -> None:
        self.entries[-1]["timestamp"] = iso(self.clock())

    def append_custom(self, custom_type: str, data: Any) -> None:
        super().append_custom(custom_type, data)
        self._stamp()

    def append_custom_message(self, custom_type, content, display, details=None) -> None:
        super().append_custom_message(custom_type, content, display, details)
        self._stamp()

    def add(self, entry: dict[str, Any]) -> dict[str, Any]:
        """Append a foreign entry (an agent message) as the session log would."""
        entry = dict(entry, timestamp=iso(self.clock()))
        self.entries.append(entry)
        return entry


def assistant(text: str = "working", tool_calls: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    content: list[dict[str, Any]] = [{"type": "text", "text": text}]
    for call in tool_calls or []:
        content.append({"type": "toolCall", **call})
    return {"type": "message", "message": {"role": "assistant", "content": content}}


def user(text: str = "next") -> dict[str, Any]:
    return {"type": "message", "message": {"role": "user", "content": [{"type": "text", "text": text}]}}


def tool_result(details: Any, call_id: str = "call1", text: str = "[]", is_error: bool = False):
    return {
        "type": "message",
        "message": {
            "role": "toolResult",
            "toolCallId": call_id,
            "toolName": "todo",
            "content": [{"type": "text", "text": text}],
            "details": details,
            "isError": is_error,
        },
    }


def make(**config: Any) -> tuple[TodoAdapter, ClockedLog, FakeClock]:
    clock = FakeClock()
    log = ClockedLog(clock=clock)
    return TodoAdapter(log, clock=clock, config=TodoConfig(**config)), log, clock


GOOD_GOAL = {"group": None, "closed_feedback_loop": 97, "feedback_loop": "run it", "end_to_end_ownership": 97}
GOOD_PLAN = {"user_intention": "ship it", "understands_user_intent": 97}


def kinds(log: MemoryLog) -> list[str]:
    """A compact trace of what was appended: state / cycle:<reason> / <follow-up kind>."""
    out = []
    for e in log.appended:
        if e["customType"] == "pi-jtodo/state":
            out.append("state")
        elif e["customType"] == "pi-jtodo/cycle":
            out.append(f"cycle:{'on' if e['data']['armed'] else 'off'}:{e['data'].get('reason')}")
        else:
            out.append(e["details"]["kind"])
    return out
