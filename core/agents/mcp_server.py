"""``pideck mcp``: the twelve tools over the Model Context Protocol (stdio), on the official SDK's
low-level server (docs/mcp-and-hooks.md says what an agent sees).

Each call goes to the pideck session of the agent conversation it comes from, looked up at the
call (``routing.py``): one agent process can move to another conversation while its server runs.
Every call goes through a Deck, which takes in what other writers appended under the log's lock
before it acts, so the TUI, the CLI, the hooks and a second server can write the same session. The
SDK is imported only by this command: it costs half a second.
"""

from __future__ import annotations

import io
import logging
import os
import sys
from typing import Any, Callable

import anyio
import anyio.to_thread
import mcp.types as types
from mcp import MCPError
from mcp.server import ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage
from pydantic import BaseModel

from core import __version__
from core.agents.ancestry import find_conversation
from core.agents.mcp_wire import Answer, Ignore, Owed, Wire, claimed_stdin, usable_id
from core.agents.routing import route
from core.deck.deck import Deck
from core.deck.registry import TOOLS
from core.primitives.dispatch import UnknownTool
from core.sources.binding import Conversation
from core.untrusted import encodable

log = logging.getLogger("pideck.mcp")


def declared_tools() -> list[types.Tool]:
    """The registry's tools as MCP declares them (pi's label is MCP's title)."""
    # (a copy: the SDK's model takes a plain dict, not the registry's TypedDict)
    return [types.Tool(name=t.name, title=t.label, description=t.description, input_schema=dict(t.parameters))
            for t in TOOLS]


def read_only_note(deck: Deck[Any]) -> str:
    return "" if deck.log.writable else " (read-only: every write is refused; --write allows it)"


class Sessions:
    """The Deck each call goes to: one per session file, opened at its first call and kept; the
    route is logged whenever it changes (one stderr line), so a person can see where writes go."""

    def __init__(self, explicit: str | None, write: bool,
                 find: Callable[[], Conversation | None] = find_conversation) -> None:
        self.explicit, self.write = explicit, write
        self.fixed = explicit is not None or bool(os.environ.get("PIDECK_SESSION"))  # (said once, at the start)
        self._find = find
        self._decks: dict[str | None, Deck[Any]] = {}
        self._said: str | None = None

    def deck(self) -> Deck[Any]:
        from core.catalog.opening import open_deck

        chosen = route(self.explicit, find=self._find)
        deck = self._decks.get(chosen.path)
        if deck is None:
            opened = open_deck(chosen.path, write=self.write, pideck_only=True)
            for warning in opened.warnings:
                log.warning(warning)
            deck = self._decks[chosen.path] = opened.deck
        said = f"{deck.log.path}: {chosen.why}"
        if said != self._said and not self.fixed:
            log.info("calls go to %s%s", said, read_only_note(deck))
        self._said = said
        return deck

    def call_tool(self, name: str, arguments: dict[str, object]) -> Any:
        """The tool's result on the route's Deck (the arguments as the client sent them: the
        tool checks each)."""
        return self.deck().call_tool(name, arguments)


class ToolServer:
    """Answers tools/list and tools/call, each call on the session its route names."""

    def __init__(self, sessions: Sessions) -> None:
        self.sessions = sessions
        self.tools = declared_tools()
        # the Deck is used from one thread at a time, and calls are applied in the order they came
        self._turn = anyio.Lock()
        self.server: Server[Any] = Server(
            "pideck", version=__version__, on_list_tools=self.list_tools, on_call_tool=self.call_tool)

    async def list_tools(self, ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        return types.ListToolsResult(tools=self.tools)

    async def call_tool(self, ctx: ServerRequestContext[Any], params: types.CallToolRequestParams) -> types.CallToolResult:
        """The tool's text as the one content, ``isError`` when the call was rejected. Never
        structured content: Claude Code would hand the model ``{"result": ...}`` instead of the
        text. An unknown tool is a protocol error (JSON-RPC -32602), as MCP prescribes."""
        name, arguments = params.name, params.arguments if params.arguments is not None else {}
        async with self._turn:
            try:
                result = await anyio.to_thread.run_sync(self.sessions.call_tool, name, arguments)
            except UnknownTool as exc:
                raise MCPError(types.INVALID_PARAMS, str(exc)) from None
            except Exception as exc:  # the session file failed us (or none could be
                # opened): say so, keep serving
                log.warning("tools/call %s failed: %s", name, one_line(exc))
                raise MCPError(types.INTERNAL_ERROR, f"pideck could not run {name}: {exc}") from None
        # (a lone surrogate read back from a file cannot be written as UTF-8: the answer would never go)
        return types.CallToolResult(content=[types.TextContent(text=encodable(result.text))], is_error=result.rejected)


EOF_WAIT_S = 60
"""How long the server waits, once stdin has closed, for the calls it read to be answered."""


async def serve(sessions: Sessions) -> None:
    """Serve on stdin/stdout until stdin closes. The lines are read and judged by ``mcp_wire``
    (every request gets one answer, with its own id where it has a usable one); the SDK's
    ``stdio_server`` is used for the writing side only, and keeps the wire on its own copy of fd 1
    with fd 1 pointed at stderr, so a stray print never corrupts the stream. At the end of stdin
    the SDK is closed only once every request it was given is answered: it would cancel them."""
    server = ToolServer(sessions).server

    def params_type(method: str) -> type[BaseModel] | None:
        entry = server.get_request_handler(method)
        return None if entry is None else entry.params_type

    wire = Wire(params_type)
    with claimed_stdin() as stdin:
        async with stdio_server(stdin=anyio.wrap_file(io.StringIO())) as (_, sdk_write):
            owed = Owed(sdk_write)
            send, receive = anyio.create_memory_object_stream[SessionMessage | Exception](0)

            async def read() -> None:
                async with send:
                    async for raw in anyio.wrap_file(stdin):
                        await take(raw)
                    with anyio.move_on_after(EOF_WAIT_S) as waited:  # (a call that hangs must not keep it up)
                        await owed.all_answered()
                    if waited.cancelled_caught:  # (a call on a worker thread cannot be cancelled: leave)
                        log.warning("stdin closed: %d request(s) still running after %d s: exiting without their "
                                    "answers", owed.count, EOF_WAIT_S)
                        sys.stdout.flush()
                        sys.stderr.flush()
                        os._exit(1)

            async def take(raw: bytes) -> None:
                judged = wire.judge(raw)
                if isinstance(judged, Answer):
                    if judged.unreadable:
                        log.warning("answered an unreadable input line with a JSON-RPC error")
                    await sdk_write.send(SessionMessage(judged.error))
                elif isinstance(judged, Ignore):
                    log.warning("ignored an input line: %s", judged.why)
                else:
                    message = judged.message
                    handshake = isinstance(message, types.JSONRPCRequest) and message.method == "initialize"
                    if judged.request_id is not None:
                        owed.expect(judged.request_id, watch=handshake)
                    await send.send(SessionMessage(message))
                    if handshake and judged.request_id is not None:
                        # the SDK answers it before it reads on; so does this layer
                        wire.initialized = await owed.answered(judged.request_id) or wire.initialized
                    elif isinstance(message, types.JSONRPCNotification):
                        if message.method == "notifications/initialized":
                            wire.initialized = True  # (the SDK's gate opens on it too)
                        elif message.method == "notifications/cancelled":
                            cancelled = (message.params or {}).get("requestId")
                            if usable_id(cancelled):
                                owed.settle(cancelled)  # the SDK never answers a cancelled request

            async with anyio.create_task_group() as tasks:
                tasks.start_soon(read)
                await server.run(receive, owed, server.create_initialization_options())


class OneLine(logging.Formatter):
    """Every diagnostic on one line, as the module promises: an exception is named by its text,
    never by a traceback (an agent's log of a server's stderr is read by people)."""

    def format(self, record: logging.LogRecord) -> str:
        text = record.getMessage()
        if record.exc_info and record.exc_info[1] is not None:
            text = f"{text}: {one_line(record.exc_info[1])}"
        return "pideck mcp: " + " ".join(text.split("\n"))


def one_line(exc: BaseException) -> str:
    """An exception's text; an exception group (anyio's task groups raise them) by its first
    leaf."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return " ".join((str(exc) or type(exc).__name__).splitlines())


def main(session: str | None, write: bool) -> int:
    """Serve until stdin closes. Calls go where ``routing.route`` says, looked up at each call;
    at the start the server says on stderr how it will choose, and which session the conversation
    found now would write to. Diagnostics go to stderr, one line each."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(OneLine())
    for logger, level in ((log, logging.INFO), (logging.getLogger("mcp"), logging.WARNING)):
        logger.handlers[:] = [handler]  # (one per call: a second serve in one process must not log twice)
        logger.setLevel(level)
        logger.propagate = False  # (the SDK's own warnings too: else Python's last resort prints tracebacks)
    sessions = Sessions(session, write)
    if sessions.fixed:
        deck = sessions.deck()  # a named session is opened at once: a bad path fails the start
        log.info("serving %d tools on %s%s", len(TOOLS), deck.log.path, read_only_note(deck))
    else:
        log.info("serving %d tools; each call goes to the pideck session of the agent conversation it "
                 "comes from (made at its first call), else to the newest pideck session for %s of no conversation",
                 len(TOOLS), os.getcwd())
    try:
        anyio.run(serve, sessions)
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # the wire itself failed (stdout closed under the server): say it, once
        log.error("stopped: %s", one_line(exc))
        return 1
    log.info("stdin closed: exiting")
    return 0
