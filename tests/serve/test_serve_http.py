"""A real ``pideck serve`` asked over HTTP, no browser (docs/serve.md#who-can-see-it): without the
token it printed, the page and the WebSocket are refused; with it, the page is served and the
cookie set. Fast enough for the default run (the server starts in about a second)."""

from __future__ import annotations

import urllib.error
import urllib.request
from pathlib import Path

import pytest

from private_homes import use_private_homes
from served import Served

REFUSED = "pideck serve: open the address pideck serve printed, with its token\n"


def get(url: str, headers: dict[str, str] | None = None) -> tuple[int, str, str | None]:
    """(status, body, Set-Cookie) of a GET, refusals included."""
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.read().decode(), response.headers.get("Set-Cookie")
    except urllib.error.HTTPError as refused:
        return refused.code, refused.read().decode(), refused.headers.get("Set-Cookie")


def test_the_printed_address_is_the_way_in(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    use_private_homes(tmp_path, monkeypatch)
    served = Served(["--overview"], cwd=tmp_path)
    try:
        port, token = served.port, served.token
        assert served.banner == f"pideck serve: http://127.0.0.1:{port}/?token={token} (read-only; ctrl+c stops)\n"
        base = f"http://127.0.0.1:{port}/"
        upgrade = {"Connection": "Upgrade", "Upgrade": "websocket", "Sec-WebSocket-Version": "13",
                   "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="}
        assert get(base) == (403, REFUSED, None)
        assert get(f"{base}?token=not-the-token") == (403, REFUSED, None)
        assert get(f"{base}ws", upgrade) == (403, REFUSED, None)
        status, body, cookie = get(served.url)
        assert (status, cookie) == (200, f"pideck_serve_{port}={token}; HttpOnly; Path=/; SameSite=Strict")
        assert f'data-session-websocket-url="ws://127.0.0.1:{port}/ws"' in body
        status, body, cookie = get(base, {"Cookie": f"pideck_serve_{port}={token}"})  # (a reload)
        assert (status, cookie) == (200, None) and "data-session-websocket-url" in body
    finally:
        status = served.stop()
    assert (status, served.left) == (0, False), served.process.stderr.read() if served.process.stderr else ""
