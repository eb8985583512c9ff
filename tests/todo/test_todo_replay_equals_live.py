"""The rule "replay equals live" (docs/todo-gates.md#how-the-todo-model-is-tested) on the real
session log, where the adapter's fold is resumable (fed only what ``branch_select`` reports) and so
can differ from a fresh replay.

On a MemoryLog every read replays the whole branch, so test_todo_turn_end.py's B16 test compares the
replay with itself; here seeded random walks of writes, settles, pokes, clears, user and assistant
messages and branch switches compare the live adapter with a freshly opened one after every step.
"""

from __future__ import annotations

import json
import random

from todo_helpers import item

from core.session.log import SessionLog
from core.primitives.todo.adapter import TodoAdapter
from core.config.settings import TodoConfig

CONFIG = TodoConfig(idle_nudge_after_assistant_turns=2, max_consecutive_pokes_without_progress=2)


def _message(log: SessionLog, n: int, role: str, parent: str | None) -> None:
    entry = {"type": "message", "id": f"zz{n:06d}", "parentId": parent,
             "timestamp": "2026-12-01T10:00:00.000Z",
             "message": {"role": role, "content": [{"type": "text", "text": "x"}]}}
    with open(log.path, "a", encoding="utf-8") as f:
        f.write(json.dumps(entry) + "\n")
    log.refresh()


def _walk(seed: int, tmp_path) -> None:
    rnd = random.Random(seed)
    log = SessionLog.create(tmp_path / f"s{seed}.jsonl", tmp_path)
    adapter = TodoAdapter(log, config=CONFIG)
    for step in range(40):
        op = rnd.choice(["write", "write", "settle", "settle", "user", "assistant", "switch",
                         "poke", "clear"])
        if op == "write":
            todos = []
            for i in rnd.sample("abcd", rnd.randint(0, 3)):
                t = item(i, rnd.choice(["pending", "in_progress", "completed", "cancelled"]),
                         rnd.choice([50, 90, 97]))
                cc = rnd.choice([None, 50, 97, 100])
                if cc is not None:
                    t["completion_confidence"] = cc
                todos.append(t)
            adapter.call_tool("todo", {
                "todos": todos, "plan": {"understands_user_intent": rnd.choice([50, 97])},
                "goals": [{"group": None, "closed_feedback_loop": rnd.choice([50, 97]),
                           "end_to_end_ownership": 97}]}).text
        elif op == "settle":
            adapter.settle()
        elif op == "poke":
            adapter.command(rnd.choice(["poke on", "poke off"]))
        elif op == "clear":
            adapter.command("clear --yes")
        else:
            branch = log.branch_entries()
            parent = log.leaf_id
            if op == "switch" and len(branch) >= 2:
                parent = rnd.choice(branch[:-1])["id"]
            _message(log, step, "assistant" if op == "assistant" else "user", parent)
            if op == "assistant":
                adapter.after_assistant_message()
            else:
                adapter.after_user_message()
        live = adapter.replay()
        fresh = TodoAdapter(SessionLog.open(log.path), config=CONFIG).replay()
        where = (seed, step, op)
        assert live.state.to_json() == fresh.state.to_json(), where
        assert live.flags == fresh.flags, where
        assert live.observations == fresh.observations, where
        assert live.warnings == fresh.warnings, where
        assert (live.dead_watchdog_pokes, live.assistant_turns_since_write) == (
            fresh.dead_watchdog_pokes, fresh.assistant_turns_since_write), where


def test_B16_live_fold_equals_a_fresh_replay_on_the_session_log(tmp_path):
    for seed in range(12):
        _walk(seed, tmp_path)
