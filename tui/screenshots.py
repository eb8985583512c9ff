"""Regenerate ``screenshots/*.svg``: ``uv run python -m tui.screenshots``.

Fixed sessions, a fixed clock and follow mode off, so a rerun only changes a file when the UI did.
"""

from __future__ import annotations

import asyncio
import tempfile
from datetime import datetime, timezone
from pathlib import Path
from typing import Awaitable, Callable

from textual.command import CommandPalette
from textual.pilot import Pilot

from core.deck import Deck
from core.session import ReadOnlySession, SessionLog
from tui.app import PideckApp
from tui.commands import SlashCommandProvider
from core.demo import counter_ids, write_demo, write_pi_example

OUT = Path(__file__).resolve().parent.parent / "screenshots"
CWD = "/home/user/project"
MOMENT = datetime(2026, 11, 30, 14, 55, 13, tzinfo=timezone.utc)
MS = int(MOMENT.timestamp() * 1000)

Step = Callable[[Pilot], Awaitable[None]]


def demo_deck(folder: Path) -> Deck:
    return write_demo(folder / "demo.jsonl", cwd=CWD, clock=lambda: MOMENT, ids=counter_ids(), todo_clock=lambda: MS)


def pi_deck(folder: Path) -> Deck:
    """The pi example session, opened read-only as pideck opens pi's own files."""
    log = SessionLog.open(write_pi_example(folder, CWD), writable=False)
    return Deck(log, clock=lambda: MS)


async def pause(pilot: Pilot) -> None:
    await pilot.pause()


def press(*keys: str) -> Step:
    async def step(pilot: Pilot) -> None:
        await pilot.press(*keys)
        await pilot.pause()
    return step


async def palette(pilot: Pilot) -> None:
    await pilot.app.push_screen(CommandPalette(providers=[SlashCommandProvider]))
    await pilot.app.screen.workers.wait_for_complete()
    await pilot.pause()


async def packet(pilot: Pilot) -> None:
    pilot.app.show_packet("review-parser")  # type: ignore[attr-defined]
    await pilot.pause()


SHOTS: list[tuple[str, str, tuple[int, int], Step]] = [
    ("main.svg", "demo", (120, 40), pause),
    ("main-80x24.svg", "demo", (80, 24), pause),
    ("palette.svg", "demo", (120, 40), palette),
    ("todos-overlay.svg", "demo", (120, 40), press("f2")),
    ("packet-detail.svg", "demo", (120, 40), packet),
    ("pi-read-only.svg", "pi", (120, 40), press("f3")),
]


async def shoot(name: str, deck: Deck, size: tuple[int, int], step: Step) -> None:
    app = PideckApp(deck, follow=False, clock=lambda: MS)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await step(pilot)
        app.save_screenshot(filename=name, path=str(OUT))


async def main() -> None:
    OUT.mkdir(exist_ok=True)
    for name, kind, size, step in SHOTS:
        with tempfile.TemporaryDirectory() as folder:
            deck = demo_deck(Path(folder)) if kind == "demo" else pi_deck(Path(folder))
            await shoot(name, deck, size, step)
        print(OUT / name)


if __name__ == "__main__":
    asyncio.run(main())
