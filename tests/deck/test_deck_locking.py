"""The Deck's tail path decides and appends under the log's lock (docs/session-format.md#locking).

The todo machine reacts to the agent's messages as they land (a re-arm after a user message, the
idle nudge after assistant messages). It decided from the state it had read, and only the append
itself took the lock, so two pideck processes following one log both sent the same nudge: the
second never saw the first's follow-up before deciding.
"""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path

from core.deck.deck import Deck
from core.session.errors import ReadOnlySession
from core.session.log import SessionLog
from core.config.settings import TodoConfig

NOW = datetime(2026, 11, 30, 12, 0, 0, tzinfo=timezone.utc)


def open_deck(path: Path) -> Deck:
    log = SessionLog.open(path, writable=True, clock=lambda: NOW)
    config = TodoConfig(idle_nudge_after_assistant_turns=2)
    return Deck(log, todo_config=config, clock=lambda: int(NOW.timestamp() * 1000))


def assistant(path: Path, eid: str, parent: str | None) -> None:
    entry = {"type": "message", "id": eid, "parentId": parent, "timestamp": "2026-11-30T12:00:00.000Z",
             "message": {"role": "assistant", "content": [{"type": "text", "text": "working"}]}}
    with path.open("a", encoding="utf-8") as fh:
        fh.write(json.dumps(entry, separators=(",", ":")) + "\n")


def followups(path: Path) -> list[dict]:
    lines = [json.loads(raw) for raw in path.read_text().splitlines()]
    return [e for e in lines if e.get("customType") == "pi-jtodo/followup"]


def test_two_decks_following_one_log_send_one_idle_nudge(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    SessionLog.create(path, cwd=tmp_path)
    a, b = open_deck(path), open_deck(path)
    a.call_tool("todo", {"todos": [{"content": "Task a", "status": "pending", "priority": "high", "id": "a", "confidence": 90}]})
    a.refresh()
    b.refresh()
    assistant(path, "0000aaa1", a.log.leaf_id)
    assistant(path, "0000aaa2", "0000aaa1")

    # b reads the two messages; before it acts on them, a (another process) acts on them first
    real_refresh, raced = b.log.refresh, []

    def refresh_then_race():
        result = real_refresh()
        if not raced:
            raced.append(True)
            assert len(a.refresh().followups) == 1
        return result

    b.log.refresh = refresh_then_race
    b.refresh()
    assert len(followups(path)) == 1
    change = a.refresh()
    assert change is None or change.followups == ()
    assert len(followups(path)) == 1
