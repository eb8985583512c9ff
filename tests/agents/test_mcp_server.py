"""``pideck mcp`` as an agent sees it: the official MCP client spawns the server over stdio.

Each session costs an interpreter start and the SDK's import (about a second here), so a test
makes many calls through one session where it can.
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import time
from pathlib import Path

import mcp.types as types
import pytest
from mcp import MCPError

from agent_homes import Homes
from mcp_client import SERVER, server_env, with_server

from core.deck.deck import READ_ONLY_HINT
from core.cli.demo import write_pi_example
from core.catalog.opening import open_deck
from core.deck.registry import TOOLS
from core.session.log import SessionLog
from core.config.places import pi_sessions_dir, pideck_sessions_dir

HANDOFF_POLICY = (
    "Policy: explicit caller-declared packets only; no automatic generation, no successor "
    "selection, no completion judgment.\nPrivacy: all packet fields are caller-controlled and may "
    "carry sensitive content; scrub before transmission. No automatic redaction."
)
TODO_ECHO = ('[\n  {\n    "content": "Parse ✓",\n    "status": "in_progress",\n    "priority": "high",\n'
             '    "id": "t1",\n    "confidence": 80,\n    "confidence_history": [\n      80\n    ]\n  }\n]')

# Every tool, accepted and turned down: (tool, arguments, the upstream text, isError).
CALLS: list[tuple[str, dict, str, bool]] = [
    ("agent_state_get", {}, "Agent State: no objective, 0 work items, 0 decisions.", False),
    ("agent_state_add_work_item", {"id": "w1", "content": "Write the parser"},
     'Agent State: added work item "w1".', False),
    ("agent_state_add_work_item", {"id": "w1", "content": "Again"},
     'Agent State: duplicate work item id "w1".', True),
    ("agent_state_set_work_item_status", {"id": "w1", "status": "done"},
     'Agent State: work item "w1" is now done.', False),
    ("agent_state_set_work_item_status", {"id": "zz", "status": "done"},
     'Agent State: unknown work item id "zz".', True),
    ("agent_state_add_decision", {"id": "d1", "content": "Use msgspec"}, 'Agent State: added decision "d1".', False),
    ("agent_state_get", {}, "Agent State: no objective, 1 work item (0 open, 0 in_progress, 0 blocked, 1 done), "
     "1 decision.\nWork items:\n- w1 [done]: Write the parser\nDecisions:\n- d1: Use msgspec", False),
    ("agent_progress_get", {}, "Agent Progress: 0 declared milestones; baseline not established "
     "(0 recorded milestones).\nDeclared milestones: none.", False),
    ("agent_progress_add_milestone", {"milestone": "parser"}, 'Agent Progress: added milestone "parser".', False),
    ("agent_progress_judge", {}, "Agent Progress: unknown (missing_baseline).\nCall agent_progress_judge again "
     "after the milestone set changes: this first judgment established the baseline.\nRecorded milestones:\n"
     "- parser", False),
    ("agent_progress_add_milestone", {"milestone": "lexer"}, 'Agent Progress: added milestone "lexer".', False),
    ("agent_progress_withdraw_milestone", {"milestone": "lexer"}, 'Agent Progress: withdrew milestone "lexer".', False),
    ("agent_progress_withdraw_milestone", {"milestone": "nope"},
     'Agent Progress: unknown declared milestone "nope".', True),
    ("agent_progress_judge", {}, "Agent Progress: no_progress.\nNew milestones: none.\nRecorded milestones:\n"
     "- parser", False),
    ("agent_handoff_get", {}, f"Agent Handoff: 0 packets in the current session.\nPackets: none.\n{HANDOFF_POLICY}",
     False),
    ("agent_handoff_create", {"schemaVersion": 1, "id": "p1", "source": "builder", "goal": "Ship ✓"},
     'Agent Handoff: created packet "p1"; 1 packet in the current session.', False),
    ("agent_handoff_create", {"schemaVersion": 2, "id": "p2", "source": "b", "goal": "g"},
     "Agent Handoff: change rejected as invalid; common causes include duplicate ids, empty identifiers, "
     "malformed packets, or unknown top-level keys. State was unchanged.", True),
    ("agent_handoff_get", {}, "Agent Handoff: 1 packet in the current session.\nPackets:\n\nPacket: p1\n"
     "  Source: builder\n  Destination: none\n  Goal: Ship ✓\n  Constraints: none.\n  Open items: none.\n"
     f"  Evidence references: none.\n\n{HANDOFF_POLICY}", False),
    ("agent_handoff_remove", {"id": "p1"}, 'Agent Handoff: removed packet "p1"; 0 packets remain.', False),
    ("agent_handoff_remove", {"id": "p1"}, 'Agent Handoff: unknown packet "p1"; state was unchanged.', True),
    ("todo", {"todos": [{"id": "t1", "content": "Parse ✓", "status": "in_progress", "priority": "high",
                         "confidence": 80}]}, f"{TODO_ECHO}\n\nChanges: 1 new", False),
    ("todo", {"todos": [{"id": "t1"}]}, "Invalid todo input: todos[0].content is required.", True),
    ("todo", {}, TODO_ECHO, False),
]


def pi_session(homes: Homes) -> Path:
    folder = pi_sessions_dir(homes.project)
    folder.mkdir(parents=True)
    return write_pi_example(folder, str(homes.project))


def server_log(homes: Homes) -> list[str]:
    return (homes.root / "server-stderr.txt").read_text(encoding="utf-8").splitlines()


def test_the_twelve_tools_are_declared_from_the_registry(homes: Homes) -> None:
    async def body(session):
        return (await session.list_tools()).tools

    tools = with_server(homes.project, body)
    assert [t.name for t in tools] == [t.name for t in TOOLS] and len(tools) == 12
    for listed, declared in zip(tools, TOOLS):
        assert (listed.title, listed.description, listed.input_schema) == (
            declared.label, declared.description, declared.parameters)


def test_every_tool_answers_its_upstream_text_alone_and_is_error_when_rejected(homes: Homes) -> None:
    path = homes.root / "s.jsonl"

    async def body(session):
        return [await session.call_tool(name, arguments) for name, arguments, _, _ in CALLS]

    results = with_server(homes.project, body, "--session", str(path))
    assert {name for name, *_ in CALLS} == {t.name for t in TOOLS}
    for (name, _, text, is_error), result in zip(CALLS, results):
        assert result.content == [types.TextContent(text=text)], name
        assert (result.is_error, result.structured_content) == (is_error, None), name
    replica = open_deck(homes.root / "replica.jsonl").deck  # the same calls in-process
    assert [r.content[0].text for r in results] == [replica.call_tool(n, a).text for n, a, _, _ in CALLS]
    deck = open_deck(path).deck
    assert deck.state.snapshot()["workItems"] == [{"id": "w1", "content": "Write the parser", "status": "done"}]
    assert [t.id for t in deck.todo.todos] == ["t1"]
    assert server_log(homes) == [f"pideck mcp: serving 12 tools on {path}", "pideck mcp: stdin closed: exiting"]


def test_an_unknown_tool_is_a_protocol_error_and_the_server_goes_on(homes: Homes) -> None:
    async def body(session):
        with pytest.raises(MCPError) as caught:
            await session.call_tool("agent_state_delete", {})
        return caught.value, await session.call_tool("agent_state_get", None)

    error, after = with_server(homes.project, body)
    assert (error.code, error.message) == (types.INVALID_PARAMS, (
        'Unknown tool "agent_state_delete". Tools: ' + ", ".join(t.name for t in TOOLS) + "."))
    assert (after.content[0].text, after.is_error) == ("Agent State: no objective, 0 work items, 0 decisions.", False)


def test_a_read_only_pi_session_refuses_writes_with_the_hint(homes: Homes) -> None:
    pi_file = pi_session(homes)
    before = pi_file.read_bytes()

    async def body(session):
        return (await session.call_tool("agent_state_add_work_item", {"id": "n1", "content": "New"}),
                await session.call_tool("todo", {"todos": []}),
                await session.call_tool("agent_progress_get", {}))

    add, todo, get = with_server(homes.project, body, "--session", str(pi_file))
    for refused in (add, todo):
        assert (refused.content, refused.is_error) == ([types.TextContent(text=READ_ONLY_HINT)], True)
    assert get.is_error is False and get.content[0].text.startswith("Agent Progress: ")
    assert pi_file.read_bytes() == before
    assert server_log(homes)[0] == (f"pideck mcp: serving 12 tools on {pi_file} (read-only: every write is "
                                    "refused; --write allows it)")

    added = with_server(homes.project, lambda s: s.call_tool("agent_state_add_work_item",
                                                                {"id": "n1", "content": "New"}),
                        "--session", str(pi_file), "--write")
    assert (added.content[0].text, added.is_error) == ('Agent State: added work item "n1".', False)
    assert pi_file.read_bytes().startswith(before)


def _add(item: str):
    return lambda session: session.call_tool("agent_state_add_work_item", {"id": item, "content": item})


def _items(path: Path) -> list[str]:
    return [w["id"] for w in open_deck(path).deck.state.snapshot()["workItems"]]


def test_the_session_is_the_newest_pideck_one_for_the_directory_never_pi(homes: Homes) -> None:
    with_server(homes.project, _add("first"))  # no session yet: a new pideck session
    (created,) = pideck_sessions_dir(homes.project).iterdir()
    assert _items(created) == ["first"]

    pi_file = pi_session(homes)
    os.utime(pi_file, (time.time() + 60, time.time() + 60))  # pi's is the newest: `pideck` would open it
    before = pi_file.read_bytes()
    with_server(homes.project, _add("second"))
    assert _items(created) == ["first", "second"] and pi_file.read_bytes() == before

    chosen = homes.root / "chosen.jsonl"
    with_server(homes.project, _add("third"), env=server_env(PIDECK_SESSION=str(chosen)))
    flag = homes.root / "flag.jsonl"
    with_server(homes.project, _add("fourth"), "--session", str(flag), env=server_env(PIDECK_SESSION=str(chosen)))
    assert (_items(chosen), _items(flag), _items(created)) == (["third"], ["fourth"], ["first", "second"])


def test_each_call_takes_in_what_other_writers_appended(homes: Homes) -> None:
    path = homes.root / "shared.jsonl"
    other = open_deck(path).deck

    async def body(session):
        await session.call_tool("agent_state_add_work_item", {"id": "mcp1", "content": "From the agent"})
        other.call_tool("agent_state_add_work_item", {"id": "tui1", "content": "From the person"})
        seen = await session.call_tool("agent_state_get", {})
        await session.call_tool("agent_state_add_work_item", {"id": "mcp2", "content": "From the agent again"})
        return seen

    seen = with_server(homes.project, body, "--session", str(path))
    assert "- tui1 [open]: From the person" in seen.content[0].text
    assert _items(path) == ["mcp1", "tui1", "mcp2"]  # nobody's entry was lost
    log = SessionLog.open(path)
    assert [r.parent_id for r in log.records[1:]] == [r.id for r in log.records[:-1]]


class RawServer:
    """``pideck mcp`` on pipes, for input no MCP client would send."""

    def __init__(self, cwd: Path, *args: str) -> None:
        self.proc = subprocess.Popen([*SERVER, *args], cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, env={**os.environ})
        self.buffer = b""

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line.encode() + b"\n")
        self.proc.stdin.flush()

    def read(self, timeout: float = 30) -> dict:
        """The next stdout line, which must be one JSON-RPC message."""
        assert self.proc.stdout is not None
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buffer:
            ready, _, _ = select.select([self.proc.stdout], [], [], max(0.0, deadline - time.monotonic()))
            assert ready, f"no answer within {timeout} s"
            chunk = os.read(self.proc.stdout.fileno(), 65536)
            assert chunk, "the server closed stdout"
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        message = json.loads(line)
        assert message["jsonrpc"] == "2.0"
        return message

    def close(self) -> tuple[int, bytes, str]:
        assert self.proc.stdin is not None and self.proc.stdout is not None and self.proc.stderr is not None
        self.proc.stdin.close()
        code = self.proc.wait(timeout=30)
        return code, self.buffer + self.proc.stdout.read(), self.proc.stderr.read().decode()


INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}}


def test_malformed_requests_get_json_rpc_errors_and_stdin_closing_ends_the_server(homes: Homes) -> None:
    server = RawServer(homes.project, "--session", str(homes.root / "raw.jsonl"))
    server.send(json.dumps(INITIALIZE))
    assert server.read()["result"]["serverInfo"] == {"name": "pideck", "version": "0.1.0"}
    server.send('{"jsonrpc":"2.0","method":"notifications/initialized"}')
    server.send("this is not JSON")
    assert server.read() == {"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error"}}
    server.send('[{"jsonrpc":"2.0","id":7,"method":"tools/list"}]')
    assert server.read() == {"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "Invalid Request"}}
    server.send('{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"arguments":{}}}')
    assert server.read()["error"]["code"] == types.INVALID_PARAMS  # no tool name
    server.send('{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"agent_progress_add_milestone",'
                '"arguments":{"milestone":"m1"}}}')
    assert server.read() == {"jsonrpc": "2.0", "id": 9, "result": {
        "content": [{"type": "text", "text": 'Agent Progress: added milestone "m1".'}], "isError": False}}
    code, rest, stderr = server.close()
    assert (code, rest) == (0, b"")
    assert stderr.splitlines() == [
        f"pideck mcp: serving 12 tools on {homes.root / 'raw.jsonl'}",
        "pideck mcp: answered an unreadable input line with a JSON-RPC error",
        "pideck mcp: answered an unreadable input line with a JSON-RPC error",
        "pideck mcp: stdin closed: exiting",
    ]


def test_stdin_closed_at_once_is_a_clean_exit(homes: Homes) -> None:
    code, out, stderr = RawServer(homes.project).close()
    assert (code, out) == (0, b"")
    assert stderr.splitlines()[-1] == "pideck mcp: stdin closed: exiting"
