"""Hypothesis fuzz of the reader: bad bytes never crash it, valid entries are never lost, and the
branch is what pi's algorithm (session_helpers.reference_read) gives."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from session_helpers import HEADER, NotSession, line, reference_read

from core.session import NotASession, SessionLog

IDS = [f"{i:08x}" for i in range(12)]  # a small pool: duplicates, cycles and missing parents happen
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@st.composite
def entry_lines(draw) -> bytes:
    id_ = draw(st.sampled_from(IDS))
    parent = draw(st.one_of(st.none(), st.sampled_from(IDS + ["ffffffff"])))
    kind = draw(st.sampled_from(["custom", "message", "message", "unknown"]))
    if kind == "custom":
        value = {"type": "custom", "customType": draw(st.sampled_from(["agent-state-state", "x"])),
                 "data": {"n": draw(st.integers()), "t": draw(st.text(max_size=20))},
                 "id": id_, "parentId": parent, "timestamp": "2026-11-30T14:53:16.480Z"}
    elif kind == "message":
        size = draw(st.sampled_from([0, 10, 900, 3000, 70_000]))  # small, around the threshold, huge
        text = draw(st.text(max_size=30)) + "y" * size
        role = draw(st.sampled_from(["user", "assistant", "toolResult"]))
        message = {"role": role}
        if role == "toolResult":
            message.update(toolCallId="c1", toolName=draw(st.sampled_from(["bash", "todo"])))
        message["content"] = [{"type": "text", "text": text}]
        if draw(st.booleans()):
            message["usage"] = {"cost": {"total": 0}}  # inner `}}` so that a cut can end in `}}`
        message["timestamp"] = 1
        value = {"type": "message", "id": id_, "parentId": parent, "timestamp": "2026-11-30T14:53:16.480Z",
                 "message": message}
    else:
        value = {"type": "future", "id": id_, "parentId": parent}
    raw = line(value)
    mutation = draw(st.sampled_from(["keep"] * 6 + ["truncate", "utf8", "no_id", "blank", "garbage", "null_parent_num"]))
    if mutation == "truncate":
        raw = raw[: draw(st.integers(0, len(raw) - 1))] + b"\n"
    elif mutation == "utf8":
        at = draw(st.integers(0, len(raw) - 1))
        raw = raw[:at] + draw(st.sampled_from([b"\xff", b"\xc3", b"\xed\xa0\x80"])) + raw[at:]
    elif mutation == "no_id":
        raw = line({k: v for k, v in value.items() if k != "id"})
    elif mutation == "blank":
        raw = b"  \n"
    elif mutation == "garbage":
        raw = draw(st.binary(max_size=40)).replace(b"\n", b"") + b"\n"
    elif mutation == "null_parent_num":
        raw = line(dict(value, parentId=7))
    return raw


@st.composite
def session_files(draw) -> bytes:
    body = b"".join(draw(st.lists(entry_lines(), max_size=25)))
    tail = draw(st.sampled_from([b"", b'{"type":"custom","id":"0000000', b"\xff"]))  # a partial last line
    return line(HEADER) + body + tail


def open_or_none(path, fast_min):
    try:
        return SessionLog.open(path, fast_min=fast_min)
    except NotASession:
        return None


@FUZZ
@given(data=session_files())
def test_exactly_pi_without_the_fast_path(tmp_path, data):
    path = tmp_path / "s.jsonl"
    path.write_bytes(data)
    entries, branch = reference_read(data)
    log = SessionLog.open(path, fast_min=None)
    assert [r.id for r in log.records] == [e["id"] for e in entries]
    assert [r.id for r in log.branch()] == branch
    assert [dict(r) for r in log.records] == entries


@FUZZ
@given(data=session_files())
def test_fast_path_never_loses_a_valid_entry(tmp_path, data):
    """With the head-only index (threshold lowered to reach most lines): every valid entry is there,
    in order; the leaf is pi's leaf; and when no torn line was admitted, the branch is pi's."""
    path = tmp_path / "s.jsonl"
    path.write_bytes(data)
    entries, branch = reference_read(data)
    log = SessionLog.open(path, fast_min=64)
    ours = iter(r.id for r in log.records)
    assert all(e["id"] in ours for e in entries)  # a subsequence: nothing valid lost
    assert log.leaf_id == (entries[-1]["id"] if entries else None)
    if len(log.records) == len(entries):
        assert [r.id for r in log.branch()] == branch
    for record in log.branch():  # bodies read back never crash, even for an admitted torn line
        record.get("message")


@FUZZ
@given(data=session_files(), cuts=st.lists(st.integers(0, 200_000), max_size=6))
def test_tailing_in_pieces_equals_one_read(tmp_path, data, cuts):
    path = tmp_path / "s.jsonl"
    head = line(HEADER)
    path.write_bytes(head)
    log = SessionLog.open(path, fast_min=None)
    rest = data[len(head):]
    points = sorted({min(c, len(rest)) for c in cuts}) + [len(rest)]
    done = 0
    for p in points:
        with open(path, "ab") as fh:
            fh.write(rest[done:p])
        done = p
        log.refresh()
    entries, branch = reference_read(data)
    assert [r.id for r in log.records] == [e["id"] for e in entries]
    assert [r.id for r in log.branch()] == branch


@FUZZ
@given(data=st.binary(max_size=300))
def test_random_bytes_never_crash(tmp_path, data):
    path = tmp_path / "s.jsonl"
    path.write_bytes(data)
    try:
        reference_read(data)
        expect_session = True
    except NotSession:
        expect_session = False
    log = open_or_none(path, 64)
    assert (log is not None) == expect_session
    if log is not None:
        log.branch()


def test_huge_line_is_read(tmp_path):
    big = {"type": "message", "id": "aaaaaaa1", "parentId": None, "timestamp": "t",
           "message": {"role": "assistant", "content": [{"type": "text", "text": "z" * 5_000_000}]}}
    path = tmp_path / "s.jsonl"
    path.write_bytes(line(HEADER) + line(big))
    log = SessionLog.open(path)
    assert log.leaf_id == "aaaaaaa1" and log.leaf.entry is None
    assert json.dumps(log.entry("aaaaaaa1")) == json.dumps(big)


@pytest.mark.parametrize("fast_min", [None, 64])
def test_appending_to_a_fuzzed_file_keeps_pi_semantics(tmp_path, fast_min):
    """An append after bad lines chains onto pi's leaf."""
    data = line(HEADER) + line({"type": "custom", "id": "aaaaaaa1", "parentId": None}) + b"{torn\n" + b"\xff\n"
    path = tmp_path / "s.jsonl"
    path.write_bytes(data)
    log = SessionLog.open(path, fast_min=fast_min)
    e = log.append_custom("x", 1)
    assert e["parentId"] == "aaaaaaa1"
    assert reference_read(path.read_bytes())[1] == ["aaaaaaa1", e["id"]]
