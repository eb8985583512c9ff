"""The UI thread never reads a session file: every screen's log work runs on its model's thread
(docs/tui.md#one-thread-per-screen). The file calls the core makes (``os.open``, ``os.read``,
``os.pread``, ``open``) are wrapped for a walk through every screen, and each call on a file of the
sessions is recorded with the thread that made it."""

from __future__ import annotations

import builtins
import os
import threading
from pathlib import Path

import pytest

from history_fixtures import overview_ready, overview_sessions, screen_of, shown
from tui.screens.deck import DeckScreen
from tui.screens.diff import DiffScreen
from tui.screens.help import HelpScreen
from tui.screens.past import PastScreen
from tui.screens.timeline import TimelineScreen
from tui.screens.todos import TodosScreen
from tui_fixtures import make_app, open_deck, run, settled, type_line, wait_for


def watch_reads(monkeypatch, folders: list[Path]) -> list[tuple[str, str]]:
    """(thread name, path) of each file call under ``folders`` made on the main thread."""
    roots = [str(folder.resolve()) for folder in folders]
    seen: list[tuple[str, str]] = []

    def note(path: object) -> None:
        if threading.current_thread() is threading.main_thread():
            name = os.fspath(path) if isinstance(path, (str, bytes, os.PathLike)) else str(path)
            name = os.path.realpath(name) if isinstance(name, str) else str(name)
            if any(name.startswith(root) for root in roots):
                seen.append((threading.current_thread().name, name))

    def of_fd(fd: int) -> str:
        try:
            return os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            return ""

    real_open, real_os_open, real_read, real_pread = builtins.open, os.open, os.read, os.pread

    def wrapped_open(file, *args, **kwargs):
        note(of_fd(file) if isinstance(file, int) else file)
        return real_open(file, *args, **kwargs)

    def wrapped_os_open(path, *args, **kwargs):
        note(path)
        return real_os_open(path, *args, **kwargs)

    def wrapped_read(fd, n):
        note(of_fd(fd))
        return real_read(fd, n)

    def wrapped_pread(fd, n, offset):
        note(of_fd(fd))
        return real_pread(fd, n, offset)

    monkeypatch.setattr(builtins, "open", wrapped_open)
    monkeypatch.setattr(os, "open", wrapped_os_open)
    monkeypatch.setattr(os, "read", wrapped_read)
    monkeypatch.setattr(os, "pread", wrapped_pread)
    return seen


@pytest.mark.slow
def test_no_screen_reads_a_session_file_on_the_ui_thread(tmp_path, monkeypatch):
    demo, pi = overview_sessions()
    deck = open_deck(demo)
    reads = watch_reads(monkeypatch, [demo.parent, pi.parent])
    app = make_app(deck, follow=True, poll=0.02, overview_poll=0.05)

    async def scenario(pilot):
        await settled(pilot)
        await type_line(pilot, "/agent-state add walk Walk every screen")
        assert await wait_for(pilot, lambda: "walk" in [i["id"] for i in app.deck_screen.view.state["workItems"]])
        for key, kind in (("f1", HelpScreen), ("f2", TodosScreen)):
            await pilot.press(key)
            await screen_of(pilot, kind)
            await pilot.press("escape")
            await screen_of(pilot, DeckScreen)
        await pilot.press("f3")
        await pilot.press("f8")
        await screen_of(pilot, TimelineScreen)
        await shown(pilot)
        await pilot.press("down")
        await shown(pilot)
        await pilot.press("enter")
        await screen_of(pilot, PastScreen)
        await pilot.press("escape")
        await screen_of(pilot, TimelineScreen)
        await pilot.press("m", "up", "d")
        await screen_of(pilot, DiffScreen)
        await pilot.press("escape")
        await screen_of(pilot, TimelineScreen)
        await pilot.press("escape")
        await screen_of(pilot, DeckScreen)
        await pilot.press("f9")
        overview = await overview_ready(pilot, 2)
        rows = [row.path for row in overview.rows]
        await pilot.press(*["down"] * rows.index(str(pi)), "enter")  # pi's session, opened on top of the overview
        assert await wait_for(pilot, lambda: isinstance(app.screen, DeckScreen) and app.screen is not app.deck_screen
                              or (isinstance(app.screen, DeckScreen) and app.screen.view.path == str(pi)))
        await settled(pilot)
        assert app.deck_screen.view.path in (str(pi), str(demo)) and overview is not None

    run(app, scenario)
    assert reads == []
