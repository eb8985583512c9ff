"""Issue 30: the catalog with 300 opencode conversations in one database and 300 Qwen Code chats
(with their todo files), beside the benchmarks that hold today (not in the default run):

    uv run pytest tests/benchmarks/test_new_agents_benchmark.py -s -p no:cacheprovider -o addopts=""

The conversations are copies of the real samples (tests/fixtures/agent-transcripts/opencode-todowrite
and qwen-todo-write), each with a session id of its own, 250 of each for the directory and 50 of
each for others, under private homes. Timed, each the best of 3 (processes) or the median:

- the overview's refresh, cold (no cache under PIDECK_HOME) and warm (a new overview over the caches);
- an idle tick (nothing changed), against a stat of every Qwen chat and the database alone;
- the catalog's look (what the inbox, ``watch`` and notifications read), idle;
- ``pideck status`` and ``pideck overview`` as processes, warm, against ``python -c pass``
  (the target: ``status`` warm under 100 ms, as it is over 300 Claude Code conversations).

What is asserted is only that the answers agree (every row's plan is the sample's).
"""

from __future__ import annotations

import gzip
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import time
from pathlib import Path

import pytest

from core.catalog.catalog import Catalog
from core.catalog.overview import Overview
from core.sources.discovery import qwen_folder_name

pytestmark = pytest.mark.benchmark

SAMPLES = Path(__file__).resolve().parents[1] / "fixtures" / "agent-transcripts"
OPENCODE_DB = SAMPLES / "opencode-todowrite" / "final" / ".local" / "share" / "opencode" / "opencode.db.gz"
OPENCODE_ID = "ses_dcc919244ffeTKrCyRrUVGVjZ5"
QWEN = SAMPLES / "qwen-todo-write" / "final" / ".qwen"
QWEN_ID = "96f46329-7639-4329-ac27-affb7ceaca91"
SAMPLE_CWD = "/home/user/project"
HERE, ELSEWHERE = 250, 50
PIDECK = str(Path(sys.executable).with_name("pideck"))


def opencode_database(db: Path, cwd: str, other: str) -> None:
    """The sample's database with its one conversation copied 300 times (ids of their own, kept in
    the order opencode's are)."""
    db.parent.mkdir(parents=True)
    db.write_bytes(gzip.decompress(OPENCODE_DB.read_bytes()))
    conn = sqlite3.connect(db)
    session = conn.execute("SELECT * FROM session WHERE id = ?", (OPENCODE_ID,)).fetchone()
    names = [c[1] for c in conn.execute("PRAGMA table_info(session)")]
    messages = conn.execute("SELECT * FROM message WHERE session_id = ?", (OPENCODE_ID,)).fetchall()
    parts = conn.execute("SELECT * FROM part WHERE session_id = ?", (OPENCODE_ID,)).fetchall()
    todos = conn.execute("SELECT * FROM todo WHERE session_id = ?", (OPENCODE_ID,)).fetchall()
    conn.execute("DELETE FROM session")
    for n in range(HERE + ELSEWHERE):
        sid = f"ses_{n:04d}{OPENCODE_ID[8:]}"
        row = list(session)
        row[names.index("id")], row[names.index("directory")] = sid, cwd if n < HERE else other
        conn.execute(f"INSERT INTO session VALUES ({','.join('?' * len(row))})", row)
        conn.executemany("INSERT INTO message VALUES (?, ?, ?, ?, ?)",
                         [(f"{m[0]}{n:04d}", sid, *m[2:]) for m in messages])
        conn.executemany("INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)",
                         [(f"{p[0]}{n:04d}", f"{p[1]}{n:04d}", sid, *p[3:]) for p in parts])
        conn.executemany("INSERT INTO todo VALUES (?, ?, ?, ?, ?, ?, ?)", [(sid, *t[1:]) for t in todos])
    conn.commit()
    conn.execute("PRAGMA journal_mode = WAL")  # (as opencode keeps it; closed, so its WAL is gone)
    conn.close()


def qwen_chats(home: Path, cwd: str, other: str) -> list[Path]:
    chat = next(QWEN.rglob(f"{QWEN_ID}.jsonl")).read_text(encoding="utf-8")
    todo = (QWEN / "todos" / f"{QWEN_ID}.json").read_text(encoding="utf-8")
    made = []
    for n in range(HERE + ELSEWHERE):
        where = cwd if n < HERE else other
        sid = f"{n:08d}{QWEN_ID[8:]}"
        path = home / ".qwen" / "projects" / qwen_folder_name(where) / "chats" / f"{sid}.jsonl"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(chat.replace(QWEN_ID, sid).replace(SAMPLE_CWD, where), encoding="utf-8")
        (home / ".qwen" / "todos").mkdir(parents=True, exist_ok=True)
        (home / ".qwen" / "todos" / f"{sid}.json").write_text(todo, encoding="utf-8")
        made.append(path)
    return made


def best(argv: list[str], env: dict[str, str], cwd: str, rounds: int = 3) -> float:
    times = []
    for _ in range(rounds):
        t = time.perf_counter()
        done = subprocess.run(argv, env=env, cwd=cwd, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - t)
        assert done.returncode == 0, argv
    return min(times)


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def test_the_catalog_over_300_opencode_and_300_qwen_conversations(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home, pideck_home = tmp_path / "home", tmp_path / "pideck-home"
    cwd, other = str(tmp_path / "project"), str(tmp_path / "elsewhere")
    os.makedirs(cwd)
    for key, value in {"HOME": home, "PIDECK_HOME": pideck_home, "PIDECK_CONFIG": tmp_path / "config.toml",
                       "PI_CODING_AGENT_DIR": tmp_path / "pi"}.items():
        monkeypatch.setenv(key, str(value))
    for key in ("XDG_DATA_HOME", "OPENCODE_DB", "QWEN_HOME", "QWEN_RUNTIME_DIR", "CLAUDE_CONFIG_DIR", "CODEX_HOME",
                "GEMINI_CLI_HOME", "COPILOT_HOME", "PIDECK_SESSION"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.chdir(cwd)
    db = home / ".local" / "share" / "opencode" / "opencode.db"
    opencode_database(db, cwd, other)
    chats = qwen_chats(home, cwd, other)
    before = sorted(os.listdir(db.parent))

    cold = Overview(cwd)
    t = time.perf_counter()
    assert cold.refresh().read == 2 * HERE
    t_cold = time.perf_counter() - t
    warm = []
    for _ in range(3):
        overview = Overview(cwd)
        t = time.perf_counter()
        assert overview.refresh().read == 2 * HERE
        warm.append(time.perf_counter() - t)
    rows = overview.rows
    assert len(rows) == 2 * HERE and {(r.kind, r.todos_settled, r.todos_total) for r in rows} == {
        ("opencode", 4, 4), ("qwen", 4, 4)}

    idle_overview = Overview(cwd, rescan_s=0)
    idle_overview.refresh()
    idle, stats = [], []
    for _ in range(100):
        t = time.perf_counter()
        tick = idle_overview.refresh()
        idle.append(time.perf_counter() - t)
        assert tick.read == 0 and not tick.changed
    for _ in range(100):
        t = time.perf_counter()
        for path in chats[:HERE]:
            path.stat()
        db.stat()
        stats.append(time.perf_counter() - t)

    catalog = Catalog(cwd)
    t = time.perf_counter()
    assert len(catalog.look()) == 2 * HERE
    t_look_first = time.perf_counter() - t
    looks = []
    for _ in range(50):
        t = time.perf_counter()
        catalog.look()
        looks.append(time.perf_counter() - t)

    env = {**os.environ}
    bare = best([sys.executable, "-c", "pass"], env, cwd)
    subprocess.run([PIDECK, "status"], env=env, cwd=cwd, stdout=subprocess.DEVNULL, check=True)  # (the kept line)
    s_warm = best([PIDECK, "status"], env, cwd)
    o_warm = best([PIDECK, "overview"], env, cwd)
    assert sorted(os.listdir(db.parent)) == before  # (nothing of pideck's beside the database)

    print(f"\ncatalog of {2 * HERE} conversations here ({HERE} opencode in one database, {HERE} Qwen Code chats with "
          f"their todo files) and {2 * ELSEWHERE} elsewhere:")
    print(f"  overview refresh: cold {ms(t_cold)}, warm (a new overview over the caches) {ms(min(warm))}")
    print(f"  idle tick: median {ms(statistics.median(idle))} ({'meets' if statistics.median(idle) < 0.005 else 'misses'} "
          f"< 5 ms); stat() of the {HERE} chats and the database alone {ms(statistics.median(stats))} "
          f"({statistics.median(idle) / statistics.median(stats):.1f}x)")
    print(f"  catalog look (the inbox's): first {ms(t_look_first)}, idle median {ms(statistics.median(looks))}")
    print(f"  `pideck status` process, warm: {ms(s_warm)} ({'meets' if s_warm < 0.1 else 'misses'} < 100 ms), "
          f"{s_warm / bare:.1f}x `python -c pass` ({ms(bare)}); `pideck overview` warm {ms(o_warm)}")
    shutil.rmtree(pideck_home, ignore_errors=True)
