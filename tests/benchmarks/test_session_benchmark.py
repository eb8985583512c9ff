"""Benchmark of the session log on a 100,000-entry (~200 MB) session (not in the default run).

    uv run pytest tests/benchmarks -s -p no:cacheprovider -o addopts=""

Compared with a naive baseline that json.loads every line and walks the tree:
- open + newest custom entry of each primitive type on the branch: at least 5x faster;
- peak memory growth of that open: at most 100 MB (tracemalloc);
- append one entry + refresh + derive on the big session: within 1.5x of the same on a 100-entry one.
"""

from __future__ import annotations

import gc
import json
import random
import statistics
import time
import tracemalloc
from pathlib import Path

import pytest

from session_shape import big_and_small
from session_shape import text as _text

from core.deck.deck import Deck
from core.session.errors import ReadOnlySession
from core.session.log import SessionLog

pytestmark = pytest.mark.benchmark

TYPES = ["agent-state-state", "agent-progress-state", "agent-handoff-state"]


def generate(path: Path, n: int, seed: int = 7) -> None:
    """A pi-like session: assistant/toolResult pairs with large bodies, ~3% primitive custom
    entries, a new branch every ~2,000 entries."""
    rng = random.Random(seed)
    dumps = lambda v: json.dumps(v, separators=(",", ":"), ensure_ascii=False)  # noqa: E731
    ids: list[str] = []
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(dumps({"type": "session", "version": 3, "id": "01a22cf2-253f-70fd-b26f-f043e48c877f",
                        "timestamp": "2026-11-30T14:53:16.479Z", "cwd": "/bench"}) + "\n")
        for i in range(n):
            eid = f"{i:08x}"
            parent = ids[-1] if ids else None
            if i and i % 2000 == 0:
                parent = ids[-rng.randint(5, 50)]  # a branch point: the rest hangs off an older entry
            ts = "2026-11-30T14:53:16.480Z"
            if i % 33 == 5:
                t = TYPES[(i // 33) % 3]
                e = {"type": "custom", "customType": t,
                     "data": {"schemaVersion": 1, "state": {"i": i, "notes": [_text(rng, 60)]}},
                     "id": eid, "parentId": parent, "timestamp": ts}
            elif i % 2:
                e = {"type": "message", "id": eid, "parentId": parent, "timestamp": ts, "message": {
                    "role": "toolResult", "toolCallId": f"call_{i}", "toolName": "bash",
                    "content": [{"type": "text", "text": _text(rng, rng.randint(1000, 3000))}],
                    "isError": False, "timestamp": 1796050396480}}
            else:
                e = {"type": "message", "id": eid, "parentId": parent, "timestamp": ts, "message": {
                    "role": "assistant",
                    "content": [{"type": "text", "text": _text(rng, rng.randint(600, 1800))},
                                {"type": "toolCall", "id": f"call_{i+1}", "name": "bash",
                                 "arguments": {"command": _text(rng, 80)}}],
                    "api": "anthropic-messages", "provider": "anthropic", "model": "claude",
                    "usage": {"input": 10, "output": 20, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 30,
                              "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0}},
                    "stopReason": "toolUse", "timestamp": 1796050396480}}
            fh.write(dumps(e) + "\n")
            ids.append(eid)


def baseline(path: Path) -> dict[str, dict | None]:
    """Naive: json.loads every line, index by id, walk from the last entry, scan the branch."""
    entries = []
    with open(path, "rb") as fh:
        header = json.loads(fh.readline())
        assert header["type"] == "session"
        for raw in fh:
            if raw.strip():
                entries.append(json.loads(raw))
    by_id = {e["id"]: e for e in entries}
    branch, node = [], entries[-1]
    while node is not None:
        branch.append(node)
        node = by_id.get(node["parentId"]) if node["parentId"] else None
    branch.reverse()
    found: dict[str, dict | None] = dict.fromkeys(TYPES)
    for e in branch:
        if e["type"] == "custom" and e["customType"] in found:
            found[e["customType"]] = e
    return found


def ours(path: Path) -> dict[str, dict | None]:
    log = SessionLog.open(path)
    return {t: log.latest_custom(t) for t in TYPES}


def deck_open(path: Path) -> Deck:
    """What the TUI and every CLI command do: open the log and derive all four primitives (the
    todo state is folded on first use, so use it)."""
    deck = Deck(SessionLog.open(path))
    deck.todo.replay()
    return deck


def deck_apply_cost(path: Path, rounds: int = 30) -> float:
    """Median seconds for one command through the Deck (lock, refresh, adapter, append) plus the
    refresh that brings the appended entry back through the read path and re-derives."""
    deck = deck_open(path)
    times = []
    for i in range(rounds):
        t = time.perf_counter()
        deck.apply(f"/agent-progress add m{i}")
        deck.refresh()
        deck.todo.strip_lines()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def best_of(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        gc.collect()
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def append_cost(path: Path, rounds: int = 60) -> float:
    """Median seconds for: append one custom entry, refresh, derive the three primitive states."""
    log = SessionLog.open(path)
    times = []
    for i in range(rounds):
        t = time.perf_counter()
        log.append_custom(TYPES[i % 3], {"schemaVersion": 1, "state": {"i": i}})
        log.refresh()
        for typ in TYPES:
            log.latest_custom(typ)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


@pytest.fixture(scope="module")
def sessions(tmp_path_factory):
    folder = tmp_path_factory.mktemp("bench")
    return big_and_small(folder, generate)


def test_open_derive_memory_and_append(sessions):
    big, small = sessions
    assert ours(big) == baseline(big)  # same answer first

    t_base = best_of(lambda: baseline(big), 2)
    t_ours = best_of(lambda: ours(big), 3)

    gc.collect()
    tracemalloc.start()
    log = SessionLog.open(big)
    [log.latest_custom(t) for t in TYPES]
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    held = len(log.records)
    del log

    a_big = append_cost(big)
    a_small = append_cost(small)

    t_deck = best_of(lambda: deck_open(big), 2)
    d_big = deck_apply_cost(big)
    d_small = deck_apply_cost(small)

    print(f"session: {held} entries, {big.stat().st_size / 1e6:.0f} MB")
    print(f"open + derive: baseline {t_base:.3f} s, pideck {t_ours:.3f} s -> {t_base / t_ours:.1f}x faster")
    print(f"peak memory (tracemalloc) of open + derive: {peak / 1e6:.1f} MB")
    print(f"append + refresh + derive: 100k entries {a_big * 1e6:.0f} us, 100 entries {a_small * 1e6:.0f} us "
          f"-> ratio {a_big / a_small:.2f}")
    print(f"Deck open + derive all four primitives: {t_deck:.3f} s -> {t_base / t_deck:.1f}x faster than the baseline")
    print(f"Deck apply one command + refresh: 100k entries {d_big * 1e3:.2f} ms, 100 entries {d_small * 1e3:.2f} ms "
          f"-> ratio {d_big / d_small:.2f}")
    assert t_base / t_ours >= 5
    assert t_base / t_deck >= 5
    assert d_big / d_small <= 1.5
    assert peak <= 100e6
    assert a_big / a_small <= 1.5
