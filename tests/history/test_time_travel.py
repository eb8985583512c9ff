"""The deck as of any entry equals a fresh Deck over the file cut at that entry, on every branch,
and it refuses every write."""

from __future__ import annotations

from pathlib import Path

import pytest

import core.views.timetravel as timetravel
from core.deck.deck import Deck
from core.cli.demo import counter_ids, write_demo
from core.cli.inspect import inspect_json
from core.session.errors import ReadOnlySession
from core.session.log import SessionLog
from core.views.timetravel import TimeMachine, UnknownEntry
from core.views.view import build_view
from history_helpers import BRANCHED, PI_FIXTURES, cut, random_session


def seen(deck: Deck) -> dict:
    """Everything a person or a script reads off a deck, but where its file lives."""
    data = inspect_json(deck)
    session = data.pop("session")
    view = build_view(deck)
    return {**data, "entries": session["entries"], "leaf": session["leaf"], "branch": session["branch_length"],
            "name": deck.log.name, "strip": view.strip, "goals": view.goals, "overlay": view.todo_overlay,
            "restore_warnings": view.restore_warnings, "verdict": view.verdict}


def check_every_entry(path: Path, tmp_path: Path) -> int:
    """Compares every entry's past deck with a fresh one; returns how many of the pasts resumed
    the todo fold from a checkpoint."""
    log = SessionLog.open(path, writable=False)
    machine = TimeMachine(log)
    resumed = 0
    for record in log.records:
        deck = machine.deck_at(record.id)
        resumed += deck.todo._fold is not None
        fresh = seen(Deck(SessionLog.open(cut(path, record.id, tmp_path / "cut.jsonl"), writable=False)))
        assert seen(deck) == fresh, record.id
    return resumed


@pytest.mark.parametrize("fixture", PI_FIXTURES, ids=lambda p: p.name)
def test_every_entry_of_the_pi_fixtures(tmp_path, fixture):
    assert check_every_entry(fixture, tmp_path) == 0  # too short for a checkpoint


def test_every_entry_of_the_demo(tmp_path):
    write_demo(tmp_path / "demo.jsonl", cwd="/p", ids=counter_ids())
    assert check_every_entry(tmp_path / "demo.jsonl", tmp_path) == 0


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_entry_of_a_random_session_with_checkpoints(tmp_path, monkeypatch, seed):
    """Checkpoints every 7 entries, so most points resume the todo fold from one."""
    monkeypatch.setattr(timetravel, "CHECKPOINT_EVERY", 7)
    random_session(tmp_path / "r.jsonl", 160, seed)
    assert check_every_entry(tmp_path / "r.jsonl", tmp_path) > 120


def test_points_out_of_order_and_back(tmp_path, monkeypatch):
    """Jumping around (other branches, back, forth) gives the same decks as visiting in order."""
    monkeypatch.setattr(timetravel, "CHECKPOINT_EVERY", 5)
    random_session(tmp_path / "r.jsonl", 120, 9)
    log = SessionLog.open(tmp_path / "r.jsonl", writable=False)
    ids = [r.id for r in log.records]
    order = ids[::-1] + ids[::7] + ids[3::11]
    machine = TimeMachine(log)
    for entry_id in order:
        fresh = seen(Deck(SessionLog.open(cut(tmp_path / "r.jsonl", entry_id, tmp_path / "c.jsonl"), writable=False)))
        assert seen(machine.deck_at(entry_id)) == fresh, entry_id


def test_a_past_deck_refuses_writes_and_runs_no_gates(tmp_path):
    path = tmp_path / "demo.jsonl"
    write_demo(path, cwd="/p", ids=counter_ids())
    size = path.stat().st_size
    deck = TimeMachine(SessionLog.open(path)).deck_at("00000005")
    assert deck.log.writable is False
    assert deck.refresh() is None  # the past never grows
    notices = deck.apply("/agent-state add x Something")
    assert [n.level for n in notices] == ["refused"]
    assert deck.call_tool("agent_progress_add_milestone", {"milestone": "m"}).refused
    assert deck.settle() == (None, notices[0])
    assert deck.watchdog_tick(10**13) == []
    with pytest.raises(ReadOnlySession):
        deck.log.append_custom("agent-state-state", {})
    assert path.stat().st_size == size
    assert [w["id"] for w in deck.state.snapshot()["workItems"]] == ["parse", "flag", "bench", "docs"]


def test_as_of_and_names(tmp_path):
    log = SessionLog.open(BRANCHED, writable=False)
    machine = TimeMachine(log)
    assert machine.as_of("505aa600").json() == {
        "entry": "505aa600", "timestamp": "2026-11-30T15:50:53.735Z", "entryNumber": 18, "entries": 37,
        "branchLength": 13, "onCurrentBranch": True, "leaf": False}
    assert machine.as_of("bab39169").json() == {  # L5: the late abandoned branch's leaf
        "entry": "bab39169", "timestamp": "2026-11-30T15:50:53.736Z", "entryNumber": 32, "entries": 37,
        "branchLength": 27, "onCurrentBranch": False, "leaf": False}
    assert machine.as_of("leaf").entry_id == "83e8628a" and machine.as_of("leaf").is_leaf
    assert machine.log_at("b6231bac").name == "Parser work"  # A5: before the session was renamed
    with pytest.raises(UnknownEntry):
        machine.position_of("nope")


def test_another_branch_shows_its_own_state():
    machine = TimeMachine(SessionLog.open(BRANCHED, writable=False))
    abandoned = machine.deck_at("bab39169")  # L5
    assert abandoned.state.snapshot()["objective"] == "Abandoned L"
    assert [p["id"] for p in abandoned.handoff.packets()] == ["l1"]
    live = machine.deck_at("leaf")
    assert live.state.snapshot()["objective"] == "Ship the session parser"
    assert live.handoff.packets() == []


def test_a_replaced_file_drops_what_was_walked(tmp_path):
    path = tmp_path / "r.jsonl"
    random_session(path, 40, 4)
    log = SessionLog.open(path, writable=False)
    machine = TimeMachine(log)
    machine.deck_at("leaf")
    random_session(path, 30, 5)  # rewritten: another session at the same path
    log.refresh()
    fresh = seen(Deck(SessionLog.open(path, writable=False)))
    assert seen(machine.deck_at("leaf")) == fresh
