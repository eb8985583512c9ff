"""Soak under churn (not in the default run): ``pideck watch --json --all`` follows 1,000 Claude
Code conversations while agents create, append to and delete them, for 10 minutes:

    uv run pytest tests/benchmarks/test_churn_soak_benchmark.py -s -p no:cacheprovider -o addopts=""

(``PIDECK_SOAK_S`` shortens it.) Every 10 s the watcher's RSS and the size of pideck's home (the
room its files take, as ``du`` counts) are sampled. The row: each at the end against its value
after the first minute (target: within 10 %, flat: state of deleted conversations is dropped, and
their caches go with them, docs/caches.md).
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.benchmark

SAMPLE = Path(__file__).resolve().parents[1] / "fixtures" / "agent-transcripts" / "claude-todowrite" / "final" \
    / ".claude" / "projects" / "-home-user-project" / "0003e261-2ec0-4813-8981-2ec5b27758cf.jsonl"
SAMPLE_ID = "0003e261-2ec0-4813-8981-2ec5b27758cf"
CONVERSATIONS = 1000
PROJECTS = 20
SECONDS = float(os.environ.get("PIDECK_SOAK_S", "600"))
WARM_UP_S = 60.0
EVERY_S = 10.0


def _lines() -> list[str]:
    """A short conversation: the prompt, two plan changes and the answer (each ~1 KB)."""
    lines = SAMPLE.read_text(encoding="utf-8").splitlines(keepends=True)
    return [lines[i] for i in (0, 1, 2, 35, 36, 40, 41, 68)]


class Agents:
    """Conversations that come and go: each step creates one, appends a turn to one, deletes one."""

    def __init__(self, home: Path, work: Path) -> None:
        self.lines = _lines()
        self.home, self.work = home, work
        self.live: list[Path] = []
        self.random = random.Random(7)
        self.created = self.deleted = 0

    def create(self) -> None:
        n = self.created
        self.created += 1
        project = self.work / f"p{n % PROJECTS:02d}"
        folder = self.home / ".claude" / "projects" / ("-" + str(project)[1:].replace("/", "-").replace("_", "-"))
        folder.mkdir(parents=True, exist_ok=True)
        sid = f"00000000-0000-4000-8000-{n:012d}"
        path = folder / f"{sid}.jsonl"
        path.write_text("".join(self.lines).replace(SAMPLE_ID, sid).replace("/home/user/project", str(project)),
                        encoding="utf-8")
        self.live.append(path)

    def step(self) -> None:
        self.create()
        with open(self.random.choice(self.live), "a", encoding="utf-8") as f:
            f.write(self.lines[-1])
        gone = self.live.pop(self.random.randrange(len(self.live)))
        gone.unlink()
        self.deleted += 1


def _rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def _room(folder: Path) -> int:
    total = 0
    for root, _, files in os.walk(folder):
        for name in files:
            try:
                total += os.lstat(os.path.join(root, name)).st_blocks * 512
            except OSError:
                pass
    return total


def test_watch_all_stays_flat_under_churn(tmp_path: Path) -> None:
    home, work, pideck_home = tmp_path / "home", tmp_path / "work", tmp_path / "pideck-home"
    home.mkdir()
    agents = Agents(home, work)
    for _ in range(CONVERSATIONS):
        agents.create()
    env = {**os.environ, "HOME": str(home), "PIDECK_HOME": str(pideck_home), "PIDECK_CONFIG": str(tmp_path / "c.toml"),
           "PI_CODING_AGENT_DIR": str(tmp_path / "pi")}
    for name in ("CLAUDE_CONFIG_DIR", "CODEX_HOME", "GEMINI_CLI_HOME", "PIDECK_SESSION"):
        env.pop(name, None)
    watch = subprocess.Popen([sys.executable, "-m", "core.cli.main", "watch", "--json", "--all"], env=env,
                             cwd=work.parent, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    lines = [0]

    def drain() -> None:
        assert watch.stdout is not None
        for raw in watch.stdout:
            json.loads(raw)  # every line is JSON
            lines[0] += 1

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    samples: list[tuple[float, int, int]] = []
    start = next_sample = time.monotonic()
    try:
        while (now := time.monotonic()) - start < SECONDS:
            agents.step()
            if now >= next_sample:
                samples.append((now - start, _rss_kb(watch.pid), _room(pideck_home)))
                next_sample += EVERY_S
            time.sleep(0.02)
        samples.append((time.monotonic() - start, _rss_kb(watch.pid), _room(pideck_home)))
    finally:
        watch.terminate()
        watch.wait(timeout=30)
    stderr = watch.stderr.read().decode() if watch.stderr else ""
    assert watch.returncode in (0, -15, 1), stderr
    print(f"\n{agents.created:,} conversations created, {agents.deleted:,} deleted, {len(agents.live):,} left; "
          f"{lines[0]:,} lines from watch")
    print(f"{'t (s)':>7} {'RSS (MB)':>9} {'home (MB)':>10}")
    for t, rss, room in samples:
        print(f"{t:7.0f} {rss / 1024:9.1f} {room / 1e6:10.1f}")
    base = min(samples, key=lambda s: abs(s[0] - min(WARM_UP_S, SECONDS / 3)))
    end = samples[-1]
    print(f"end / after {base[0]:.0f} s: RSS {end[1] / base[1]:.2f}x, home {end[2] / base[2]:.2f}x (target: 0.90-1.10)")
    assert end[1] <= base[1] * 1.10 and end[2] <= base[2] * 1.10
