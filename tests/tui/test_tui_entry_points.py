"""`pideck demo`, `pideck PATH`, the header clock, and palette app actions."""

from __future__ import annotations

import tempfile

import pytest

from core.config.places import pi_sessions_dir
from core.cli.demo import write_pi_example
from tui import launcher
from tui.app import PideckApp
from tui.widgets.header import DeckHeader, render_header
from tui_fixtures import FIXED_MS, demo_deck, make_app, run


def _no_run(monkeypatch):
    started = []
    monkeypatch.setattr(PideckApp, "run", lambda self: started.append(self))
    return started


def test_pideck_demo_writes_a_populated_writable_session(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # gettempdir() caches, so not $TMPDIR
    started = _no_run(monkeypatch)
    assert launcher.main(["demo", "--keep"]) == 0  # (without --keep it is gone once the app ends: test_tui_demo.py)
    deck = started[0].first_deck
    assert deck.log.writable and deck.log.path.exists() and deck.log.path.is_relative_to(tmp_path)
    assert len(deck.state.snapshot()["workItems"]) == 4 and len(deck.handoff.packets()) == 2
    assert deck.progress.last_verdict()["outcome"] == "progress"
    assert any(line.targeted for line in deck.todo.strip_lines())
    assert "kept at" in capsys.readouterr().out


def test_pideck_path_opens_that_file(monkeypatch, tmp_path):
    path = demo_deck(tmp_path).log.path
    started = _no_run(monkeypatch)
    assert launcher.main([str(path)]) == 0
    assert started[0].first_deck.log.path == path and started[0].following


@pytest.mark.parametrize("argv", [
    ["--session", "{path}"], ["{path}", "--write"], ["--write", "{path}"], ["--write", "--session", "{path}"],
    ["--session={path}"],
])
def test_every_documented_form_opens_the_tui(monkeypatch, tmp_path, argv):
    # `pideck --session P` was "invalid choice", and `--write` before the path failed too.
    folder = pi_sessions_dir("/home/user/project")
    folder.mkdir(parents=True)
    path = write_pi_example(folder, "/home/user/project")
    started = _no_run(monkeypatch)
    assert launcher.main([a.format(path=path) for a in argv]) == 0
    deck = started[0].first_deck
    assert deck.log.path == path
    assert deck.log.writable == ("--write" in argv)  # a pi session: read-only unless asked


def test_path_and_session_together_is_a_usage_error(monkeypatch, tmp_path, capsys):
    started = _no_run(monkeypatch)
    assert launcher.main([str(tmp_path / "a.jsonl"), "--session", str(tmp_path / "b.jsonl")]) == 2
    assert not started and "give the session once" in capsys.readouterr().err


def test_header_clock_comes_from_the_injected_clock(tmp_path):
    app = make_app(demo_deck(tmp_path), show_clock=True)

    async def scenario(pilot):
        info = app.query_one(DeckHeader).info
        assert info.clock == "14:55" and FIXED_MS  # 2026-11-30T14:55:13Z
        assert render_header(info, 60).cell_len == 60  # badges keep their place when cut

    run(app, scenario)


def test_palette_show_packet_picks_and_opens(tmp_path):
    app = make_app(demo_deck(tmp_path))

    async def scenario(pilot):
        await pilot.press("ctrl+p", *"show packet")
        await app.screen.workers.wait_for_complete()
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press(*"bench")
        await app.screen.workers.wait_for_complete()
        await pilot.press("enter")
        await pilot.pause()
        assert type(app.screen).__name__ == "PacketScreen"
        assert app.screen.packet["id"] == "bench-handover"

    run(app, scenario)


def test_palette_follow_pause_toggles_the_badge(tmp_path):
    app = make_app(demo_deck(tmp_path))

    async def scenario(pilot):
        assert not app.query_one(DeckHeader).info.following
        await pilot.press("ctrl+p", *"follow / pause")
        await app.screen.workers.wait_for_complete()
        await pilot.press("enter")
        await pilot.pause()
        assert app.query_one(DeckHeader).info.following

    run(app, scenario)


def test_without_a_terminal_the_app_says_so_and_ends(tmp_path):
    """`pideck PATH > file` from a script: one line and exit 2, never an app nobody sees that runs
    on (it did, for 40 minutes)."""
    import subprocess
    import sys

    path = demo_deck(tmp_path).log.path
    from pathlib import Path

    pideck = str(Path(sys.executable).with_name("pideck"))  # the console script, as a user runs it
    done = subprocess.run([pideck, str(path)], capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (2, "", launcher.NO_TERMINAL + "\n")


@pytest.mark.parametrize("form", [["--new", "{dir}/new.jsonl"], ["--new"], []])
def test_without_a_terminal_nothing_is_created(tmp_path, form):
    """`pideck --new PATH`, `pideck --new` and `pideck` in a directory with no session would create
    one: without a terminal the app cannot run, so nothing is written at all."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    home, work = tmp_path / "home", tmp_path / "work"
    work.mkdir()
    pideck = str(Path(sys.executable).with_name("pideck"))
    env = {**os.environ, "PIDECK_HOME": str(home)}
    argv = [pideck, *(a.format(dir=work) for a in form)]
    done = subprocess.run(argv, capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=60, cwd=work,
                          env=env)
    assert (done.returncode, done.stderr) == (2, launcher.NO_TERMINAL + "\n")
    assert list(work.iterdir()) == [] and not home.exists()


@pytest.mark.parametrize("width, shown", [
    (120, " pideck  2026-11-30T14-55-13-…31-d27625d5469f.jsonl  62 entries  /home/user/project ○ agent idle 20 h "
          " LIVE   READ-ONLY "),
    (80, " pideck  2026-….jsonl  62 entries  …project ○ agent idle 20 h  LIVE   READ-ONLY "),
])
def test_the_header_cuts_the_name_never_the_count_the_state_or_the_agent(width, shown):
    """A pi session's 67-character file name beside the agent's status left no room for the count and
    the directory at 120 columns."""
    from tui.widgets.header import HeaderInfo

    info = HeaderInfo(name="2026-11-30T14-55-13-547Z_01a22cf3-ee8a-76c4-ac31-d27625d5469f.jsonl",
                      cwd="/home/user/project", entries=62, following=True, writable=False, warnings=0,
                      agent="agent idle 20 h")
    assert render_header(info, width).plain == shown
