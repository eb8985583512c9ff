"""The timeline's two rows of issue 33, each against a baseline timed in the same process, in
interleaved rounds (medians of ``ROUNDS``). Not in the default run, and it asserts no time:

    uv run pytest tests/benchmarks/test_timeline_benchmark.py -s -p no:cacheprovider -o addopts=""

1. First rows: the app holds the deck of a 50,000-entry session of ``session_shape.generate``'s
   shape (about 134 MB); F8 goes to it as a terminal's key does (as test_screen_open_benchmark.py
   sends it), and the clock stops at the first refresh after the timeline's event list has a first
   row and a size. Baseline: ``session_shape.NAIVE`` run on the same file in this process (every
   line read and ``json.loads``-ed, indexed by id, the branch walked from the last entry, the
   newest state of each primitive found). Target <= 0.3x.
2. Complete: the app holds the deck of a 100,000-entry session of the same shape with short
   messages (``session_shape.generate_short``); F8, until the walk is over (the screen's last
   ``TimelineChanged`` says it is not loading, every event of it is in the list, and the title
   no longer says "reading…"). Baseline: the cold open of the same file in this process, in a
   fresh ``PIDECK_HOME`` each round (no saved index): ``Deck(SessionLog.open(path,
   writable=False))``, ``deck.todo.state`` and ``build_view(deck)``. Target <= 2x. The deck has
   walked its activity by then, so the timeline carries that walk on (``Activity.fork``); the
   row is timed again with the deck's walk withheld (the timeline walks every piece itself),
   and with F8 sent as soon as a newly opened deck is on screen (its walk under way, which the
   timeline waits for instead of walking the same entries on the same interpreter).

Each round times the baseline, then the timeline, then goes back to the deck once the timeline's
thread is idle (so no walk runs under the next baseline). Before the rounds, the deck's own first
view and activity walk are waited for.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import io
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Callable

import pytest

from core.deck.deck import Deck
from core.session.log import SessionLog
from core.views.view import build_view
from session_shape import NAIVE, generate, generate_short, generate_timed
from test_screen_open_benchmark import CWD, back_to, find, has_rows, opened, screen_named, send
from tui.app import PideckApp
from tui.models.deck import DeckModel

pytestmark = pytest.mark.benchmark

ROUNDS = 5
TIMEOUT = 300.0


NAIVE_CODE = compile(NAIVE, "session_shape.NAIVE", "exec")


def naive_load(path: Path) -> None:
    """``session_shape.NAIVE`` run in this process (its one line of output set aside)."""
    argv = sys.argv
    sys.argv = ["naive", str(path)]
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            exec(NAIVE_CODE, {"__name__": "__main__"})
    finally:
        sys.argv = argv


def cold_open(path: Path, home: Path) -> None:
    """The open the timeline is held against: no saved index, the todo fold and the first view."""
    os.environ["PIDECK_HOME"] = str(home)
    deck = Deck(SessionLog.open(path, writable=False))
    deck.todo.state
    build_view(deck)
    deck.close()


def timed(run: Callable[[], Any]) -> float:
    gc.collect()
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


async def settled(app: PideckApp, screen: Any) -> None:
    """Until the screen's thread has nothing left to do."""
    deadline = time.perf_counter() + TIMEOUT
    while getattr(screen, "busy", False):
        assert time.perf_counter() < deadline, "the thread did not settle"
        await asyncio.sleep(0.01)


def walked_all(app: PideckApp) -> bool:
    """The timeline's walk is over and every event it found is listed, the title saying so."""
    screen = app.screen
    if not screen_named(app, "TimelineScreen"):
        return False
    changed = screen.changed
    if changed is None or changed.loading:
        return False
    events = find(app, "#timeline-events")
    title = str(find(app, "#timeline-title").render())
    return has_rows(events) and len(events.shown) == len(changed.events) and "reading" not in title


async def f8_timed(app: PideckApp, pilot: Any, ready: Callable[[PideckApp], bool]) -> float:
    """Seconds from F8 until ``ready(app)`` holds and is drawn; then, untimed, the timeline's
    thread settles and the deck is back on top."""
    gc.collect()
    start = time.perf_counter()
    send(app, "f8")
    seconds = await opened(app, lambda: ready(app), start, "the timeline")
    await settled(app, app.screen)
    await back_to(pilot, "DeckScreen")
    return seconds


async def rounds(path: Path, home: Path, baseline: Callable[[int], float],
                 ready: Callable[[PideckApp], bool]) -> tuple[list[float], list[float]]:
    """(baseline seconds, F8 seconds) per round, interleaved."""
    os.environ["PIDECK_HOME"] = str(home)
    deck = Deck(SessionLog.open(path, writable=False))
    app = PideckApp(deck, follow=False, flash=0, cwd=CWD)
    base: list[float] = []
    f8: list[float] = []
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        deck_screen = app.screen
        await opened(app, lambda: has_rows(find(app, "#work-items")), time.perf_counter(), "the deck")
        await settled(app, deck_screen)  # (its activity walk too)
        for n in range(ROUNDS):
            base.append(baseline(n))
            os.environ["PIDECK_HOME"] = str(home)
            await pilot.pause()
            f8.append(await f8_timed(app, pilot, ready))
            await settled(app, deck_screen)
    return base, f8


async def during_the_walk(path: Path, home: Path, baseline: Callable[[int], float]) -> tuple[list[float], list[float]]:
    """(baseline seconds, F8 seconds) per round, interleaved: each round opens the deck anew (its
    saved index kept from the first) and sends F8 as soon as the deck is on screen, while the
    deck's own activity walk is under way; the timeline is timed until it is complete."""
    base: list[float] = []
    f8: list[float] = []
    for n in range(ROUNDS):
        base.append(baseline(n))
        os.environ["PIDECK_HOME"] = str(home)
        app = PideckApp(Deck(SessionLog.open(path, writable=False)), follow=False, flash=0, cwd=CWD)
        async with app.run_test(size=(120, 40)) as pilot:
            await opened(app, lambda: has_rows(find(app, "#work-items")), time.perf_counter(), "the deck")
            f8.append(await f8_timed(app, pilot, walked_all))
            await settled(app, app.screen)
    return base, f8


def first_row(app: PideckApp) -> bool:
    return screen_named(app, "TimelineScreen") and has_rows(find(app, "#timeline-events"))


def report(title: str, base_name: str, base: list[float], f8: list[float], target: str) -> None:
    b, t = statistics.median(base), statistics.median(f8)
    print(f"{title}: {t:.3f} s vs {base_name} {b:.3f} s: {t / b:.2f}x (target {target}); "
          f"rounds {', '.join(f'{x:.3f}' for x in f8)} vs {', '.join(f'{x:.3f}' for x in base)}")


def test_timeline_rows(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PIDECK_CONFIG", str(tmp_path / "config.toml"))
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(tmp_path / "pi-agent"))
    monkeypatch.setenv("PIDECK_HOME", str(tmp_path / "home"))
    big = generate_timed(tmp_path / "big50k.jsonl", 50_000, generate)
    short = generate_timed(tmp_path / "short100k.jsonl", 100_000, generate_short)

    base1, f8_1 = asyncio.run(rounds(big, tmp_path / "home1", lambda n: timed(lambda: naive_load(big)), first_row))
    base2, f8_2 = asyncio.run(rounds(short, tmp_path / "home2",
                                     lambda n: timed(lambda: cold_open(short, tmp_path / f"cold{n}")), walked_all))
    with monkeypatch.context() as patch:  # (F8 before the deck's own walk is whole: the timeline walks)
        patch.setattr(DeckModel, "walked", property(lambda model: None))
        base3, f8_3 = asyncio.run(rounds(short, tmp_path / "home3",
                                         lambda n: timed(lambda: cold_open(short, tmp_path / f"cold3-{n}")), walked_all))

    base4, f8_4 = asyncio.run(during_the_walk(short, tmp_path / "home4",
                                              lambda n: timed(lambda: cold_open(short, tmp_path / f"cold4-{n}"))))

    print(f"\nthe timeline (issue 33), medians of {ROUNDS} interleaved rounds; cpus {os.cpu_count()}")
    report(f"F8 first rows, 50k entries ({big.stat().st_size / 1e6:.0f} MB)", "naive load", base1, f8_1, "<= 0.3x")
    report(f"F8 complete, 100k entries ({short.stat().st_size / 1e6:.0f} MB)", "cold open", base2, f8_2, "<= 2x")
    report("  the same if the deck offers no walk (the timeline walks it all)", "cold open", base3, f8_3, "<= 2x")
    report("  the same with F8 as soon as the deck is on screen (its walk under way)", "cold open", base4, f8_4, "<= 2x")
