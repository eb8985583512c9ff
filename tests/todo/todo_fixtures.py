"""The strip example (one item per status, two targeted by a poke) as log entries
(docs/todo-views.md#the-todo-strip)."""

from __future__ import annotations

from memory_log import MemoryLog

EXAMPLE_STATE = {
    "schemaVersion": 1,
    "todos": [
        {"content": "Write the parser", "status": "in_progress", "priority": "high", "id": "parse",
         "group": "parser", "confidence": 80},
        {"content": "Tokenize input", "status": "completed", "priority": "high", "id": "lex",
         "group": "parser", "confidence": 85, "completion_confidence": 97,
         "confidence_history": [85, 97]},
        {"content": "Wire the CLI flag", "status": "pending", "priority": "high", "id": "cli",
         "group": "cli", "confidence": 70},
        {"content": "Update docs", "status": "cancelled", "priority": "high", "id": "docs",
         "confidence": 50},
    ],
    "plan": {"user_intention": "Ship the JSONL parser"},
    "goals": [{"group": "parser", "closed_feedback_loop": 90, "feedback_loop": "run the parser tests"}],
}
EXAMPLE_POKE = {
    "type": "custom_message", "customType": "pi-jtodo/followup",
    "content": "You have 2 incomplete todos. Continue working, or update the todo tool.",
    "display": True, "details": {"kind": "poke", "ids": ["parse", "cli"]},
}


def example_log() -> MemoryLog:
    return MemoryLog(entries=[MemoryLog.custom("pi-jtodo/state", EXAMPLE_STATE), dict(EXAMPLE_POKE)])
