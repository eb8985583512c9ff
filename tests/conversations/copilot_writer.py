"""A stand-in for GitHub Copilot CLI in a separate process, for the live test
(test_conversation_copilot.py): it makes a session folder as Copilot does (``workspace.yaml``,
``events.jsonl``, and at the first ``sql`` call ``session.db`` in rollback-journal mode, with the
schema the sample's real ``session.db`` has), then on each line it reads on stdin takes one step of
the sample and prints what it did, so the test and this process never race:

- ``db``: the lines of the next ``sql`` call up to its ``tool.execution_start`` go to the log, and
  the call's query is committed to the database (Copilot's tool ran; its result is not logged yet);
- ``log``: the call's ``tool.execution_complete`` line goes to the log;
- ``rest``: the remaining lines.

It keeps its database connection open between steps, as Copilot does.

usage: python copilot_writer.py SAMPLE_EVENTS SAMPLE_DB SAMPLE_WORKSPACE FOLDER
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import sys
from pathlib import Path


def main() -> None:
    events, sample_db, workspace, folder = (Path(a) for a in sys.argv[1:5])
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(workspace, folder / "workspace.yaml")
    lines = events.read_bytes().splitlines(keepends=True)
    log = folder / "events.jsonl"
    log.write_bytes(b"")
    source = sqlite3.connect(f"file:{sample_db}?mode=ro", uri=True)
    schema = [sql for (sql,) in source.execute("SELECT sql FROM sqlite_master WHERE type = 'table' ORDER BY rowid")]
    source.close()
    db: sqlite3.Connection | None = None
    at = 0

    def append(upto: int) -> None:
        nonlocal at
        with open(log, "ab") as f:
            f.write(b"".join(lines[at:upto]))
        at = upto

    for step in sys.stdin:
        step = step.strip()
        if step == "db":
            start = next(i for i in range(at, len(lines)) if _is_sql(json.loads(lines[i]), "tool.execution_start"))
            append(start + 1)
            if db is None:
                db = sqlite3.connect(folder / "session.db", isolation_level=None)
                assert db.execute("PRAGMA journal_mode = DELETE").fetchone() == ("delete",)
                for sql in schema:
                    db.execute(sql)
            query = json.loads(lines[start])["data"]["arguments"]["query"]
            db.executescript(f"BEGIN;\n{query}\nCOMMIT;")
        elif step == "log":
            done = next(i for i in range(at, len(lines)) if json.loads(lines[i])["type"] == "tool.execution_complete")
            append(done + 1)
        elif step == "rest":
            append(len(lines))
        print(f"{step} {at}", flush=True)
    if db is not None:
        db.close()


def _is_sql(line: dict[str, object], kind: str) -> bool:
    data = line["data"]
    return line["type"] == kind and isinstance(data, dict) and data.get("toolName") == "sql"


if __name__ == "__main__":
    main()
