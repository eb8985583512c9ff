"""The Deck over a real session file: incremental refresh, branch switch, reset, read-only
refusal, and the todo machine fed by the agent's messages as they land."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from core.primitives.host import Notice
from core.deck.deck import Deck
from core.session.errors import ReadOnlySession
from core.session.log import SessionLog
from core.session.errors import OPENED_READ_ONLY
from core.config.settings import TodoConfig

START = datetime(2026, 11, 30, 12, 0, 0, tzinfo=timezone.utc)


class Clock:
    def __init__(self) -> None:
        self.now = START

    def dt(self) -> datetime:
        return self.now

    def ms(self) -> int:
        return int(self.now.timestamp() * 1000)


def stamp(moment: datetime) -> str:
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def foreign(path: Path, entry: dict) -> None:
    """Another writer (pi, say) appends one line."""
    with path.open("a", encoding="utf-8") as fh:
        fh.write(json.dumps(entry, separators=(",", ":"), ensure_ascii=False) + "\n")


def message(eid: str, parent: str | None, role: str, when: datetime, text: str = "hi") -> dict:
    return {"type": "message", "id": eid, "parentId": parent, "timestamp": stamp(when),
            "message": {"role": role, "content": [{"type": "text", "text": text}]}}


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def deck(tmp_path: Path, clock: Clock) -> Deck:
    log = SessionLog.create(tmp_path / "s.jsonl", cwd=tmp_path, clock=clock.dt)
    config = TodoConfig(idle_nudge_after_assistant_turns=2)
    return Deck(log, todo_config=config, clock=clock.ms)


def item(id: str, status: str = "pending", conf: int = 90) -> dict:
    return {"content": f"Task {id}", "status": status, "priority": "high", "id": id, "confidence": conf}


def test_refresh_takes_in_another_writers_entry_for_the_right_pane(deck: Deck, tmp_path: Path) -> None:
    deck.apply("/agent-state objective Ship it")
    assert deck.refresh() is not None  # our own append comes back through the read path
    assert deck.refresh() is None
    other = SessionLog.open(tmp_path / "s.jsonl")
    other.append_custom("agent-progress-state", {"schemaVersion": 1, "hasBaseline": False,
                                                 "currentMilestones": ["m1"], "recordedMilestones": []})
    change = deck.refresh()
    assert change is not None and change.new_entries == 1 and not change.reset and not change.branch_switched
    assert deck.progress.state()["currentMilestones"] == ["m1"]
    assert deck.state.snapshot()["objective"] == "Ship it"


def test_a_branch_switch_rederives_everything(deck: Deck, tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    deck.apply("/agent-state objective First")
    first = deck.log.leaf_id
    deck.apply("/agent-state objective Second")
    deck.refresh()
    foreign(path, {"type": "custom", "customType": "other", "data": {}, "id": "0000beef",
                   "parentId": first, "timestamp": stamp(START)})
    change = deck.refresh()
    assert change is not None and change.branch_switched
    assert deck.state.snapshot()["objective"] == "First"


def test_truncation_resets_and_rereads(deck: Deck, tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    deck.apply("/agent-state objective First")
    deck.refresh()
    header = path.read_text(encoding="utf-8").splitlines()[0]
    path.write_text(header + "\n", encoding="utf-8")
    change = deck.refresh()
    assert change is not None and change.reset
    assert "objective" not in deck.state.snapshot()


def test_an_invalid_newest_entry_from_another_writer_warns_without_fallback(deck: Deck, tmp_path: Path) -> None:
    deck.apply("/agent-handoff status")
    deck.call_tool("agent_handoff_create", {"schemaVersion": 1, "id": "h1", "source": "s", "goal": "g"})
    deck.refresh()
    SessionLog.open(tmp_path / "s.jsonl").append_custom("agent-handoff-state", {"schemaVersion": 1,
                                                                                 "packets": [], "x": 1})
    deck.refresh()
    assert deck.handoff.packets() == []
    assert deck.warnings == ["Agent Handoff: persisted state was invalid; starting with fresh state."]


def test_read_only_sessions_refuse_mutations_and_change_nothing(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    SessionLog.create(path, cwd=tmp_path)
    before = path.read_bytes()
    deck = Deck(SessionLog.open(path, writable=False))
    notices = deck.apply("/agent-state objective Mine")
    assert [(n.message, n.level) for n in notices] == [(OPENED_READ_ONLY, "refused")]
    assert deck.call_tool("agent_state_add_work_item", {"id": "a", "content": "x"}).text == OPENED_READ_ONLY
    assert "objective" not in deck.state.snapshot()
    assert deck.settle() == (None, Notice(OPENED_READ_ONLY, "refused"))
    assert deck.watchdog_tick(10**15) == []
    assert path.read_bytes() == before


def test_a_new_user_message_rearms_a_disarmed_cycle(deck: Deck, tmp_path: Path, clock: Clock) -> None:
    deck.apply("/todos poke off")
    assert deck.todo.cycle.armed is False
    deck.call_tool("todo", {"todos": [item("a")]}).text  # last disarm was the user's: no re-arm
    deck.refresh()
    deck.settle()
    assert deck.todo.cycle.armed is False
    deck.apply("/todos poke on")
    deck.refresh()
    deck.call_tool("todo", {"todos": [item("a", "cancelled")]})
    for _ in range(5):  # the digest comes first, then nothing is open: the cycle disarms
        if not deck.todo.cycle.armed:
            break
        deck.settle()
    deck.refresh()
    assert deck.todo.cycle.armed is False and deck.todo.cycle.last_disarm_reason != "user"
    foreign(tmp_path / "s.jsonl", message("0000aaaa", deck.log.leaf_id, "user", clock.now))
    deck.refresh()
    last = [json.loads(line) for line in (tmp_path / "s.jsonl").read_text().splitlines()][-1]
    assert last["customType"] == "pi-jtodo/cycle" and last["data"] == {"armed": True, "reason": "new_work"}
    assert deck.todo.cycle.armed is True


def test_assistant_messages_trigger_the_idle_nudge(deck: Deck, tmp_path: Path, clock: Clock) -> None:
    deck.call_tool("todo", {"todos": [item("a")]})
    deck.refresh()
    path = tmp_path / "s.jsonl"
    foreign(path, message("0000aaa1", deck.log.leaf_id, "assistant", clock.now))
    assert deck.refresh().followups == ()
    foreign(path, message("0000aaa2", "0000aaa1", "assistant", clock.now))
    change = deck.refresh()
    assert len(change.followups) == 1
    last = json.loads(path.read_text().splitlines()[-1])
    assert last["type"] == "custom_message" and last["customType"] == "pi-jtodo/followup"
    assert last["details"] == {"kind": "nudge", "ids": ["a"]} and last["content"] == change.followups[0]


def test_the_watchdog_repokes_an_idle_agent_on_the_injected_clock(deck: Deck, clock: Clock) -> None:
    deck.call_tool("todo", {"todos": [item("a")]})
    deck.refresh()
    assert deck.watchdog_tick() == []
    clock.now += timedelta(milliseconds=deck.todo.config.watchdog_idle_ms)
    notices = deck.watchdog_tick()
    assert [n.message for n in notices] == ["👉 1 incomplete todo. We poked it for you. /todos poke off to stop."]
    assert deck.todo.cycle.targets == ["a"]
