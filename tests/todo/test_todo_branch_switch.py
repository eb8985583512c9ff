"""Re-arm on a new user message and the idle nudge on the Deck's tail path when a new message
switches the branch (docs/todo-replay.md#branch-switches).

pi records the first message after a /tree jump with its parent on the earlier entry, so the new
message does not extend the branch pideck had: it starts a new branch that holds it. It is still a
new ``user`` (or ``assistant``) message entry on the branch and must be processed as one.
"""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path

from core.deck.deck import Deck
from core.session.errors import ReadOnlySession
from core.session.log import SessionLog
from core.config.settings import TodoConfig

WHEN = "2026-11-30T12:00:00.000Z"


def _append(path: Path, eid: str, parent: str | None, role: str) -> None:
    entry = {"type": "message", "id": eid, "parentId": parent, "timestamp": WHEN,
             "message": {"role": role, "content": [{"type": "text", "text": "hi"}]}}
    with path.open("a", encoding="utf-8") as fh:
        fh.write(json.dumps(entry, separators=(",", ":")) + "\n")


def _deck(tmp_path: Path, **config) -> Deck:
    now = datetime(2026, 11, 30, 12, 0, tzinfo=timezone.utc)
    log = SessionLog.create(tmp_path / "s.jsonl", cwd=tmp_path, clock=lambda: now)
    return Deck(log, todo_config=TodoConfig(**config),
                clock=lambda: int(now.timestamp() * 1000))


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def _one_todo_then_a_user_message(tmp_path: Path) -> tuple[Deck, Path, str | None]:
    """A Deck that nudges after one assistant turn, with one open todo and a user message (0000aaa1)
    after the fork entry; returns the deck, the log's path and the fork's id."""
    deck = _deck(tmp_path, idle_nudge_after_assistant_turns=1)
    path = tmp_path / "s.jsonl"
    deck.call_tool("todo", {"todos": [{"content": "x", "status": "pending", "priority": "high",
                                        "id": "a", "confidence": 90}]}).text
    deck.refresh()
    fork = deck.log.leaf_id
    _append(path, "0000aaa1", fork, "user")
    deck.refresh()
    return deck, path, fork


def test_a_user_message_that_switches_the_branch_rearms_the_cycle(tmp_path: Path) -> None:
    deck = _deck(tmp_path)
    path = tmp_path / "s.jsonl"
    deck.settle()  # no todos: the cycle disarms (no_todos)
    fork = deck.log.leaf_id
    _append(path, "0000aaa1", fork, "assistant")
    deck.refresh()
    assert deck.todo.cycle.armed is False
    _append(path, "0000bbb1", fork, "user")  # a sibling of 0000aaa1: a branch switch
    change = deck.refresh()
    assert change.branch_switched
    assert _lines(path)[-1]["data"] == {"armed": True, "reason": "new_work"}
    assert deck.todo.cycle.armed is True


def test_assistant_messages_on_a_switched_branch_count_for_the_idle_nudge(tmp_path: Path) -> None:
    deck, path, fork = _one_todo_then_a_user_message(tmp_path)
    _append(path, "0000bbb1", fork, "assistant")  # a sibling of the user message
    change = deck.refresh()
    assert change.branch_switched and len(change.followups) == 1
    assert _lines(path)[-1]["details"] == {"kind": "nudge", "ids": ["a"]}


def test_messages_left_behind_on_the_old_branch_are_not_processed(tmp_path: Path) -> None:
    deck, path, fork = _one_todo_then_a_user_message(tmp_path)
    # two lines in one refresh: an assistant reply on the old branch, then a jump back to fork
    _append(path, "0000aaa2", "0000aaa1", "assistant")
    _append(path, "0000bbb1", fork, "user")
    change = deck.refresh()
    assert change.branch_switched and change.followups == ()
    assert [e["type"] for e in _lines(path)][-2:] == ["message", "message"]
