"""On a read-only session every adapter's mutation is refused with the Deck's hint
and changes nothing (regression: the Agent State adapter already did; Progress and Handoff swallowed
the refusal into an "invalid input" text, and Progress kept the change in memory)."""

from __future__ import annotations

from pathlib import Path

from core.primitives.host import Notice
from core.deck.deck import Deck
from core.session.errors import ReadOnlySession
from core.session.log import SessionLog
from core.session.errors import OPENED_READ_ONLY


def read_only_deck(tmp_path: Path) -> tuple[Deck, Path]:
    path = tmp_path / "s.jsonl"
    SessionLog.create(path, cwd=tmp_path)
    return Deck(SessionLog.open(path, writable=False)), path


def test_read_only_refusal_is_the_same_for_every_primitive(tmp_path: Path) -> None:
    deck, path = read_only_deck(tmp_path)
    before = path.read_bytes()
    fresh = {"hasBaseline": False, "currentMilestones": [], "recordedMilestones": []}
    assert deck.call_tool("agent_progress_add_milestone", {"milestone": "m"}).text == OPENED_READ_ONLY
    assert deck.progress.state() == fresh
    assert deck.call_tool("agent_progress_judge", {}).text == OPENED_READ_ONLY
    assert deck.progress.state() == fresh
    assert deck.apply("/agent-progress judge") == [Notice(OPENED_READ_ONLY, "refused")]
    assert deck.progress.state() == fresh
    packet = {"schemaVersion": 1, "id": "h", "source": "s", "goal": "g"}
    assert deck.call_tool("agent_handoff_create", packet).text == OPENED_READ_ONLY
    assert deck.handoff.packets() == []
    assert path.read_bytes() == before
