"""The official MCP client driving a real ``pideck mcp`` subprocess over stdio.

The client hands the server only HOME, LOGNAME, PATH, SHELL, TERM and USER from this process, so
every pideck variable is passed on explicitly (the tests' temporary homes, never the real ones).
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any, Awaitable, Callable

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

SERVER = [sys.executable, "-m", "core.cli.main", "mcp"]
PASSED_ON = ("PIDECK_HOME", "PIDECK_CONFIG", "PI_CODING_AGENT_DIR", "PIDECK_SESSION", "PIDECK_INDEX",
             "CLAUDE_CONFIG_DIR", "PIDECK_PROC")


def server_env(**extra: str) -> dict[str, str]:
    env = {k: os.environ[k] for k in PASSED_ON if k in os.environ}
    env.update(extra)
    return env


def server_params(cwd: Path, *args: str, env: dict[str, str] | None = None) -> StdioServerParameters:
    return StdioServerParameters(command=SERVER[0], args=[*SERVER[1:], *args], cwd=str(cwd),
                                 env=server_env() if env is None else env)


async def client_session(params: StdioServerParameters, errlog: Path,
                         body: Callable[[ClientSession], Awaitable[Any]]) -> Any:
    """Start the server, initialise, run ``body``, close stdin (the server exits on it)."""
    with open(errlog, "w", encoding="utf-8") as err:
        async with stdio_client(params, errlog=err) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                return await body(session)


def with_server(cwd: Path, body: Callable[[ClientSession], Awaitable[Any]], *args: str,
                env: dict[str, str] | None = None, errlog: Path | None = None) -> Any:
    """``body(session)`` against ``pideck mcp ARGS`` started in ``cwd``; its stderr goes to
    ``errlog`` (default: cwd/../server-stderr.txt)."""
    errlog = errlog or cwd.parent / "server-stderr.txt"

    async def main() -> Any:
        with anyio.fail_after(60):
            return await client_session(server_params(cwd, *args, env=env), errlog, body)

    return anyio.run(main)


async def round_trip(session: ClientSession, name: str, arguments: dict[str, Any]) -> float:
    """Seconds from the call to its result (the benchmarks); the call must be accepted."""
    t = time.perf_counter()
    result = await session.call_tool(name, arguments)
    elapsed = time.perf_counter() - t
    assert not result.is_error, result.content
    return elapsed
