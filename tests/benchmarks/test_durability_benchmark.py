"""The cost of the durability policy (docs/session-format.md#durability): one append with
``[session] sync = "data"`` (the default: ``fdatasync`` before the answer) against the same append
with ``sync = "off"``, in the same run, on the same filesystem (not in the default run).

    uv run pytest tests/benchmarks/test_durability_benchmark.py -s -p no:cacheprovider -o addopts=""
"""

from __future__ import annotations

import statistics
import time

import pytest
from private_homes import use_private_homes

from core.session.log import SessionLog

pytestmark = pytest.mark.benchmark

ROUNDS = 200


def test_cost_of_syncing_each_append(tmp_path, monkeypatch):
    use_private_homes(tmp_path, monkeypatch)
    config = tmp_path / "config.toml"
    logs = {}
    for sync in ("data", "off"):
        config.write_text(f'[session]\nsync = "{sync}"\n')
        logs[sync] = SessionLog.create(tmp_path / f"{sync}.jsonl", cwd=tmp_path)
        logs[sync].append_custom("warm-up", 0)  # (reads the setting)
    times: dict[str, list[float]] = {"data": [], "off": []}
    for i in range(ROUNDS):  # interleaved, so both see the same disk and the same load
        for sync, log in logs.items():
            t = time.perf_counter()
            log.append_custom("agent-state-state", {"schemaVersion": 1, "state": {"i": i, "text": "x" * 200}})
            times[sync].append(time.perf_counter() - t)
    synced, unsynced = (statistics.median(times[s]) for s in ("data", "off"))
    print(f"append, synced (fdatasync) {synced * 1e6:.0f} us vs unsynced {unsynced * 1e6:.0f} us per append "
          f"-> {synced / unsynced:.1f}x ({tmp_path})")
    assert len(logs["data"].records) == len(logs["off"].records) == ROUNDS + 1
