"""A stand-in for opencode writing its database, one step at a time (``python opencode_writer.py
DB FINAL FOLLOW``): the steps are the changes opencode's run made, as a follower recorded them
(tests/fixtures/agent-transcripts/opencode-todowrite/db_follow.jsonl: after each commit, the todo
rows and how many rows each table held), the rows themselves taken from the run's final database.

Like opencode 1.18.33 it keeps one connection open in WAL mode with ``synchronous=NORMAL`` (so the
``-wal`` and ``-shm`` exist while it runs), replaces a session's todo rows in one transaction, and
closes at the end (SQLite then checkpoints and removes both). Each line on stdin applies the next
step, answered by ``ok <step>`` (``done`` once none is left), so a test looks after every commit
without waiting on a clock.
"""

from __future__ import annotations

import json
import sqlite3
import sys

TABLES = ("project", "session", "message", "part", "todo")


def read_steps(follow: str) -> list[tuple[int, int, list[dict[str, object]]]]:
    """(messages, parts, todo rows) after each recorded commit that changed them, from the first
    that had the session."""
    steps: list[tuple[int, int, list[dict[str, object]]]] = []
    for line in open(follow, encoding="utf-8"):
        seen = json.loads(line)
        step = (seen["counts"].get("message", 0), seen["counts"].get("part", 0), seen["todo"])
        if seen["counts"].get("session") and (not steps or steps[-1] != step):
            steps.append(step)
    return steps


def main(db: str, final: str, follow: str) -> None:
    source = sqlite3.connect(final)
    schema = [sql for name, sql in source.execute("SELECT name, sql FROM sqlite_master WHERE type = 'table'")
              if name in TABLES]
    rows = {t: source.execute(f"SELECT * FROM {t} ORDER BY rowid").fetchall() for t in TABLES if t != "todo"}
    steps = read_steps(follow)
    out = sqlite3.connect(db, isolation_level=None)
    out.execute("PRAGMA journal_mode = WAL")
    out.execute("PRAGMA synchronous = NORMAL")
    for sql in schema:
        out.execute(sql)
    out.execute("BEGIN")
    out.executemany("INSERT INTO project VALUES (" + ",".join("?" * len(rows["project"][0])) + ")", rows["project"])
    out.executemany("INSERT INTO session VALUES (" + ",".join("?" * len(rows["session"][0])) + ")", rows["session"])
    out.execute("COMMIT")
    session_id = rows["session"][0][0]
    messages = sorted(rows["message"])
    parts = sorted(rows["part"])
    sys.stdout.write(f"ready {len(steps)}\n")
    sys.stdout.flush()
    by_id = {row[0]: row for row in messages}
    written: set[str] = set()
    done_m = done_p = 0
    for n, (m, p, todos) in enumerate(steps, 1):
        sys.stdin.readline()
        out.execute("BEGIN")
        # (a part's message first, as opencode writes them)
        for row in [*messages[done_m:m], *(by_id[part[1]] for part in parts[done_p:p])]:
            if row[0] not in written:
                written.add(row[0])
                out.execute("INSERT INTO message VALUES (?, ?, ?, ?, ?)", row)
        for row in parts[done_p:p]:
            out.execute("INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)", row)
        out.execute("DELETE FROM todo WHERE session_id = ?", (session_id,))
        for position, todo in enumerate(todos):
            out.execute("INSERT INTO todo VALUES (?, ?, ?, ?, ?, ?, ?)",
                        (session_id, todo["content"], todo["status"], todo["priority"], position, 1796159200000 + n,
                         1796159200000 + n))
        out.execute("COMMIT")
        done_m, done_p = max(done_m, m), max(done_p, p)
        sys.stdout.write(f"ok {n}\n")
        sys.stdout.flush()
    sys.stdin.readline()
    out.close()
    sys.stdout.write("done\n")
    sys.stdout.flush()


if __name__ == "__main__":
    main(*sys.argv[1:4])
