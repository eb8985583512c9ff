"""``pideck mcp``: the twelve tools over the Model Context Protocol (stdio), on the official SDK's
low-level server (docs/mcp-and-hooks.md says what an agent sees).

The session is chosen once at start. Every call goes through the Deck, which takes in what other
writers appended under the log's lock before it acts, so the TUI, the CLI and a second server can
write the same session. The SDK is imported only by this command: it costs half a second.
"""

from __future__ import annotations

import logging
import sys
from typing import Any

import anyio
import anyio.to_thread
import mcp.types as types
from mcp import MCPError
from mcp.server import ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage
from pydantic import ValidationError

from core import __version__
from core.adapters.dispatch import UnknownTool
from core.deck import Deck
from core.registry import TOOLS

log = logging.getLogger("pideck.mcp")


def declared_tools() -> list[types.Tool]:
    """The registry's tools as MCP declares them (pi's label is MCP's title)."""
    return [types.Tool(name=t.name, title=t.label, description=t.description, input_schema=t.parameters)
            for t in TOOLS]


class ToolServer:
    """Answers tools/list and tools/call for one Deck."""

    def __init__(self, deck: Deck[Any]) -> None:
        self.deck = deck
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
                result = await anyio.to_thread.run_sync(self.deck.call_tool, name, arguments)
            except UnknownTool as exc:
                raise MCPError(types.INVALID_PARAMS, str(exc)) from None
            except Exception as exc:  # the session file failed us: say so, keep serving
                log.exception("tools/call %s failed", name)
                raise MCPError(types.INTERNAL_ERROR, f"pideck could not run {name}: {exc}") from None
        return types.CallToolResult(content=[types.TextContent(text=result.text)], is_error=result.rejected)


def unreadable_line(exc: Exception) -> types.JSONRPCError:
    """The answer to a line that is not a JSON-RPC message (the SDK would drop it silently):
    -32700 when it is not JSON, -32600 when it is JSON of another shape (a batch array too)."""
    errors = exc.errors() if isinstance(exc, ValidationError) else []
    if any(e.get("type") == "json_invalid" for e in errors):
        error = types.ErrorData(code=types.PARSE_ERROR, message="Parse error")
    else:
        error = types.ErrorData(code=types.INVALID_REQUEST, message="Invalid Request")
    return types.JSONRPCError(jsonrpc="2.0", id=None, error=error)


async def serve(deck: Deck[Any]) -> None:
    """Serve on stdin/stdout until stdin closes. While it serves, the SDK keeps the wire on its
    own copy of fd 1 and points fd 1 at stderr, so a stray print never corrupts the stream."""
    server = ToolServer(deck).server
    async with stdio_server() as (read_stream, write_stream):
        send, receive = anyio.create_memory_object_stream[SessionMessage | Exception](0)

        async def forward() -> None:
            async with send:
                async for item in read_stream:
                    if isinstance(item, Exception):
                        log.warning("answered an unreadable input line with a JSON-RPC error")
                        await write_stream.send(SessionMessage(unreadable_line(item)))
                    else:
                        await send.send(item)

        async with anyio.create_task_group() as tasks:
            tasks.start_soon(forward)
            await server.run(receive, write_stream, server.create_initialization_options())


def main(session: str | None, write: bool) -> int:
    """Choose the session (``--session``, else ``$PIDECK_SESSION``, else the newest pideck session
    for this directory, else a new one: never pi's by default, whose files refuse writes), then
    serve. Diagnostics go to stderr, one line each."""
    from core.opening import open_deck

    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("pideck mcp: %(message)s"))
    log.handlers[:] = [handler]  # (one per call: a second serve in one process must not log twice)
    log.setLevel(logging.INFO)
    log.propagate = False
    opened = open_deck(session, write=write, pideck_only=True)
    for warning in opened.warnings:
        log.warning(warning)
    session_log = opened.deck.log
    mode = "" if session_log.writable else " (read-only: every write is refused; --write allows it)"
    log.info("serving %d tools on %s%s", len(TOOLS), session_log.path, mode)
    try:
        anyio.run(serve, opened.deck)
    except KeyboardInterrupt:
        return 130
    log.info("stdin closed: exiting")
    return 0
