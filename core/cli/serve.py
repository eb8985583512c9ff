"""``pideck serve``: the deck in a browser, through textual-serve (docs/serve.md).

textual-serve starts one app per browser connection, from a command line it hands to a shell: that
line is built here from words, each quoted (``app_command``), so no path a person typed is ever
read by the shell. The app is started read-only unless ``--write`` (the TUI form's hidden
``--read-only``, which turns on core/session/access.py ``refuse_every_write``). textual-serve is
imported only when the server starts.
"""

from __future__ import annotations

import argparse
import os
import sys

from core.cli.common import EXIT_WARNING, UsageError, emit

TYPE_CHECKING = False  # (typing's own constant, without importing typing: mypy reads it the same)
if TYPE_CHECKING:
    from aiohttp import web

DEFAULT_BIND = "127.0.0.1"
DEFAULT_PORT = 8420
"""Where ``pideck serve`` listens unless told: this machine only, on a port of its own."""


def run(args: argparse.Namespace) -> int:
    bind = check_address(DEFAULT_BIND if args.bind is None else args.bind, args.expose)
    port = DEFAULT_PORT if args.port is None else check_port(args.port)
    if (problem := selection_problem(args)) is not None:
        return problem
    loopback = is_loopback(bind)
    if not loopback:
        print(exposed_warning(bind, port, args.write), file=sys.stderr)
    command = app_command(args)
    return serve(command, bind, port, loopback=loopback,
                 banner=f"pideck serve: {url(bind, port)} ({'writes allowed' if args.write else 'read-only'}; "
                        "ctrl+c stops)")


# -- what a person typed -----------------------------------------------------------------------------


def check_port(value: str) -> int:
    """``--port``: a TCP port, 1 to 65535 (0, any free port, would leave the URL unknown)."""
    try:
        port = int(value, 10)
    except ValueError:
        port = 0
    if not 1 <= port <= 65535:
        raise UsageError(f"serve: --port {value!r} is not a port number (1 to 65535)")
    return port


def check_address(bind: str, expose: bool) -> str:
    """``--bind``: an IP address, or ``localhost``; one other machines can reach only with
    ``--expose`` (docs/serve.md#who-can-see-it). A host name is refused: what it resolves to is
    not what the person reads."""
    import ipaddress

    if bind != "localhost":
        try:
            ipaddress.ip_address(bind)
        except ValueError:
            raise UsageError(f"serve: --bind {bind!r} is not an IP address (or localhost)") from None
    if not expose and not is_loopback(bind):
        raise UsageError(f"serve: --bind {bind} is not a loopback address: whoever can reach it would see your "
                         "sessions; add --expose to serve there anyway")
    return bind


def is_loopback(bind: str) -> bool:
    """Whether only this machine can reach ``bind``: 127.0.0.0/8, ::1, localhost."""
    import ipaddress

    if bind == "localhost":
        return True
    try:
        return ipaddress.ip_address(bind).is_loopback
    except ValueError:
        return False


def exposed_warning(bind: str, port: int, write: bool) -> str:
    what = ("see every session the deck opens and write to them" if write
            else "see every session the deck opens (read-only)")
    return (f"pideck serve: warning: {bind}:{port} is reachable from other machines, with no password: "
            f"anyone who can reach it can {what}")


def selection_problem(args: argparse.Namespace) -> int | None:
    """The exit status of a session selection the app would refuse, said now rather than in each
    browser: the TUI form's own checks and texts (core/cli/main.py ``selection_conflict``)."""
    from core.cli.main import selection_conflict

    if (conflict := selection_conflict(args)) is not None:
        raise UsageError(f"serve: {conflict}")
    named = args.session if args.path is None else args.path
    if named is not None and not os.path.lexists(named):
        from core.catalog.opening import describe_missing, in_database

        if not in_database(named):
            emit(f"pideck serve: {describe_missing(named)}", sys.stderr)
            return EXIT_WARNING
    return None


# -- the app's command line --------------------------------------------------------------------------


def app_words(args: argparse.Namespace) -> list[str]:
    """The app's command line as words: this interpreter running the console script's module, the
    session selection as given (``--session=PATH``: a path that starts with ``-`` stays a path),
    and ``--read-only`` unless ``--write``."""
    words = [sys.executable, "-m", "tui.launcher"]
    if not args.write:
        words.append("--read-only")
    named = args.session if args.path is None else args.path
    if named is not None:
        words.append(f"--session={named}")
    if args.overview:
        words.append("--overview")
    if args.all:
        words.append("--all")
    return words


def app_command(args: argparse.Namespace) -> str:
    """``app_words`` as the one string textual-serve hands to a shell, each word quoted."""
    import shlex

    return shlex.join(app_words(args))


def url(bind: str, port: int) -> str:
    host = f"[{bind}]" if ":" in bind else bind
    return f"http://{host}:{port}"


# -- who may use it ----------------------------------------------------------------------------------


def request_refused(host: str, origin: str | None, loopback: bool) -> str | None:
    """Why a request to the server is refused, or None. On a loopback address the ``Host`` must be
    ``localhost`` or an IP address: a page of another site whose name was pointed at 127.0.0.1
    (DNS rebinding) names its own host. A browser's ``Origin``, when sent, must be the page's own
    (``http://`` + Host): any site may open a WebSocket to 127.0.0.1, and only this check keeps it
    from reading the deck (docs/serve.md#who-can-see-it)."""
    import ipaddress
    from urllib.parse import urlsplit

    name = urlsplit(f"//{host}").hostname or ""
    if loopback and name != "localhost":
        try:
            ipaddress.ip_address(name)
        except ValueError:
            return f"host {host!r} is not this machine's address"
    if origin is not None and origin != f"http://{host}":
        return f"origin {origin!r} is not this page's"
    return None


def serve(command: str, bind: str, port: int, *, loopback: bool, banner: str) -> int:
    """Run textual-serve on ``bind``:``port`` until ctrl+c (or SIGTERM), each browser's app started
    with ``command``."""
    import logging

    from aiohttp import web
    from textual_serve.server import Server

    class DeckServer(Server):
        """textual-serve's server with pideck's checks of who asks, its own start line instead of
        the logo, and the page's WebSocket address taken from the address the browser used (an SSH
        tunnel's local port may differ from ``port``)."""

        def initialize_logging(self) -> None:
            logging.basicConfig(level=logging.WARNING, format="pideck serve: %(message)s")

        async def on_startup(self, app: web.Application) -> None:
            print(banner, flush=True)

        async def handle_index(self, request: web.Request) -> web.StreamResponse:
            refuse(request)
            self.public_url = f"http://{request.host}"  # (read before the page's first await: one request's)
            return await super().handle_index(request)

        async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
            refuse(request)
            return await super().handle_websocket(request)

    def refuse(request: web.Request) -> None:
        why = request_refused(request.host, request.headers.get("Origin"), loopback)
        if why is not None:
            raise web.HTTPForbidden(text=f"pideck serve: refused: {why}\n")

    try:
        DeckServer(command, host=bind, port=port, title="pideck").serve()
    except OSError as exc:  # (the port taken, the address not this machine's)
        print(f"pideck serve: cannot listen on {url(bind, port)}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_WARNING
    return 0
