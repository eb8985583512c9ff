"""How long each screen and overlay takes to open, and a key to its effect (issue 19), on a
100-entry and a 100,000-entry session of the shape of tests/benchmarks/session_shape.py. Not in
the default run, and it asserts no time (only that every screen opened):

    uv run pytest tests/benchmarks/test_screen_open_benchmark.py -s -p no:cacheprovider -o addopts=""

Each row is the median of a few rounds, in milliseconds and as a ratio to f1 (the help, a screen
that reads nothing) measured in the same run, so a loaded machine moves every row alike. Targets
(printed beside each row): every screen under 100 ms on the small session; the timeline's first
rows under 0.5 s on the big one.

How a time is taken: the key goes to the app as a terminal's key does (``App.post_message`` of
a ``Key`` event, without Pilot's wait for an idle app, which alone costs 20 ms or more), and
the clock stops at the first refresh after what the key should show is there (the screen is up
and its content laid out; ``call_after_refresh``). What "there" means per row (only widget
classes, ids and public attributes, nothing inside the screens):

- f1 help, f2 todos, f7 packet form, detail (Enter on a work item): the modal screen is on top
  and its content widget has a size;
- f3 activity: the activity panel shows and its event list has a first row;
- f8 timeline: the timeline screen's event list has a first row and a size;
- f9 overview: the overview's table has a row and a size;
- the past point (Enter in the timeline): the past screen's banner has a size;
- the diff (d in the timeline): the diff screen's table has a size;
- a typed character: the command line's value has it;
- a command (``/agent-state add ...`` and Enter): the work-item table has the new row.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import time
from pathlib import Path
from typing import Any, Callable

import pytest
from textual import events
from textual.widget import Widget

from core.deck.deck import Deck
from core.session.log import SessionLog
from core.config.places import encode_cwd
from session_shape import generate, generate_timed
from tui.app import PideckApp

pytestmark = pytest.mark.benchmark

ROUNDS = 5
CWD = "/bench"  # session_shape's header
TIMEOUT = 120.0  # seconds before a screen counts as not opened


def send(app: PideckApp, key: str, character: str | None = None) -> None:
    """A key as the terminal driver delivers it."""
    app.post_message(events.Key(key, character))


def laid_out(widget: Widget | None) -> bool:
    return widget is not None and widget.region.height > 0 and widget.region.width > 0


def has_rows(widget: Any) -> bool:
    """A table (``row_count``) or an event list (``event_at``) laid out with a first row."""
    if not laid_out(widget):
        return False
    if hasattr(widget, "event_at"):
        return widget.event_at(0) is not None
    return bool(getattr(widget, "row_count", 0))


def find(app: PideckApp, selector: str) -> Any:
    """The first widget matching ``selector`` on the screen on top, or None."""
    found = app.screen.query(selector)
    return found.first() if found else None


async def opened(app: PideckApp, ready: Callable[[], bool], start: float, what: str) -> float:
    """Seconds from ``start`` until ``ready()`` holds and the screen has refreshed after it."""
    while not ready():
        if time.perf_counter() - start > TIMEOUT:
            raise AssertionError(f"{what} did not open in {TIMEOUT:.0f} s")
        await asyncio.sleep(0.001)
    done: asyncio.Future[float] = asyncio.get_running_loop().create_future()

    def refreshed() -> None:
        if not done.done():
            done.set_result(time.perf_counter())

    app.screen.call_after_refresh(refreshed)
    return await asyncio.wait_for(done, TIMEOUT) - start


def screen_named(app: PideckApp, name: str) -> bool:
    return type(app.screen).__name__ == name


async def back_to(pilot: Any, name: str) -> None:
    """Escape until the screen called ``name`` is on top (not timed)."""
    for _ in range(10):
        if screen_named(pilot.app, name):
            break
        await pilot.press("escape")
        await pilot.pause()
    assert screen_named(pilot.app, name), type(pilot.app.screen).__name__
    await pilot.pause()


async def measure(path: Path) -> dict[str, list[float]]:
    deck = Deck(SessionLog.open(path, writable=True))
    app = PideckApp(deck, follow=False, flash=0, cwd=CWD)
    times: dict[str, list[float]] = {}

    def note(name: str, seconds: float) -> None:
        times.setdefault(name, []).append(seconds)

    async def modal(pilot: Any, key: str, name: str, content: str) -> None:
        start = time.perf_counter()
        send(app, key)
        note(name, await opened(app, lambda: screen_named(app, name) and laid_out(find(app, content)),
                                start, name))
        await back_to(pilot, "DeckScreen")

    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        deck_screen = app.screen
        # the deck's first view comes from its worker: wait for the work-item table's rows
        start = time.perf_counter()
        await opened(app, lambda: has_rows(find(app, "#work-items")),
                     start, "the deck")
        await pilot.pause()
        for n in range(ROUNDS):
            await modal(pilot, "f1", "HelpScreen", "VerticalScroll")
            await modal(pilot, "f2", "TodosScreen", "#todos-md")

            start = time.perf_counter()
            send(app, "f3")
            note("f3 activity", await opened(app, lambda: has_rows(find(app, "ActivityPanel EventList")),
                                             start, "the activity view"))
            await pilot.press("f3")
            await pilot.pause()

            await modal(pilot, "f7", "PacketForm", "Input")

            table = deck_screen.query_one("#work-items")
            table.focus()
            await pilot.pause()
            await modal(pilot, "enter", "DetailScreen", "#detail-body")

            start = time.perf_counter()
            send(app, "f8")
            note("f8 timeline", await opened(
                app, lambda: screen_named(app, "TimelineScreen") and has_rows(find(app, "#timeline-events")), start, "the timeline"))
            # the past point and the diff open from the highlighted row, once the timeline is settled
            timeline = app.screen
            for _ in range(int(TIMEOUT / 0.01)):
                if not getattr(timeline, "busy", False):
                    break
                await asyncio.sleep(0.01)
            await pilot.pause()
            start = time.perf_counter()
            send(app, "enter")
            note("past point", await opened(app, lambda: screen_named(app, "PastScreen")
                                            and laid_out(find(app, "#past-banner")), start, "the past point"))
            await back_to(pilot, "TimelineScreen")
            start = time.perf_counter()
            send(app, "d", "d")
            note("diff", await opened(app, lambda: screen_named(app, "DiffScreen")
                                      and laid_out(find(app, "#diff-table")), start, "the diff"))
            await back_to(pilot, "TimelineScreen")
            await back_to(pilot, "DeckScreen")

            start = time.perf_counter()
            send(app, "f9")
            note("f9 overview", await opened(
                app, lambda: screen_named(app, "OverviewScreen") and has_rows(find(app, "#overview-rows")), start, "the overview"))
            await back_to(pilot, "DeckScreen")

            # a key to its effect: a character typed on the command line, then a command run
            await pilot.press("escape")  # the command line has the focus
            await pilot.pause()
            line = find(app, "CommandLine")
            before = line.value
            start = time.perf_counter()
            send(app, "x", "x")
            note("key: typed character", await opened(app, lambda: line.value == before + "x", start,
                                                      "the typed character"))
            await pilot.press("backspace")
            await pilot.press(*f"/agent-state add bench{n} Measured item {n}")
            await pilot.pause()
            start = time.perf_counter()
            send(app, "enter")
            note("key: command to pane", await opened(
                app, lambda: f"bench{n}" in deck_screen.query_one("#work-items").keys, start, "the command"))
            await pilot.pause()
    return times


ROWS = [
    ("f1 help", "HelpScreen"),
    ("f2 todos", "TodosScreen"),
    ("f3 activity", "f3 activity"),
    ("f7 packet form", "PacketForm"),
    ("detail (enter on a row)", "DetailScreen"),
    ("f8 timeline (first rows)", "f8 timeline"),
    ("past point (enter in timeline)", "past point"),
    ("diff (d in timeline)", "diff"),
    ("f9 overview (rows)", "f9 overview"),
    ("key: typed character", "key: typed character"),
    ("key: command to pane", "key: command to pane"),
]


def session_in_home(home: Path, entries: int) -> Path:
    """A generated session in pideck's sessions folder of ``home`` (the overview lists it)."""
    folder = home / "sessions" / encode_cwd(CWD)
    folder.mkdir(parents=True)
    path = folder / f"2026-11-30T14-53-16-479Z_bench{entries}.jsonl"
    if entries >= 10_000:
        return generate_timed(path, entries)
    generate(path, entries)
    return path


def test_screen_open_times(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PIDECK_CONFIG", str(tmp_path / "config.toml"))
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(tmp_path / "pi-agent"))
    results = {}
    for label, entries in (("small", 100), ("big", 100_000)):
        home = tmp_path / f"home-{label}"  # one session per home: the small run's overview lists only it
        monkeypatch.setenv("PIDECK_HOME", str(home))
        path = session_in_home(home, entries)
        results[label] = {name: statistics.median(values) for name, values in asyncio.run(measure(path)).items()}
        assert set(results[label]) >= {key for _, key in ROWS}, results[label]  # every screen opened

    small, big = results["small"], results["big"]
    f1_small, f1_big = small["HelpScreen"], big["HelpScreen"]
    print(f"\nscreen open times, median of {ROUNDS}, ms (x = ratio to f1 in the same run); cpus {os.cpu_count()}")
    print(f"{'':32} {'100 entries':>10} {'x f1':>6}  {'target':<8} {'100k entries':>12} {'x f1':>6}  target")
    for label, key in ROWS:
        s, b = small[key] * 1000, big[key] * 1000
        big_target = "< 500 ms" if key == "f8 timeline" else ""
        ok_small = "ok" if s < 100 else "OVER"
        ok_big = ("ok" if b < 500 else "OVER") if big_target else ""
        print(f"{label:32} {s:10.1f} {s / (f1_small * 1000):6.1f}  <100 {ok_small:<4} {b:12.1f} "
              f"{b / (f1_big * 1000):6.1f}  {big_target} {ok_big}".rstrip())
