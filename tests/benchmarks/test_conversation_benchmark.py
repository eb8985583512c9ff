"""Benchmarks of following an agent's own conversation (not in the default run):

    uv run pytest tests/benchmarks/test_conversation_benchmark.py -s -p no:cacheprovider -o addopts=""

- a ~100 MB Claude Code transcript (the real sample's lines, repeated with new task ids) opens, cold
  and warm, against a pi session of the same size opened the same way, in the same run, medians
  of ROUNDS rounds taken in turn: the ratio is the row (target: at most 1.0, "as fast as a pi
  session of that size"); the usage ledger each log's ``inspect --json`` adds is timed apart;
- the TUI following a growing transcript: milliseconds from a plan change's lines landing in the
  file to the change on screen (target: every one under 100 ms).
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import statistics
import time
from pathlib import Path
from typing import Callable

import pytest

from test_open_benchmark import byte_compiled  # noqa: F401  (autouse: the processes start as an install's do)
from test_session_benchmark import generate

from core.sources.log import ConversationLog
from core.deck.deck import Deck
from core.session.log import SessionLog
from core.usage.of_log import ledger_of
from tui.screenshots import TRANSCRIPTS

pytestmark = pytest.mark.benchmark

SAMPLE = next(iter(sorted((TRANSCRIPTS / "claude-tasks" / "final").rglob("*.jsonl"))))
TARGET_BYTES = 100 << 20
ROUNDS = 5


def claude_transcript(path: Path, target: int = TARGET_BYTES) -> int:
    """The sample's turns again and again until ``target`` bytes, each copy with task ids of its
    own (so every copy adds four tasks, as a long real session would). Returns the line count."""
    lines = [json.loads(line) for line in SAMPLE.read_bytes().splitlines()]
    written = count = copy = 0
    with path.open("w", encoding="utf-8") as out:
        while written < target:
            shift = 4 * copy
            for line in lines:
                text = json.dumps(_shifted(line, shift), separators=(",", ":"), ensure_ascii=False) + "\n"
                out.write(text)
                written += len(text.encode())
                count += 1
            copy += 1
    return count


def _shifted(line: dict, shift: int) -> dict:
    if not shift:
        return line
    line = json.loads(json.dumps(line))
    result = line.get("toolUseResult")
    if isinstance(result, dict):
        for task in [result.get("task")] + list(result.get("tasks") or []):
            if isinstance(task, dict) and isinstance(task.get("id"), str):
                task["id"] = str(int(task["id"]) + shift)
        if isinstance(result.get("taskId"), str):
            result["taskId"] = str(int(result["taskId"]) + shift)
    message = line.get("message")
    for block in message.get("content") or [] if isinstance(message, dict) and isinstance(message.get("content"), list) else []:
        given = block.get("input") if isinstance(block, dict) else None
        if isinstance(given, dict) and isinstance(given.get("taskId"), str):
            given["taskId"] = str(int(given["taskId"]) + shift)
    return line


def opened(open_deck) -> tuple[float, float]:
    """Seconds of one open (the Deck and its todo fold: what the strip needs), then seconds of the
    log's usage ledger after it (what ``inspect --json`` adds). The heap is collected first: a
    collection the open before put off is not counted to this one."""
    gc.collect()
    start = time.perf_counter()
    deck = open_deck()
    deck.todo.state
    middle = time.perf_counter()
    ledger_of(deck.log)
    return middle - start, time.perf_counter() - middle


def interleaved(opens: dict[str, Callable[[], tuple[float, ...]]]) -> dict[str, list[tuple[float, ...]]]:
    """Each of ``opens`` ROUNDS times, one after the other in turn (a, b, a, b...): a machine whose
    load changes meanwhile weighs on both alike."""
    runs: dict[str, list[tuple[float, ...]]] = {name: [] for name in opens}
    for _ in range(ROUNDS):
        for name, open_once in opens.items():
            runs[name].append(open_once())
    return runs


def median(runs: list[tuple[float, ...]], i: int = 0) -> float:
    return statistics.median(run[i] for run in runs)


def cold(folder: Path, open_deck) -> Callable[[], tuple[float, float]]:
    """``opened`` in a new pideck home each time: nothing kept by an earlier open."""
    def once() -> tuple[float, float]:
        os.environ["PIDECK_HOME"] = str(folder / f"cold-{time.monotonic_ns()}")
        return opened(open_deck)
    return once


def inspected(path: Path, folder: Path) -> Callable[[], tuple[float]]:
    """Seconds of one ``pideck inspect --json`` process in a new pideck home."""
    import subprocess
    import sys

    def once() -> tuple[float]:
        env = {**os.environ, "PIDECK_HOME": str(folder / f"process-{path.stem}-{time.monotonic_ns()}")}
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "tui.launcher", "inspect", "--json", "--session", str(path)],
                              env=env, capture_output=True)
        assert done.returncode == 0, done.stderr
        return (time.perf_counter() - start,)
    return once


def test_a_100_mb_transcript_opens_as_fast_as_a_pi_session_of_that_size(tmp_path, monkeypatch):
    transcript = tmp_path / "claude.jsonl"
    lines = claude_transcript(transcript)
    size = transcript.stat().st_size
    pi = tmp_path / "pi.jsonl"
    generate(pi, size // 2150)
    monkeypatch.setenv("PIDECK_HOME", str(tmp_path / "home"))
    conversation = lambda: Deck(ConversationLog.open_transcript(transcript))  # noqa: E731
    session = lambda: Deck(SessionLog.open(pi, writable=False))  # noqa: E731
    opened(conversation), opened(session)  # (the files in the page cache, the price table loaded)
    runs = interleaved({"conversation": cold(tmp_path, conversation), "pi": cold(tmp_path, session)})
    cold_conv, cold_pi = median(runs["conversation"]), median(runs["pi"])
    usage_conv, usage_pi = median(runs["conversation"], 1), median(runs["pi"], 1)
    os.environ["PIDECK_HOME"] = str(tmp_path / "warm")
    opened(conversation), opened(session)  # (what a first open keeps)
    warm = interleaved({"conversation": lambda: opened(conversation), "pi": lambda: opened(session)})
    warm_conv, warm_pi = median(warm["conversation"]), median(warm["pi"])
    tasks = len(conversation().todo.state.todos)
    processes = interleaved({"conversation": inspected(transcript, tmp_path), "pi": inspected(pi, tmp_path)})
    inspect_conv, inspect_pi = median(processes["conversation"]), median(processes["pi"])
    print(f"\ntranscript {size / 1e6:.0f} MB, {lines} lines, {tasks} tasks; pi session {pi.stat().st_size / 1e6:.0f} MB; "
          f"medians of {ROUNDS} interleaved rounds")
    print(f"cold open: conversation {cold_conv:.3f} s, pi session {cold_pi:.3f} s: ratio {cold_conv / cold_pi:.2f} (target <= 1.0)")
    print(f"  then the usage ledger (not in the open): conversation {usage_conv:.3f} s, pi session {usage_pi:.3f} s")
    print(f"warm open: conversation {warm_conv:.3f} s, pi session {warm_pi:.3f} s: ratio {warm_conv / warm_pi:.2f} (target <= 1.0)")
    print(f"`pideck inspect --json`, cold, as a process: conversation {inspect_conv:.3f} s, pi session {inspect_pi:.3f} s: "
          f"ratio {inspect_conv / inspect_pi:.2f} (target <= 1.0)")
    assert tasks == 4  # each copy's TaskList restates the whole list: its own four tasks


def test_a_plan_change_reaches_the_screen_within_100_ms(tmp_path, monkeypatch):
    """The TUI follows a transcript another process grows: each TaskUpdate's lines are appended
    at once (as Claude writes a batch), and the time until the strip shows the change is taken."""
    from tui.app import PideckApp
    from tui.widgets.todos import TodoStrip

    monkeypatch.setenv("PIDECK_HOME", str(tmp_path / "home"))
    source = SAMPLE.read_bytes().splitlines(keepends=True)
    path = tmp_path / "claude.jsonl"
    path.write_bytes(b"".join(source[:56]))  # up to just before "TaskUpdate 1 in_progress"
    calls = (56, 67, 72, 77, 104, 109, 129, 134, 139)  # each plan call's line, its result the next
    batches = [(start, start + 2) for start in calls]
    app = PideckApp(Deck(ConversationLog.open_transcript(path)), follow=True, flash=0)
    latencies: list[float] = []

    def strip() -> str:
        return "\n".join(line.text for line in app.query_one(TodoStrip)._lines or [])

    async def main() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause(0.5)
            for start, end in batches:
                before = strip()
                with path.open("ab") as out:
                    out.write(b"".join(source[start:end]))
                landed = time.perf_counter()
                while strip() == before:
                    await asyncio.sleep(0.002)
                    assert time.perf_counter() - landed < 5, f"lines {start}-{end} never reached the strip"
                latencies.append((time.perf_counter() - landed) * 1000)
                await pilot.pause(0.2)

    asyncio.run(main())
    print(f"\nplan change on screen after {', '.join(f'{ms:.0f}' for ms in latencies)} ms: "
          f"median {statistics.median(latencies):.0f} ms, worst {max(latencies):.0f} ms (target < 100 ms)")
