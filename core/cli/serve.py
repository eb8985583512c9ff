"""``pideck serve``: the deck in a browser, through textual-serve (docs/serve.md).

textual-serve starts one app per browser connection, from a command line it hands to a shell: that
line is built here from words, each quoted (``app_command``), so no path a person typed is ever
read by the shell. The app is started read-only unless ``--write`` (the TUI form's hidden
``--read-only``, which turns on core/session/access.py ``refuse_every_write``). textual-serve is
imported only when the server starts.

Who may use the server (docs/serve.md#who-can-see-it): each run makes a secret token, printed in
the address it serves; every request but the page's static files must bring it, in the query the
first time and then in the cookie the page is given. The ``Host`` must be an IP address, localhost
or a name given with ``--allow-host``, and a browser's ``Origin`` the page's own.
"""

from __future__ import annotations

import argparse
import os
import sys

from core.cli.common import EXIT_WARNING, UsageError, emit

TYPE_CHECKING = False  # (typing's own constant, without importing typing: mypy reads it the same)
if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

    from aiohttp import web
    from textual_serve.server import Server

    Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

DEFAULT_BIND = "127.0.0.1"
DEFAULT_PORT = 8420
"""Where ``pideck serve`` listens unless told: this machine only, on a port of its own."""


TOKEN_REFUSED = "pideck serve: open the address pideck serve printed, with its token\n"
"""The whole answer (403) to a request without the run's token."""


def run(args: argparse.Namespace) -> int:
    bind = check_address(DEFAULT_BIND if args.bind is None else args.bind, args.expose)
    port = DEFAULT_PORT if args.port is None else check_port(args.port)
    allowed_hosts = frozenset(check_host_name(name) for name in args.allow_host or ())
    if (problem := selection_problem(args)) is not None:
        return problem
    if (taken := cannot_listen(bind, port)) is not None:  # (said before any address is printed)
        print(f"pideck serve: cannot listen on {url(bind, port)}: {taken}", file=sys.stderr)
        return EXIT_WARNING
    if not is_loopback(bind):
        print(exposed_warning(bind, port, args.write), file=sys.stderr)
    command = app_command(args)
    token = new_token()
    return serve(command, bind, port, token=token, allowed_hosts=allowed_hosts,
                 banner=f"pideck serve: {url(bind, port)}/?token={token} "
                        f"({'writes allowed' if args.write else 'read-only'}; ctrl+c stops)")


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


def check_host_name(name: str) -> str:
    """``--allow-host``: a host name the server may be reached by (letters, digits, ``.``, ``-``,
    ``_``; no port), lowercased as ``request_refused`` compares it."""
    import re

    if re.fullmatch(r"[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*\.?", name) is None:
        raise UsageError(f"serve: --allow-host {name!r} is not a host name (no port, no scheme)")
    return name.lower().rstrip(".")


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
    return (f"pideck serve: warning: {bind}:{port} is reachable from other machines, over plain HTTP: "
            f"anyone who can reach it and reads the token on the way (it is not encrypted) can {what}")


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


def new_token() -> str:
    """This run's secret: 24 random bytes, URL-safe (32 characters)."""
    import secrets

    return secrets.token_urlsafe(24)


def cookie_name(port: int) -> str:
    """The cookie that carries the token after the first visit. Browsers keep cookies per host,
    not per port: the port in the name keeps two servers on one machine from taking each other's."""
    return f"pideck_serve_{port}"


def token_accepted(token: str, given: str | None) -> bool:
    """Whether ``given`` (from the query or the cookie) is this run's token, compared in a time
    that does not tell how much of it matched."""
    import secrets

    return given is not None and secrets.compare_digest(given.encode("utf-8"), token.encode("utf-8"))


def request_refused(host: str, origin: str | None, allowed_hosts: frozenset[str] = frozenset()) -> str | None:
    """Why a request to the server is refused, or None. The ``Host`` must be ``localhost``, an IP
    address, or a name in ``allowed_hosts`` (``--allow-host``, lowercased; the port is not
    compared): a page of another site whose name was pointed at this server's address (DNS
    rebinding) names its own host. A browser's ``Origin``, when sent, must be the page's own
    (``http://`` + Host): any site may open a WebSocket to the server, and this check keeps it from
    reading the deck (docs/serve.md#who-can-see-it)."""
    import ipaddress
    from urllib.parse import urlsplit

    try:
        name = urlsplit(f"//{host}").hostname or ""
    except ValueError:  # (an unclosed ``[``)
        name = ""
    if name != "localhost" and name not in allowed_hosts:
        try:
            ipaddress.ip_address(name)
        except ValueError:
            return f"host {host!r} is not an IP address or localhost (--allow-host NAME serves a name)"
    if origin is not None and origin != f"http://{host}":
        return f"origin {origin!r} is not this page's"
    return None


def cannot_listen(bind: str, port: int) -> str | None:
    """Why ``bind``:``port`` cannot be listened on (the port taken, the address not this
    machine's), or None: tried once before the server starts, so nothing is printed as served that
    never was."""
    import socket

    family = socket.AF_INET6 if ":" in bind else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # (as the server binds it)
        try:
            probe.bind((bind, port))
        except OSError as exc:
            return exc.strerror or str(exc)
    return None


def serve(command: str, bind: str, port: int, *, token: str, allowed_hosts: frozenset[str], banner: str) -> int:
    """Run textual-serve on ``bind``:``port`` until ctrl+c (or SIGTERM), each browser's app started
    with ``command``."""
    try:
        deck_server(command, bind, port, token=token, allowed_hosts=allowed_hosts, banner=banner).serve()
    except OSError as exc:  # (the port taken, the address not this machine's)
        print(f"pideck serve: cannot listen on {url(bind, port)}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_WARNING
    return 0


def deck_server(command: str, bind: str, port: int, *, token: str, allowed_hosts: frozenset[str],
                banner: str) -> Server:
    """textual-serve's server for ``serve``, every request checked by ``guard``."""
    import logging

    from aiohttp import web
    from textual_serve.server import Server

    cookie = cookie_name(port)

    class DeckServer(Server):
        """textual-serve's server with pideck's checks of who asks, its own start line instead of
        the logo, and the page's WebSocket address taken from the address the browser used (an SSH
        tunnel's local port may differ from ``port``)."""

        def initialize_logging(self) -> None:
            logging.basicConfig(level=logging.WARNING, format="pideck serve: %(message)s")

        async def _make_app(self) -> web.Application:
            app = await super()._make_app()
            app.middlewares.append(guard)  # (every route, so one textual-serve adds later is guarded too)
            return app

        async def on_startup(self, app: web.Application) -> None:
            print(banner, flush=True)

        async def handle_index(self, request: web.Request) -> web.StreamResponse:
            self.public_url = f"http://{request.host}"  # (read before the page's first await: one request's)
            return await super().handle_index(request)

    @web.middleware
    async def guard(request: web.Request, handler: Handler) -> web.StreamResponse:
        """Host and Origin on every request; the token on every one but the page's static files
        (textual-serve's own scripts and styles, the same for everyone). A token from the query is
        kept in a cookie, so a reload and the page's WebSocket (whose address has no token) bring it."""
        why = request_refused(request.host, request.headers.get("Origin"), allowed_hosts)
        if why is not None:
            raise web.HTTPForbidden(text=f"pideck serve: refused: {why}\n")
        resource = request.match_info.route.resource
        if resource is not None and resource.name == "static":
            return await handler(request)
        from_query = token_accepted(token, request.query.get("token"))
        if not from_query and not token_accepted(token, request.cookies.get(cookie)):
            raise web.HTTPForbidden(text=TOKEN_REFUSED)
        response = await handler(request)
        if from_query and not response.prepared:  # (a WebSocket or a download has sent its headers)
            response.set_cookie(cookie, token, path="/", httponly=True, samesite="Strict")
        return response

    return DeckServer(command, host=bind, port=port, title="pideck")
