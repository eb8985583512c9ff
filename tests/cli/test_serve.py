"""``pideck serve`` without a browser (docs/serve.md): what it refuses to start with, what it says,
the exact command line each browser's app is started with, and who may use the server. The real
browser's test is tests/serve/test_serve_browser.py (marker ``browser``)."""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from core.cli import serve as serve_module
from core.cli.demo import write_demo
from core.session.access import every_write_refused, refuse_every_write
from core.session.errors import SERVED_READ_ONLY
from core.session.log import SessionLog
from pideck_run import Run

PYTHON = shlex.quote(sys.executable)


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """What ``serve`` was asked to run, instead of running it."""
    calls: list[dict[str, Any]] = []

    def fake(command: str, bind: str, port: int, *, loopback: bool, banner: str) -> int:
        calls.append({"command": command, "bind": bind, "port": port, "loopback": loopback, "banner": banner})
        return 0

    monkeypatch.setattr(serve_module, "serve", fake)
    return calls


@pytest.fixture
def session(tmp_path: Path) -> Path:
    return write_demo(tmp_path / "demo.jsonl", answers=False).log.path


@pytest.mark.parametrize("port", ["0", "65536", "80a", "-1", ""])
def test_a_bad_port_is_refused(pideck: Run, served: list[dict[str, Any]], port: str) -> None:
    assert pideck("serve", f"--port={port}") == (2, "", f"pideck: serve: --port {port!r} is not a port number "
                                                         "(1 to 65535)\n")
    assert served == []


@pytest.mark.parametrize("bind", ["box.example", "127.0.0.1:80", "", "1.2.3"])
def test_a_bind_that_is_no_address_is_refused(pideck: Run, served: list[dict[str, Any]], bind: str) -> None:
    assert pideck("serve", f"--bind={bind}", "--expose") == (
        2, "", f"pideck: serve: --bind {bind!r} is not an IP address (or localhost)\n")
    assert served == []


@pytest.mark.parametrize("bind", ["0.0.0.0", "192.168.1.20", "::", "fe80::1"])
def test_a_bind_other_machines_reach_needs_expose(pideck: Run, served: list[dict[str, Any]], bind: str) -> None:
    assert pideck("serve", "--bind", bind) == (
        2, "", f"pideck: serve: --bind {bind} is not a loopback address: whoever can reach it would see your "
               "sessions; add --expose to serve there anyway\n")
    assert served == []


@pytest.mark.parametrize("bind", ["127.0.0.1", "127.8.9.10", "::1", "localhost"])
def test_loopback_binds_need_nothing_more(pideck: Run, served: list[dict[str, Any]], bind: str) -> None:
    code, out, err = pideck("serve", "--bind", bind, "--port", "9001")
    assert (code, out, err) == (0, "", "")
    host = f"[{bind}]" if ":" in bind else bind
    assert served == [{"command": f"{PYTHON} -m tui.launcher --read-only", "bind": bind, "port": 9001, "loopback": True,
                       "banner": f"pideck serve: http://{host}:9001 (read-only; ctrl+c stops)"}]


def test_expose_says_what_it_exposes(pideck: Run, served: list[dict[str, Any]]) -> None:
    assert pideck("serve", "--bind", "0.0.0.0", "--expose") == (
        0, "", "pideck serve: warning: 0.0.0.0:8420 is reachable from other machines, with no password: anyone who "
               "can reach it can see every session the deck opens (read-only)\n")
    assert pideck("serve", "--bind", "0.0.0.0", "--expose", "--write", "--port", "8500") == (
        0, "", "pideck serve: warning: 0.0.0.0:8500 is reachable from other machines, with no password: anyone who "
               "can reach it can see every session the deck opens and write to them\n")
    assert [(c["loopback"], c["banner"]) for c in served] == [
        (False, "pideck serve: http://0.0.0.0:8420 (read-only; ctrl+c stops)"),
        (False, "pideck serve: http://0.0.0.0:8500 (writes allowed; ctrl+c stops)")]


def test_the_defaults_are_this_machine_on_8420_read_only(pideck: Run, served: list[dict[str, Any]]) -> None:
    assert pideck("serve") == (0, "", "")
    assert served == [{"command": f"{PYTHON} -m tui.launcher --read-only", "bind": "127.0.0.1", "port": 8420,
                       "loopback": True, "banner": "pideck serve: http://127.0.0.1:8420 (read-only; ctrl+c stops)"}]


def test_the_app_command_line_is_quoted_words(pideck: Run, served: list[dict[str, Any]], tmp_path: Path) -> None:
    hostile = tmp_path / "a b;$(touch pwned)`id`'\"" / "-s.jsonl"
    write_demo(hostile, answers=False)
    for argv, tail in ((["serve", str(hostile)], ["--read-only", f"--session={hostile}"]),
                       (["serve", "--session", str(hostile), "--write"], [f"--session={hostile}"]),
                       (["serve", "--overview", "--all"], ["--read-only", "--overview", "--all"])):
        assert pideck(*argv)[0] == 0
        command = served.pop()["command"]
        assert command == " ".join([PYTHON, "-m", "tui.launcher", *(shlex.quote(w) for w in tail)])
        assert shlex.split(command) == [sys.executable, "-m", "tui.launcher", *tail]
    # What a shell makes of it: the same words, nothing run (the shell prints its words back).
    printed = subprocess.run(["sh", "-c", f"printf '%s\\n' {shlex.join([f'--session={hostile}'])}"],
                             capture_output=True, text=True, cwd=tmp_path, check=True).stdout
    assert printed == f"--session={hostile}\n" and not (tmp_path / "pwned").exists()


def test_the_session_is_checked_before_serving(pideck: Run, served: list[dict[str, Any]], session: Path,
                                               tmp_path: Path) -> None:
    assert pideck("serve", str(session), "--session", str(session)) == (
        2, "", "pideck: serve: give the session once: either PATH or --session PATH\n")
    assert pideck("serve", "--overview", str(session)) == (
        2, "", "pideck: serve: --overview opens the sessions overview, not one session\n")
    missing = tmp_path / "gone.jsonl"
    assert pideck("serve", "--session", str(missing)) == (
        1, "", f"pideck serve: {missing} does not exist; `pideck --new {missing}` creates it\n")
    assert served == []


# -- who may use the server ------------------------------------------------------------------------------


@pytest.mark.parametrize("host", ["127.0.0.1:8420", "localhost:8420", "[::1]:8420", "127.0.0.1:9000", "127.0.0.1"])
def test_this_machine_s_addresses_are_served(host: str) -> None:
    assert serve_module.request_refused(host, None, loopback=True) is None
    assert serve_module.request_refused(host, f"http://{host}", loopback=True) is None


def test_a_rebound_name_and_a_foreign_origin_are_refused() -> None:
    refused = serve_module.request_refused
    assert refused("evil.example:8420", None, loopback=True) == "host 'evil.example:8420' is not this machine's address"
    assert refused("127.0.0.1:8420", "http://evil.example", loopback=True) == ("origin 'http://evil.example' is not "
                                                                               "this page's")
    assert refused("127.0.0.1:8420", "http://127.0.0.1:9999", loopback=True) == ("origin 'http://127.0.0.1:9999' is not "
                                                                                 "this page's")
    # Exposed, the person reaches it by any name; a foreign page still may not.
    assert refused("box.lan:8420", "http://box.lan:8420", loopback=False) is None
    assert refused("box.lan:8420", "http://evil.example", loopback=False) == "origin 'http://evil.example' is not this page's"


# -- the app's read-only switch ------------------------------------------------------------------------------


def test_the_app_form_s_read_only_turns_the_switch_on(pideck: Run, session: Path) -> None:
    seen: list[str | None] = []

    def tui(opened: Any, **options: Any) -> int:
        seen.append(every_write_refused())
        return 0

    try:
        assert pideck("--read-only", "--session", str(session), tui=tui) == (0, "", "")
    finally:
        refuse_every_write(None)
    assert seen == [SERVED_READ_ONLY]
    assert pideck("--read-only", "--write", str(session), tui=tui) == (
        2, "", "pideck: --read-only refuses every write: not with --write\n")
    assert every_write_refused() is None


def test_the_switch_refuses_appends_creates_and_exports(session: Path, tmp_path: Path) -> None:
    from core.deck.deck import Deck

    before = session.read_bytes()
    deck = Deck(SessionLog.open(session))
    refuse_every_write(SERVED_READ_ONLY)
    try:
        assert [(n.level, n.message) for n in deck.apply("/agent-state objective X")] == [("refused", SERVED_READ_ONLY)]
        result = deck.call_tool("agent_state_add_work_item", {"id": "x", "content": "X"})
        assert (result.text, result.refused) == (SERVED_READ_ONLY, True)
        assert [n.message for n in deck.apply(f"/todos export md {tmp_path / 'out.md'}")] == [
            f"Could not export todos to {tmp_path / 'out.md'}: this deck is served read-only (start pideck serve "
            "with --write to allow writes)."]
        with pytest.raises(Exception) as raised:
            SessionLog.create(tmp_path / "new.jsonl", cwd=str(tmp_path))
        assert str(raised.value) == SERVED_READ_ONLY
    finally:
        refuse_every_write(None)
    assert session.read_bytes() == before
    assert not (tmp_path / "out.md").exists() and not (tmp_path / "new.jsonl").exists()
    assert deck.apply("/agent-state objective X")[0].level == "info"  # (lifted: the same deck writes again)
