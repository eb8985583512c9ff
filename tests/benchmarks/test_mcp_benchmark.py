"""Benchmark of an MCP tool call round trip (not in the default run):

    uv run pytest tests/benchmarks/test_mcp_benchmark.py -s -p no:cacheprovider -o addopts=""

Two real ``pideck mcp`` servers, one on a 100,000-entry session shaped like a long pi session
(session_shape.py, about 265 MB) and one on a 100-entry session of the same shape, each driven by
the official MCP client. Calls alternate between the two so that both see the same machine load;
the round trip (client to result) of each tool must stay within 2x on the big session.
"""

from __future__ import annotations

import statistics
from pathlib import Path

import anyio
import pytest
from mcp import ClientSession

from mcp_client import client_session, round_trip, server_params
from private_homes import use_private_homes
from session_shape import big_and_small

pytestmark = pytest.mark.benchmark

ROUNDS = 150
TODOS = {"todos": [{"id": f"t{k}", "content": f"Todo {k}", "status": ("pending", "in_progress", "completed")[k % 3],
                    "priority": "medium", "confidence": 70, "group": f"g{k % 5}"} for k in range(50)]}
CALLS = {
    "agent_state_get (read)": lambda i: ("agent_state_get", {}),
    "agent_progress_add_milestone (write)": lambda i: ("agent_progress_add_milestone", {"milestone": f"bench-{i}"}),
    "todo (read)": lambda i: ("todo", {}),
}


@pytest.fixture(scope="module")
def sessions(tmp_path_factory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("mcp-bench")
    return big_and_small(folder)



@pytest.fixture(autouse=True)
def private_homes(tmp_path, monkeypatch) -> None:
    use_private_homes(tmp_path, monkeypatch)


def test_a_tool_call_on_a_100k_entry_session_is_within_2x_of_a_100_entry_one(sessions, tmp_path) -> None:
    big, small = sessions
    times: dict[str, dict[str, list[float]]] = {label: {"big": [], "small": []} for label in CALLS}

    async def on_small(small_session: ClientSession) -> None:
        async def on_big(big_session: ClientSession) -> None:
            for session in (big_session, small_session):  # the same todo list on both: the same texts
                await session.call_tool("todo", TODOS)
            for label, call in CALLS.items():
                for i in range(ROUNDS + 10):
                    name, arguments = call(i)
                    t_big = await round_trip(big_session, name, arguments)
                    t_small = await round_trip(small_session, name, arguments)
                    if i >= 10:  # the first calls fold the todo state and warm the caches
                        times[label]["big"].append(t_big)
                        times[label]["small"].append(t_small)

        await client_session(server_params(tmp_path, "--session", str(big)), tmp_path / "big-stderr.txt", on_big)

    async def main() -> None:
        with anyio.fail_after(600):
            await client_session(server_params(tmp_path, "--session", str(small)), tmp_path / "small-stderr.txt",
                                 on_small)

    anyio.run(main)
    print(f"MCP tool call round trip, median of {ROUNDS} alternating calls, 100k vs 100 entries:")
    ratios = {}
    for label, measured in times.items():
        t_big, t_small = statistics.median(measured["big"]), statistics.median(measured["small"])
        ratios[label] = t_big / t_small
        print(f"  {label:<38} {t_big * 1e3:6.2f} ms vs {t_small * 1e3:6.2f} ms -> ratio {ratios[label]:.2f}")
    assert all(ratio <= 2 for ratio in ratios.values()), ratios
