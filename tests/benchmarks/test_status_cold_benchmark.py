"""``pideck status --all`` over many conversations (not in the default run):

    uv run pytest tests/benchmarks/test_status_cold_benchmark.py -s -p no:cacheprovider -o addopts=""

500, 1,000 and 5,000 short Claude Code conversations in 50 project folders. Each size is timed
three ways, as a prompt meets them, each the median of 3 runs of the real command:

- **first**: a home that never saw them (every conversation's cache is made: a one-time cost);
- **cold**: the kept line gone (a conversation moved, the machine rebooted, a sweep ran): the
  catalog's saved rows are read and only changed files are read again (target: under 1 s at 5,000);
- **warm**: nothing changed, the kept line is printed (the baseline of the same run).
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

import pytest

from core.sources.discovery import claude_folder_name

pytestmark = pytest.mark.benchmark

SAMPLE = Path(__file__).resolve().parents[1] / "fixtures" / "agent-transcripts" / "claude-todowrite" / "final" \
    / ".claude" / "projects" / "-home-user-project" / "0003e261-2ec0-4813-8981-2ec5b27758cf.jsonl"
SAMPLE_ID = "0003e261-2ec0-4813-8981-2ec5b27758cf"
SIZES = (500, 1000, 5000)
ROUNDS = 3


def _conversations(home: Path, work: Path, n: int) -> None:
    lines = SAMPLE.read_text(encoding="utf-8").splitlines(keepends=True)
    text = "".join(lines[i] for i in (0, 1, 2, 35, 36, 40, 41, 68))
    for i in range(n):
        project = work / f"p{i % 50:02d}"
        folder = home / ".claude" / "projects" / claude_folder_name(project)
        folder.mkdir(parents=True, exist_ok=True)
        sid = f"00000000-0000-4000-8000-{i:012d}"
        (folder / f"{sid}.jsonl").write_text(text.replace(SAMPLE_ID, sid).replace("/home/user/project", str(project)),
                                             encoding="utf-8")


def _status(env: dict[str, str]) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "core.cli.main", "status", "--all"], env=env, capture_output=True,
                          timeout=600, check=True)
    return time.perf_counter() - start, done.stdout.decode()


def test_status_all_cold_over_thousands_of_conversations(tmp_path: Path) -> None:
    print(f"\n{'conversations':>13} {'first s':>8} {'cold s':>7} {'warm s':>7} {'cold/warm':>9}")
    for n in SIZES:
        home, pideck_home = tmp_path / f"home-{n}", tmp_path / f"pideck-{n}"
        _conversations(home, tmp_path / f"work-{n}", n)
        env = {**os.environ, "HOME": str(home), "PIDECK_HOME": str(pideck_home),
               "PIDECK_CONFIG": str(tmp_path / "c.toml"), "PI_CODING_AGENT_DIR": str(tmp_path / "pi")}
        env.pop("CLAUDE_CONFIG_DIR", None)
        first = []
        for _ in range(ROUNDS):
            shutil.rmtree(pideck_home, ignore_errors=True)
            first.append(_status(env)[0])
        cold, warm = [], []
        for _ in range(ROUNDS):
            shutil.rmtree(pideck_home / "attention" / "status", ignore_errors=True)
            seconds, line = _status(env)
            cold.append(seconds)
            assert line == f"{n} stopped with open work\n"
            warm.append(_status(env)[0])
        c, w = statistics.median(cold), statistics.median(warm)
        print(f"{n:>13,} {statistics.median(first):8.2f} {c:7.2f} {w:7.2f} {c / w:9.1f}")
        if n == 5000:
            assert c < 1.0
