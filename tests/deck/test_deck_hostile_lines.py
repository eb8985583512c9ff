"""Hostile lines in a session file (issue 9, items 1 and 8): a line nested thousands of levels
deep, and a line whose keys repeat. Neither may crash anything that reads the log, and the index
must see what JSON.parse (pi) sees."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from core.cli.main import main
from core.deck.deck import Deck
from core.session.errors import ReadOnlySession
from core.session.log import SessionLog

pytestmark = pytest.mark.read_three_ways  # (how lines are read: the split scan too, tests/conftest.py)

DEEP = 5000
MILESTONES = [f"m{i}" for i in range(5)]


def dumps(value: dict) -> bytes:
    return (json.dumps(value, separators=(",", ":")) + "\n").encode()


def custom(eid: str, parent: str | None, custom_type: str, data: object) -> dict:
    return {"type": "custom", "customType": custom_type, "data": data, "id": eid, "parentId": parent,
            "timestamp": "2026-11-30T14:53:16.480Z"}


def progress(milestones: list[str]) -> dict:
    return {"schemaVersion": 1, "hasBaseline": False, "currentMilestones": milestones, "recordedMilestones": []}


DEEP_LINES = {
    "deep array": b"[" * DEEP + b"]" * DEEP + b"\n",
    # a valid-looking entry of a primitive's type whose data nests DEEP levels
    "deep entry": dumps(custom("dddddddd", "aaaaaaa1", "agent-progress-state", None))[:-2].replace(
        b'"data":null', b'"data":' + b"[" * DEEP + b"]" * DEEP) + b"}\n",
    "deep message": b'{"type":"message","id":"dddddddd","parentId":"aaaaaaa1","timestamp":"t","message":'
                    b'{"role":"toolResult","toolCallId":"c","toolName":"todo","content":[],"details":'
                    + b"[" * DEEP + b"]" * DEEP + b"}}\n",
}


@pytest.fixture
def session(tmp_path: Path) -> Path:
    log = SessionLog.create(tmp_path / "s.jsonl", cwd=tmp_path)
    log.append_custom("agent-progress-state", progress(MILESTONES))
    return log.path


@pytest.mark.parametrize("deep", DEEP_LINES.values(), ids=DEEP_LINES.keys())
def test_a_deep_line_written_with_three_entries_costs_only_itself(session: Path, deep: bytes) -> None:
    """The live case: another writer appends the deep line and three valid entries in one write."""
    deck = Deck(SessionLog.open(session))
    leaf = deck.log.leaf_id
    three = [custom("bbbbbbb1", leaf, "x", 1), custom("bbbbbbb2", "bbbbbbb1", "x", 2),
             custom("bbbbbbb3", "bbbbbbb2", "agent-progress-state", progress(MILESTONES + ["m5"]))]
    with session.open("ab") as fh:
        fh.write(deep + b"".join(dumps(e) for e in three))
    change = deck.refresh()
    assert change is not None and change.new_entries == 3
    assert [r.id for r in deck.log.branch()][-3:] == ["bbbbbbb1", "bbbbbbb2", "bbbbbbb3"]
    assert deck.log.warnings == ["line 3: nested more than 256 levels deep; skipped"]
    assert deck.progress.state()["currentMilestones"] == MILESTONES + ["m5"]
    deck.apply("/agent-progress add m6")  # built on the state before it, not from nothing
    assert SessionLog.open(session).latest_custom("agent-progress-state")["data"]["currentMilestones"] == (
        MILESTONES + ["m5", "m6"])
    assert deck.todo.snapshot()["todos"] == [] and deck.warnings == []


@pytest.mark.parametrize("deep", DEEP_LINES.values(), ids=DEEP_LINES.keys())
def test_a_session_holding_a_deep_line_opens_and_inspects(session: Path, deep: bytes, capsys) -> None:
    with session.open("ab") as fh:
        fh.write(deep)
    log = SessionLog.open(session)
    assert log.warnings == ["line 3: nested more than 256 levels deep; skipped"] and len(log.records) == 1
    assert main(["inspect", "--json", "--session", str(session)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["progress"]["currentMilestones"] == MILESTONES
    assert out["warnings"] == ["line 3: nested more than 256 levels deep; skipped"]
    assert out["session"]["entries"] == 1


def test_inspect_in_its_own_process_survives_a_deep_line(session: Path, tmp_path: Path) -> None:
    with session.open("ab") as fh:
        fh.write(DEEP_LINES["deep entry"])
    done = subprocess.run([sys.executable, "-m", "core.cli.main", "inspect", "--json", "--session", str(session)],
                          capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert json.loads(done.stdout)["progress"]["currentMilestones"] == MILESTONES


def test_a_message_body_nested_past_the_limit_is_kept_but_never_decoded(session: Path) -> None:
    """pi keeps a message nested 300 levels deep, and so does the index (the branch goes through
    it); its body is refused when read back, with a warning, instead of a RecursionError later."""
    levels = 300
    body = (b'{"type":"message","id":"cccccccc","parentId":"%s","timestamp":"t","message":{"role":"toolResult",'
            b'"toolCallId":"c","toolName":"todo","content":[],"details":{"todos":' % SessionLog.open(session).leaf_id.encode()
            + b"[" * levels + b"]" * levels + b"}}}\n")
    with session.open("ab") as fh:
        fh.write(body + dumps(custom("eeeeeeee", "cccccccc", "x", 1)))
    deck = Deck(SessionLog.open(session))
    assert [r.id for r in deck.log.branch()][-2:] == ["cccccccc", "eeeeeeee"]
    assert deck.todo.snapshot() is not None and not deck.has_todo_state()
    assert deck.log.warnings == ["line 3: entry cccccccc could not be read back (nested more than 256 levels deep)"]


@pytest.mark.parametrize(("tail", "parent"), [
    (b',"parentId":"r1"}', "r1"),  # the crafted line of issue 9: a second parentId at the end
    (b',"parentId":"r1","z":{}}', "r1"),  # ... still ending in "}}" like a message line
    (b',"parentId":null,"z":{}}', None),
    (b',"p\\u0061rentId":"r1","z":{}}', "r1"),  # the same key spelled with an escape
])
def test_a_repeated_key_counts_as_json_parse_counts_it(tmp_path: Path, tail: bytes, parent: str | None) -> None:
    big = "y" * 3000  # large enough for the old head-only index
    lines = [
        {"type": "session", "version": 3, "id": "s", "timestamp": "t", "cwd": "/x"},
        {"type": "message", "id": "r1", "parentId": None, "timestamp": "t", "message": {"role": "user", "content": "a"}},
        {"type": "message", "id": "a1", "parentId": "r1", "timestamp": "t", "message": {"role": "user", "content": "b"}},
    ]
    crafted = dumps({"type": "message", "id": "a2", "parentId": "a1", "timestamp": "t",
                     "message": {"role": "assistant", "content": [{"type": "text", "text": big}]}})[:-2] + tail + b"\n"
    path = tmp_path / "s.jsonl"
    path.write_bytes(b"".join(dumps(v) for v in lines) + crafted)
    log = SessionLog.open(path)
    assert log.leaf.parent_id == parent == json.loads(crafted)["parentId"]
    assert [r.id for r in log.branch()] == (["r1", "a2"] if parent else ["a2"])


def test_repeated_type_role_and_tool_name_count_as_json_parse_counts_them(tmp_path: Path) -> None:
    head = dumps({"type": "session", "version": 3, "id": "s", "timestamp": "t", "cwd": "/x"})
    message = b'{"type":"message","id":"a1","parentId":null,"timestamp":"t","message":{"role":"assistant","content":"' \
              + b"y" * 3000 + b'","role":"toolResult","toolName":"bash","toolName":"todo","details":{"todos":[]}}}\n'
    retyped = b'{"type":"custom","customType":"x","data":1,"id":"a2","parentId":"a1","timestamp":"t",' \
              b'"customType":"agent-progress-state","type":"custom_message"}\n'
    path = tmp_path / "s.jsonl"
    path.write_bytes(head + message + retyped)
    log = SessionLog.open(path)
    first, second = log.records
    assert (first.type, first.role, first.tool_name) == ("message", "toolResult", "todo")
    assert (second.type, second.custom_type) == ("custom_message", "agent-progress-state")
    assert log.latest_tool_result("todo")["id"] == "a1" and log.latest_custom("agent-progress-state") is None
