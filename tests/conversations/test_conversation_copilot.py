"""GitHub Copilot CLI's session log: the plan of the real 1.0.102 sample (kept with the ``sql``
tool in the session's SQLite database) against the database's own dump and against the queries
run in a plain sqlite3 database after every call; ``inspect --json``; telling its events from the
other agents' lines; finding a directory's sessions; the guarded replay database; the session
database as the truth, read without leaving a file; and a live Copilot stand-in in another
process (copilot_writer.py)."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from plan_oracle import copilot_schema, copilot_todos
from transcript_samples import BY_NAME, COPILOT_SESSION, SAMPLES

from core.catalog.sessions import list_sessions
from core.deck.deck import Deck
from core.sources.copilot import CopilotReader
from core.sources.copilot_db import read_plan
from core.sources.copilot_sql import Replay
from core.sources.detect import detect_kind, kind_of_line
from core.sources.discovery import conversations, copilot_sessions_dir
from core.sources.log import ConversationLog
from core.sources.reading import Reading

SAMPLE = BY_NAME["copilot-sql-todos"]
FOLDER = SAMPLE.home / COPILOT_SESSION
WRITER = Path(__file__).resolve().parent / "copilot_writer.py"


def inspect_json(pideck: Any, path: Path, *more: str) -> dict[str, Any]:
    code, out, err = pideck("inspect", "--json", "--session", str(path), *more)
    assert (code, err) == (0, "")
    return json.loads(out)


def dump_plan() -> list[dict[str, Any]]:
    """The todos of ``session.db.dump.json`` (Copilot's database as the run left it, dumped then)
    as the todo model writes them: an oracle that reads no database at all."""
    dump = json.loads((FOLDER / "session.db.dump.json").read_text())
    assert dump["todo_deps"] == []
    words = {"pending": "pending", "in_progress": "in_progress", "done": "completed", "blocked": "blocked"}
    return [{"content": t["title"], "status": words[t["status"]], "id": t["id"], "description": t["description"]}
            for t in dump["todos"]]


def fingerprint(folder: Path) -> dict[str, str]:
    """sha256 of every file in ``folder``, by name."""
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())}


def todos_of(deck: Deck[Any]) -> list[dict[str, Any]]:
    return deck.todo.state.to_json()["todos"]


# -- the real sample ----------------------------------------------------------------------------


def test_the_final_plan_is_the_databases_dump(tmp_path: Path, pideck: Any) -> None:
    path = SAMPLE.copy_home(tmp_path / "home")
    shown = inspect_json(pideck, path)
    assert shown["todo"]["todos"] == dump_plan()
    assert [t["status"] for t in dump_plan()] == ["completed"] * 4
    assert shown["todo"]["agentPlan"] == {"agent": "copilot", "tool": "sql", "noun": "todo"}
    assert shown["warnings"] == []


def test_inspect_json_says_the_agent_as_the_log_does(tmp_path: Path, pideck: Any) -> None:
    path = SAMPLE.copy_home(tmp_path / "home")
    agent = inspect_json(pideck, path)["agent"]
    assert agent == {
        "kind": "copilot", "name": "GitHub Copilot CLI", "sessionId": "6380de6d-a46c-4052-87be-b060133f199b",
        "cwd": "/home/user/project", "version": "1.0.102", "model": "gpt-4.1", "status": "ended",
        "lastActivity": "2026-12-01T21:13:34.250Z", "lastActivityOf": "line",
        "lastMessage": "TURN-2: all 4 items are completed.",
        "tokens": {"input": 50, "output": 20, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 70},
        "transcript": str(path), "pideckSession": None}  # (its usage records' cost counts premium requests, not dollars: no cost)


def test_the_prompts_answers_and_plan_changes_in_order() -> None:
    """Each model call is one answer paid for (a ``u`` event, before what the answer did): the
    fake model's usage records, 50 tokens in and 20 out each, priced by no cost of their own
    (Copilot's ``cost`` counts premium requests, not dollars)."""
    reading = Reading(SAMPLE.path, "copilot")
    reading.sync()
    shown = [(e[0], e[2] if e[0] != "t" else e[3]) for e in map(reading.event, range(reading.count))]
    paid = ("u", "openai")
    assert shown == [
        ("p", "Add a --session flag to the CLI. Plan it with your todo tool, then start."),
        paid, ("t", "plan: 3 todos added"),
        paid, ("t", "todo #read-entry-point in progress"),
        paid,  # (the ls call)
        paid, ("t", "todo #read-entry-point completed"),
        paid, ("t", "todo #document-flag added: Document the flag in the README"),
        paid, ("t", "todo #add-session-flag in progress"),
        paid, ("a", "TURN-1: planned 4 items; item 1 is done and item 2 is in progress."),
        ("p", "Continue and finish the remaining items."),
        paid, ("t", "plan: 2 todos changed"),
        paid, ("t", "plan: 2 todos changed"),
        paid, ("t", "todo #document-flag completed"),
        paid, ("a", "TURN-2: all 4 items are completed."),
    ]
    answer = reading.event(13)
    assert (answer[3], answer[4], answer[5]) == ("gpt-4.1", None, True)  # (its tokens are its u event's)
    assert reading.event(12)[3:] == ["gpt-4.1", [50, 20, 0, 0], None, None]


def test_the_plan_after_each_sql_call_is_what_sqlite_makes_of_the_queries() -> None:
    """After each ``sql`` call's result line, the plan equals the todos a plain sqlite3 database
    (made with the real session.db's schema) holds after running the queries read so far."""
    conn = sqlite3.connect(":memory:", isolation_level=None)
    for sql in copilot_schema():
        conn.execute(sql)
    reader = CopilotReader()
    queries: dict[str, str] = {}
    calls = 0
    for raw in SAMPLE.lines:
        line = json.loads(raw)
        reader.feed(line)
        data = line["data"]
        if line["type"] == "tool.execution_start" and data["toolName"] == "sql":
            queries[data["toolCallId"]] = data["arguments"]["query"]
        elif line["type"] == "tool.execution_complete" and data["toolCallId"] in queries:
            conn.executescript(queries.pop(data["toolCallId"]))
            calls += 1
            assert (calls, reader.plan) == (calls, copilot_todos(conn))
    assert calls == 8 and reader.plan == dump_plan()


def test_reading_the_database_creates_nothing_beside_it(tmp_path: Path) -> None:
    folder = shutil.copytree(FOLDER, tmp_path / "session")
    before = fingerprint(folder)
    assert read_plan(folder / "session.db") == dump_plan()
    reading = Reading(folder / "events.jsonl", "copilot", home=tmp_path / "pideck")
    reading.sync()
    assert reading.reader.plan == dump_plan()
    assert fingerprint(folder) == before  # no -journal, -wal or -shm, nothing rewritten


# -- the database is the truth ---------------------------------------------------------------------


def test_a_database_that_differs_from_the_replay_gives_the_plan(tmp_path: Path) -> None:
    """A database the log does not explain (a query that replays otherwise, a change whose result
    is not logged yet): its plan is shown, as one more plan event; what it says about blocked items
    and dependencies is kept."""
    folder = shutil.copytree(FOLDER, tmp_path / "session")
    with sqlite3.connect(folder / "session.db", isolation_level=None) as conn:
        conn.execute("UPDATE todos SET status = 'blocked' WHERE id = 'test-flag'")
        conn.execute("INSERT INTO todo_deps (todo_id, depends_on) VALUES ('test-flag', 'read-entry-point'),"
                     " ('test-flag', 'add-session-flag')")
    conn.close()
    assert sorted(os.listdir(folder)) == ["events.jsonl", "session.db", "session.db.dump.json", "workspace.yaml"]
    log = ConversationLog.open_transcript(folder / "events.jsonl")
    deck = Deck(log)
    assert log.reading is not None and log.reading.count == 24  # the sample's 23, and the database's
    last = log.reading.event(23)
    assert (last[2], last[3]) == ("session.db", "plan: 3 todos changed")
    assert todos_of(deck)[:3] == [
        {"content": "Read the CLI entry point", "status": "completed", "id": "read-entry-point",
         "description": "Read the CLI entry point.", "blocks": ["test-flag"]},
        {"content": "Add the --session flag", "status": "completed", "id": "add-session-flag",
         "description": "Add the --session flag.", "blocks": ["test-flag"]},
        {"content": "Test the flag", "status": "blocked", "id": "test-flag", "description": "Test the flag.",
         "blockedBy": ["add-session-flag", "read-entry-point"]},
    ]


def test_a_failed_call_and_a_query_that_cannot_replay_change_nothing() -> None:
    def event(kind: str, **data: Any) -> dict[str, Any]:
        return {"type": kind, "data": data, "id": "x", "timestamp": "2026-12-01T21:13:21.000Z", "parentId": None}

    def call(call_id: str, query: str, success: bool = True) -> list[dict[str, Any]]:
        return [event("tool.execution_start", toolCallId=call_id, toolName="sql", arguments={"query": query}),
                event("tool.execution_complete", toolCallId=call_id, success=success)]

    reader = CopilotReader()
    lines = [*call("1", "INSERT INTO todos (id, title, status) VALUES ('a', 'A; and more', 'blocked');"
                        " INSERT INTO todo_deps VALUES ('a', 'b')"),
             *call("2", "INSERT INTO todos (id, title) VALUES ('b', 'B')", success=False),
             *call("3", "UPDATE todos SET status = 'done'; SELECT nosuchfunction()"),
             *call("4", "ATTACH 'x.db' AS x")]
    notes: list[str] = []
    events: list[list[Any]] = []
    for line in lines:
        events += reader.feed(line)
        notes += reader.notes
        reader.notes.clear()
    assert [e[3] for e in events] == ["todo #a added: A; and more"]
    assert reader.plan == [{"content": "A; and more", "status": "blocked", "id": "a", "blockedBy": ["b"]}]
    assert len(notes) == 2 and all(n.startswith("sql: a query Copilot ran could not be replayed") for n in notes)
    again = CopilotReader(reader.save())  # (from the cache: the replay database is made again)
    assert again.feed(call("5", "UPDATE todos SET status = 'in_progress'")[0]) == []
    assert [e[4] for e in again.feed(call("5", "UPDATE todos SET status = 'in_progress'")[1])] == [
        [{"content": "A; and more", "status": "in_progress", "id": "a", "blockedBy": ["b"]}]]


@pytest.mark.parametrize("query", [
    "ATTACH '{dir}/attached.db' AS x",
    "VACUUM INTO '{dir}/vacuumed.db'",
    "PRAGMA temp_store_directory = '{dir}'",
    "PRAGMA journal_mode = WAL",
    "SELECT load_extension('{dir}/x')",
    "CREATE VIRTUAL TABLE v USING fts5(a)",
    "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT count(*) FROM n",
])
def test_the_replay_database_reaches_no_file(query: str, tmp_path: Path) -> None:
    target = tmp_path / "target"
    target.mkdir()
    replay = Replay()
    replay.run("INSERT INTO todos (id, title) VALUES ('a', 'A')")
    why = replay.run(query.format(dir=target))
    assert why is not None  # refused (or stopped, for the query without end)
    assert list(target.iterdir()) == []
    assert replay.plan() == [{"content": "A", "status": "pending", "id": "a"}]
    replay.close()


# -- telling it apart, finding it ------------------------------------------------------------------


def test_its_log_is_told_by_its_content(tmp_path: Path) -> None:
    assert detect_kind(SAMPLE.path) == "copilot"
    for sample in SAMPLES:
        if sample.kind != "copilot":
            assert detect_kind(sample.path) == sample.kind
            assert all(kind_of_line(json.loads(raw)) != "copilot" for raw in sample.lines[:20])
    long = tmp_path / "events.jsonl"  # a first line longer than the head, not finished yet
    long.write_bytes(b'{"type":"session.start","data":{"sessionId":"s","context":{"cwd":"/p"},"x":"'
                     + b"y" * (1 << 18))
    assert detect_kind(long) == "copilot"


def install(home: Path, cwd: Path, session_id: str = SAMPLE.session_id) -> Path:
    folder = home / ".copilot" / "session-state" / session_id
    shutil.copytree(FOLDER, folder)
    path = folder / "events.jsonl"
    path.write_text(path.read_text().replace('"/home/user/project"', json.dumps(str(cwd))))
    return path


def test_a_directorys_sessions_are_listed(home: Path, pideck: Any) -> None:
    project = Path.cwd()
    path = install(home, project)
    other = install(home, project.parent, "11111111-2222-3333-4444-555555555555")
    found = conversations(project)
    assert [(p, kind, head.session_id, head.cwd) for p, kind, head, _ in found] == [
        (path, "copilot", SAMPLE.session_id, str(project))]
    assert sorted(p for p, *_ in conversations(None)) == sorted([path, other])
    assert [(s.path, s.kind) for s in list_sessions(project)] == [(path, "copilot")]
    code, out, err = pideck("sessions")
    assert (code, err) == (0, "") and out.splitlines()[1].startswith("copilot ") and str(path) in out
    assert out.splitlines()[-1] == f"`pideck` here opens {path}: the newest of this directory"
    assert copilot_sessions_dir() == home / ".copilot" / "session-state"


def test_workspace_yaml_names_the_directory_when_the_log_does_not(home: Path) -> None:
    project = Path.cwd()
    path = install(home, project)
    lines = path.read_text().splitlines(keepends=True)
    start = json.loads(lines[0])
    del start["data"]["context"]
    path.write_text(json.dumps(start) + "\n" + "".join(lines[1:]))
    (path.parent / "workspace.yaml").write_text(f"id: x\ncwd: '{project}'\nname: x\n")
    assert [(p, head.cwd) for p, _, head, _ in conversations(project)] == [(path, str(project))]


def test_copilot_home_moves_the_sessions(home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    project = Path.cwd()
    install(home, project)
    moved = tmp_path / "elsewhere"
    path = install(moved, project, "11111111-2222-3333-4444-555555555555")
    monkeypatch.setenv("COPILOT_HOME", str(moved / ".copilot"))
    assert [p for p, *_ in conversations(project)] == [path]


# -- live: a Copilot stand-in in another process ---------------------------------------------------


def test_following_a_live_session_the_plan_is_the_databases_at_every_step(tmp_path: Path) -> None:
    """The writer commits each sql call to its session.db (rollback journal) before the call's
    result reaches the log, then logs the result; pideck follows both. After each step the plan is
    the database's rows, and pideck left the folder as the writer made it: no other file, every
    byte the same before and after it read."""
    folder = tmp_path / "home" / COPILOT_SESSION
    writer = subprocess.Popen(
        [sys.executable, str(WRITER), str(SAMPLE.path), str(FOLDER / "session.db"), str(FOLDER / "workspace.yaml"),
         str(folder)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert writer.stdin is not None and writer.stdout is not None

    def step(word: str) -> None:
        writer.stdin.write(word + "\n")  # type: ignore[union-attr]
        writer.stdin.flush()  # type: ignore[union-attr]
        assert writer.stdout.readline().split()[0] == word  # type: ignore[union-attr]

    try:
        step("db")
        log = ConversationLog.open_transcript(folder / "events.jsonl")
        assert log.reading is not None
        deck = Deck(log)
        for n in range(8):
            if n:
                step("db")
            for phase in ("db", "log"):
                if phase == "log":
                    step("log")
                before = fingerprint(folder)
                assert set(before) == {"events.jsonl", "session.db", "workspace.yaml"}
                log.refresh()
                deck.refresh()
                with sqlite3.connect(f"file:{folder / 'session.db'}?mode=ro", uri=True) as conn:
                    rows = copilot_todos(conn)
                conn.close()
                assert (n, phase, todos_of(deck)) == (n, phase, rows)
                assert fingerprint(folder) == before
        step("rest")
        log.refresh()
        deck.refresh()
        assert todos_of(deck) == dump_plan()
        assert log.agent()["status"] == "ended"
        # each call's change came from the database first; its logged result added nothing
        plans = [log.reading.event(i) for i in range(log.reading.count) if log.reading.event(i)[0] == "t"]
        assert [p[2] for p in plans] == ["session.db"] * 8
    finally:
        writer.stdin.close()
        writer.wait(timeout=30)
    assert writer.returncode == 0
    assert sorted(os.listdir(folder)) == ["events.jsonl", "session.db", "workspace.yaml"]


def test_a_session_db_that_cannot_be_read_is_not_opened_again_until_it_changes(tmp_path: Path,
                                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """The model dropped the todos table: the database is read once, and not again at every
    refresh while neither it nor the log changes."""
    import sqlite3

    from core.sources import copilot_db

    path = SAMPLE.copy_home(tmp_path / "home")
    conn = sqlite3.connect(path.parent / "session.db")
    conn.execute("DROP TABLE todos")
    conn.commit()
    conn.close()
    reads = []
    real = copilot_db.read_plan
    monkeypatch.setattr(copilot_db, "read_plan", lambda db: reads.append(db) or real(db))
    reading = Reading(path, "copilot", tmp_path / "cache")
    reading.sync()
    reading.sync()
    reading.sync()
    assert len(reads) == 1 and reading.reader.plan  # (the plan replayed from the log stays)
