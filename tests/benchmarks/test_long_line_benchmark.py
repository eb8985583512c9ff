"""An unfinished last line at full size (not in the default run):

    uv run pytest tests/benchmarks/test_long_line_benchmark.py -s -p no:cacheprovider -o addopts=""

A Claude Code transcript whose first 40 lines are followed by one line without its newline, of
200 MB, 600 MB and 2 GB (a sparse file: what ``truncate -s`` makes), read by ``pideck hook claude``
on a Stop input naming it, in a fresh pideck home: seconds and peak RSS, against reading the same
file with ``cat > /dev/null`` in the same run. The law: time linear in the file (seconds per GB the
same at every size, a small multiple of ``cat``'s), memory bounded (the same peak at every size,
under the 32 MiB line limit and a few 8 MiB chunks over the interpreter's own).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from core.sources.discovery import claude_folder_name

pytestmark = pytest.mark.benchmark

SAMPLE = Path(__file__).resolve().parents[1] / "fixtures" / "agent-transcripts" / "claude-todowrite" / "final" \
    / ".claude" / "projects" / "-home-user-project" / "0003e261-2ec0-4813-8981-2ec5b27758cf.jsonl"
SIZES = (200 << 20, 600 << 20, 2 << 30)


def _run(command: list[str], env: dict[str, str], stdin: bytes = b"") -> tuple[float, subprocess.CompletedProcess[bytes]]:
    start = time.perf_counter()
    done = subprocess.run(command, env=env, input=stdin, capture_output=True, timeout=600)
    return time.perf_counter() - start, done


def _cat(path: Path) -> float:
    """Seconds to read the file once, bytes thrown away (the baseline)."""
    start = time.perf_counter()
    subprocess.run(["cat", str(path)], stdout=subprocess.DEVNULL, check=True, timeout=600)
    return time.perf_counter() - start


def test_an_unfinished_line_costs_linear_time_and_bounded_memory(tmp_path: Path) -> None:
    home = tmp_path / "home"
    project = home / "project"
    folder = home / ".claude" / "projects" / claude_folder_name(project)
    folder.mkdir(parents=True)
    project.mkdir(parents=True)
    head = b"".join(SAMPLE.read_bytes().splitlines(keepends=True)[:40]).replace(b"/home/user/project", os.fsencode(project))
    print(f"\n{'size':>8} {'pideck s':>9} {'cat s':>7} {'ratio':>6} {'s/GB':>6} {'RSS MB':>7}")
    rows = []
    for size in SIZES:
        transcript = folder / f"t{size}.jsonl"
        transcript.write_bytes(head)
        os.truncate(transcript, size)
        env = {**os.environ, "HOME": str(home), "PIDECK_HOME": str(tmp_path / f"pideck-{size}"),
               "PIDECK_CONFIG": str(tmp_path / "c.toml"), "PI_CODING_AGENT_DIR": str(tmp_path / "pi")}
        env.pop("CLAUDE_CONFIG_DIR", None)
        stop = json.dumps({"session_id": "0003e261-2ec0-4813-8981-2ec5b27758cf", "transcript_path": str(transcript),
                           "cwd": str(project), "hook_event_name": "Stop", "stop_hook_active": False}).encode()
        cat_s = min(_cat(transcript) for _ in range(2))
        seconds, done = _run([sys.executable, "-m", "core.cli.main", "hook", "claude"], env, stop)
        # (ru_maxrss of children is the largest child so far: measured in a child of its own)
        probe = subprocess.run([sys.executable, "-c", "import resource, subprocess, sys; "
                                "subprocess.run(sys.argv[1:], input=sys.stdin.buffer.read(), capture_output=True); "
                                "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)",
                                sys.executable, "-m", "core.cli.main", "hook", "claude"],
                               env={**env, "PIDECK_HOME": str(tmp_path / f"pideck-probe-{size}")}, input=stop,
                               capture_output=True, timeout=600)
        rss_mb = int(probe.stdout) / 1024
        assert done.returncode == 0, done.stderr
        assert b"incomplete todos" in done.stdout  # the plan of the first 40 lines was read
        rows.append((size, seconds, rss_mb))
        print(f"{size >> 20:>6}MB {seconds:9.2f} {cat_s:7.2f} {seconds / cat_s:6.1f} {seconds / (size / 2**30):6.2f} {rss_mb:7.0f}")
        transcript.unlink()
    per_gb = [s / (size / 2**30) for size, s, _ in rows]
    print(f"seconds per GB, largest / smallest: {per_gb[-1] / per_gb[0]:.2f} (1.0: linear)")
    print(f"peak RSS, largest / smallest: {rows[-1][2] / rows[0][2]:.2f} (1.0: bounded)")
    assert per_gb[-1] < 2 * per_gb[0]
    assert rows[-1][2] < 1.5 * rows[0][2]
