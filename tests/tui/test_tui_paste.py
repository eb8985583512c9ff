"""A paste is taken whole or refused whole (issue 29, item 4): a paste holding a colour code was
refused as two lines, and then its tail (``^[31mred^[0mtab``) ran as typed keys and landed in the
history. Textual's reader of the terminal took the ESC for the start of a key. The bytes here go
through the app's own reader (``tui/paste.py``), and once through the real driver in a
pseudo-terminal."""

from __future__ import annotations

import inspect
import os
import time
from pathlib import Path
from typing import Any

import pytest
from textual import events
from textual.drivers.linux_driver import LinuxDriver

from core.cli.demo import write_demo
from core.session.log import SessionLog
from terminal import Terminal
from tui.paste import PASTE_REFUSED, PasteRefused, WholePasteParser, use_whole_pastes
from tui.widgets.command_line import CommandLine
from tui_fixtures import demo_deck, make_app, run, settled

CONTROLS = [chr(c) for c in (*range(1, 9), 11, 12, *range(14, 32), 127, *range(128, 160))]


def tokens(data: str) -> list[Any]:
    return list(WholePasteParser().feed(data))


@pytest.mark.parametrize("control", CONTROLS, ids=[f"{ord(c):#04x}" for c in CONTROLS])
@pytest.mark.parametrize("lines", ["one line", "two\nlines"])
def test_a_paste_holding_any_control_character_is_refused_whole(control: str, lines: str) -> None:
    got = tokens(f"\x1b[200~{lines} {control}[31mred{control}[0m tab\x1b[201~\r")
    assert [type(t) for t in got] == [PasteRefused, events.Key]  # the refusal, then the Enter typed after
    assert got[1].key == "enter"
    assert len(got[0].controls) == 1


def test_the_refusal_names_each_control_character_once() -> None:
    [refused] = tokens("\x1b[200~a\x1b[31mb\x1b[0m\x01c\x7f\x1b[201~")
    assert refused.controls == ("ESC", "^A", "DEL")
    assert PASTE_REFUSED.format(controls=", ".join(refused.controls)).startswith(
        "Not pasted: it holds control characters (ESC, ^A, DEL) that a terminal would run as keys.")


@pytest.mark.parametrize("text", ["/agent-state add a Do it", "line one\nline two\r\n\tindented", "", "~ tilde [201~"])
def test_a_paste_of_text_arrives_whole_and_the_keys_around_it_as_keys(text: str) -> None:
    got = tokens(f"x\x1b[200~{text}\x1b[201~y")
    assert [type(t) for t in got] == [events.Key, events.Paste, events.Key]
    assert (got[0].key, got[1].text, got[2].key) == ("x", text, "y")


def test_keys_outside_a_paste_are_read_as_textual_reads_them() -> None:
    from textual._xterm_parser import XTermParser

    sent = "ab\x1b1\x1b[A\x1b[1;5C\x1b[49;3u\r\x1b"
    assert [getattr(t, "key", t) for t in tokens(sent)] == [getattr(t, "key", t) for t in XTermParser().feed(sent)]


def test_the_driver_makes_its_reader_by_the_name_the_app_replaces() -> None:
    """Textual's Linux driver builds its reader as ``XTermParser(...)`` from its module: the name
    ``use_whole_pastes`` sets (a Textual that builds it otherwise fails here)."""
    from textual.drivers import linux_driver

    assert "XTermParser(" in inspect.getsource(LinuxDriver.run_input_thread)
    use_whole_pastes()
    assert linux_driver.XTermParser is WholePasteParser


def test_in_the_app_nothing_is_typed_and_the_person_is_told_why(tmp_path) -> None:
    app = make_app(demo_deck(tmp_path))

    async def scenario(pilot: Any) -> None:
        await settled(pilot)
        entries = len(app.deck_screen.view.state["workItems"])
        for token in tokens("\x1b[200~/agent-state add x red \x1b[31mred\x1b[0m\n/agent-state add y\x1b[201~\r"):
            app.post_message(token)
            await pilot.pause()
        await settled(pilot)
        line = app.screen.query_one(CommandLine)
        assert (line.value, line.history) == ("", [])
        assert len(app.deck_screen.view.state["workItems"]) == entries
        assert [n.message for n in app._notifications] == [PASTE_REFUSED.format(controls="ESC")]

    run(app, scenario)


def test_in_a_terminal_a_paste_with_a_colour_code_runs_nothing(tmp_path: Path) -> None:
    """The console script in a pseudo-terminal: the paste with ESC bytes, then Enter, then a
    command typed as keys; only the typed command is written, and nothing of the paste is kept."""
    home = tmp_path / "home"
    session = tmp_path / "s.jsonl"
    write_demo(session, cwd=str(tmp_path))
    before = len(SessionLog.open(session).records)
    app = Terminal([str(session)], {"PIDECK_HOME": str(home)}, cwd=tmp_path)
    try:
        assert app.read_until(b"LIVE"), app.output[-2000:]
        time.sleep(0.5)
        os.write(app.fd, b"\x1b[200~/agent-state add x red \x1b[31mred\x1b[0mtab\x1b[201~\r")
        time.sleep(1.0)
        os.write(app.fd, b"/agent-state add ok Typed\r")
        deadline = time.monotonic() + 20
        while len(SessionLog.open(session).records) == before and time.monotonic() < deadline:
            app.drain()
        os.write(app.fd, b"\x03\x03")
        app.wait(10)
    finally:
        app.close()
    log = SessionLog.open(session)
    added = [r.load() for r in log.records[before:]]
    assert [e["data"]["state"]["workItems"][-1]["id"] for e in added] == ["ok"], added
    kept = "".join(p.read_text(errors="replace") for p in home.rglob("*") if p.is_file())
    assert "red" not in kept
