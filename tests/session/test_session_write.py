"""Appends: pi's serialisation byte for byte, ids, timestamps, locking, newline repair, read-only."""

from __future__ import annotations

import json
import os
import stat
from datetime import datetime, timezone
from itertools import count

import pytest
from session_helpers import HEADER, entry, line, session_bytes

from core.session.errors import ReadOnlySession
from core.session.log import SessionLog
from core.session.errors import OPENED_READ_ONLY, PI_SESSION_READ_ONLY
from core.session.writer import iso_timestamp, uuid7

T0 = datetime(2026, 11, 30, 14, 53, 48, 437999, tzinfo=timezone.utc)


def fixed_ids(*ids: str):
    it = iter(ids)
    return lambda: next(it)


def make(tmp_path, *entries, **options) -> SessionLog:
    p = tmp_path / "s.jsonl"
    p.write_bytes(session_bytes(*entries))
    return SessionLog.open(p, **options)


def test_custom_entry_is_byte_exact(tmp_path):
    """The custom entry pi wrote (tests/fixtures/pi_entry_examples.jsonl), reproduced."""
    log = make(tmp_path, entry("f924b887", None), clock=lambda: T0, id_factory=fixed_ids("38e820dd"))
    before = log.path.read_bytes()
    returned = log.append_custom("agent-state-state", {"schemaVersion": 1, "state": {"counter": 2}})
    expected = (b'{"type":"custom","customType":"agent-state-state","data":{"schemaVersion":1,"state":{"counter":2}},'
                b'"id":"38e820dd","parentId":"f924b887","timestamp":"2026-11-30T14:53:48.437Z"}\n')
    assert log.path.read_bytes() == before + expected
    assert returned == json.loads(expected) and log.leaf_id == "38e820dd"
    assert log.latest_custom("agent-state-state") == returned


def test_custom_message_is_byte_exact(tmp_path):
    t = datetime(2026, 11, 30, 14, 54, 27, 829000, tzinfo=timezone.utc)
    log = make(tmp_path, entry("10259118", None), clock=lambda: t, id_factory=fixed_ids("34e931ec", "aaaaaaa9"))
    before = log.path.read_bytes()
    log.append_custom_message("agent-state-note", "Note: hello", True, {"v": 1})
    log.append_custom_message("agent-state-note", "ünïcødé ✓", False)
    assert log.path.read_bytes()[len(before):] == (
        b'{"type":"custom_message","customType":"agent-state-note","content":"Note: hello","display":true,'
        b'"details":{"v":1},"id":"34e931ec","parentId":"10259118","timestamp":"2026-11-30T14:54:27.829Z"}\n'
        + '{"type":"custom_message","customType":"agent-state-note","content":"ünïcødé ✓","display":false,'
        '"id":"aaaaaaa9","parentId":"34e931ec","timestamp":"2026-11-30T14:54:27.829Z"}\n'.encode()
    )


def test_custom_without_data_and_js_numbers_and_surrogates(tmp_path):
    log = make(tmp_path, clock=lambda: T0, id_factory=fixed_ids("aaaaaaa1", "aaaaaaa2"))
    before = log.path.read_bytes()
    log.append_custom("marker")
    log.append_custom("x", {"f": 1.0, "g": 2.5, "big": 1e16, "nan": float("nan"), "s": "a\ud800b\U0001F600"})
    new = log.path.read_bytes()[len(before):]
    assert new.splitlines()[0] == b'{"type":"custom","customType":"marker","id":"aaaaaaa1","parentId":null,"timestamp":"2026-11-30T14:53:48.437Z"}'
    assert b'"data":{"f":1,"g":2.5,"big":10000000000000000,"nan":null,"s":"a\\ud800b\xf0\x9f\x98\x80"}' in new
    assert log.entry("aaaaaaa2")["data"]["s"] == "a\ud800b\U0001F600"


def test_ids_are_unique_in_the_file(tmp_path):
    log = make(tmp_path, entry("aaaaaaa1", None), id_factory=fixed_ids("aaaaaaa1", "aaaaaaa1", "bbbbbbb2"))
    assert log.append_custom("x", 1)["id"] == "bbbbbbb2"
    same = make(tmp_path, entry("aaaaaaa1", None), id_factory=lambda: "aaaaaaa1")
    assert len(same.append_custom("x", 1)["id"]) == 36  # after 100 tries: a full UUID, like pi


def test_default_ids_and_timestamps(tmp_path):
    log = make(tmp_path)
    e = log.append_custom("x", {})
    assert len(e["id"]) == 8 and all(c in "0123456789abcdef" for c in e["id"])
    assert len(e["timestamp"]) == 24 and e["timestamp"].endswith("Z")
    assert iso_timestamp(T0) == "2026-11-30T14:53:48.437Z"


def test_create_writes_header_with_mode_0600(tmp_path):
    p = tmp_path / "deep" / "new.jsonl"
    log = SessionLog.create(p, tmp_path, clock=lambda: T0, session_id="01a22cf2-253f-70fd-b26f-f043e48c877f")
    assert stat.S_IMODE(os.stat(p).st_mode) == 0o600
    assert p.read_bytes() == line({"type": "session", "version": 3, "id": "01a22cf2-253f-70fd-b26f-f043e48c877f",
                                   "timestamp": "2026-11-30T14:53:48.437Z", "cwd": str(tmp_path)})
    assert log.writable and log.records == [] and log.leaf_id is None
    e = log.append_custom("x", 1)
    assert e["parentId"] is None
    with pytest.raises(FileExistsError):
        SessionLog.create(p, tmp_path)


def test_uuid7_layout():
    u = uuid7(T0)
    assert u[14] == "7" and u[19] in "89ab" and int(u.replace("-", "")[:12], 16) == int(T0.timestamp() * 1000)


def test_parent_is_the_last_entry_of_the_file(tmp_path):
    """Another process appended since we last read: our parent is its entry, not our stale leaf."""
    mine = make(tmp_path, entry("aaaaaaa1", None))
    theirs = SessionLog.open(mine.path)
    other = theirs.append_custom("x", 1)
    assert mine.leaf_id == "aaaaaaa1"
    assert mine.append_custom("x", 2)["parentId"] == other["id"]
    theirs.refresh()
    assert [r.id for r in theirs.branch()] == [r.id for r in mine.branch()] and len(mine.branch()) == 3


def test_newline_repair_after_a_crashed_writer(tmp_path):
    log = make(tmp_path, entry("aaaaaaa1", None), id_factory=fixed_ids("bbbbbbb1"))
    torn = line(entry("ccccccc1", "aaaaaaa1", data={"big": "x" * 100}))[:60]
    with open(log.path, "ab") as fh:
        fh.write(torn)
    log.refresh()
    assert log.leaf_id == "aaaaaaa1"  # a partial line is never parsed
    e = log.append_custom("x", 1)
    lines = log.path.read_bytes().split(b"\n")
    assert lines[2] == torn and json.loads(lines[3])["id"] == "bbbbbbb1" and lines[4] == b""
    assert e["parentId"] == "aaaaaaa1" and [r.id for r in log.records] == ["aaaaaaa1", "bbbbbbb1"]
    assert log.warnings and log.warnings[0].startswith("line 3: invalid JSON")
    assert [r.id for r in SessionLog.open(log.path).branch()] == ["aaaaaaa1", "bbbbbbb1"]


def test_complete_line_missing_only_its_newline_is_kept(tmp_path):
    log = make(tmp_path, entry("aaaaaaa1", None))
    with open(log.path, "ab") as fh:
        fh.write(line(entry("ccccccc1", "aaaaaaa1"))[:-1])
    e = log.append_custom("x", 1)
    assert e["parentId"] == "ccccccc1" and log.warnings == []


def test_pi_sessions_open_read_only(tmp_path, monkeypatch):
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(tmp_path / "agent"))
    folder = tmp_path / "agent" / "sessions" / "--home-ana--"
    folder.mkdir(parents=True)
    p = folder / "s.jsonl"
    p.write_bytes(session_bytes(entry("aaaaaaa1", None)))
    before = p.read_bytes()
    log = SessionLog.open(p)
    assert not log.writable
    with pytest.raises(ReadOnlySession) as err:
        log.append_custom("x", 1)
    assert str(err.value) == PI_SESSION_READ_ONLY
    with pytest.raises(ReadOnlySession):
        log.append_custom_message("x", "c", True)
    assert p.read_bytes() == before
    assert SessionLog.open(p, writable=True).append_custom("x", 1)["parentId"] == "aaaaaaa1"


def test_unserialisable_data_writes_nothing(tmp_path):
    log = make(tmp_path, entry("aaaaaaa1", None))
    with open(log.path, "ab") as fh:
        fh.write(b'{"partial')
    before = log.path.read_bytes()
    with pytest.raises(TypeError):
        log.append_custom("x", {"s": {1, 2}})
    assert log.path.read_bytes() == before


def test_explicitly_read_only(tmp_path):
    log = make(tmp_path, writable=False)
    with pytest.raises(ReadOnlySession) as err:
        log.append_custom("x", 1)
    assert str(err.value) == OPENED_READ_ONLY


def test_many_appends_keep_one_chain(tmp_path):
    log = make(tmp_path, clock=lambda: T0, id_factory=lambda c=count(): f"{next(c):08x}")
    for i in range(50):
        log.append_custom("x", i)
    reread = SessionLog.open(log.path)
    assert [r.id for r in reread.branch()] == [f"{i:08x}" for i in range(50)] == [r.id for r in log.branch()]


def test_writer_killed_mid_line(tmp_path):
    """A real process dies (SIGKILL) after writing half an entry; the next append repairs the line."""
    import signal
    import subprocess
    import sys

    log = make(tmp_path, entry("aaaaaaa1", None))
    script = (
        "import os, signal, sys\n"
        "fd = os.open(sys.argv[1], os.O_WRONLY | os.O_APPEND)\n"
        "os.write(fd, b'{\"type\":\"custom\",\"customType\":\"x\",\"data\":{\"half\":')\n"
        "os.kill(os.getpid(), signal.SIGKILL)\n"
    )
    proc = subprocess.run([sys.executable, "-c", script, str(log.path)])
    assert proc.returncode == -signal.SIGKILL
    e = log.append_custom("x", {"after": True})
    reread = SessionLog.open(log.path)
    assert [r.id for r in reread.branch()] == ["aaaaaaa1", e["id"]]
    assert len(reread.warnings) == 1 and reread.warnings[0].startswith("line 3: invalid JSON")
