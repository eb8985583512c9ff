"""``pideck serve`` in a real headless browser (issue 32): Debian's chromium, driven by playwright,
opens the page at the address ``pideck serve`` printed (with its token); the deck's panes and its todos show, a todo an agent writes meanwhile appears, and a
write typed in the page is refused unless the server was started with --write (docs/serve.md).

textual-serve draws into a canvas, so what the page shows is read from the terminal stream the page
receives over its WebSocket (the app's own output: text between escape sequences), never the DOM.
Run by ``.ci/run`` with ``uv run pytest -m browser``, after installing chromium where missing."""

from __future__ import annotations

import json
import os
import re
import subprocess
import time
from pathlib import Path
from typing import Any, Iterator

import pytest

from core.cli.demo import write_demo
from private_homes import use_private_homes
from served import PIDECK, WAIT_S, Served

pytestmark = pytest.mark.browser

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
ESCAPES = re.compile(rb"\x1b(?:\[[0-9;?<>=!]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[()][0-9A-Za-z]|[=>78NOM])")
NEW_TODO = {"id": "serve", "content": "Serve the deck to a phone", "status": "in_progress", "priority": "high",
            "confidence": 85}


class Page:
    """A chromium page on the server, with the terminal stream it receives."""

    def __init__(self, browser: Any, url: str) -> None:
        self.frames: list[bytes] = []
        self.page = browser.new_page(viewport={"width": 1400, "height": 900})
        self.page.on("websocket", lambda ws: ws.on("framereceived", self._frame))
        self.page.goto(url)

    def _frame(self, payload: bytes | str) -> None:
        if isinstance(payload, bytes):  # (the app's output; text frames are textual-serve's own JSON)
            self.frames.append(payload)

    def text(self) -> str:
        """What the app has drawn so far, its escape sequences taken out."""
        return ESCAPES.sub(b"", b"".join(self.frames)).decode("utf-8", "replace")

    def wait_for(self, text: str, after: int = 0) -> bool:
        """Whether ``text`` is drawn (after the first ``after`` characters of ``text()``) within
        ``WAIT_S``. Playwright hands the frames over while it is called: it waits here."""
        deadline = time.monotonic() + WAIT_S
        while time.monotonic() < deadline:
            if text in self.text()[after:]:
                return True
            self.page.wait_for_timeout(100)
        return text in self.text()[after:]

    def type_line(self, line: str) -> int:
        """Type ``line`` and Enter into the terminal, as a person's keys; how much was drawn before."""
        before = len(self.text())
        # xterm's own input, where the command line has the app's focus from the start (a click
        # would be the app's, on a pane; an Escape just before a key reads as alt+key).
        self.page.focus("#terminal textarea")
        self.page.keyboard.type(line, delay=10)
        assert self.wait_for(line, after=before), f"the typed line is not drawn: {self.text()[before:][-2000:]!r}"
        self.page.keyboard.press("Enter")
        return before


@pytest.fixture
def browser() -> Iterator[Any]:
    assert os.access(CHROMIUM, os.X_OK), f"{CHROMIUM} is missing (.ci/run installs Debian's chromium)"
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture
def session(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    use_private_homes(tmp_path, monkeypatch)
    return write_demo(tmp_path / "demo.jsonl", answers=False).log.path


def write_a_todo(session: Path) -> None:
    """What an agent's todo tool call does meanwhile, from another process."""
    params = {"todos": [NEW_TODO], "plan": {"user_intention": "Watch the deck from a phone",
                                            "understands_user_intent": 90}}
    done = subprocess.run([PIDECK, "tool", "--session", str(session), "todo", json.dumps(params)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("write", [False, True], ids=["read-only", "--write"])
def test_the_deck_in_a_browser(browser: Any, session: Path, tmp_path: Path, write: bool) -> None:
    served = Served(["--session", str(session), *(["--write"] if write else [])], cwd=tmp_path)
    try:
        mode = "writes allowed" if write else "read-only"
        assert served.banner == (f"pideck serve: http://127.0.0.1:{served.port}/?token={served.token} "
                                 f"({mode}; ctrl+c stops)\n")
        # Without the token (a page of its own: no cookie yet), the one line that says what to open.
        stranger = browser.new_page()
        stranger.goto(f"http://127.0.0.1:{served.port}/")
        assert stranger.inner_text("body") == "pideck serve: open the address pideck serve printed, with its token\n"
        stranger.close()
        # With it: the page, whose WebSocket (no token in its address) brings the cookie the page got.
        page = Page(browser, served.url)
        # The deck's panes and the session's todos, as the app drew them.
        for shown in ("Agent State", "Agent Progress", "Agent Handoff", "Write the streaming parser",
                      "READ-ONLY" if not write else "LIVE"):
            assert page.wait_for(shown), f"{shown!r} not drawn: {page.text()[-2000:]!r}"
        # A todo an agent writes meanwhile appears.
        drawn = len(page.text())
        write_a_todo(session)
        assert page.wait_for(NEW_TODO["content"], after=drawn), page.text()[-2000:]
        # A write typed in the page: refused, the file unchanged; or, with --write, written.
        before = session.read_bytes()
        typed_at = page.type_line("/agent-state objective Ship it from the phone")
        if write:
            assert page.wait_for("Ship it from the phone", after=typed_at)
            deadline = time.monotonic() + WAIT_S
            while b"Ship it from the phone" not in session.read_bytes() and time.monotonic() < deadline:
                time.sleep(0.05)
            assert b'"objective":"Ship it from the phone"' in session.read_bytes()
        else:
            assert page.wait_for("This deck is served read-only", after=typed_at), page.text()[-2000:]
            assert session.read_bytes() == before
        page.page.close()
    finally:
        status = served.stop()
    assert (status, served.left) == (0, False), served.process.stderr.read() if served.process.stderr else ""
