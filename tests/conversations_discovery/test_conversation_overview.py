"""`pideck overview` over the agents' conversations: their own plan as the todos, their status, the
flag, rows equal to what each conversation's deck says, ticks that read only what changed."""

from __future__ import annotations

import json
from datetime import datetime, timezone
import os
import time

import pytest

from core.catalog.states import ORDER

from discovery_helpers import (
    BETWEEN_TURNS, CLAUDE_TASKS, CLAUDE_TODOWRITE, CODEX, FIRST_PROMPTS, GEMINI, LINES, SESSION_IDS, SOURCES,
    digests,
)
from core.deck.deck import Deck
from core.catalog.opening import open_log
from core.catalog.overview import Overview, row_of
from core.views.overview_table import overview_table
from core.session.log import SessionLog
from core.primitives.todo.model import is_open

NOW = 1796109600  # 2026-12-01T07:20:00Z, after every copy's modification time


@pytest.fixture
def at_now(monkeypatch):
    monkeypatch.setattr(time, "time", lambda: float(NOW))


def test_overview_table(homes, pideck, at_now):
    homes.install_all(lines=None)
    homes.install(CODEX, lines=BETWEEN_TURNS[CODEX])  # Codex's copy stops between its turns: plan open
    (homes.claude / "sessions").mkdir(parents=True)  # a Claude config with no Claude running
    code, out, err = pideck("overview")
    cwd = str(homes.cwd)
    assert (code, err) == (0, "")
    assert out == "\n".join([
        "KIND    NAME                                                          STATE                   IN  TODOS  CONF  "
        f"ITEMS o/p/b/d  MILESTONES  PACKETS  LAST       STATUS   FLAG     COST     TOKENS  {'DIRECTORY':<{len(cwd)}}  MESSAGE",
        # who needs you first: Codex stopped with its plan open, then Gemini waiting, then the ended
        # Claude conversations, the most recently active first
        f"codex   {FIRST_PROMPTS[CODEX]}  stopped with open work  3m  1/4    —     0/0/0/0        0           0        "
        f"3 min ago  waiting  waiting  $0.0060  70 <1%  {cwd}  TURN-1: planned 4 steps; step 1 is done and step 2 is in progress.",
        f"gemini  {FIRST_PROMPTS[GEMINI]}  waiting                 2m  4/4    —     0/0/0/0        0           0        "
        f"2 min ago  waiting           $0.0029  70 <1%  {cwd}  TURN-2: all 4 items are completed.",
        f"claude  {FIRST_PROMPTS[CLAUDE_TODOWRITE]}  ended                   4m  4/4    —     0/0/0/0        0           0        "
        f"4 min ago  ended             $0.0054  70 <1%  {cwd}  TURN-2: all 4 items are completed.",
        f"claude  {FIRST_PROMPTS[CLAUDE_TASKS]}  ended                   5m  4/4    —     0/0/0/0        0           0        "
        f"5 min ago  ended             $0.0095  70 <1%  {cwd}  TURN-2: all 4 tasks are completed.",
    ]) + "\n"


LOCAL_DAY = time.strftime("%Y-%m-%d", time.localtime(datetime(2026, 12, 1, 7, 16, tzinfo=timezone.utc).timestamp()))
"""The local date of the samples' answers (a ledger's days are the person's)."""


def test_overview_json_of_a_conversation(homes, pideck):
    path = homes.install(CODEX, lines=BETWEEN_TURNS[CODEX])
    code, out, _ = pideck("overview", "--json")
    rows = json.loads(out)
    assert rows[0].pop("attention")["state"] == "stopped with open work"
    assert code == 0 and rows == [{
        "path": str(path), "name": FIRST_PROMPTS[CODEX], "cwd": str(homes.cwd), "kind": "codex", "readOnly": True,
        "entries": BETWEEN_TURNS[CODEX],  # (its transcript's lines, as `pideck sessions` counts them)
        "todos": {"settled": 1, "total": 4, "lowestConfidence": None},
        "workItems": {"open": 0, "in_progress": 0, "blocked": 0, "done": 0},
        "milestones": {"declared": 0, "recorded": 0}, "packets": 0,
        "lastActivity": "2026-12-01T07:16:44.013Z", "flag": "waiting", "warnings": 0,
        "lastMessage": "TURN-1: planned 4 steps; step 1 is done and step 2 is in progress.",
        "tokens": {"total": 70, "contextShare": 0.0003}, "status": "waiting",
        # what its 7 answers so far cost at gpt-5.5's prices; the plan's first item the most (both
        # of its 2 answers), its second none yet (docs/attention.md#what-a-row-spent)
        "usage": {"cost": 0.00595, "tokens": 490, "day": {"date": LOCAL_DAY, "cost": 0.00595, "tokens": 490},
                  "costliestItem": {"content": "Read the CLI entry point", "cost": 0.0017},
                  "largestItem": {"content": "Read the CLI entry point", "tokens": 140}},
    }]


def test_sessions_rows_stay_as_they_were_beside_conversations(homes, pideck, at_now):
    homes.install(GEMINI)
    log = SessionLog.create_for_cwd(str(homes.cwd), clock=lambda: datetime.fromtimestamp(NOW - 10, timezone.utc))
    Deck(log).apply("/agent-state add parse Write the parser")  # (a session nobody wrote in has no row)
    os.utime(log.path, (NOW - 10, NOW - 10))
    rows = json.loads(pideck("overview", "--json")[1])
    assert [r["kind"] for r in rows] == ["pideck", "gemini"]
    assert "status" not in rows[0] and rows[1]["status"] == "waiting"
    table = pideck("overview")[1].splitlines()
    assert table[0].split() == ["KIND", "NAME", "STATE", "IN", "TODOS", "CONF", "ITEMS", "o/p/b/d", "MILESTONES",
                                "PACKETS", "LAST", "STATUS", "FLAG", "COST", "TOKENS", "DIRECTORY", "MESSAGE"]
    assert table[1].startswith(f"pideck  {log.path.name}") and " waiting " not in table[1]


@pytest.mark.parametrize("sample", [CLAUDE_TASKS, CLAUDE_TODOWRITE, CODEX, GEMINI])
def test_rows_follow_a_growing_transcript_as_its_deck_does(homes, sample):
    """The sample written again line by line (in steps): after each step the overview's row (read
    from where it stopped) says what a deck opened on the file then says."""
    lines = SOURCES[sample].read_text(encoding="utf-8").replace("/home/user/project", str(homes.cwd)).splitlines(True)
    path = homes.install(sample, lines=1)
    overview = Overview(homes.cwd, rescan_s=0)
    step = max(1, LINES[sample] // 12)
    seen = set()
    for n in [*range(1, LINES[sample], step), LINES[sample]]:
        path.write_text("".join(lines[:n]), encoding="utf-8")
        tick = overview.refresh()
        log = open_log(path)
        deck = Deck(log)
        expected = row_of(deck, log.kind)  # type: ignore[attr-defined]
        status = log.agent()["status"]  # type: ignore[attr-defined]
        row = overview.rows[0] if overview.rows else None
        if row is None:  # not one of its conversations yet: a Gemini file before its first record
            assert sample == GEMINI and not deck.todo.todos
            continue
        assert tick.read <= 1
        assert (row.todos_settled, row.todos_total, row.entries) == (
            expected.todos_settled, expected.todos_total, expected.entries), n
        assert row.status == status and row.cwd == str(homes.cwd) and row.kind == log.kind  # type: ignore[attr-defined]
        opened = any(is_open(t) for t in deck.todo.todos)
        assert row.flag == (status if opened and status != "working" else None), n
        seen.add((row.todos_settled, row.todos_total, row.status))
    assert (4, 4, "waiting") in seen and any(total and settled < total for settled, total, _ in seen)
    assert any(status == "working" for _, _, status in seen)
    assert overview.refresh().read == 0  # nothing changed: nothing read


def test_claude_s_live_files_move_the_status_without_a_line(homes):
    path = homes.install(CLAUDE_TASKS, lines=BETWEEN_TURNS[CLAUDE_TASKS])
    overview = Overview(homes.cwd, rescan_s=0)
    overview.refresh()
    assert [(r.status, r.flag) for r in overview.rows] == [("waiting", "waiting")]  # no sessions folder: the log's word
    live = homes.claude_live(os.getpid(), SESSION_IDS[CLAUDE_TASKS], "busy")
    tick = overview.refresh()
    assert tick.read == 0 and [(r.status, r.flag) for r in tick.changed] == [("working", None)]
    homes.claude_live(os.getpid(), SESSION_IDS[CLAUDE_TASKS], "idle")
    assert [(r.status, r.flag) for r in overview.refresh().changed] == [("waiting", "waiting")]
    live.write_text('{"pid": ')  # caught half rewritten: the last good copy stands
    assert overview.refresh().changed == [] and overview.rows[0].status == "waiting"
    homes.claude_live(os.getpid(), "another-session", "busy")
    assert [(r.status, r.flag) for r in overview.refresh().changed] == [("ended", "ended")]
    live.unlink()
    dead = homes.claude_live(2**22 + 12345, SESSION_IDS[CLAUDE_TASKS], "busy")  # a pid no process has
    assert overview.refresh().changed == [] and overview.rows[0].status == "ended"
    dead.unlink()
    assert overview.refresh().changed == []
    assert overview.rows[0].path == str(path)


def test_a_budget_lists_every_conversation_at_once_and_reads_the_newest_first(homes):
    paths = homes.install_all()
    full = Overview(homes.cwd)
    full.refresh()
    overview = Overview(homes.cwd, budget_s=0)  # one conversation per tick
    tick = overview.refresh()
    assert (tick.read, tick.pending) == (1, 3)
    assert [(r.path, r.pending) for r in overview.rows] == [
        (str(paths[GEMINI]), False), (str(paths[CODEX]), True), (str(paths[CLAUDE_TODOWRITE]), True),
        (str(paths[CLAUDE_TASKS]), True)]
    pending = overview.rows[1]
    assert (pending.name, pending.cwd, pending.todos_total, pending.status) == (paths[CODEX].name, str(homes.cwd), 0, None)
    assert "…" in overview_table(overview.rows, NOW * 1000).splitlines()[2]
    ticks = [overview.refresh() for _ in range(3)]
    assert [(t.read, t.pending) for t in ticks] == [(1, 2), (1, 1), (1, 0)]
    assert overview.rows == full.rows


def test_all_directories_and_rows_that_go(homes):
    mine = homes.install(CODEX)
    theirs = homes.install(CLAUDE_TASKS, cwd="/srv/other")
    assert [r.path for r in _rows(Overview(homes.cwd))] == [str(mine)]
    every = Overview(None, rescan_s=0)
    assert sorted(r.cwd for r in _rows(every)) == ["/srv/other", str(homes.cwd)]
    theirs.unlink()
    tick = every.refresh()
    assert tick.removed == [str(theirs)] and [r.path for r in every.rows] == [str(mine)]
    assert [r.path for r in Overview(homes.cwd).rows] == []  # (not refreshed yet)


def _rows(overview: Overview):
    overview.refresh()
    return overview.rows


def test_a_gemini_stub_gets_no_row(homes):
    real, stub = homes.gemini_resume_variant()
    assert [r.path for r in _rows(Overview(homes.cwd))] == [str(real)]


def test_the_filter_matches_a_status(homes):
    homes.install(CODEX, lines=BETWEEN_TURNS[CODEX])
    row = _rows(Overview(homes.cwd))[0]
    assert row.matches("WAITING") and row.matches("codex") and not row.matches("working")


def test_the_overview_writes_only_under_pideck_s_home(homes, pideck, tmp_path):
    homes.install_all()
    before = digests(homes.home, homes.cwd)
    assert pideck("overview")[0] == 0 and pideck("overview", "--all", "--json")[0] == 0
    assert digests(homes.home, homes.cwd) == before
    kept = sorted(p.suffix for p in (tmp_path / "pideck-home" / "conversations").iterdir())
    assert kept.count(".cache") == 4 and set(kept) <= {".cache", ".lock"}


def test_hostile_live_files_and_projects_json_cost_only_themselves(homes):
    """A live-session file or a projects.json nested 30,000 deep, or not JSON: no traceback; the
    live file says nothing, projects.json names no project."""
    claude = homes.install(CLAUDE_TASKS, lines=BETWEEN_TURNS[CLAUDE_TASKS])
    homes.install(GEMINI)
    deep = "[" * 30000 + "]" * 30000
    folder = homes.claude / "sessions"
    folder.mkdir(parents=True)
    (folder / "1.json").write_text(deep)
    (folder / "2.json").write_text("{not json")
    (homes.gemini / "projects.json").write_text(deep)
    rows = _rows(Overview(homes.cwd))
    assert [(r.path, r.status) for r in rows] == [(str(claude), "ended")]
    # with every directory, Gemini's folder is still listed, but no project names its directory
    assert [(r.kind, r.cwd) for r in _rows(Overview(None))] == [("gemini", ""), ("claude", str(homes.cwd))]


def test_last_activity_is_the_last_line_s_time_not_the_copy_s(homes, pideck):
    """Transcripts copied today (their files' modification time now) read as old as their lines:
    Codex's last line 07:16:51.170, Gemini's 07:1x; and the
    agent object says the time is a line's."""
    paths = homes.install_all(mtime=time.time())
    rows = json.loads(pideck("overview", "--json")[1])
    last = {row["kind"]: row["lastActivity"] for row in rows}
    assert last["codex"] == "2026-12-01T07:16:51.170Z"
    assert last["gemini"].startswith("2026-12-01T07:1")
    # the rows, newest first by that time within each state (the copies' own times are all now)
    states = [row["attention"]["state"] for row in rows]
    assert states == sorted(states, key=ORDER.index)
    for state in set(states):
        times = [row["lastActivity"] for row in rows if row["attention"]["state"] == state]
        assert times == sorted(times, reverse=True), (state, times)
    assert len(rows) > len(set(states))  # (some state holds two rows: the order within it is tested)
    for path in (paths[CODEX], paths[GEMINI]):
        agent = json.loads(pideck("inspect", "--json", "--session", str(path))[1])["agent"]
        assert agent["lastActivityOf"] == "line" and agent["lastActivity"] == last[agent["kind"]]
