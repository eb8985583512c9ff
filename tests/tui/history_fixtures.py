"""Sessions and waits for the overview, timeline, past-point and diff screens."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from core.config.places import encode_cwd, pideck_home, pi_sessions_dir
from tui_fixtures import CWD, demo_deck, make_app, open_deck, wait_for

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
BRANCHED = FIXTURES / "pi_sessionmanager_branched.jsonl"
LATER_MS = 1796054400000  # 2026-11-30T16:00:00Z: after every fixture entry


def branched_copy(folder: Path) -> Path:
    """pi's branched fixture, outside pi's folders (so the test may append to it)."""
    path = folder / BRANCHED.name
    shutil.copy(BRANCHED, path)
    return path


def timeline_app(folder: Path, **options: Any):
    """The deck of pi's branched fixture, read-only, as pideck opens pi's sessions."""
    return make_app(open_deck(branched_copy(folder), writable=False), **options)


def overview_sessions() -> tuple[Path, Path]:
    """The demo session in pideck's folder for CWD and pi's branched fixture in pi's."""
    mine = pideck_home() / "sessions" / encode_cwd(CWD)
    mine.mkdir(parents=True)
    demo = demo_deck(mine, "2026-11-30T14-55-13-000Z_demo.jsonl").log.path
    theirs = pi_sessions_dir(CWD)
    theirs.mkdir(parents=True)
    pi = theirs / "2026-11-30T15-50-53-733Z_01a22d26.jsonl"
    shutil.copy(BRANCHED, pi)
    return demo, pi


def overview_app(**options: Any):
    options.setdefault("clock", lambda: LATER_MS)
    options.setdefault("overview_poll", 0.05)
    return make_app(None, cwd=CWD, **options)


async def timeline_ready(pilot: Any) -> Any:
    """Open the timeline (f8) and wait until its events, tree and preview are drawn."""
    await pilot.press("f8")
    return await shown(pilot)


async def shown(pilot: Any) -> Any:
    """Wait until the timeline's thread is idle and the preview shows the highlighted event."""
    from tui.screens.timeline import TimelineScreen

    screen = pilot.app.screen
    assert isinstance(screen, TimelineScreen)

    def ready() -> bool:
        event = screen.selected_event()
        return (not screen.busy and bool(screen.events) and event is not None and screen.shown is not None
                and screen.shown.as_of.entry_id == event.entry_id)

    assert await wait_for(pilot, ready), "the timeline did not settle"
    await pilot.pause()
    return screen


async def screen_of(pilot: Any, kind: type) -> Any:
    assert await wait_for(pilot, lambda: isinstance(pilot.app.screen, kind)), f"no {kind.__name__}"
    await pilot.pause()
    return pilot.app.screen


async def overview_ready(pilot: Any, rows: int) -> Any:
    from tui.screens.overview import OverviewScreen

    screen = await screen_of(pilot, OverviewScreen)
    assert await wait_for(pilot, lambda: len(screen.rows) == rows and not screen.busy), "no rows"
    await pilot.pause()
    return screen
