"""Issue 13's costs on session_shape.py's 100,000-entry session (not in the default run).

    uv run pytest tests/benchmarks/test_history_benchmark.py -s -p no:cacheprovider -o addopts=""

- Time travel: one step of the cursor (the deck as of the next entry, its view built) against
  deriving that point from the start (a new time machine: walk the branch, fold the todos) in the
  same run. Target: under 100 ms per step.
- Overview: a tick over 50 idle sessions (49 demo sessions and the big one) against re-reading
  them all, and a tick after entries were appended to the big one against reading it again from
  scratch. Targets: under 5 ms idle, under 50 ms with the big session changed.

Printed as milliseconds and ratios; what is asserted is only that the answers agree.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import statistics
import time
from pathlib import Path

import pytest

from session_shape import generate_timed

from core.deck.deck import Deck
from core.cli.demo import write_demo
from core.catalog.overview import Overview, row_of
from core.views.points import point_of
from core.session.log import SessionLog
from core.views.timetravel import TimeMachine
from core.views.view import build_view

pytestmark = pytest.mark.benchmark


@pytest.fixture(scope="module")
def big(tmp_path_factory) -> Path:
    return generate_timed(tmp_path_factory.mktemp("issue13") / "big.jsonl")


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def test_time_travel_step(big: Path) -> None:
    log = SessionLog.open(big, writable=False, saved_index=False)
    branch = [r.id for r in log.branch()]
    machine = TimeMachine(log)
    t = time.perf_counter()
    build_view(machine.deck_at("leaf"))
    first = time.perf_counter() - t

    steps = []
    for k in range(len(branch) - 1, len(branch) - 301, -1):  # the cursor walking back 300 entries
        t = time.perf_counter()
        build_view(machine.deck_at(branch[k]))
        steps.append(time.perf_counter() - t)
    rng = random.Random(13)
    jumps = []
    for _ in range(60):  # anywhere on the branch, then one step on
        k = rng.randrange(1, len(branch))
        machine.deck_at(branch[k])
        t = time.perf_counter()
        build_view(machine.deck_at(branch[k - 1]))
        jumps.append(time.perf_counter() - t)

    baseline = []
    for k in (len(branch) // 3, len(branch) // 2, len(branch) - 2):
        t = time.perf_counter()
        build_view(TimeMachine(log).deck_at(branch[k]))
        baseline.append(time.perf_counter() - t)
    base = statistics.median(baseline)
    step = statistics.median(steps)
    far = statistics.median(jumps)
    print(f"\ntime travel on {len(log.records):,} entries (branch {len(branch):,}):")
    print(f"  first point (walk + checkpoints): {ms(first)}")
    print(f"  deriving a point from the start (baseline): {ms(base)}")
    print(f"  one step back: median {ms(step)}, max {ms(max(steps))}: {base / step:.0f}x faster than the baseline "
          f"({'meets' if max(steps) < 0.1 else 'misses'} < 100 ms)")
    print(f"  one step after a jump: median {ms(far)}, max {ms(max(jumps))}: {base / far:.0f}x")
    k = len(branch) // 2
    assert point_of(machine.deck_at(branch[k])) == point_of(TimeMachine(log).deck_at(branch[k]))


def test_overview_ticks(big: Path, tmp_path: Path) -> None:
    folder = tmp_path / "sessions"
    folder.mkdir()
    for i in range(49):
        write_demo(folder / f"demo-{i:02d}.jsonl", cwd="/bench")
    mine = folder / "big.jsonl"
    shutil.copy(big, mine)
    os.environ["PIDECK_INDEX"] = "off"  # every read below is a full one: the baselines are honest
    try:
        overview = Overview(None, folders=lambda: [(folder, "pideck", None)], rescan_s=0)
        t = time.perf_counter()
        assert overview.refresh().read == 50
        first = time.perf_counter() - t

        idle = []
        for _ in range(200):
            t = time.perf_counter()
            assert overview.refresh().read == 0
            idle.append(time.perf_counter() - t)

        stats = []
        files = sorted(folder.iterdir())
        for _ in range(200):
            t = time.perf_counter()
            for f in files:
                f.stat()
            stats.append(time.perf_counter() - t)

        changed = []
        leaf = SessionLog.open(mine, writable=False).leaf_id
        for round_ in range(5):
            with mine.open("a", encoding="utf-8") as fh:
                for k in range(10):
                    entry_id = f"b{round_:02d}{k:05d}"
                    fh.write(json.dumps({"type": "custom", "customType": "agent-progress-state", "data": {
                        "schemaVersion": 1, "hasBaseline": False, "currentMilestones": [entry_id], "recordedMilestones": []},
                        "id": entry_id, "parentId": leaf, "timestamp": "2026-11-30T23:00:00.000Z"}) + "\n")
                    leaf = entry_id
            t = time.perf_counter()
            tick = overview.refresh()
            changed.append(time.perf_counter() - t)
            assert tick.read == 1 and [r.milestones for r in tick.changed] == [1]

        t = time.perf_counter()
        fresh = row_of(Deck(SessionLog.open(mine, writable=False)), "pideck", 0)
        reread = time.perf_counter() - t
        assert [r for r in overview.rows if r.path == str(mine)][0].milestones == fresh.milestones
    finally:
        del os.environ["PIDECK_INDEX"]
    tick_idle, tick_changed = statistics.median(idle), statistics.median(changed)
    print("\noverview of 50 sessions (49 demo sessions and one of 100,000 entries):")
    print(f"  first tick (reads every file): {ms(first)}")
    print(f"  idle tick: median {ms(tick_idle)}, max {ms(max(idle))} "
          f"({'meets' if tick_idle < 0.005 else 'misses'} < 5 ms); stat() of the 50 files alone: "
          f"{ms(statistics.median(stats))}; {first / tick_idle:.0f}x cheaper than reading them all")
    print(f"  tick with 10 entries appended to the big session: median {ms(tick_changed)}, max {ms(max(changed))} "
          f"({'meets' if tick_changed < 0.05 else 'misses'} < 50 ms); reading it again from scratch: "
          f"{ms(reread)}, {reread / tick_changed:.0f}x")
