"""The sessions overview: rows, flags, and a tick that reads only files that changed."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from core.catalog.overview import Overview, OverviewRow
from core.clock import ago
from core.views.overview_table import overview_table
from core.config.places import encode_cwd
from history_helpers import BRANCHED, HEADER, PiSession, todo

CWD = "/home/user/project"


@pytest.fixture
def folders(tmp_path, monkeypatch):
    """pideck's and pi's session folders for CWD under tmp_path."""
    monkeypatch.setenv("PIDECK_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(tmp_path / "pi"))
    monkeypatch.delenv("PI_CODING_AGENT_SESSION_DIR", raising=False)
    pideck = tmp_path / "home" / "sessions" / encode_cwd(CWD)
    pi = tmp_path / "pi" / "sessions" / encode_cwd(CWD)
    pideck.mkdir(parents=True)
    pi.mkdir(parents=True)
    return pideck, pi


def pideck_session(folder: Path, name: str = "a.jsonl") -> PiSession:
    s = PiSession(folder / name)
    s.state([{"id": "parse", "content": "Parse", "status": "in_progress"}, {"id": "cli", "content": "CLI", "status": "open"},
             {"id": "docs", "content": "Docs", "status": "done"}], objective="Ship")
    s.progress(["m1", "m2", "m3"], ["m1"], True)
    s.packets({"schemaVersion": 1, "id": "h1", "source": "a", "goal": "g"})
    s.custom("pi-jtodo/state", {"schemaVersion": 1, "todos": [
        todo("t1", "completed", 90, completion_confidence=97), todo("t2", "pending", 55), todo("t3", "cancelled", 10),
        todo("t4", "in_progress", None)], "plan": {}, "goals": []})
    return s


def test_rows_of_a_directory(folders):
    pideck, pi = folders
    pideck_session(pideck)
    shutil.copy(BRANCHED, pi / BRANCHED.name)
    overview = Overview(CWD)
    tick = overview.refresh()
    assert tick.read == 2 and tick.removed == []
    # the pi session was written last (15:50 against 15:00): it comes first
    assert [r.json() for r in overview.rows] == [
        {"path": str(pi / BRANCHED.name), "name": "Streaming parser", "cwd": "/home/user/parser-project",
         "kind": "pi", "readOnly": True, "entries": 37, "todos": {"settled": 1, "total": 3, "lowestConfidence": 60},
         "workItems": {"open": 1, "in_progress": 1, "blocked": 0, "done": 0},
         "milestones": {"declared": 2, "recorded": 1}, "packets": 0,
         "lastActivity": "2026-11-30T15:50:53.736Z", "flag": None, "warnings": 1,
         "lastMessage": "Streaming it is.", "tokens": {"total": 15, "contextShare": None},
         # (pi's faux model costs nothing, as its log says; its three answers, one in progress of an item)
         "usage": {"cost": 0.0, "tokens": 45, "day": {"date": "2026-11-30", "cost": 0.0, "tokens": 45},
                   "costliestItem": {"content": "Add the inspect command", "cost": 0.0},
                   "largestItem": {"content": "Add the inspect command", "tokens": 15}}},
        {"path": str(pideck / "a.jsonl"), "name": "a.jsonl", "cwd": CWD, "kind": "pideck", "readOnly": False,
         "entries": 4, "todos": {"settled": 2, "total": 4, "lowestConfidence": 55},
         "workItems": {"open": 1, "in_progress": 1, "blocked": 0, "done": 1},
         "milestones": {"declared": 3, "recorded": 1}, "packets": 1,
         "lastActivity": "2026-11-30T15:00:04.000Z", "flag": None, "warnings": 0,
         "lastMessage": None, "tokens": None, "usage": None},
    ]


def test_only_changed_files_are_read_and_new_ones_appear(folders):
    pideck, pi = folders
    a = pideck_session(pideck)
    overview = Overview(CWD, rescan_s=0)
    overview.refresh()
    assert overview.refresh().read == 0  # nothing changed: nothing read
    a.state([{"id": "parse", "content": "Parse", "status": "done"}])
    tick = overview.refresh()
    assert tick.read == 1 and [r.work_items for r in tick.changed] == [(0, 0, 0, 1)]
    b = pideck_session(pideck, "b.jsonl")
    b.user("later")
    b.put({"type": "session_info", "name": "second"})
    tick = overview.refresh()
    assert tick.read == 1 and [r.name for r in tick.changed] == ["second"]
    assert [r.name for r in overview.rows] == ["second", "a.jsonl"]  # the most recently active first
    (pideck / "a.jsonl").unlink()
    tick = overview.refresh()
    assert tick.removed == [str(pideck / "a.jsonl")] and [r.name for r in overview.rows] == ["second"]


def test_a_file_that_is_not_a_session_yet_gets_its_row_when_it_becomes_one(folders):
    pideck, _ = folders
    partial = pideck / "c.jsonl"
    partial.write_text('{"type":"sess', encoding="utf-8")
    overview = Overview(CWD, rescan_s=0)
    assert overview.refresh().changed == [] and overview.rows == []
    partial.unlink()
    pideck_session(pideck, "c.jsonl")
    assert [r.name for r in overview.refresh().changed] == ["c.jsonl"]


def test_all_covers_every_directory(folders, tmp_path):
    pideck, pi = folders
    pideck_session(pideck)
    other = tmp_path / "home" / "sessions" / encode_cwd("/srv/other")
    other.mkdir(parents=True)
    PiSession(other / "o.jsonl", {**HEADER, "cwd": "/srv/other"}).user("hi")
    assert [r.cwd for r in _refreshed(Overview(CWD))] == [CWD]
    assert sorted(r.cwd for r in _refreshed(Overview(None))) == ["/home/user/project", "/srv/other"]


def _refreshed(overview: Overview) -> list[OverviewRow]:
    overview.refresh()
    return overview.rows


def test_flags(folders):
    pideck, _ = folders
    s = pideck_session(pideck)
    overview = Overview(CWD, rescan_s=0)
    overview.refresh()
    assert overview.rows[0].flag is None  # the agent just wrote its todos
    s.followup("You have 2 incomplete todos. Continue working, or update the todo tool.", "poke", ["t2", "t4"])
    overview.refresh()
    assert overview.rows[0].flag == "poked"
    s.user("go on")
    s.assistant("I am done for today.", stop="stop")
    overview.refresh()
    assert overview.rows[0].flag == "waiting"
    s.custom("pi-jtodo/cycle", {"armed": False, "reason": "no_progress"})
    overview.refresh()
    assert overview.rows[0].flag == "gave up"
    s.custom("pi-jtodo/state", {"schemaVersion": 1, "todos": [todo("t1", "completed", 90)], "plan": {}, "goals": []})
    overview.refresh()
    assert overview.rows[0].flag is None  # nothing open


def test_table_shows_untrusted_text_literally():
    row = OverviewRow(path="/p/x.jsonl", name="evil\x1b[31m[red]x[/red]\nname", cwd="/home/\x07u", kind="pi",
                      read_only=True, entries=3, todos_settled=1, todos_total=2, lowest_confidence=55,
                      work_items=(1, 0, 2, 0), milestones=3, recorded=1, packets=2, last_activity_ms=1_000_000,
                      flag="poked", warnings=0)
    empty = OverviewRow(path="/p/y.jsonl", name="y.jsonl", cwd="/p", kind="pideck", read_only=False, entries=0,
                        todos_settled=0, todos_total=0, lowest_confidence=None, work_items=(0, 0, 0, 0),
                        milestones=0, recorded=0, packets=0, last_activity_ms=None, flag=None, warnings=0)
    assert overview_table([row, empty], 1_012_500) == "\n".join([
        "KIND    NAME                        TODOS  CONF  ITEMS o/p/b/d  MILESTONES  PACKETS  LAST      FLAG   DIRECTORY",
        "pi      evil␛[31m[red]x[/red]␊name  1/2    55    1/0/2/0        3 (1 rec.)  2        12 s ago  poked  /home/␇u",
        "pideck  y.jsonl                     —      —     0/0/0/0        0           0        —                /p",
    ])


def test_ago():
    assert [ago(0, ms) for ms in (0, 59_999, 60_000, 3_600_000, 86_400_000 * 3)] == [
        "0 s ago", "59 s ago", "1 min ago", "1 h ago", "3 d ago"]
    assert ago(None, 5) == "—"
