"""``pideck mcp`` against a hostile client, over raw stdio (a real server, bytes in, lines out):
every request read is answered once, with its own id when it has a usable one, and the stderr
diagnostics are one line each (docs/mcp-and-hooks.md, "The MCP server")."""

from __future__ import annotations

import json
import resource
import subprocess
from pathlib import Path

import pytest
from agent_homes import Homes
from mcp_client import SERVER
from test_mcp_server import INITIALIZE, RawServer

from core.catalog.opening import open_deck
from core.session.log import SessionLog
from core.session.parse import MAX_DEPTH

INITIALIZED = '{"jsonrpc":"2.0","method":"notifications/initialized"}'


def call(request_id: object, name: object, arguments: object) -> str:
    return json.dumps({"jsonrpc": "2.0", "id": request_id, "method": "tools/call",
                       "params": {"name": name, "arguments": arguments}})


def add_milestone(request_id: int, milestone: str) -> str:
    return call(request_id, "agent_progress_add_milestone", {"milestone": milestone})


def answers(out: bytes) -> list[dict]:
    return [json.loads(line) for line in out.splitlines()]


def milestones(path: Path) -> list[str]:
    return open_deck(path).deck.progress.state()["currentMilestones"]


@pytest.mark.parametrize("trial", range(3))
def test_every_pipelined_write_is_answered_when_stdin_closes_behind_it(homes: Homes, trial: int) -> None:
    path = homes.root / "pipelined.jsonl"
    lines = [json.dumps(INITIALIZE), INITIALIZED] + [add_milestone(100 + n, f"m{n}") for n in range(50)]
    done = subprocess.run([*SERVER, "--session", str(path)], cwd=homes.project, capture_output=True,
                          input="\n".join(lines).encode() + b"\n", timeout=120)
    assert done.returncode == 0, done.stderr
    got = answers(done.stdout)
    assert sorted(a["id"] for a in got) == [1] + list(range(100, 150))
    assert all(a["result"]["isError"] is False for a in got if a["id"] != 1)
    assert milestones(path) == [f"m{n}" for n in range(50)]
    assert len(SessionLog.open(path).records) == 50  # one entry a write, none twice
    assert done.stderr.decode().splitlines()[-1] == "pideck mcp: stdin closed: exiting"


def started(homes: Homes, name: str = "raw.jsonl") -> RawServer:
    server = RawServer(homes.project, "--session", str(homes.root / name))
    server.send(json.dumps(INITIALIZE))
    assert server.read()["id"] == 1
    server.send(INITIALIZED)
    return server


@pytest.mark.parametrize("bad_id", ["true", "false", '{"a":1}', "[1]", "1.5", "null", '"\\ud800"'])
def test_a_request_with_an_unusable_id_is_answered_with_id_null(homes: Homes, bad_id: str) -> None:
    server = started(homes)
    server.send('{"jsonrpc":"2.0","id":%s,"method":"tools/list"}' % bad_id)
    answer = server.read(timeout=10)
    assert (answer["id"], answer["error"]["code"]) == (None, -32600)
    assert "id" in answer["error"]["message"]
    server.send('{"jsonrpc":"2.0","id":2,"method":"ping"}')
    assert server.read() == {"jsonrpc": "2.0", "id": 2, "result": {}}
    assert server.close()[:2] == (0, b"")


@pytest.mark.parametrize("line, code", [
    ('{"jsonrpc":"2.0","id":3}', -32600),  # no method
    ('{"jsonrpc":"2.0","id":3,"method":7}', -32600),
    ('{"jsonrpc":"1.0","id":3,"method":"tools/list"}', -32600),
    ('{"jsonrpc":"2.0","id":3,"method":"tools/list","params":5}', -32600),
    ('{"jsonrpc":"2.0","id":"three","method":"tools/list","params":5}', -32600),
])
def test_every_malformed_request_with_an_id_is_answered_with_that_id(homes: Homes, line: str, code: int) -> None:
    server = started(homes)
    server.send(line)
    answer = server.read(timeout=10)
    assert (answer["id"], answer["error"]["code"]) == (json.loads(line)["id"], code)
    assert answer["error"]["message"] != "Invalid Request"  # it says what was wrong
    assert server.close()[:2] == (0, b"")


def nested(depth: int) -> object:
    value: object = "deep"
    for _ in range(depth):
        value = [value]
    return value


def test_valid_requests_with_arguments_pideck_refuses_keep_their_id_and_say_why(homes: Homes) -> None:
    server = started(homes)
    path = homes.root / "raw.jsonl"
    refused = {
        10: (call(10, "agent_handoff_create", {"schemaVersion": 1, "id": "p", "source": "s", "goal": "g",
                                                "constraints": nested(300)}), f"{MAX_DEPTH} levels"),
        11: (call(11, "agent_progress_add_milestone", {"milestone": "\ud800"}), "params.arguments.milestone"),
        12: (call(12, 5, {}), "params.name"),
        13: (call(13, "todo", [1]), "params.arguments"),
    }
    for line, _ in refused.values():
        server.send(line)
    got = {a["id"]: a for a in (server.read() for _ in refused)}
    for request_id, (_, says) in refused.items():
        assert got[request_id]["error"]["code"] == -32602, got[request_id]
        assert says in got[request_id]["error"]["message"], got[request_id]
    assert "lone surrogate" in got[11]["error"]["message"]
    server.send(add_milestone(14, "kept"))
    assert server.read()["result"]["isError"] is False
    assert server.close()[:2] == (0, b"")
    assert milestones(path) == ["kept"]


def test_params_nested_beyond_what_a_parser_can_recurse_keep_their_id(homes: Homes) -> None:
    """257 to ~990 levels parse; deeper ones end a parser's recursion: the id is read all the same
    (without parsing the params) and the answer is the documented -32602, not a parse error."""
    server = started(homes)
    for request_id, depth in ((20, 300), (21, 990), (22, 5_000), (23, 200_000)):
        deep = "[" * depth + "]" * depth
        server.send('{"jsonrpc": "2.0", "id": %d, "method": "tools/call", "params": {"name": "todo", '
                    '"arguments": {"todos": %s}}}' % (request_id, deep))
        answer = server.read(timeout=10)
        assert (answer["id"], answer["error"]["code"]) == (request_id, -32602), answer
        assert answer["error"]["message"] == f"Invalid params for tools/call: nested more than {MAX_DEPTH} levels deep"
    server.send('{"jsonrpc":"2.0","id":24,"method":"tools/call","params":' + "[" * 5000 + "}")  # no JSON at all
    answer = server.read(timeout=10)
    assert (answer["id"], answer["error"]["code"]) == (None, -32700)
    assert server.close()[:2] == (0, b"")


def test_a_call_before_initialize_is_refused_with_its_id_and_the_reason(homes: Homes) -> None:
    server = RawServer(homes.project, "--session", str(homes.root / "raw.jsonl"))
    server.send(add_milestone(5, "early"))
    answer = server.read()
    assert (answer["id"], answer["error"]["code"]) == (5, -32602)
    assert "initialize" in answer["error"]["message"]
    server.send('{"jsonrpc":"2.0","id":6,"method":"ping"}')  # ping is allowed before it
    assert server.read() == {"jsonrpc": "2.0", "id": 6, "result": {}}
    server.send(json.dumps(INITIALIZE))
    assert server.read()["id"] == 1
    server.send(add_milestone(7, "after"))
    assert server.read()["result"]["isError"] is False
    assert server.close()[:2] == (0, b"")


def test_a_failing_append_is_one_line_on_stderr_never_a_traceback(homes: Homes) -> None:
    path = homes.root / "full.jsonl"
    open_deck(path).deck.call_tool("agent_progress_add_milestone", {"milestone": "before"})
    server = started(homes, "full.jsonl")
    limit = path.stat().st_size + 20  # the next entry does not fit: EFBIG (Python ignores SIGXFSZ)
    resource.prlimit(server.proc.pid, resource.RLIMIT_FSIZE, (limit, limit))
    for n in (20, 21):
        server.send(add_milestone(n, "x" * 200))
        answer = server.read()
        assert answer["id"] == n and ("error" in answer or answer["result"]["isError"] is True), answer
    server.send('{"jsonrpc":"2.0","id":22,"method":"ping"}')
    assert server.read() == {"jsonrpc": "2.0", "id": 22, "result": {}}
    code, rest, stderr = server.close()
    assert (code, rest) == (0, b"")
    lines = stderr.splitlines()
    assert all(line.startswith("pideck mcp: ") for line in lines), stderr
    assert "Traceback" not in stderr and len(lines) <= 5, stderr


FAILING_SERVER = """
import sys
from core.deck.deck import Deck

def append_fails(self, name, arguments):
    raise OSError(5, "Input/output error")  # what a dying disk says under any append

Deck.call_tool = append_fails
from core.cli.main import main
sys.exit(main(sys.argv[1:]))
"""


class PatchedServer(RawServer):
    """``pideck mcp`` run by a script that patches pideck first (a fault no real disk gives on cue)."""

    def __init__(self, cwd: Path, script: str, *args: str) -> None:
        self.proc = subprocess.Popen([SERVER[0], "-c", script, *args], cwd=cwd, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.buffer = b""


def test_a_call_that_raises_is_one_line_on_stderr_and_the_server_goes_on(homes: Homes) -> None:
    server = PatchedServer(homes.project, FAILING_SERVER, "mcp", "--session", str(homes.root / "raw.jsonl"))
    server.send(json.dumps(INITIALIZE))
    assert server.read()["id"] == 1
    for n in (30, 31):
        server.send(add_milestone(n, "m"))
        answer = server.read()
        assert (answer["id"], answer["error"]["code"]) == (n, -32603)
        assert "Input/output error" in answer["error"]["message"]
    code, rest, stderr = server.close()
    assert (code, rest) == (0, b"")
    assert stderr.splitlines()[1:] == [
        "pideck mcp: tools/call agent_progress_add_milestone failed: [Errno 5] Input/output error"] * 2 + [
        "pideck mcp: stdin closed: exiting"]


def test_a_call_the_client_cancelled_does_not_keep_the_server_waiting_at_the_end(homes: Homes) -> None:
    lines = [json.dumps(INITIALIZE), INITIALIZED, add_milestone(40, "cancelled"),
             '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":40}}', add_milestone(41, "kept")]
    done = subprocess.run([*SERVER, "--session", str(homes.root / "raw.jsonl")], cwd=homes.project,
                          capture_output=True, input="\n".join(lines).encode() + b"\n", timeout=60)
    assert done.returncode == 0, done.stderr
    ids = [a["id"] for a in answers(done.stdout)]
    assert ids.count(41) == 1 and ids.count(40) <= 1  # a cancelled request may go unanswered, never twice


def test_stdout_closed_under_the_server_is_one_line_and_exit_1(homes: Homes) -> None:
    server = subprocess.Popen([*SERVER, "--session", str(homes.root / "raw.jsonl")], cwd=homes.project,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert server.stdout is not None
    server.stdout.close()  # the client went away without closing its end of stdin first
    pings = [json.dumps({"jsonrpc": "2.0", "id": n, "method": "ping"}) for n in range(2, 5)]
    _, stderr = server.communicate("\n".join([json.dumps(INITIALIZE), *pings]).encode() + b"\n", timeout=60)
    assert server.returncode == 1
    assert stderr.decode().splitlines()[1:] == ["pideck mcp: stopped: [Errno 32] Broken pipe"]


def test_a_lone_surrogate_read_back_from_the_file_is_answered_escaped(homes: Homes) -> None:
    """A JSON string may hold a lone surrogate (the file says "\\ud800"), which UTF-8 cannot: the
    SDK failed to write the answer that echoed it, and the server stopped with the next requests
    unanswered. The text now carries the escape, as JSON.stringify writes it."""
    path = homes.root / "surrogate.jsonl"
    deck = open_deck(path).deck
    assert not deck.call_tool("agent_state_add_work_item", {"id": "w1", "content": "x \ud800 y"}).rejected
    lines = [json.dumps(INITIALIZE), INITIALIZED, call(2, "agent_state_get", {}),
             json.dumps({"jsonrpc": "2.0", "id": 3, "method": "tools/list"})]
    done = subprocess.run([*SERVER, "--session", str(path)], cwd=homes.project, capture_output=True,
                          input="\n".join(lines).encode() + b"\n", timeout=60)
    assert done.returncode == 0, done.stderr
    got = {a["id"]: a for a in answers(done.stdout)}
    assert sorted(got) == [1, 2, 3]
    assert got[2]["result"]["content"][0]["text"].endswith("- w1 [open]: x \\ud800 y")


HANGING_SERVER = """
import sys, time
from core.agents import mcp_server
from core.deck.deck import Deck

Deck.call_tool = lambda self, name, arguments: time.sleep(3600)  # a call that never ends
mcp_server.EOF_WAIT_S = 1
from core.cli.main import main
sys.exit(main(sys.argv[1:]))
"""


def test_a_call_that_hangs_does_not_keep_the_server_up_after_stdin_closed(homes: Homes) -> None:
    """At the end of stdin the server waits for the calls it read, but not for ever: after
    ``EOF_WAIT_S`` it says how many were left unanswered, in one line, and exits."""
    lines = [json.dumps(INITIALIZE), INITIALIZED, add_milestone(50, "hangs")]
    done = subprocess.run([SERVER[0], "-c", HANGING_SERVER, "mcp", "--session", str(homes.root / "raw.jsonl")],
                          cwd=homes.project, capture_output=True, input="\n".join(lines).encode() + b"\n", timeout=30)
    assert done.returncode == 1 and [a["id"] for a in answers(done.stdout)] == [1]
    assert ("pideck mcp: stdin closed: 1 request(s) still running after 1 s: exiting without their answers"
            in done.stderr.decode().splitlines())
