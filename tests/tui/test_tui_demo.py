"""`pideck demo` says where its session is as it starts, so another shell can drive it, and removes
its temporary folder when the app ends (issue 19)."""

from __future__ import annotations

import asyncio
import tempfile
import time
from pathlib import Path

import pytest

from core.cli.main import main as cli_main
from tui import launcher
from tui.app import PideckApp
from tui.widgets.message_log import MessageLog


@pytest.fixture
def temp(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "temp"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))  # gettempdir() caches, so not $TMPDIR
    return folder


def run_for_a_moment(seen: list):
    """``PideckApp.run`` as a headless Pilot run: what the message log shows once the app is up,
    and whether the demo's file is there meanwhile; another shell drives it meanwhile."""

    def run(self: PideckApp) -> None:
        async def main() -> None:
            async with self.run_test(size=(120, 40)) as pilot:
                await pilot.pause()
                path = self.first_deck.log.path
                seen.append((path, path.exists(), [text for _, _, text in self.query_one(MessageLog).messages]))
                # what the message log offers: another shell's call, here in process
                assert cli_main(["tool", "--session", str(path), "agent_state_add_work_item",
                                 '{"id": "from-shell", "content": "Driven from another shell"}']) == 0

        asyncio.run(main())

    return run


def test_the_demo_says_its_path_at_start_and_removes_its_folder_on_exit(temp, monkeypatch, capsys):
    seen: list = []
    monkeypatch.setattr(PideckApp, "run", run_for_a_moment(seen))
    assert launcher.main(["demo"]) == 0
    [(path, existed, messages)] = seen
    assert existed and path.is_relative_to(temp)
    opened = [m for m in messages if m.startswith("Opened demo.jsonl")]
    assert opened and str(path) in opened[0] and f"pideck tool --session {path}" in opened[0], messages
    assert "removed when the app ends" in opened[0]
    assert not path.parent.exists() and list(temp.iterdir()) == []  # the folder is gone
    assert "kept at" not in capsys.readouterr().out


def test_demo_keep_keeps_it_and_prints_where(temp, monkeypatch, capsys):
    seen: list = []
    monkeypatch.setattr(PideckApp, "run", run_for_a_moment(seen))
    assert launcher.main(["demo", "--keep"]) == 0
    [(path, _, messages)] = seen
    assert path.exists() and "from-shell" in path.read_text()
    assert f"The demo session is kept at {path}" in capsys.readouterr().out
    assert any("kept when the app ends" in m for m in messages)


def test_the_folder_goes_even_when_the_app_fails(temp, monkeypatch):
    def crash(self: PideckApp) -> None:
        raise RuntimeError("the app broke")

    monkeypatch.setattr(PideckApp, "run", crash)
    with pytest.raises(RuntimeError):
        launcher.main(["demo"])
    assert list(temp.iterdir()) == []


def test_a_second_ctrl_c_while_the_folder_goes_does_not_leave_it_behind(temp, monkeypatch):
    """The person presses ctrl+c twice: the first ends the start, the second lands in the removal
    of the demo's folder (a busy machine takes a while over its many files)."""
    import shutil

    def interrupted(self: PideckApp) -> None:
        raise KeyboardInterrupt

    removing = shutil.rmtree
    presses = []

    def second_press(path, ignore_errors=False):
        if not presses:
            presses.append(path)
            raise KeyboardInterrupt
        removing(path, ignore_errors=ignore_errors)

    monkeypatch.setattr(PideckApp, "run", interrupted)
    monkeypatch.setattr(shutil, "rmtree", second_press)
    with pytest.raises(KeyboardInterrupt):  # (the console script makes it status 130)
        launcher.main(["demo"])
    assert presses and list(temp.iterdir()) == []


def test_the_folder_goes_after_the_app_s_last_writes(temp, monkeypatch):
    """A screen's thread may still run a job as the app ends (a catalog refresh writing its cache
    into the demo's pideck home): the folder goes once it is done, not before (it would be made
    again, and left behind)."""
    import os
    import threading

    from tui.models.jobs import Jobs
    from tui.models.thread import ModelThread

    writing, written = threading.Event(), threading.Event()

    def late_write(home: Path) -> None:
        writing.set()
        time.sleep(0.3)
        home.mkdir(parents=True, exist_ok=True)
        (home / "late.json").write_text("{}")
        written.set()

    def ends_while_a_job_writes(self: PideckApp) -> None:
        thread = ModelThread(Jobs("late"), lambda message: None, poll=1.0, following=False)
        thread.start()
        thread.call(late_write, Path(os.environ["PIDECK_HOME"]))  # (the demo's, inside its folder)
        writing.wait(5)
        thread.stop()

    monkeypatch.setattr(PideckApp, "run", ends_while_a_job_writes)
    assert launcher.main(["demo"]) == 0
    assert written.wait(5)
    assert list(temp.iterdir()) == []


def test_the_demo_shows_an_example_conversation_of_each_agent_and_one_asks(temp, monkeypatch):
    """f9 and f6 are not empty on a first run: beside the demo session, a Claude Code, a Codex, a
    Gemini CLI, a Qwen Code, an opencode and a GitHub Copilot CLI conversation, each in a state of the agent's own; the Claude Code one asks for the person a
    few seconds in (a change of state, which the app notifies of). The person's own homes are not
    touched, and are pideck's again once the demo ends."""
    import os

    from core.catalog.states import NEEDS_YOU
    from tui_fixtures import wait_for

    home_before = os.environ.get("PIDECK_HOME")
    seen: list = []

    def run(self: PideckApp) -> None:
        async def main() -> None:
            async with self.run_test(size=(120, 40)) as pilot:
                def states() -> dict[str, str]:
                    records = self.catalog.records if self.catalog is not None else ()
                    return {r.kind: r.attention.state for r in records}

                assert await wait_for(pilot, lambda: len(states()) == 7, 10)
                seen.append(states())
                assert await wait_for(pilot, lambda: states().get("claude") == NEEDS_YOU, 10)
                seen.append(states())
                seen.append([text for _, _, text in self.query_one(MessageLog).messages])

        asyncio.run(main())

    monkeypatch.setattr(PideckApp, "run", run)
    assert launcher.main(["demo"]) == 0
    first, later, messages = seen
    assert first == {"pideck": "working", "claude": "working", "codex": "stopped with open work", "gemini": "waiting",
                     "qwen": "working", "opencode": "working", "copilot": "ended"}
    assert later["claude"] == NEEDS_YOU
    assert any("example conversation of Claude Code, Codex, Gemini CLI, Qwen Code, opencode and GitHub Copilot CLI" in m for m in messages)
    assert os.environ.get("PIDECK_HOME") == home_before and list(temp.iterdir()) == []
