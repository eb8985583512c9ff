"""Benchmark of reading usage (not in the default run):

    uv run pytest tests/benchmarks/test_usage_benchmark.py -s -p no:cacheprovider -o addopts=""

A cold open (a fresh pideck home) of the ~100 MB Claude Code transcript of
test_conversation_benchmark.py, its Deck and todo state, three ways in the same run:

- without usage: the reader's answers not turned into usage entries (``Reader.tokens`` made to
  count nothing, which also leaves out the agent object's last-turn tokens it kept before usage
  was read: the share below is, if anything, too big), and no ledger;
- with the usage entries the reader makes of each answer, as pideck reads a transcript;
- with them and ``usage_of(log)``, the whole usage object (the ledger folded over the log, each
  model priced: its rates looked up in genai-prices' table, already imported in this process).

Target: the whole usage adds under 10 % to the open (issue 31). Loading genai-prices' table, paid
by the first model a pideck home prices (its rates are saved there), is timed apart, in a process
of its own.
"""

from __future__ import annotations

import gc
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable

import pytest

from test_conversation_benchmark import claude_transcript

from core.deck.deck import Deck
from core.sources import reader
from core.sources.log import ConversationLog
from core.usage.of_log import usage_of

pytestmark = pytest.mark.benchmark

ROUNDS = 11


def cold(ways: dict[str, Callable[[], Any]], folder: Path) -> dict[str, float]:
    """The least CPU time of ROUNDS runs of each way (what the code costs: the processes the
    machine runs beside it slow a run down, as the medians, printed too, show), each run in a fresh pideck home, the ways taking
    turns (so none is favoured by what the machine does meanwhile), the garbage of the run before
    collected first (its millions of objects would be another run's pause)."""
    runs: dict[str, list[float]] = {name: [] for name in ways}
    for n in range(ROUNDS):
        for name, run in ways.items():
            os.environ["PIDECK_HOME"] = str(folder / f"{name}-{n}-{time.monotonic_ns()}")
            gc.collect()
            start = time.process_time()
            run()
            runs[name].append(time.process_time() - start)
    print("\nmedians: " + ", ".join(f"{name} {statistics.median(times):.3f} s" for name, times in runs.items()))
    return {name: min(times) for name, times in runs.items()}


TABLE = """
import sys, time
from pathlib import Path
from core.usage.prices import Prices
start = time.perf_counter()
Prices(Path(sys.argv[1])).rates("anthropic", "claude-sonnet-4-5")
print(time.perf_counter() - start)
"""


def table_seconds(folder: Path) -> float:
    """Median seconds a process takes to price its first model from the table (imported, its
    data loaded), in a pideck home without saved rates."""
    runs = [float(subprocess.run([sys.executable, "-c", TABLE, str(folder / f"table-{n}")], capture_output=True,
                                 text=True, check=True, cwd=Path(__file__).resolve().parents[2]).stdout)
            for n in range(ROUNDS)]
    return statistics.median(runs)


def test_usage_adds_under_10_percent_to_a_cold_open(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    transcript = tmp_path / "claude.jsonl"
    lines = claude_transcript(transcript)
    monkeypatch.setenv("PIDECK_HOME", str(tmp_path / "home"))
    shown: dict[str, Any] = {}

    def deck() -> Any:
        opened = Deck(ConversationLog.open_transcript(transcript))
        opened.todo.state  # (the fold: what the strip needs)
        return opened

    def deck_and_usage() -> None:
        shown["usage"] = usage_of(deck().log)

    real_tokens = reader.Reader.tokens

    def without_usage() -> None:
        reader.Reader.tokens = lambda self, *args, **kwargs: {}
        try:
            deck()
        finally:
            reader.Reader.tokens = real_tokens

    usage_of(deck().log)  # (genai-prices imported: its import is timed apart)
    times = cold({"without": without_usage, "entries": deck, "whole": deck_and_usage}, tmp_path)
    without, entries, whole = times["without"], times["entries"], times["whole"]
    usage = shown["usage"]
    table = table_seconds(tmp_path)
    size = transcript.stat().st_size
    print(f"\ntranscript {size / 1e6:.0f} MB, {lines} lines, {usage['answers']} answers, ${usage['cost']:.2f}")
    print(f"cold open (CPU seconds, least of {ROUNDS}), Deck and todo state: without usage {without:.3f} s; with the usage entries {entries:.3f} s "
          f"(+{(entries / without - 1) * 100:.1f} %); with usage_of too {whole:.3f} s "
          f"(+{(whole / without - 1) * 100:.1f} %, target < 10 %)")
    print(f"the first model priced from genai-prices' table (then saved in the pideck home): {table:.3f} s")
    assert usage["answers"] == usage["tokens"]["total"] // 70  # (every answer of the copies: 50 in, 20 out)
    assert whole / without < 1.10
