"""Benchmark of what finding the conversation at each call costs (not in the default run):

    uv run pytest tests/benchmarks/test_mcp_routing_benchmark.py -s -p no:cacheprovider -o addopts=""

Two real ``pideck mcp`` servers driven by the official MCP client, calls alternating: one given its
session with ``--session``, one under a stand-in Claude Code process (tests/agents/agent_stand_in.py)
that finds its conversation's session at each call (the live-session file of its parent, the
binding, the binding's lock). Both sessions hold the same entries. The routed call must stay
within 1.5x of the named one.
"""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path

import anyio
import pytest
from mcp import ClientSession, StdioServerParameters

from mcp_client import SERVER, client_session, round_trip, server_env, server_params
from private_homes import use_private_homes

pytestmark = pytest.mark.benchmark

ROUNDS = 200
STAND_IN = Path(__file__).parents[1] / "agents" / "agent_stand_in.py"
LIVE = {"sessionId": "bench000-0000-4000-8000-000000000000", "status": "busy", "version": "2.1.328"}


@pytest.fixture(autouse=True)
def private_homes(tmp_path, monkeypatch) -> None:
    use_private_homes(tmp_path, monkeypatch)
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "claude"))



@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="the stand-in needs /proc")
def test_a_call_that_finds_its_conversation_is_within_1_5x_of_one_given_its_session(tmp_path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    live = json.dumps({**LIVE, "cwd": str(project)})
    routed = StdioServerParameters(command=sys.executable, args=[str(STAND_IN), "claude", live, "--", *SERVER],
                                   cwd=str(project), env=server_env(PIDECK_PROC="/proc"))
    named = server_params(project, "--session", str(tmp_path / "named.jsonl"))
    times: dict[str, list[float]] = {"routed": [], "named": []}

    async def on_named(named_session: ClientSession) -> None:
        async def on_routed(routed_session: ClientSession) -> None:
            for i in range(ROUNDS + 10):
                for label, session in (("routed", routed_session), ("named", named_session)):
                    name, arguments = ("agent_progress_add_milestone", {"milestone": f"m{i}"}) if i % 2 else (
                        "agent_state_get", {})
                    elapsed = await round_trip(session, name, arguments)
                    if i >= 10:
                        times[label].append(elapsed)

        await client_session(routed, tmp_path / "routed-stderr.txt", on_routed)

    async def main() -> None:
        with anyio.fail_after(300):
            await client_session(named, tmp_path / "named-stderr.txt", on_named)

    anyio.run(main)
    routed_ms, named_ms = (statistics.median(times[k]) * 1e3 for k in ("routed", "named"))
    ratio = routed_ms / named_ms
    print(f"MCP call round trip, median of {ROUNDS} alternating calls (reads and writes):")
    print(f"  found at each call {routed_ms:6.2f} ms vs --session {named_ms:6.2f} ms -> ratio {ratio:.2f}")
    assert "the pideck session of Claude Code conversation bench000" in (tmp_path / "routed-stderr.txt").read_text()
    assert ratio <= 1.5, ratio
