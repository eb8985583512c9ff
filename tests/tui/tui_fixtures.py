"""Fixed sessions and app factories for the TUI tests: no randomness, no wall clock, no real paths."""

from __future__ import annotations

import asyncio
import json
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Awaitable, Callable

from core.deck.deck import Deck
from core.session.errors import ReadOnlySession
from core.session.log import SessionLog
from core.catalog.sessions import SessionInfo
from tui.app import PideckApp
from core.cli.demo import counter_ids, write_demo, write_pi_example

CWD = "/home/user/project"
FIXED_MS = 1796050513000
MOMENT = datetime(2026, 11, 30, 14, 55, 13, tzinfo=timezone.utc)
INJECTED = "[red]x[/red] [/foo] [link=https://example.com]click[/link] \x1b[31mansi\x1b[0m [b]"


def fixed_clock() -> datetime:
    return MOMENT


def demo_deck(folder: Path, name: str = "demo.jsonl", answers: bool = True) -> Deck:
    """The demo session; ``answers=False``: without the agent's answers, whose times run up to 95 s
    after the fixed clock's (the agent's last write is then the demo's last pideck entry)."""
    return write_demo(folder / name, cwd=CWD, clock=fixed_clock, ids=counter_ids(), todo_clock=lambda: FIXED_MS,
                      answers=answers)


def open_deck(path: Path, writable: bool | None = None) -> Deck:
    log = SessionLog.open(path, writable=writable, clock=fixed_clock)
    return Deck(log, clock=lambda: FIXED_MS)


def pi_session(folder: Path) -> Path:
    """A pi session with an invalid Agent State entry (a restore warning) and a torn last line."""
    return write_pi_example(folder, CWD)


def injected_session(folder: Path) -> Path:
    """Every pane fed with markup, ANSI escapes, control characters and a lone surrogate."""
    path = folder / "injected.jsonl"
    deck = write_demo(path, cwd=CWD, clock=fixed_clock, ids=counter_ids(), todo_clock=lambda: FIXED_MS)
    deck.apply(f"/agent-state objective {INJECTED}")
    deck.apply(f"/agent-state add [/bold] {INJECTED}")
    deck.apply(f"/agent-state decide [x] {INJECTED}")
    deck.apply("/agent-progress add [link=https://example.com]m[/link]")
    deck.call_tool("agent_handoff_create", {"schemaVersion": 1, "id": "[red]p[/red]", "source": "\x1b]0;t\x07",
                                            "goal": INJECTED, "constraints": ["[/foo]"]}).text
    deck.call_tool("todo", {"todos": [{"id": "[i]", "content": INJECTED, "status": "in_progress",
                                       "priority": "high", "confidence": 70, "group": "[bold]g"}],
                            "plan": {"user_intention": "[red]intent", "understands_user_intent": 90}}).text
    line = {"type": "custom", "customType": "agent-handoff-state", "id": "ffff0001",
            "parentId": deck.log.leaf_id, "timestamp": "2026-11-30T14:55:13.000Z",
            "data": {"schemaVersion": 1, "packets": [
                {"schemaVersion": 1, "id": "[red]sur\ud800", "source": "s", "goal": "lone \ud800 surrogate [/foo]"}]}}
    with path.open("a", encoding="utf-8") as fh:
        fh.write(json.dumps(line, ensure_ascii=True) + "\n")  # ascii escapes keep the surrogate
    return path


SESSIONS = [
    SessionInfo(Path("/sessions/2026-11-30T15-00-00-000Z_a.jsonl"), "pideck", "a", CWD, 22, 4096, 0.0),
    SessionInfo(Path("/sessions/2026-11-30T14-55-13-547Z_b.jsonl"), "pi", "b", CWD, 9, 2327, 0.0),
]


def make_app(deck: Deck, **options: Any) -> PideckApp:
    options.setdefault("follow", False)
    options.setdefault("clock", lambda: FIXED_MS)
    options.setdefault("sessions", lambda: SESSIONS)
    options.setdefault("flash", 0)  # a flash would make a snapshot depend on when it is taken
    return PideckApp(deck, **options)


def run(app: PideckApp, scenario: Callable[[Any], Awaitable[Any]], size: tuple[int, int] = (120, 40)) -> Any:
    """Run ``scenario(pilot)`` inside ``app.run_test`` without a pytest asyncio plugin."""

    async def main() -> Any:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            return await scenario(pilot)

    return asyncio.run(main())


async def settled(pilot: Any, timeout: float = 5.0) -> None:
    """Wait until the deck screen's worker has run every job handed to it and its view is drawn."""
    screen = pilot.app.deck_screen
    assert await wait_for(pilot, lambda: not screen.busy, timeout), "the deck worker did not finish"
    await pilot.pause()


async def take_in(pilot: Any) -> None:
    """Have the deck screen take in what was appended (the tail does it on its own when following)."""
    pilot.app.deck_screen.run_on_deck(lambda deck: None)
    await settled(pilot)


async def type_line(pilot: Any, line: str) -> None:
    """Type ``line`` and press Enter. All but its last character are put on the line at once, as a
    paste would (each pressed key costs the test a redraw; tests of typing press their keys
    themselves); the last one is typed, so the line is the one the keys made."""
    pilot.app.deck_screen.fill_command(line[:-1])
    await pilot.press(*line[-1:])
    await pilot.press("enter")
    await settled(pilot)


async def wait_for(pilot: Any, condition: Callable[[], bool], timeout: float = 5.0) -> bool:
    for _ in range(int(timeout / 0.02)):
        if condition():
            return True
        await pilot.pause(0.02)
    return condition()


def drawn_lines(widget: Any) -> list[str]:
    """The widget's lines as they are drawn (what a person reads), trailing spaces dropped."""
    return ["".join(s.text for s in widget.render_line(y)).rstrip() for y in range(widget.size.height)]
