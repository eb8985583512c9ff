"""Hypothesis fuzz of the reader: bad bytes never crash it, valid entries are never lost, and the
index and the branch are what pi's algorithm (session_helpers.reference_read) gives, on both of the
reader's paths (the scanner and the full parse) and whether or not it starts from a saved index."""

from __future__ import annotations

import json
import uuid

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from session_helpers import HEADER, NotSession, entry, identity, line, message, read_back, reference_read, session_bytes

from core.jsutil import escape_lone_surrogates
from core.session.errors import NotASession, ReadOnlySession
from core.session.log import SessionLog
from core.session.indexing import Indexer

IDS = [f"{i:08x}" for i in range(12)]  # a small pool: duplicates, cycles and missing parents happen
CYCLE_THEN_NEW_ROOT = (
    b'{"type":"session","version":3,"id":"01a22cf2-253f-70fd-b26f-f043e48c877f","timestamp":"2026-11-30T14:53:16.479Z","cwd":"/home/user/demo-project"}\n{"type":"custom","customType":"agent-state-state","data":{"n":0,"t":""},"id":"00000000","parentId":null,"timestamp":"2026-11-30T14:53:16.480Z"}\n{"type":"custom","customType":"agent-state-state","data":{"schemaVersion":1,"state":{"schemaVersion":1,"objective":"","workItems":[{"id":"w","content":"","status":"open"}],"decisions":[]}},"id":"00000000","parentId":"00000001","timestamp":"2026-11-30T14:53:16.480Z"}\n{"type":"custom","customType":"agent-state-state","data":{"n":0,"t":""},"id":"00000001","parentId":"00000000","timestamp":"2026-11-30T14:53:16.480Z"}\n{"type":"custom","customType":"agent-state-state","data":{"n":0,"t":""},"id":"00000000","parentId":null,"timestamp":"2026-11-30T14:53:16.480Z"}\n'
)
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
TEXT = st.one_of(  # any text; half the time with a lone surrogate or a control character in it
    st.text(max_size=20),
    st.builds(lambda a, c, b: a + c + b, st.text(max_size=10), st.sampled_from("\ud800\udbff\udc00\udfff\x1b\x07\x00\u202e"),
              st.text(max_size=10)),
)
DEEP = 5000  # deeper than any Python parser goes
FAIRLY_DEEP = 300  # past pideck's limit, within the parsers'


@st.composite
def entry_lines(draw) -> bytes:
    id_ = draw(st.sampled_from(IDS))
    parent = draw(st.one_of(st.none(), st.sampled_from(IDS + ["ffffffff"])))
    kind = draw(st.sampled_from(["custom", "message", "message", "unknown", "state"]))
    if kind == "custom":
        value = {"type": "custom", "customType": draw(st.sampled_from(["agent-state-state", "x"])),
                 "data": {"n": draw(st.integers()), "t": draw(TEXT)},
                 "id": id_, "parentId": parent, "timestamp": "2026-11-30T14:53:16.480Z"}
    elif kind == "state":  # valid states whose text is shown and printed
        custom_type, data = draw(st.sampled_from([
            ("agent-state-state", {"schemaVersion": 1, "state": {"schemaVersion": 1, "objective": draw(TEXT),
             "workItems": [{"id": "w" + draw(TEXT), "content": draw(TEXT), "status": "open"}], "decisions": []}}),
            ("agent-progress-state", {"schemaVersion": 1, "hasBaseline": False,
                                      "currentMilestones": ["m" + draw(TEXT)], "recordedMilestones": []}),
            ("pi-jtodo/state", {"schemaVersion": 1, "todos": [{"id": "t" + draw(TEXT), "content": draw(TEXT),
                                "status": "pending", "priority": "high", "confidence": 50}], "plan": {}, "goals": []}),
        ]))
        value = {"type": "custom", "customType": custom_type, "data": data,
                 "id": id_, "parentId": parent, "timestamp": "2026-11-30T14:53:16.480Z"}
    elif kind == "message":
        size = draw(st.sampled_from([0, 10, 900, 3000, 70_000]))  # small, around 1 KB, huge
        text = draw(TEXT) + "y" * size
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
    mutation = draw(st.sampled_from(
        ["keep"] * 6 + ["truncate", "utf8", "no_id", "blank", "garbage", "null_parent_num"]
        + ["duplicate_key", "escaped_key", "spaces", "deep_value", "deep_line"]
    ))
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
    elif mutation == "duplicate_key":
        # JSON.parse keeps the last of two equal keys: a second key at the end must win
        key, repeat = draw(st.sampled_from([
            ("parentId", draw(st.sampled_from(IDS + ["r1"]))), ("parentId", None), ("id", draw(st.sampled_from(IDS))),
            ("type", draw(st.sampled_from(["custom", "message", "custom_message"]))),
            ("customType", draw(st.sampled_from(["agent-state-state", "pi-jtodo/state"]))),
            ("message", {"role": "toolResult", "toolName": "todo"}), ("id", 5),
        ]))
        inner = kind == "message" and draw(st.booleans())  # or inside the message: role, toolName
        if inner:
            key, repeat = draw(st.sampled_from([("role", "assistant"), ("role", "user"), ("toolName", "todo"),
                                                ("toolName", None)]))
            raw = raw[:-3] + b"," + json.dumps(key).encode() + b":" + json.dumps(repeat).encode() + b"}}\n"
        else:
            raw = raw[:-2] + b"," + json.dumps(key).encode() + b":" + json.dumps(repeat).encode() + b"}\n"
    elif mutation == "escaped_key":
        key = draw(st.sampled_from([b'"id"', b'"parentId"', b'"type"', b'"customType"', b'"role"', b'"toolName"']))
        spelled = b'"' + "".join(f"\\u{ord(c):04x}" if i == 0 else c for i, c in enumerate(key[1:-1].decode())).encode() + b'"'
        raw = raw.replace(key, spelled, 1)
    elif mutation == "spaces":
        raw = (escape_lone_surrogates(json.dumps(value, indent=None, ensure_ascii=False)) + " \r\n").encode()
    elif mutation == "deep_value":  # a valid-looking entry whose data (or content) nests deeply
        levels = draw(st.sampled_from([DEEP, FAIRLY_DEEP]))
        head = line({k: v for k, v in value.items() if k not in ("data", "message")})[:-2]
        deep = b"[" * levels + b"]" * levels
        if kind == "message":
            raw = head + b',"message":{"role":"user","content":' + deep + b"}}\n"
        else:
            raw = head + b',"data":' + deep + b"}\n"
    elif mutation == "deep_line":
        raw = b"[" * DEEP + b"]" * DEEP + b"\n"
    return raw


@st.composite
def session_files(draw) -> bytes:
    body = b"".join(draw(st.lists(entry_lines(), max_size=25)))
    tail = draw(st.sampled_from([b"", b'{"type":"custom","id":"0000000', b"\xff"]))  # a partial last line
    return line(HEADER) + body + tail


def fresh(tmp_path, data: bytes):
    """A new file per example: hypothesis reuses tmp_path, and a saved index is kept per path."""
    path = tmp_path / f"{uuid.uuid4().hex}.jsonl"
    path.write_bytes(data)
    return path


def open_or_none(path, **options):
    try:
        return SessionLog.open(path, **options)
    except NotASession:
        return None


def index_view(log: SessionLog) -> list[tuple]:
    return [(r.id, r.parent_id, r.type, r.custom_type, r.role, r.tool_name) for r in log.records]


@pytest.mark.parametrize("scan", [True, False], ids=["scanned", "parsed"])
@FUZZ
@given(data=session_files())
def test_the_index_is_exactly_pi(tmp_path, data, scan):
    """Every entry JSON.parse accepts is indexed with the fields JSON.parse gives it (the last of
    two equal keys wins), nothing else is, and the branch is pi's."""
    entries, branch = reference_read(data)
    log = SessionLog.open(fresh(tmp_path, data), scan=scan)
    assert index_view(log) == [identity(e) for e in entries]
    assert [r.id for r in log.branch()] == branch
    assert [dict(r) for r in log.records] == [read_back(e) for e in entries]


@pytest.mark.read_three_ways  # (the split scan too, tests/conftest.py)
@FUZZ
@given(data=session_files())
def test_scanning_and_parsing_agree(tmp_path, data):
    path = fresh(tmp_path, data)
    scanned, parsed = open_or_none(path, scan=True), open_or_none(path, scan=False)
    assert (scanned is None) == (parsed is None)
    if scanned is not None:
        assert index_view(scanned) == index_view(parsed)
        assert [r.id for r in scanned.branch()] == [r.id for r in parsed.branch()]
        assert scanned.warnings == parsed.warnings


@pytest.mark.read_three_ways  # (the split scan too, tests/conftest.py)
@FUZZ
@given(data=session_files(), cuts=st.lists(st.integers(0, 200_000), max_size=6))
def test_tailing_in_pieces_equals_one_read(tmp_path, data, cuts):
    head = line(HEADER)
    path = fresh(tmp_path, head)
    log = SessionLog.open(path)
    rest = data[len(head):]
    points = sorted({min(c, len(rest)) for c in cuts}) + [len(rest)]
    done = 0
    for p in points:
        with open(path, "ab") as fh:
            fh.write(rest[done:p])
        done = p
        log.refresh()
    entries, branch = reference_read(data)
    assert index_view(log) == [identity(e) for e in entries]
    assert [r.id for r in log.branch()] == branch
    cold = SessionLog.open(path, saved_index=False)
    cold.branch()  # (a parentId cycle is reported when the branch is walked)
    assert log.warnings == cold.warnings


@FUZZ
@given(data=session_files(), cut=st.integers(0, 200_000))
# A cycle that only an earlier state of the file had (an entry appended later starts a new root):
# following the leaf warned of it, a fresh read does not.
@example(data=CYCLE_THEN_NEW_ROOT, cut=411)
def test_a_saved_index_then_appends_equals_a_cold_open(tmp_path, monkeypatch, data, cut):
    monkeypatch.setenv("PIDECK_INDEX", "always")
    monkeypatch.setenv("PIDECK_HOME", str(tmp_path / "home"))
    head = line(HEADER)
    rest = data[len(head):]
    cut = min(cut, len(rest))
    path = fresh(tmp_path, head + rest[:cut])
    if open_or_none(path) is None:  # saves the index of the first part
        return
    with open(path, "ab") as fh:
        fh.write(rest[cut:])
    warm, cold = SessionLog.open(path), SessionLog.open(path, saved_index=False)
    assert warm.index_source == "saved index"
    assert index_view(warm) == index_view(cold)
    assert [r.id for r in warm.branch()] == [r.id for r in cold.branch()]  # (walks: cycle warnings)
    assert warm.warnings == cold.warnings and warm.header == cold.header and warm.name == cold.name


@FUZZ
@given(data=st.binary(max_size=300))
def test_random_bytes_never_crash(tmp_path, data):
    try:
        reference_read(data)
        expect_session = True
    except NotSession:
        expect_session = False
    log = open_or_none(fresh(tmp_path, data))
    assert (log is not None) == expect_session
    if log is not None:
        log.branch()


def test_huge_line_is_read(tmp_path):
    big = {"type": "message", "id": "aaaaaaa1", "parentId": None, "timestamp": "t",
           "message": {"role": "assistant", "content": [{"type": "text", "text": "z" * 5_000_000}]}}
    path = tmp_path / "s.jsonl"
    path.write_bytes(line(HEADER) + line(big))
    log = SessionLog.open(path)
    assert log.leaf_id == "aaaaaaa1" and log.leaf.role == "assistant"
    assert json.dumps(log.entry("aaaaaaa1")) == json.dumps(big)


@pytest.mark.parametrize("scan", [True, False], ids=["scanned", "parsed"])
def test_appending_to_a_fuzzed_file_keeps_pi_semantics(tmp_path, scan):
    """An append after bad lines chains onto pi's leaf."""
    data = line(HEADER) + line({"type": "custom", "id": "aaaaaaa1", "parentId": None}) + b"{torn\n" + b"\xff\n"
    path = tmp_path / "s.jsonl"
    path.write_bytes(data)
    log = SessionLog.open(path, scan=scan)
    e = log.append_custom("x", 1)
    assert e["parentId"] == "aaaaaaa1"
    assert reference_read(path.read_bytes())[1] == ["aaaaaaa1", e["id"]]


ORDINARY = [entry("00000000", None, "model_change", provider="x"), message("00000001", "00000000", "user"),
            message("00000002", "00000001"), message("00000003", "00000002", "toolResult", toolName="todo"),
            entry("00000004", "00000003"), entry("00000005", "00000004", "session_info", name="n"),
            message("00000006", "00000002", text="a fork")]


@pytest.mark.parametrize("last, batched", [
    (None, True),
    (message("00000001", "00000006"), False),  # an id seen before
    (message("00000007", "0000000a"), False),  # a parent not in the file (yet)
    (entry("00000007", "00000006", data=[[[[]]]] * 200), True),  # long, but not deep
    (entry("00000007", "00000006", data=json.loads("[" * 300 + "]" * 300)), False),  # deep
    (dict(HEADER, id="second"), False),  # a second header
    (message("00000007", "00000006", role=7), False),  # not a string
    (entry("00000007", None, "future"), True),  # an unknown type, a new root
], ids=["ordinary", "duplicate", "dangling", "long", "deep", "header", "number", "new root"])
def test_a_run_of_ordinary_lines_is_indexed_at_once_as_one_by_one(tmp_path, monkeypatch, last, batched):
    """The scanner indexes a chunk's lines in one batch when all of them are ordinary entries, and
    leaves the chunk to the line-by-line path otherwise: either way the index is pi's. (One chunk,
    read in one piece: the split scan's batches are tested in tests/split_scan.)"""
    monkeypatch.setenv("PIDECK_SPLIT", "off")
    data = session_bytes(*ORDINARY, *([last] if last is not None else []))
    runs: list[int] = []
    real = Indexer._index_batch
    monkeypatch.setattr(Indexer, "_index_batch", lambda self, *a: runs.append(real(self, *a)) or runs[-1])
    path = fresh(tmp_path, data)
    scanned = SessionLog.open(path, scan=True)
    assert (runs[0] > 0) == batched and len(runs) == 1
    parsed = SessionLog.open(path, scan=False)
    entries, branch = reference_read(data)
    assert index_view(scanned) == index_view(parsed) == [identity(e) for e in entries]
    assert [r.id for r in scanned.branch()] == [r.id for r in parsed.branch()] == branch
    assert scanned.warnings == parsed.warnings and scanned.name == parsed.name == "n"


def test_an_entry_that_is_its_own_parent_after_a_saved_index_is_a_cycle(tmp_path, monkeypatch):
    """An appended entry whose parentId is its own id: pi's walk loops there (a cycle warning), as
    in a full read; following the branch entry by entry had taken it for a new root."""
    monkeypatch.setenv("PIDECK_INDEX", "always")
    first = session_bytes(entry("00000000", None), entry("00000000", None))
    path = fresh(tmp_path, first)
    SessionLog.open(path)
    with open(path, "ab") as fh:
        fh.write(line(entry("00000001", "00000001")))
    warm, cold = SessionLog.open(path), SessionLog.open(path, saved_index=False)
    assert [r.id for r in warm.branch()] == [r.id for r in cold.branch()] == reference_read(path.read_bytes())[1]
    assert warm.warnings == cold.warnings and any("cycle" in w for w in warm.warnings)


# The classes of issue 9: whatever a file holds, everything derived from it can be shown and printed
# (a lone surrogate once failed every later inspect), and an append lands only after a version 3
# header, as whole entries, whatever happened to the file since it was opened.


@pytest.mark.slow
@FUZZ
@given(data=session_files())
def test_every_fuzzed_session_can_be_derived_shown_and_printed(tmp_path, data, capsys):
    from core.cli.main import main
    from core.deck.deck import Deck
    from core.views.view import build_view

    path = fresh(tmp_path, data)
    log = open_or_none(path)
    if log is None:
        return
    build_view(Deck(log))  # what the TUI draws
    for argv in (["inspect"], ["inspect", "--json"], ["tool", "agent_state_get"], ["run", "/todos"]):
        capsys.readouterr()
        assert main([*argv[:1], "--session", str(path), *argv[1:]]) in (0, 1)
        out = capsys.readouterr().out  # (the captured stream encodes strictly, as a UTF-8 pipe does)
        if argv[-1] == "--json":
            json.loads(out)
    assert path.read_bytes() == data  # reading never writes


HEADERS = [HEADER, {**HEADER, "version": 99}, {**HEADER, "version": 2}, {**HEADER, "version": "3"},
           {k: v for k, v in HEADER.items() if k != "version"}, {**HEADER, "id": 5}, {"type": "custom", "id": "x"}]


@pytest.mark.slow
@FUZZ
@given(header=st.sampled_from(HEADERS), body=session_files(), cut=st.one_of(st.none(), st.integers(0, 400)))
def test_an_append_is_whole_entries_after_a_version_3_header_or_nothing(tmp_path, header, body, cut):
    data = line(header) + body[len(line(HEADER)):]
    path = fresh(tmp_path, data)
    log = open_or_none(path)
    if log is None:
        return
    if cut is not None:  # the file is truncated under the open log
        path.write_bytes(data[:cut])
    before = path.read_bytes()
    try:
        log.append_custom("x", {"n": 1})
    except (ReadOnlySession, NotASession):
        assert path.read_bytes() == before
        return
    after = path.read_bytes()
    assert after.startswith(before) and header == HEADER
    added = after[len(before):]
    if before and not before.endswith(b"\n"):
        assert added.startswith(b"\n")  # the torn last line gets its own line first
        added = added[1:]
    [entry] = [json.loads(raw) for raw in added.splitlines()]
    assert entry["customType"] == "x" and entry["id"] == log.leaf_id
    assert reference_read(after)[1][-1] == entry["id"]  # pi's leaf is the new entry
