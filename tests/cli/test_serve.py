"""``pideck serve`` without a browser (docs/serve.md): what it refuses to start with, what it says,
the exact command line each browser's app is started with, and who may use the server. The real
browser's test is tests/serve/test_serve_browser.py (marker ``browser``)."""

from __future__ import annotations

import asyncio
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from aiohttp import DummyCookieJar, WSServerHandshakeError
from aiohttp.test_utils import TestClient, TestServer

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

    def fake(command: str, bind: str, port: int, *, token: str, allowed_hosts: frozenset[str], banner: str) -> int:
        assert re.fullmatch(r"[A-Za-z0-9_-]{32}", token), token  # (24 random bytes, URL-safe)
        calls.append({"command": command, "bind": bind, "port": port, "allowed_hosts": allowed_hosts,
                      "banner": banner.replace(token, "TOKEN"), "token": token})
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
    assert [{**c, "token": ""} for c in served] == [
        {"command": f"{PYTHON} -m tui.launcher --read-only", "bind": bind, "port": 9001, "allowed_hosts": frozenset(),
         "banner": f"pideck serve: http://{host}:9001/?token=TOKEN (read-only; ctrl+c stops)", "token": ""}]


def test_expose_says_what_it_exposes(pideck: Run, served: list[dict[str, Any]]) -> None:
    assert pideck("serve", "--bind", "0.0.0.0", "--expose") == (
        0, "", "pideck serve: warning: 0.0.0.0:8420 is reachable from other machines, over plain HTTP: anyone who "
               "can reach it and reads the token on the way (it is not encrypted) can see every session the deck "
               "opens (read-only)\n")
    assert pideck("serve", "--bind", "0.0.0.0", "--expose", "--write", "--port", "8500") == (
        0, "", "pideck serve: warning: 0.0.0.0:8500 is reachable from other machines, over plain HTTP: anyone who "
               "can reach it and reads the token on the way (it is not encrypted) can see every session the deck "
               "opens and write to them\n")
    assert [c["banner"] for c in served] == [
        "pideck serve: http://0.0.0.0:8420/?token=TOKEN (read-only; ctrl+c stops)",
        "pideck serve: http://0.0.0.0:8500/?token=TOKEN (writes allowed; ctrl+c stops)"]


def test_the_defaults_are_this_machine_on_8420_read_only(pideck: Run, served: list[dict[str, Any]]) -> None:
    assert pideck("serve") == (0, "", "")
    assert [{**c, "token": ""} for c in served] == [
        {"command": f"{PYTHON} -m tui.launcher --read-only", "bind": "127.0.0.1", "port": 8420,
         "allowed_hosts": frozenset(), "banner": "pideck serve: http://127.0.0.1:8420/?token=TOKEN (read-only; "
                                                 "ctrl+c stops)", "token": ""}]


def test_each_run_has_its_own_token(pideck: Run, served: list[dict[str, Any]]) -> None:
    assert pideck("serve")[0] == pideck("serve")[0] == 0
    assert served[0]["token"] != served[1]["token"]


def test_allowed_host_names_are_kept_lowercased(pideck: Run, served: list[dict[str, Any]]) -> None:
    assert pideck("serve", "--allow-host", "Box.LAN", "--allow-host", "deck.example.") == (0, "", "")
    assert served[0]["allowed_hosts"] == frozenset({"box.lan", "deck.example"})


@pytest.mark.parametrize("name", ["box.lan:8420", "http://box.lan", "", "box lan", "a..b"])
def test_an_allowed_host_that_is_no_name_is_refused(pideck: Run, served: list[dict[str, Any]], name: str) -> None:
    assert pideck("serve", f"--allow-host={name}") == (
        2, "", f"pideck: serve: --allow-host {name!r} is not a host name (no port, no scheme)\n")
    assert served == []


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


@pytest.mark.parametrize("host", ["127.0.0.1:8420", "localhost:8420", "[::1]:8420", "127.0.0.1:9000", "127.0.0.1",
                                  "192.168.1.20:8420", "[fe80::1]:8420"])
def test_addresses_and_localhost_are_served(host: str) -> None:
    assert serve_module.request_refused(host, None) is None
    assert serve_module.request_refused(host, f"http://{host}") is None


NOT_AN_ADDRESS = "is not an IP address or localhost (--allow-host NAME serves a name)"


def test_a_rebound_name_and_a_foreign_origin_are_refused() -> None:
    refused = serve_module.request_refused
    assert refused("evil.example:8420", None) == f"host 'evil.example:8420' {NOT_AN_ADDRESS}"
    assert refused("[::1:8420", None) == f"host '[::1:8420' {NOT_AN_ADDRESS}"
    assert refused("127.0.0.1:8420", "http://evil.example") == "origin 'http://evil.example' is not this page's"
    assert refused("127.0.0.1:8420", "http://127.0.0.1:9999") == "origin 'http://127.0.0.1:9999' is not this page's"


def test_only_names_given_with_allow_host_are_served_by_name() -> None:
    refused = serve_module.request_refused
    allowed = frozenset({"box.lan"})
    assert refused("box.lan:8420", "http://box.lan:8420") == f"host 'box.lan:8420' {NOT_AN_ADDRESS}"
    assert refused("BOX.lan:9000", "http://BOX.lan:9000", allowed) is None  # (case and port not compared)
    assert refused("box.lan", None, allowed) is None
    assert refused("evil.example:8420", None, allowed) == f"host 'evil.example:8420' {NOT_AN_ADDRESS}"
    assert refused("box.lan:8420", "http://evil.example", allowed) == "origin 'http://evil.example' is not this page's"


def test_the_token_is_compared_whole() -> None:
    accepted = serve_module.token_accepted
    assert accepted("s3cret-token", "s3cret-token")
    assert not accepted("s3cret-token", None)
    assert not accepted("s3cret-token", "")
    assert not accepted("s3cret-token", "s3cret")
    assert not accepted("s3cret-token", "s3cret-token2")
    assert not accepted("s3cret-token", "s3crét-token")  # (not ASCII: refused, no error)


# -- the server's answers, through aiohttp's test client --------------------------------------------------

TOKEN = "t0ken-of-this-run_0123456789abcdefghij"
COOKIE = "pideck_serve_9001"


def answers(*requests: tuple[str, dict[str, str]], allowed_hosts: frozenset[str] = frozenset()) -> list[Any]:
    """(status, body, Set-Cookie) of each GET (path, headers) to the real server's routes (the body
    of textual-serve's page said as "(the page)"), or (403, "(refused)") of a refused WebSocket
    (path starting ``ws:``). No cookie is kept between them: each names its own."""

    async def ask() -> list[Any]:
        server = serve_module.deck_server("true", "127.0.0.1", 9001, token=TOKEN, allowed_hosts=allowed_hosts,
                                          banner="")
        async with TestClient(TestServer(await server._make_app()), cookie_jar=DummyCookieJar()) as client:
            got: list[Any] = []
            for path, headers in requests:
                if path.startswith("ws:"):
                    with pytest.raises(WSServerHandshakeError) as refused:
                        await client.ws_connect(path[3:], headers=headers)
                    got.append((refused.value.status, "(refused)"))
                    continue
                async with client.get(path, headers=headers) as response:
                    body = await response.text()
                    page = "data-session-websocket-url" in body  # (textual-serve's page, not its text)
                    got.append((response.status, "(the page)" if page else body, response.headers.get("Set-Cookie")))
            return got

    return asyncio.run(ask())


REFUSED = (403, serve_module.TOKEN_REFUSED, None)


def test_the_page_needs_the_token_then_the_cookie() -> None:
    assert serve_module.TOKEN_REFUSED == "pideck serve: open the address pideck serve printed, with its token\n"
    assert answers(("/", {}), ("/?token=wrong", {}), (f"/?token={TOKEN[:-1]}", {}),
                   ("/", {"Cookie": f"{COOKIE}=wrong"}), ("/", {"Cookie": f"pideck_serve_8420={TOKEN}"})) == [REFUSED] * 5
    assert answers((f"/?token={TOKEN}", {}), ("/", {"Cookie": f"{COOKIE}={TOKEN}"}),
                   ("/?token=wrong", {"Cookie": f"{COOKIE}={TOKEN}"})) == [
        (200, "(the page)", f"{COOKIE}={TOKEN}; HttpOnly; Path=/; SameSite=Strict"),
        (200, "(the page)", None), (200, "(the page)", None)]


def test_the_page_s_websocket_comes_back_to_the_address_the_browser_used() -> None:
    async def page() -> tuple[str, str]:
        server = serve_module.deck_server("true", "127.0.0.1", 9001, token=TOKEN, allowed_hosts=frozenset(), banner="")
        async with TestClient(TestServer(await server._make_app())) as client:
            async with client.get(f"/?token={TOKEN}") as response:
                return f"{client.host}:{client.port}", await response.text()

    host, body = asyncio.run(page())
    assert f'data-session-websocket-url="ws://{host}/ws"' in body  # (no token: the same-origin cookie carries it)


def test_the_websocket_and_downloads_need_the_token_static_files_do_not() -> None:
    assert answers(("ws:/ws", {}), ("ws:/ws?token=wrong", {}), ("ws:/ws", {"Cookie": f"{COOKIE}=wrong"}),
                   ("ws:/ws", {"Cookie": f"{COOKIE}={TOKEN}", "Origin": "http://evil.example"})) == [(403, "(refused)")] * 4
    assert answers(("/download/some-key", {}), (f"/download/some-key?token={TOKEN}", {}), ("/elsewhere", {})) == [
        REFUSED, (404, "Download with key 'some-key' not found", None), REFUSED]
    status, _, cookie = answers(("/static/js/textual.js", {}))[0]
    assert (status, cookie) == (200, None)


def test_host_and_origin_are_checked_before_the_token() -> None:
    with_token = f"/?token={TOKEN}"
    assert answers((with_token, {"Host": "evil.example:9001"}),
                   (with_token, {"Origin": "http://evil.example"}),
                   ("/static/js/textual.js", {"Host": "evil.example"})) == [
        (403, f"pideck serve: refused: host 'evil.example:9001' {NOT_AN_ADDRESS}\n", None),
        (403, "pideck serve: refused: origin 'http://evil.example' is not this page's\n", None),
        (403, f"pideck serve: refused: host 'evil.example' {NOT_AN_ADDRESS}\n", None)]
    assert answers((with_token, {"Host": "Box.lan:9001", "Origin": "http://Box.lan:9001"}),
                   allowed_hosts=frozenset({"box.lan"}))[0][0] == 200


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


def test_a_port_another_program_holds_is_said_before_any_address(pideck: Run, served: list[dict[str, Any]]) -> None:
    import socket

    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        assert pideck("serve", "--port", str(port)) == (
            1, "", f"pideck serve: cannot listen on http://127.0.0.1:{port}: Address already in use\n")
    assert served == []
