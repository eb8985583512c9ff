"""Issue 16, section 4: the overview over 300 agent conversations (not in the default run).

    uv run pytest tests/benchmarks/test_conversation_overview_benchmark.py -s -p no:cacheprovider -o addopts=""

The conversations are generated from the four real samples (tests/fixtures/agent-transcripts), each
copy with a session id of its own, in each CLI's folder layout under private homes: 120 of the
Claude Code Task-tools run (668 KB each), 120 of the TodoWrite run (400 KB), 30 Codex rollouts and 30
Gemini chat files for one directory, and 40 Claude and 40 Codex conversations of other directories
(which the overview must tell apart: Codex's by the head of every rollout). Files are in the page
cache for every row.

Rows (targets of the issue: the overview over 300 conversations opens in under 1 s cold and ticks
in under 5 ms idle):

- cold (no cache under PIDECK_HOME): the overview screen's first tick (every row
  listed, read within its budget, the newest first) and the time until every row is filled in; the
  CLI's one refresh reading all (``pideck overview``'s work), in process; against a naive reader
  (json.loads of every line of every transcript) timed in the same run;
- warm (the caches of an earlier run): a new overview's first refresh, every row filled in;
- idle: a tick when nothing changed (the folders re-listed at each tick, the worst case), against
  stat() of the 300 files alone;
- ``pideck overview`` as a whole process, cold and warm, against ``python -c pass``.

Printed as milliseconds and ratios; what is asserted is only that the answers agree (every row's
plan and status equal what the conversation's Deck says).
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from core.sources.discovery import claude_folder_name
from core.deck.deck import Deck
from core.catalog.opening import open_log
from core.catalog.overview import Overview, row_of
from core.primitives.todo.model import is_open

pytestmark = pytest.mark.benchmark

SAMPLES = Path(__file__).resolve().parents[1] / "fixtures" / "agent-transcripts"
SAMPLE_CWD = "/home/user/project"
SHAPES = {  # shape -> (sample file, how many for the directory, how many for others)
    "claude-tasks": (next((SAMPLES / "claude-tasks" / "final").rglob("*.jsonl")), 120, 20),
    "claude-todowrite": (next((SAMPLES / "claude-todowrite" / "final").rglob("*.jsonl")), 120, 20),
    "codex": (next((SAMPLES / "codex-update-plan" / "final").rglob("*.jsonl")), 30, 40),
    "gemini": (next((SAMPLES / "gemini-write-todos" / "final" / ".gemini" / "tmp").rglob("*.jsonl")), 30, 0),
}
BUDGET_S = 0.1  # the overview screen's (tui/screens/overview.py)
PIDECK = str(Path(sys.executable).with_name("pideck"))


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def generate(home: Path, cwd: str) -> list[Path]:
    """The conversations under ``home`` (HOME, .claude, .codex, .gemini): those of ``cwd`` first."""
    texts = {shape: path.read_text(encoding="utf-8") for shape, (path, _, _) in SHAPES.items()}
    ids = {shape: _session_id(shape, path) for shape, (path, _, _) in SHAPES.items()}
    mine: list[Path] = []
    base = time.time() - 400 * 86400
    n = 0
    for shape, (_, here, elsewhere) in SHAPES.items():
        for k in range(here + elsewhere):
            where = cwd if k < here else f"/srv/other-{k % 7}"
            new_id = str(uuid.UUID(int=n + 1))
            text = texts[shape].replace(ids[shape], new_id).replace(SAMPLE_CWD, where)
            path = _place(home, shape, where, new_id, n)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            stamp = base + n * 3600
            os.utime(path, (stamp, stamp))
            if where == cwd:
                mine.append(path)
            n += 1
    (home / ".gemini" / "projects.json").write_text(json.dumps({"projects": {cwd: "project"}}), encoding="utf-8")
    (home / ".claude" / "sessions").mkdir(parents=True, exist_ok=True)  # no Claude running: they have ended
    return mine


def _session_id(shape: str, path: Path) -> str:
    first = json.loads(path.read_text(encoding="utf-8").splitlines()[0])
    if shape == "codex":
        return first["payload"]["id"]
    return first["sessionId"]


def _place(home: Path, shape: str, cwd: str, session_id: str, n: int) -> Path:
    if shape.startswith("claude"):
        return home / ".claude" / "projects" / claude_folder_name(cwd) / f"{session_id}.jsonl"
    if shape == "codex":
        day = 1 + n % 28
        return home / ".codex" / "sessions" / "2026" / "11" / f"{day:02d}" / f"rollout-2026-11-{day:02d}T07-16-36-{session_id}.jsonl"
    return home / ".gemini" / "tmp" / "project" / "chats" / f"session-2026-11-01T07-{n % 60:02d}-{session_id[:8]}.jsonl"


def naive(paths: list[Path]) -> float:
    t = time.perf_counter()
    for path in paths:
        with open(path, "rb") as f:
            for line in f:
                json.loads(line)
    return time.perf_counter() - t


@pytest.fixture
def homes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, str, list[Path]]:
    home = tmp_path / "home"
    cwd = str(tmp_path / "project")
    os.makedirs(cwd)
    for key, value in {"HOME": home, "CLAUDE_CONFIG_DIR": home / ".claude", "CODEX_HOME": home / ".codex",
                       "PIDECK_HOME": tmp_path / "pideck-home", "PIDECK_CONFIG": tmp_path / "config.toml",
                       "PI_CODING_AGENT_DIR": tmp_path / "pi"}.items():
        monkeypatch.setenv(key, str(value))
    monkeypatch.delenv("GEMINI_CLI_HOME", raising=False)
    monkeypatch.delenv("PIDECK_SESSION", raising=False)
    return home, cwd, generate(home, cwd)


def _cold(tmp_path: Path) -> None:
    shutil.rmtree(tmp_path / "pideck-home", ignore_errors=True)


def test_overview_of_300_conversations(homes, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home, cwd, mine = homes
    assert len(mine) == 300
    t_naive = min(naive(mine) for _ in range(2))

    # cold, as the overview screen reads: a budget per tick, the newest first
    _cold(tmp_path)
    screen = Overview(cwd, budget_s=BUDGET_S)
    t = time.perf_counter()
    first = screen.refresh()
    t_first = time.perf_counter() - t
    listed = len(screen.rows)
    while screen.refresh().pending:
        pass
    t_screen_all = time.perf_counter() - t
    assert first.pending and listed == 300 and not any(r.pending for r in screen.rows)

    # cold, as the CLI reads: everything in one refresh
    _cold(tmp_path)
    cli = Overview(cwd)
    t = time.perf_counter()
    assert cli.refresh().read == 300
    t_cold = time.perf_counter() - t

    # warm: the caches of the run before, a new overview (as a new process has)
    warm = []
    for _ in range(3):
        overview = Overview(cwd)
        t = time.perf_counter()
        assert overview.refresh().read == 300
        warm.append(time.perf_counter() - t)
    t_warm = min(warm)

    # idle ticks, the folders re-listed every tick
    idle_overview = Overview(cwd, rescan_s=0)
    idle_overview.refresh()
    idle = []
    for _ in range(200):
        t = time.perf_counter()
        tick = idle_overview.refresh()
        idle.append(time.perf_counter() - t)
        assert tick.read == 0 and not tick.changed
    stats = []
    for _ in range(200):
        t = time.perf_counter()
        for path in mine:
            path.stat()
        stats.append(time.perf_counter() - t)
    t_idle, t_stats = statistics.median(idle), statistics.median(stats)

    # the answers agree: every row's plan and status are the conversation's Deck's
    rows = {r.path: r for r in cli.rows}
    assert set(rows) == {str(p) for p in mine}
    for path in mine[::15]:
        log = open_log(path)
        deck = Deck(log)
        expected = row_of(deck, log.kind)  # type: ignore[attr-defined]
        row = rows[str(path)]
        assert (row.todos_settled, row.todos_total) == (expected.todos_settled, expected.todos_total)
        status = log.agent()["status"]  # type: ignore[attr-defined]
        assert row.entries == expected.entries and row.status == status
        assert row.flag == (status if any(is_open(t) for t in deck.todo.todos) and status != "working" else None)
    assert screen.rows == cli.rows

    # whole processes: pideck overview, cold and warm, against a bare interpreter
    env = {**os.environ}
    bare = best([sys.executable, "-c", "pass"], env, cwd)
    _cold(tmp_path)
    p_cold = best([PIDECK, "overview"], env, cwd, before=lambda: _cold(tmp_path))
    p_warm = best([PIDECK, "overview"], env, cwd)
    s_warm = best([PIDECK, "status"], env, cwd)

    print(f"\noverview of {len(mine)} conversations (120 Claude Task-tools, 120 TodoWrite, 30 Codex, 30 Gemini; "
          f"{sum(s[2] for s in SHAPES.values())} more of other directories), "
          f"{sum(p.stat().st_size for p in mine) / 2**20:.0f} MB of transcripts:")
    print(f"  naive reader (json.loads every line of the 300): {ms(t_naive)}")
    print(f"  cold, overview screen: first tick (all 300 listed, {300 - first.pending} read) {ms(t_first)} "
          f"({'meets' if t_first < 1 else 'misses'} < 1 s); every row filled in {ms(t_screen_all)}")
    print(f"  cold, one refresh reading all (the CLI's work): {ms(t_cold)} "
          f"({'meets' if t_cold < 1 else 'misses'} < 1 s), {t_cold / t_naive:.2f}x the naive reader's time")
    print(f"  warm (caches saved), a new overview's first refresh: {ms(t_warm)}, "
          f"{t_warm / t_naive:.2f}x the naive reader's time")
    print(f"  idle tick: median {ms(t_idle)}, max {ms(max(idle))} ({'meets' if t_idle < 0.005 else 'misses'} < 5 ms); "
          f"stat() of the 300 files alone: {ms(t_stats)} ({t_idle / t_stats:.1f}x)")
    print(f"  `pideck overview` process: cold {ms(p_cold)}, warm {ms(p_warm)}; `python -c pass` {ms(bare)} "
          f"({p_cold / bare:.1f}x and {p_warm / bare:.1f}x of it)")
    print(f"  `pideck status` process, warm: {ms(s_warm)} ({'meets' if s_warm < 0.1 else 'misses'} < 100 ms), "
          f"{s_warm / bare:.1f}x `python -c pass`")


def best(argv: list[str], env: dict[str, str], cwd: str, before=None, rounds: int = 3) -> float:
    times = []
    for _ in range(rounds):
        if before is not None:
            before()
        t = time.perf_counter()
        done = subprocess.run(argv, env=env, cwd=cwd, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - t)
        assert done.returncode == 0, argv
    return min(times)
