"""Parsing: every entry type pi writes, the example sessions written by real pi
(docs/session-format.md#reference-files-from-real-pi), and every kind of bad line."""

from __future__ import annotations

import json

import pytest
from session_helpers import FIXTURES, HEADER, entry, line, message, reference_read, session_bytes

from core.session.errors import NotASession
from core.session.log import SessionLog

pytestmark = pytest.mark.read_three_ways  # (how lines are read: the split scan too, tests/conftest.py)

BRANCHED = FIXTURES / "2026-11-30T14-53-16-479Z_01a22cf2-253f-70fd-b26f-f043e48c877f.jsonl"


def write(tmp_path, data: bytes, name: str = "s.jsonl"):
    path = tmp_path / name
    path.write_bytes(data)
    return path


def test_every_entry_type_pi_writes(tmp_path):
    examples = (FIXTURES / "pi_entry_examples.jsonl").read_bytes()
    path = write(tmp_path, line(HEADER) + examples)
    log = SessionLog.open(path)
    expected = [json.loads(raw) for raw in examples.splitlines()]
    assert log.warnings == []
    assert [r.type for r in log.records] == [
        "custom", "custom_message", "model_change", "thinking_level_change", "compaction",
        "branch_summary", "label", "session_info", "context_edit",
    ]
    for record, want in zip(log.records, expected):
        assert record.id == want["id"] and record.parent_id == want["parentId"]
        assert dict(record) == want
    assert log.records[0].custom_type == "agent-state-state"
    assert log.records[1].custom_type == "agent-state-note"
    assert log.name == "Refactor auth module"
    assert log.leaf_id == "g6h7i8j9"


def test_cli_session_verbatim_has_an_elided_line(tmp_path):
    """pi's CLI session with its system message elided as `{…}`, which is not JSON: it is skipped with
    a warning, so the user message's parent is missing and the branch starts there (as pi would)."""
    path = FIXTURES / "pi_cli_session.jsonl"
    log = SessionLog.open(path)
    assert len(log.warnings) == 1 and log.warnings[0].startswith("line 4: invalid JSON")
    assert len(log.records) == 8
    ids = [r.id for r in log.branch()]
    assert ids == reference_read(path.read_bytes())[1]
    assert ids == ["f09a4425", "5a22d292", "4f566eac", "911d6594", "ae939bd4", "3da9b86f"]


def test_cli_session_unelided():
    log = SessionLog.open(FIXTURES / "pi_cli_session_unelided.jsonl")
    assert log.warnings == []
    assert [r.type for r in log.branch()][:4] == ["model_change", "thinking_level_change", "message", "message"]
    assert [r.role for r in log.branch() if r.type == "message"] == ["system", "user", "assistant", "user", "assistant"]
    assert len(log.branch()) == 9 and log.leaf_id == "3da9b86f"
    assert log.latest_custom("agent-state-state")["id"] == "3da9b86f"
    assert log.session_id == "01a22cf3-ee8a-76c4-ac31-d27625d5469f" and log.cwd == "/home/user/project"


def test_branched_session_matches_pi_observations():
    """pi's small branched SessionManager file (docs/session-format.md#the-branch-rule): leaf = last
    line; branch u1, a1, c1, c3; c2 stays reachable but off the branch."""
    log = SessionLog.open(BRANCHED)
    assert log.leaf_id == "73a3a127"
    branch = [f"{r.type}:{r.custom_type}:{r.id}" if r.custom_type else f"{r.type}:{r.id}" for r in log.branch()]
    assert branch == ["message:c9fc306a", "message:d9b56fb4", "custom:agent-state-state:e5933a35",
                      "custom:agent-state-state:73a3a127"]
    assert [r.id for r in log.records if r.parent_id == "d9b56fb4"] == ["e5933a35"]
    assert "3e22ee9e" in log.by_id and "3e22ee9e" not in [r.id for r in log.branch()]
    assert log.latest_custom("agent-state-state")["data"] == {"schemaVersion": 1, "state": {"step": 2, "notes": ["first", "ALT"]}}
    assert log.entry("3e22ee9e")["data"]["state"]["notes"] == ["first", "second"]


def test_branch_entries_satisfy_the_adapter_interface():
    from core.primitives.host import latest_custom

    log = SessionLog.open(BRANCHED)
    entries = log.branch_entries()
    assert [e["id"] for e in entries] == ["c9fc306a", "d9b56fb4", "e5933a35", "73a3a127"]
    assert entries[0].get("message") == {"role": "user", "content": "Hello", "timestamp": 1796050396480}
    assert latest_custom(entries, "agent-state-state")["id"] == "73a3a127"


def test_bad_lines_are_skipped_with_numbered_warnings(tmp_path):
    data = (
        line(HEADER)
        + b"\n   \n"  # blank lines: silent
        + line(entry("aaaaaaa1", None))
        + b"{not json\n"
        + b'{"type":"custom","id":"aaaaaaa2","parentId":"aaaaaaa1","data":"\xff\xfe"}\n'  # kept: read as U+FFFD, as pi does
        + b"[1,2,3]\n"
        + b'{"type":"custom","id":"aaaaaaa3","parentId":"aaaaaaa1","data":NaN}\n'  # JSON.parse rejects NaN
        + line(entry("aaaaaaa4", "aaaaaaa1"))
        + b'{"type":"note","text":"foreign"}\n'  # no id
        + b'{"type":"custom","id":"aaaaaaa5"'  # partial last line: not parsed
    )
    log = SessionLog.open(write(tmp_path, data))
    assert [r.id for r in log.records] == ["aaaaaaa1", "aaaaaaa2", "aaaaaaa4"]
    assert log.entry("aaaaaaa2")["data"] == "\ufffd\ufffd"
    assert [w.split(":")[0] for w in log.warnings] == ["line 5", "line 7", "line 8", "line 10",
                                                       "the last line (line 11) is incomplete"]  # (said, not parsed)
    assert "not a JSON object" in log.warnings[1]
    assert "without a string id" in log.warnings[3]
    assert log.leaf_id == "aaaaaaa4"  # the last line that has an id
    assert [r.id for r in log.branch()] == ["aaaaaaa1", "aaaaaaa4"]


def test_unknown_types_are_tree_nodes(tmp_path):
    data = session_bytes(entry("aaaaaaa1", None), {"type": "future_thing", "id": "aaaaaaa2", "parentId": "aaaaaaa1", "x": 1})
    log = SessionLog.open(write(tmp_path, data))
    assert log.leaf_id == "aaaaaaa2" and [r.type for r in log.branch()] == ["custom", "future_thing"]
    assert [r.known for r in log.branch()] == [True, False]
    assert log.entry("aaaaaaa2")["x"] == 1


@pytest.mark.parametrize("data", [b"", b"\n\n", b'{"type":"session","id":"x"', line({"type": "custom", "id": "a"}),
                                  b"garbage\n" + line({"type": "message", "id": "a", "parentId": None}),
                                  line({"type": "session", "version": 3})])
def test_not_a_session(tmp_path, data):
    with pytest.raises(NotASession, match="not a pi session file"):
        SessionLog.open(write(tmp_path, data))


def test_missing_file(tmp_path):
    with pytest.raises(FileNotFoundError):
        SessionLog.open(tmp_path / "nope.jsonl")


def test_invalid_lines_before_the_header_are_skipped(tmp_path):
    log = SessionLog.open(write(tmp_path, b"oops\n" + session_bytes(entry("aaaaaaa1", None))))
    assert log.header == HEADER and log.warnings[0].startswith("line 1: invalid JSON") and log.leaf_id == "aaaaaaa1"


def test_bodies_are_read_back_when_asked_for(tmp_path):
    big = "x" * 5000
    data = session_bytes(
        message("aaaaaaa1", None, "user", "hello"),
        message("aaaaaaa2", "aaaaaaa1", "assistant", big),
        message("aaaaaaa3", "aaaaaaa2", "toolResult", big, details={"n": 1}),
        message("aaaaaaa4", "aaaaaaa3", "toolResult", big, toolName="todo", details={"todos": []}),
        entry("aaaaaaa5", "aaaaaaa4"),
    )
    log = SessionLog.open(write(tmp_path, data))
    r1, r2, r3, r4, r5 = log.records
    assert (r1.role, r2.role, r3.role, r3.tool_name, r4.tool_name) == ("user", "assistant", "toolResult", "bash", "todo")
    assert (r5.type, r5.custom_type, r5.role) == ("custom", "agent-state-state", None)
    assert r2["message"]["content"][0]["text"] == big
    assert log.entry("aaaaaaa3")["message"]["details"] == {"n": 1}
    assert r3["type"] == "message" and r3["id"] == "aaaaaaa3" and r5["customType"] == "agent-state-state"
    assert log.latest_tool_result("todo")["message"]["details"] == {"todos": []}
    assert log.latest_tool_result("bash")["message"]["details"] == {"n": 1}
    assert log.latest_tool_result("read") is None
    assert log.records[1] is r2 and log.by_id["aaaaaaa2"] is r2 and log.branch()[1] is r2  # one object per entry


def test_entry_lines_are_scanned_not_parsed(tmp_path, monkeypatch):
    """Only the header is parsed in full; every entry line of a pi session is read by the scanner."""
    import core.session.indexing as indexing

    parsed = []
    real = indexing.parse_line
    monkeypatch.setattr(indexing, "parse_line", lambda buf, start, end: parsed.append(start) or real(buf, start, end))
    log = SessionLog.open(FIXTURES / "pi_cli_session_unelided.jsonl")
    assert len(log.records) == 9 and parsed == [0]


def test_a_torn_line_is_skipped_wherever_it_is(tmp_path):
    """A big message line cut after an inner `}}` looks complete from its head and tail; every line
    is checked in full, so it is skipped like pi skips it, also when it is not the last one."""
    good = line(message("aaaaaaa1", None, "user", "hi"))
    torn = line(message("aaaaaaa2", "aaaaaaa1", "assistant", "y" * 3000, usage={"cost": {"total": 0}}))
    torn = torn[: torn.index(b"}}") + 2] + b"\n"
    log = SessionLog.open(write(tmp_path, line(HEADER) + good + torn))
    assert [r.id for r in log.records] == ["aaaaaaa1"] and log.leaf_id == "aaaaaaa1"
    assert len(log.warnings) == 1 and log.warnings[0].startswith("line 3: invalid JSON")
    after = line(entry("aaaaaaa3", "aaaaaaa2"))
    log = SessionLog.open(write(tmp_path, line(HEADER) + good + torn + after, "t.jsonl"))
    assert [r.id for r in log.records] == ["aaaaaaa1", "aaaaaaa3"] and [r.id for r in log.branch()] == ["aaaaaaa3"]


def test_duplicate_ids_later_wins(tmp_path):
    data = session_bytes(entry("aaaaaaa1", None), entry("aaaaaaa2", "aaaaaaa1"), entry("aaaaaaa2", None, data={"dup": 1}),
                         entry("aaaaaaa3", "aaaaaaa2"))
    log = SessionLog.open(write(tmp_path, data))
    assert [r.id for r in log.branch()] == ["aaaaaaa2", "aaaaaaa3"]
    assert log.entry("aaaaaaa2")["data"] == {"dup": 1}
    assert "duplicate id aaaaaaa2" in log.warnings[0] and len(log.records) == 4


def test_cycles_are_cut(tmp_path):
    data = session_bytes(entry("aaaaaaa1", "aaaaaaa3"), entry("aaaaaaa2", "aaaaaaa1"), entry("aaaaaaa3", "aaaaaaa2"))
    log = SessionLog.open(write(tmp_path, data))
    assert [r.id for r in log.branch()] == ["aaaaaaa1", "aaaaaaa2", "aaaaaaa3"]
    assert any("cycle" in w for w in log.warnings)
    self_loop = SessionLog.open(write(tmp_path, session_bytes(entry("aaaaaaa1", "aaaaaaa1")), "t.jsonl"))
    assert [r.id for r in self_loop.branch()] == ["aaaaaaa1"]


def test_missing_parent_ends_the_branch(tmp_path):
    data = session_bytes(entry("aaaaaaa1", None), entry("aaaaaaa2", "deadbeef"), entry("aaaaaaa3", "aaaaaaa2"))
    log = SessionLog.open(write(tmp_path, data))
    assert [r.id for r in log.branch()] == ["aaaaaaa2", "aaaaaaa3"]


def test_legacy_files_are_read_only_with_synthetic_ids(tmp_path):
    header = {"type": "session", "id": "old", "timestamp": "2024-01-01T00:00:00.000Z", "cwd": "/x"}
    data = b"".join(line(v) for v in (
        header,
        {"type": "message", "timestamp": "t", "message": {"role": "user", "content": "hi"}},
        {"type": "message", "timestamp": "t", "message": {"role": "hookMessage", "customType": "x", "content": "n"}},
    ))
    log = SessionLog.open(write(tmp_path, data))
    assert log.version == 1 and not log.writable and "never writes" in log.read_only_reason
    assert [(r.id, r.parent_id) for r in log.branch()] == [("line-2", None), ("line-3", "line-2")]
    assert log.entry("line-3")["message"]["role"] == "custom"
    assert "version 1" in log.warnings[0]


# A file older than format version 3 (docs/session-format.md#files-older-than-format-version-3): the
# index read the role ``hookMessage`` from a big line's head while its body read back as ``custom``.
def test_a_big_hook_message_of_a_version_2_file_is_a_custom_message(tmp_path):
    big = {"type": "message", "id": "aaaaaaa1", "parentId": None, "timestamp": "2026-11-30T14:53:16.480Z",
           "message": {"role": "hookMessage", "customType": "x", "content": "y" * 3000, "display": True}}
    path = tmp_path / "s.jsonl"
    path.write_bytes(line(dict(HEADER, version=2)) + line(big) + line(dict(big, id="aaaaaaa2", parentId="aaaaaaa1")))
    log = SessionLog.open(path)
    assert not log.writable
    assert [(r.id, r.role) for r in log.records] == [("aaaaaaa1", "custom"), ("aaaaaaa2", "custom")]
    assert [r["message"]["role"] for r in log.branch()] == ["custom", "custom"]
