"""``pideck`` with no file named follows its directory (docs/tui.md#following-the-directory): in an
empty one it waits, writing nothing; the first conversation that appears opens by itself (Claude
Code's real transcript and live-session file, replayed as they grew); a newer one that starts later
is opened or offered as ``[tui] follow`` says; the person's first command makes their session."""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path
from typing import Any

import pytest

from private_homes import use_agent_homes
from tui_fixtures import FIXED_MS, run, wait_for

from core.catalog.opening import Waiting
from core.config.settings import TuiConfig
from core.sources.discovery import claude_folder_name
from tui.app import PideckApp
from tui.screens.deck import DeckScreen
from tui.screens.waiting import WaitingScreen

SAMPLE = Path(__file__).parents[1] / "fixtures" / "agent-transcripts" / "claude-todowrite"
TRANSCRIPT = ".claude/projects/-home-user-project/0003e261-2ec0-4813-8981-2ec5b27758cf.jsonl"
SESSION_ID = "0003e261-2ec0-4813-8981-2ec5b27758cf"
LIVE = ".claude/sessions/18516.json"
PACE = 0.1
"""The replay runs at a tenth of the run's own time (its 16 s in under 2 s), in the order it grew."""


def files_under(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file()) if folder.exists() else []


class Replay:
    """Claude Code's run of the sample (``growth.jsonl``): the transcript grows by the lines it
    grew by, and the live-session file is written, rewritten and deleted when it was, with the
    snapshots' contents (its pid made this test's: a dead pid means the session ended)."""

    def __init__(self, home: Path, project: str, session_id: str = SESSION_ID) -> None:
        self.home = home
        self.project = project
        self.session_id = session_id
        self.lines = (SAMPLE / "final" / TRANSCRIPT).read_bytes().splitlines(keepends=True)
        self.growth = [json.loads(line) for line in (SAMPLE / "growth.jsonl").read_text().splitlines()]
        index = json.loads((SAMPLE / "snapshots" / "index.json").read_text())
        self.live = [(m["t"], json.loads((SAMPLE / m["files"][LIVE]["copy"]).read_text())) for m in index
                     if LIVE in m["files"]]
        self.transcript = home / ".claude" / "projects" / claude_folder_name(project) / f"{session_id}.jsonl"
        self.live_file = home / ".claude" / "sessions" / f"{os.getpid()}.json"

    def _line(self, raw: bytes) -> bytes:
        """The line moved to this test's project and conversation id."""
        return raw.replace(b"/home/user/project", self.project.encode()).replace(SESSION_ID.encode(),
                                                                                   self.session_id.encode())

    def _live_content(self, t: float) -> str:
        content = next((c for at, c in self.live if at >= t), self.live[-1][1])
        return json.dumps({**content, "pid": os.getpid(), "cwd": self.project, "sessionId": self.session_id})

    async def play(self, until: float | None = None, after: float = -1.0) -> None:
        last = max(after, 0.0)
        for event in self.growth:
            if event["t"] <= after or (until is not None and event["t"] > until):
                continue
            await asyncio.sleep((event["t"] - last) * PACE)
            last = event["t"]
            self.step(event)

    def step(self, event: dict[str, Any]) -> None:
        if event["file"] == TRANSCRIPT:
            self.transcript.parent.mkdir(parents=True, exist_ok=True)
            self.transcript.write_bytes(b"".join(self._line(raw) for raw in self.lines[:event["lines"]]))
        elif event["file"] == LIVE:
            if event["event"] == "deleted":
                self.live_file.unlink(missing_ok=True)
            else:
                self.live_file.parent.mkdir(parents=True, exist_ok=True)
                self.live_file.write_text(self._live_content(event["t"]))


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """(home, project): the agents' folders at their defaults under a fresh home, pideck's home fresh."""
    return use_agent_homes(tmp_path, monkeypatch)


def plan(screen: DeckScreen) -> list[Any]:
    """The agent's own plan as the screen has it."""
    return list(screen.view.agent_todos.todos) if screen.view.agent_todos is not None else []


def waiting_app(project: Path, follow: str = "newest", **options: Any) -> PideckApp:
    return PideckApp(None, waiting=Waiting(str(project)), clock=lambda: FIXED_MS, overview_poll=0.05, flash=0,
                     settings=TuiConfig(follow=follow), **options)


def test_an_empty_directory_waits_and_leaves_no_file(project: tuple[Path, Path]) -> None:
    home, folder = project
    pideck_home = Path(os.environ["PIDECK_HOME"])
    app = waiting_app(folder)

    async def scenario(pilot: Any) -> str:
        assert isinstance(app.screen, WaitingScreen)
        assert await wait_for(pilot, lambda: app.catalog_thread is not None and app.catalog_thread.model.looks >= 3)
        return str(app.screen.query_one("#waiting-body").render())

    said = run(app, scenario)
    assert "Nothing has started in" in said and "Claude Code" in said and "claude · codex · gemini · qwen · opencode · copilot · pi" in said
    assert files_under(pideck_home) == []


def test_a_claude_conversation_that_starts_opens_by_itself_and_shows_its_plan(project: tuple[Path, Path]) -> None:
    home, folder = project
    replay = Replay(home, str(folder))
    app = waiting_app(folder)

    async def scenario(pilot: Any) -> tuple[str, list[str]]:
        assert isinstance(app.screen, WaitingScreen)
        await replay.play(until=3.5)  # the first todo list is written by then
        assert await wait_for(pilot, lambda: isinstance(app.screen, DeckScreen) and app.screen.opened, 5)
        screen = app.screen
        assert await wait_for(pilot, lambda: bool(plan(screen)), 5)
        opened = str(screen.view.path)
        await replay.play(after=3.5)
        assert await wait_for(pilot, lambda: all(t.status == "completed" for t in plan(screen)), 5)
        return opened, [t.content for t in plan(screen)]

    opened, todos = run(app, scenario)
    assert opened == str(replay.transcript)
    assert len(todos) == 4


@pytest.mark.parametrize("follow", ["newest", "ask", "off"])
def test_a_newer_conversation_opens_or_is_offered_as_the_setting_says(project: tuple[Path, Path], follow: str) -> None:
    """A second conversation (a second ``claude``, or ``/clear``: a new id in the live-session file
    and a new transcript) starts while the first is on screen."""
    home, folder = project
    first = Replay(home, str(folder))
    second = Replay(home, str(folder), "11111111-2ec0-4813-8981-2ec5b27758cf")
    app = waiting_app(folder, follow=follow)

    async def scenario(pilot: Any) -> tuple[str, str]:
        await first.play(until=3.5)
        assert await wait_for(pilot, lambda: isinstance(app.screen, DeckScreen) and app.screen.opened, 5)
        screen = app.screen
        await second.play(until=1.2)
        if follow == "newest":
            assert await wait_for(pilot, lambda: app.screen is not screen and isinstance(app.screen, DeckScreen)
                                  and app.screen.opened, 5)
            return str(app.screen.view.path), ""
        assert not await wait_for(pilot, lambda: screen.newer is not None, 1.5) if follow == "off" else \
            await wait_for(pilot, lambda: screen.newer is not None, 5)
        header = str(screen.query_one("DeckHeader").render())
        if follow == "ask":
            await pilot.press("f6")
            assert await wait_for(pilot, lambda: app.screen is not screen and isinstance(app.screen, DeckScreen)
                                  and app.screen.opened, 5)
            return str(app.screen.view.path), header
        return str(app.screen.view.path), header

    path, header = run(app, scenario)
    if follow == "off":
        assert (path, "newer:" in header) == (str(first.transcript), False)
    else:
        assert path == str(second.transcript)
    if follow == "ask":
        assert "newer: Claude Code conversation 11111111 · f6" in header


def test_a_newer_one_is_only_offered_while_the_person_types(project: tuple[Path, Path]) -> None:
    home, folder = project
    first = Replay(home, str(folder))
    second = Replay(home, str(folder), "22222222-2ec0-4813-8981-2ec5b27758cf")
    app = waiting_app(folder)

    async def scenario(pilot: Any) -> tuple[str, str]:
        await first.play(until=3.5)
        assert await wait_for(pilot, lambda: isinstance(app.screen, DeckScreen) and app.screen.opened, 5)
        screen = app.screen
        await pilot.press(*"/agent-st")
        await second.play(until=1.2)
        assert await wait_for(pilot, lambda: screen.newer is not None, 5)
        return str(app.screen.view.path), screen.query_one("#cmd").value

    path, typed = run(app, scenario)
    assert (path, typed) == (str(first.transcript), "/agent-st")


def test_the_first_command_makes_the_session_and_a_refused_one_leaves_no_file(project: tuple[Path, Path]) -> None:
    home, folder = project
    sessions = Path(os.environ["PIDECK_HOME"]) / "sessions"
    app = waiting_app(folder)

    async def scenario(pilot: Any) -> list[str]:
        await pilot.press(*"/agent-state add x", "enter")  # (no content: refused by Agent State)
        assert await wait_for(pilot, lambda: isinstance(app.screen, DeckScreen) and app.screen.opened, 5)
        assert await wait_for(pilot, lambda: not app.screen.busy)
        return files_under(sessions)

    made = run(app, scenario)
    assert len(made) == 1 and made[0].endswith(".jsonl")
    assert files_under(sessions) == [] and list(sessions.iterdir()) == []  # the quit removed it, and its folder

    app = waiting_app(folder)

    async def written(pilot: Any) -> list[dict[str, Any]]:
        await pilot.press(*"/agent-state add parse Write the parser", "enter")
        assert await wait_for(pilot, lambda: isinstance(app.screen, DeckScreen) and app.screen.opened, 5)
        assert await wait_for(pilot, lambda: bool(app.screen.view.state["workItems"]), 5)
        return list(app.screen.view.state["workItems"])

    items = run(app, written)
    assert [i["id"] for i in items] == ["parse"]
    kept = files_under(sessions)
    assert len(kept) == 1
    assert len((sessions / kept[0]).read_text().splitlines()) == 2  # the header and the work item


def test_in_a_real_terminal_pideck_started_first_shows_the_agent_that_starts_next(project: tuple[Path, Path]) -> None:
    """The most common way to use pideck, as a person does it: ``pideck`` in one pane, the agent in
    the next. The console script runs in a pseudo-terminal; Claude Code's real run is replayed at a
    tenth of its pace; the plan is drawn with no key pressed. Then ctrl+c twice quits."""
    from terminal import Terminal

    home, folder = project
    replay = Replay(home, str(folder))
    env = {name: os.environ[name] for name in ("HOME", "PIDECK_HOME", "PIDECK_CONFIG", "PI_CODING_AGENT_DIR")}
    app = Terminal([], env, cwd=folder)
    try:
        assert app.read_until(b"Nothing has started in"), app.output[-2000:]
        asyncio.run(replay.play(until=3.5))
        # the sample's first plan item, drawn in the agent's pane and the strip
        assert app.read_until(b"Read the CLI entry point", 15), app.output[-3000:]
        app.output = b""
        os.write(app.fd, b"\x03")
        assert app.read_until(b"again to quit", 5)
        os.write(app.fd, b"\x03")
        assert app.wait(10) == 0, app.output[-3000:]
    finally:
        app.close()


def test_the_header_says_the_state_pideck_status_says_at_every_step(project: tuple[Path, Path]) -> None:
    """Through the replay, after each step the app's catalog has looked at: the header's state is
    the one ``pideck status`` gives, needs you included, which the real Notification hook input
    (moved to this conversation) brings about through ``pideck hook claude``."""
    import subprocess
    import time

    from core.cli.status import status_line
    from terminal import PIDECK

    home, folder = project
    replay = Replay(home, str(folder))
    notification = json.loads((Path(__file__).parents[1] / "fixtures" / "agent-hooks" /
                               "claude-notification.json").read_text())[0]["stdin"]
    notification.update(session_id=SESSION_ID, transcript_path=str(replay.transcript), cwd=str(folder))
    app = PideckApp(None, waiting=Waiting(str(folder)), overview_poll=0.05, flash=0, settings=TuiConfig())
    pairs: list[tuple[str, str]] = []

    async def after_a_look(pilot: Any) -> None:
        looks = app.catalog_thread.model.looks
        assert await wait_for(pilot, lambda: app.catalog_thread.model.looks >= looks + 2, 5)
        await pilot.pause(0.05)

    async def compare(pilot: Any) -> None:
        await after_a_look(pilot)
        screen = next(s for s in app.screen_stack if isinstance(s, DeckScreen))
        header = screen.record.attention.state if screen.record is not None else "no state"
        pairs.append((header, status_line(str(folder), int(time.time() * 1000))))

    async def scenario(pilot: Any) -> None:
        asked = False
        for event in replay.growth:
            replay.step(event)
            if not replay.transcript.exists():
                continue  # (Claude's key and live-session files come first: nothing to show yet)
            if not any(isinstance(s, DeckScreen) for s in app.screen_stack):
                assert await wait_for(pilot, lambda: any(isinstance(s, DeckScreen) and s.opened
                                                         for s in app.screen_stack), 5)
            await compare(pilot)
            if event["t"] > 3.5 and not asked:  # (busy: the live-session file says so)
                asked = True
                subprocess.run([PIDECK, "hook", "claude"], input=json.dumps(notification), text=True, check=True,
                               capture_output=True, timeout=30)
                await compare(pilot)

    run(app, scenario)
    assert all(status == f"1 {'needs you' if header == 'needs you' else header}" for header, status in pairs), pairs
    assert {header for header, _ in pairs} == {"working", "needs you", "stopped with open work", "ended"}, pairs
