"""opencode's conversations, read from its SQLite database (issue 30): the plan of the real
1.18.33 sample at each moment the run kept, against the todo table of that moment; the plan's
history against the todowrite calls of the part table; the prompts, answers and tokens; finding
the databases and their sessions; and reading without a trace (no ``-wal``, ``-shm`` or lock left,
not a byte changed), while a writer process commits the run's changes in opencode's WAL mode."""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from opencode_writer import read_steps

from core.sources.discovery import conversations
from core.sources.in_database import conversation_path, split
from core.sources.reading import Reading

FOLDER = Path(__file__).resolve().parent.parent / "fixtures" / "agent-transcripts" / "opencode-todowrite"
SESSION = "ses_dcc919244ffeTKrCyRrUVGVjZ5"
CWD = "/home/user/project"
MOMENTS = json.loads((FOLDER / "snapshots" / "index.json").read_text())
DATA = Path(".local/share/opencode")


def unpack(gz: Path, to: Path) -> Path:
    to.parent.mkdir(parents=True, exist_ok=True)
    to.write_bytes(gzip.decompress(gz.read_bytes()))
    return to


def final_db(home: Path) -> Path:
    return unpack(FOLDER / "final" / DATA / "opencode.db.gz", home / DATA / "opencode.db")


def inspect_json(pideck: Any, path: Path, *more: str) -> dict[str, Any]:
    code, out, err = pideck("inspect", "--json", "--session", str(path), *more)
    assert (code, err) == (0, "")
    return json.loads(out)


def plan_of(shown: dict[str, Any]) -> list[tuple[str, str, str]]:
    todos = shown["todo"]["todos"] if shown["todo"] is not None else []
    assert [t["id"] for t in todos] == [str(n) for n in range(1, len(todos) + 1)]
    return [(t["content"], t["status"], t["priority"]) for t in todos]


def rows_of(todo: list[dict[str, Any]]) -> list[tuple[str, str, str]]:
    return [(t["content"], t["status"], t["priority"]) for t in todo]


def folder_state(folder: Path) -> dict[str, str]:
    """Every file of ``folder`` with its sha256."""
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())}


# -- the real sample ----------------------------------------------------------------------------


@pytest.mark.parametrize("moment", MOMENTS, ids=[m["snapshot"] for m in MOMENTS])
def test_the_plan_at_each_moment_is_the_todo_table_then(moment: dict[str, Any], home: Path, pideck: Any) -> None:
    """The database as the run copied it at the moment gives the plan its todo table held then,
    in opencode's own words, statuses and priorities, numbered by position."""
    db = unpack(FOLDER / "snapshots" / moment["snapshot"] / "db.sqlite.gz", home / DATA / "opencode.db")
    shown = inspect_json(pideck, conversation_path(db, SESSION))
    assert plan_of(shown) == rows_of(moment["todo"])
    assert shown["todo"]["agentPlan"] == {"agent": "opencode", "tool": "todowrite", "noun": "todo"}
    assert shown["warnings"] == []


def todowrite_plans(db: Path) -> list[list[tuple[str, str, str]]]:
    """Each completed todowrite call's list, read straight from the part table (a raw reading,
    not pideck's), a call that repeats the list before it left out."""
    conn = sqlite3.connect(db)
    plans: list[list[tuple[str, str, str]]] = []
    for (data,) in conn.execute("SELECT data FROM part WHERE session_id = ? ORDER BY id", (SESSION,)):
        part = json.loads(data)
        if part.get("tool") == "todowrite" and part["state"]["status"] == "completed":
            todos = rows_of(part["state"]["input"]["todos"])
            if not plans or plans[-1] != todos:
                plans.append(todos)
    conn.close()
    return plans


def test_the_history_is_every_todowrite_and_the_final_plan_is_the_table(home: Path, tmp_path: Path) -> None:
    db = final_db(home)
    reading = Reading(conversation_path(db, SESSION), "opencode", tmp_path / "cache")
    reading.sync()
    events = [reading.event(i) for i in range(reading.count)]
    plans = [[(i["content"], i["status"], i["priority"]) for i in e[4]] for e in events if e[0] == "t"]
    assert plans == todowrite_plans(db)
    table = sqlite3.connect(db).execute("SELECT content, status, priority FROM todo WHERE session_id = ? "
                                        "ORDER BY position", (SESSION,)).fetchall()
    assert plans[-1] == table and len(plans) == 8
    assert [e[3] for e in events if e[0] == "t"][:5] == [
        "plan: 3 todos added", "todo #1 in progress", "todo #1 completed",
        "todo #4 added: Document the flag in the README", "todo #2 in progress"]


def test_the_prompts_answers_and_tokens(home: Path, tmp_path: Path) -> None:
    reading = Reading(conversation_path(final_db(home), SESSION), "opencode", tmp_path / "cache")
    reading.sync()
    said = [(e[0], e[2]) for e in (reading.event(i) for i in range(reading.count)) if e[0] in "pa"]
    assert said == [
        ("p", '"Add a --session flag to the CLI. Plan it with your todo tool, then start."'),
        ("a", "TURN-1: planned 4 items; item 1 is done and item 2 is in progress."),
        ("p", '"Continue and finish the remaining items."'),
        ("a", "TURN-2: all 4 items are completed."),
    ]
    answer = reading.event(reading.kinds.rindex("a"))
    assert answer[3:] == ["fake-model", None, True]  # (an answer's tokens are its step's u event)
    paid = [reading.event(i)[2:] for i in range(reading.count) if reading.kinds[i] == "u"]
    assert paid == [["fake", "fake-model", [50, 20, 0, 0], 0.0, None]] * 11  # (each step-finish, with its cost)
    assert reading.state["lines"] == 35  # every part read once
    assert reading.state["cursor"] == "prt_2336ecb9a001KwqIleFsJ630ox" and reading.state["fed"] == []


def test_inspect_names_the_agent_and_its_conversation(home: Path, pideck: Any) -> None:
    path = conversation_path(final_db(home), SESSION)
    shown = inspect_json(pideck, path)
    assert shown["agent"] == {
        "kind": "opencode", "name": "opencode", "sessionId": SESSION, "cwd": CWD, "version": "1.18.33",
        "model": "fake-model", "status": "waiting", "lastActivity": "2026-12-01T21:07:08.565Z",
        "lastActivityOf": "line", "lastMessage": "TURN-2: all 4 items are completed.",
        "tokens": {"input": 50, "output": 20, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 70},
        "transcript": str(path), "pideckSession": None, "cost": 0.0}  # (the fake model's calls cost nothing)
    assert shown["session"]["entries"] == 35


def test_the_database_alone_opens_its_newest_conversation(home: Path, pideck: Any) -> None:
    db = final_db(home)
    code, out, err = pideck("inspect", "--session", str(db))
    assert (code, err) == (0, "")
    assert out.splitlines()[0] == f"Session: {db}#{SESSION} (35 entries, read-only)"
    assert "- ✓ `#3` Test the flag (completed, medium priority)" in out.splitlines()


def test_inspect_at_and_diff_go_back_in_the_plan(home: Path, pideck: Any) -> None:
    path = conversation_path(final_db(home), SESSION)
    at = inspect_json(pideck, path, "--at", "00000009")  # (the todowrite that added #4)
    assert plan_of(at) == [("Read the CLI entry point", "completed", "high"), ("Add the --session flag", "pending", "high"),
                           ("Test the flag", "pending", "medium"), ("Document the flag in the README", "pending", "low")]
    code, out, err = pideck("diff", "--session", str(path), "00000009", "leaf")
    assert (code, err) == (0, "")
    assert out.splitlines()[2:] == ["Todos", "  ~ todo #2 status: pending → completed",
                                    "  ~ todo #3 status: pending → completed", "  ~ todo #4 status: pending → completed"]


def test_a_session_that_is_not_there_is_said_so(home: Path, pideck: Any) -> None:
    db = final_db(home)
    code, out, err = pideck("inspect", "--session", f"{db}#ses_gone")
    assert code != 0 and out == ""
    assert err == f"pideck: no conversation ses_gone in {db}\n"


def test_another_database_is_not_taken_for_opencodes(home: Path, pideck: Any) -> None:
    other = home / "notes.db"
    sqlite3.connect(other).execute("CREATE TABLE note (text)").connection.close()
    code, out, err = pideck("inspect", "--session", str(other))
    assert code != 0 and "opencode" not in err


# -- finding them -------------------------------------------------------------------------------


def add_session(db: Path, session_id: str, directory: str, parent: str | None = None) -> None:
    conn = sqlite3.connect(db)
    row = list(conn.execute("SELECT * FROM session WHERE id = ?", (SESSION,)).fetchone())
    names = [c[1] for c in conn.execute("PRAGMA table_info(session)")]
    row[names.index("id")], row[names.index("directory")], row[names.index("parent_id")] = session_id, directory, parent
    conn.execute(f"INSERT INTO session VALUES ({','.join('?' * len(row))})", row)
    conn.commit()
    conn.close()


def test_a_directorys_conversations_are_its_top_level_sessions(home: Path) -> None:
    db = final_db(home)
    add_session(db, "ses_child", CWD, parent=SESSION)  # a subagent's session
    add_session(db, "ses_elsewhere", "/somewhere/else")
    found = [(path, kind, head.session_id, head.cwd) for path, kind, head, _ in conversations(CWD)]
    assert found == [(conversation_path(db, SESSION), "opencode", SESSION, CWD)]
    everywhere = sorted(str(path) for path, _, _, _ in conversations(None))
    assert everywhere == [f"{db}#ses_dcc919244ffeTKrCyRrUVGVjZ5", f"{db}#ses_elsewhere"]


@pytest.mark.parametrize("where", ["xdg", "channel", "named", "named-relative"])
def test_the_databases_are_where_opencode_keeps_them(where: str, home: Path, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """``$XDG_DATA_HOME/opencode``, a release channel's ``opencode-<channel>.db``, and
    ``$OPENCODE_DB`` (absolute, or relative to the data folder)."""
    if where == "xdg":
        monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
        db = unpack(FOLDER / "final" / DATA / "opencode.db.gz", tmp_path / "xdg" / "opencode" / "opencode.db")
    elif where == "channel":
        db = unpack(FOLDER / "final" / DATA / "opencode.db.gz", home / DATA / "opencode-beta.db")
    elif where == "named":
        db = unpack(FOLDER / "final" / DATA / "opencode.db.gz", tmp_path / "elsewhere" / "mine.db")
        monkeypatch.setenv("OPENCODE_DB", str(db))
    else:
        db = unpack(FOLDER / "final" / DATA / "opencode.db.gz", home / DATA / "dev" / "mine.db")
        monkeypatch.setenv("OPENCODE_DB", "dev/mine.db")
    assert [path for path, *_ in conversations(CWD)] == [conversation_path(db, SESSION)]


def test_the_name_of_a_conversation_in_a_database() -> None:
    assert split("/x/opencode.db#ses_abc") == (Path("/x/opencode.db"), "ses_abc")
    for other in ("/x/opencode.db", "/x/notes#ses_abc", "/x/opencode.db#abc", "/x/opencode.db#ses_a/b",
                  "/x/chat#1.jsonl"):
        assert split(other) is None


# -- reading without a trace ----------------------------------------------------------------------


def test_a_wal_database_left_without_its_wal_is_read_without_making_one(home: Path, tmp_path: Path) -> None:
    """After opencode exits its ``-wal`` and ``-shm`` are gone; a ``mode=ro`` look would make both
    and leave them. pideck's look leaves the folder as it was, byte for byte."""
    db = final_db(home)
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA journal_mode = WAL").fetchone() == ("wal",)
    conn.close()
    before = folder_state(db.parent)
    assert list(before) == ["opencode.db"]
    reading = Reading(conversation_path(db, SESSION), "opencode", tmp_path / "cache")
    reading.sync()
    assert reading.info["lastMessage"] == "TURN-2: all 4 items are completed."
    assert folder_state(db.parent) == before


def test_a_database_locked_by_a_writer_keeps_the_last_picture(home: Path, tmp_path: Path) -> None:
    """A rollback-journal database mid-commit cannot be read: the look gives up after a few short
    tries, and what was read stays."""
    db = final_db(home)
    reading = Reading(conversation_path(db, SESSION), "opencode", tmp_path / "cache")
    reading.sync()
    plan = list(reading.reader.plan)
    writer = sqlite3.connect(db, isolation_level=None)
    writer.execute("BEGIN EXCLUSIVE")
    writer.execute("DELETE FROM todo")
    writer.execute("UPDATE session SET time_updated = time_updated + 1")
    st = os.stat(db)
    os.utime(db, ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))  # (as a write through SQLite's cache would)
    synced = reading.sync()
    assert (synced.not_now, synced.events, synced.warnings, reading.reader.plan) == (True, 0, [], plan)
    assert reading.sync().not_now  # (looked at again, though nothing changed since)
    writer.execute("COMMIT")
    writer.close()
    reading.sync()
    assert reading.reader.plan == []  # (the todo table is the truth once it can be read)


def test_following_opencode_as_it_writes(home: Path, tmp_path: Path) -> None:
    """A writer process commits the run's changes one by one, in opencode's WAL mode; after each
    commit one look gives the plan the todo table holds, and the folder holds only the writer's
    files; once it exits, nothing is left of pideck there."""
    final = unpack(FOLDER / "final" / DATA / "opencode.db.gz", tmp_path / "final.db")
    db = home / DATA / "opencode.db"
    db.parent.mkdir(parents=True)
    writer = subprocess.Popen([sys.executable, str(Path(__file__).with_name("opencode_writer.py")), str(db), str(final),
                               str(FOLDER / "db_follow.jsonl")], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert writer.stdin is not None and writer.stdout is not None
    steps = read_steps(str(FOLDER / "db_follow.jsonl"))
    try:
        assert writer.stdout.readline() == f"ready {len(steps)}\n"
        reading = Reading(conversation_path(db, SESSION), "opencode", tmp_path / "cache")
        for n, (_, _, todo) in enumerate(steps, 1):
            writer.stdin.write("\n")
            writer.stdin.flush()
            assert writer.stdout.readline() == f"ok {n}\n"
            reading.sync()
            assert [(i["content"], i["status"], i["priority"]) for i in reading.reader.plan] == rows_of(todo)
            assert sorted(os.listdir(db.parent)) == ["opencode.db", "opencode.db-shm", "opencode.db-wal"]
        writer.stdin.write("\n")
        writer.stdin.flush()
        assert writer.stdout.readline() == "done\n"
    finally:
        writer.kill()
        writer.wait()
    assert len(steps) > 20 and rows_of(steps[-1][2]) == rows_of(MOMENTS[-1]["todo"])
    before = folder_state(db.parent)
    assert list(before) == ["opencode.db"]
    reading.sync()
    assert folder_state(db.parent) == before
    assert reading.reader.info["lastMessage"] == "TURN-2: all 4 items are completed."


def test_the_cost_so_far_is_the_sum_of_what_the_steps_say() -> None:
    """Each step-finish part says what the step cost (USD); the conversation's cost so far is their
    sum. A cost that is not a number of 0 or more (text, a negative, NaN, a boolean) is none."""
    from core.sources.opencode import OpencodeReader

    reader = OpencodeReader()
    message = {"role": "assistant", "modelID": "m"}
    for n, cost in enumerate((0.0123, "0.5", -1, float("nan"), True, 0.0021, 2)):
        reader.feed({"type": "part", "id": f"prt_{n}", "time": 1796159207000 + n, "message": message,
                     "part": {"type": "step-finish", "reason": "tool-calls", "cost": cost}})
    assert reader.info["cost"] == 2.0144


# -- what a database can do to a reading ----------------------------------------------------------


def test_a_part_that_is_not_json_is_a_warning_and_the_rest_is_read(home: Path, tmp_path: Path) -> None:
    db = final_db(home)
    conn = sqlite3.connect(db)
    first = conn.execute("SELECT id FROM part WHERE session_id = ? ORDER BY id", (SESSION,)).fetchone()[0]
    conn.execute("UPDATE part SET data = '{not json' WHERE id = ?", (first,))
    conn.commit()
    conn.close()
    reading = Reading(conversation_path(db, SESSION), "opencode", tmp_path / "cache")
    synced = reading.sync()
    assert synced.warnings == [f"part {first}: not JSON (skipped)"]
    # (the first prompt was that part: the conversation is named by the next one)
    assert reading.reader.plan[-1]["status"] == "completed" and reading.name == '"Continue and finish the remaining items."'


def test_a_database_replaced_by_another_is_read_again_from_its_start(home: Path, tmp_path: Path) -> None:
    """opencode's database deleted and made anew (a new inode): what was read of the old one goes,
    and the new one is read from its first part."""
    db = final_db(home)
    reading = Reading(conversation_path(db, SESSION), "opencode", tmp_path / "cache")
    reading.sync()
    assert len(reading.reader.plan) == 4
    db.unlink()
    unpack(FOLDER / "snapshots" / MOMENTS[0]["snapshot"] / "db.sqlite.gz", db)
    synced = reading.sync()
    assert synced.rebuilt and rows_of(reading.reader.plan) == rows_of(MOMENTS[0]["todo"])


def test_a_session_deleted_from_the_database_keeps_what_was_read(home: Path, tmp_path: Path) -> None:
    db = final_db(home)
    reading = Reading(conversation_path(db, SESSION), "opencode", tmp_path / "cache")
    reading.sync()
    conn = sqlite3.connect(db)
    conn.execute("DELETE FROM session")
    conn.commit()
    conn.close()
    synced = reading.sync()
    assert (synced.events, synced.warnings, len(reading.reader.plan)) == (0, [], 4)


def parts_db(db: Path, parts: list[tuple[str, str, str, dict[str, Any]]]) -> None:
    """A database of opencode's tables holding one session's messages and parts (id, message id,
    role, part data), in the order given."""
    from core.cli.demo_conversations import OPENCODE_TABLES

    conn = sqlite3.connect(db)
    for sql in OPENCODE_TABLES:
        conn.execute(sql)
    conn.execute("INSERT INTO session VALUES ('ses_x', 'global', NULL, 's', '/p', 't', '1.18.33', 1, 2)")
    for n, (part_id, message_id, role, data) in enumerate(parts):
        conn.execute("INSERT OR IGNORE INTO message VALUES (?, 'ses_x', ?, ?, ?)",
                     (message_id, n, n, json.dumps({"role": role, "modelID": "m"})))
        conn.execute("INSERT INTO part VALUES (?, ?, 'ses_x', ?, ?, ?)", (part_id, message_id, n, n, json.dumps(data)))
    conn.commit()
    conn.close()


def test_an_interrupted_answer_is_told_as_it_stands_and_a_part_left_running_does_not_hold_the_rest(
        tmp_path: Path) -> None:
    """The person pressed Esc: the step's text never got its step-finish, its tool never
    completed. The partial answer is told before the next prompt (never glued to the next answer),
    and once a later message is read the part left running is read as it stands: the cursor moves
    past it, and no part is read twice."""
    db = tmp_path / "opencode.db"
    parts_db(db, [
        ("prt_01", "msg_1", "user", {"type": "text", "text": "first"}),
        ("prt_02", "msg_2", "assistant", {"type": "step-start"}),
        ("prt_03", "msg_2", "assistant", {"type": "text", "text": "partial answer", "time": {"start": 1, "end": 2}}),
        ("prt_04", "msg_2", "assistant", {"type": "tool", "tool": "bash", "state": {"status": "running"}}),
        ("prt_05", "msg_3", "user", {"type": "text", "text": "second"}),
        ("prt_06", "msg_4", "assistant", {"type": "step-start"}),
        ("prt_07", "msg_4", "assistant", {"type": "text", "text": "real answer", "time": {"start": 3, "end": 4}}),
        ("prt_08", "msg_4", "assistant", {"type": "step-finish", "reason": "stop"}),
    ])
    reading = Reading(conversation_path(db, "ses_x"), "opencode", tmp_path / "cache")
    reading.sync()
    said = [(e[0], e[2]) for e in map(reading.event, range(reading.count))]
    assert said == [("p", "first"), ("a", "partial answer"), ("p", "second"), ("a", "real answer")]
    assert (reading.state["cursor"], reading.state["fed"], reading.state["lines"]) == ("prt_08", [], 8)


def test_text_that_is_not_utf8_is_read_with_a_replacement_character(tmp_path: Path) -> None:
    """A title or a part with bytes that are not UTF-8 would fail every query that reads its row."""
    db = tmp_path / "opencode.db"
    parts_db(db, [("prt_01", "msg_1", "user", {"type": "text", "text": "PLACEHOLDER"})])
    conn = sqlite3.connect(db)
    conn.execute("UPDATE session SET title = CAST(x'ff' AS TEXT)")
    conn.execute("UPDATE part SET data = CAST(x'7b2274797065223a2274657874222c2274657874223a2261ff62227d' AS TEXT)")
    conn.commit()
    conn.close()
    from core.sources import opencode

    assert opencode.sessions(db)["ses_x"].title == "\ufffd"
    reading = Reading(conversation_path(db, "ses_x"), "opencode", tmp_path / "cache")
    reading.sync()
    assert reading.event(0)[2] == "a\ufffdb"


def test_a_todo_time_past_year_9999_is_no_time() -> None:
    from core.sources.opencode import OpencodeReader

    reader = OpencodeReader()
    (event,) = reader.table([("Ship it", "pending", "high")], 10**15)
    assert event[1] == "1970-01-01T00:00:00.000Z" and reader.plan[0]["priority"] == "high"


def test_the_entry_count_is_every_part_as_pideck_sessions_counts_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                      pideck: Any) -> None:
    """A part still running is waited for, yet counted: the conversation's entries are the same
    number in `pideck sessions` and in its log, whatever the reading has told its reader so far."""
    db = tmp_path / "opencode.db"
    parts_db(db, [("prt_01", "msg_1", "user", {"type": "text", "text": "go"}),
                  ("prt_02", "msg_2", "assistant", {"type": "tool", "tool": "bash", "state": {"status": "running"}})])
    monkeypatch.setenv("OPENCODE_DB", str(db))
    from core.sources.log import ConversationLog

    log = ConversationLog.open_transcript(conversation_path(db, "ses_x"))
    assert log.reading.state["cursor"] == "prt_01" and log.entry_count == 2
    code, out, _ = pideck("sessions", "--all")
    assert code == 0 and out.splitlines()[1].split()[:2] == ["opencode", "2"]
