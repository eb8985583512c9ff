"""Following a session file: appends, partial lines, truncation, replacement, pi's rewrite."""

from __future__ import annotations

import os

from session_helpers import HEADER, entry, line, session_bytes

from core.session.log import SessionLog
from core.session.tail import Tailer


def append(path, data: bytes) -> None:
    with open(path, "ab") as fh:
        fh.write(data)


def test_tailer_partial_line_and_truncation(tmp_path):
    p = tmp_path / "s.jsonl"
    p.write_bytes(b'{"type":"a"}\n{"type":"b"')
    t = Tailer(p)
    chunk = t.read()
    assert chunk.lines() == [(1, b'{"type":"a"}')] and not chunk.reset and t.partial == b'{"type":"b"'
    append(p, b"}\n\n")
    chunk = t.read()
    assert chunk.lines() == [(2, b'{"type":"b"}'), (3, b"")] and not chunk.reset
    assert t.read() is None
    p.write_bytes(b'{"type":"c"}\n')
    chunk = t.read()
    assert chunk.reset and chunk.lines() == [(1, b'{"type":"c"}')]


def test_tailer_replacement(tmp_path):
    p = tmp_path / "s.jsonl"
    p.write_bytes(b"1\n2\n")
    t = Tailer(p)
    assert len(t.read().lines()) == 2
    q = tmp_path / "new.jsonl"
    q.write_bytes(b"3\n4\n5\n")
    q.replace(p)
    chunk = t.read()
    assert chunk.reset and [n for n, _ in chunk.lines()] == [1, 2, 3]


def test_tailer_reads_only_appended_bytes(tmp_path):
    p = tmp_path / "s.jsonl"
    p.write_bytes(b"x" * 100_000 + b"\n")
    t = Tailer(p)
    t.read()
    append(p, b"new\n")
    chunk = t.read()
    assert chunk.complete == b"new\n" and chunk.offset == 100_001 and chunk.first_line_no == 2


def test_tailer_huge_line_in_small_reads(tmp_path):
    p = tmp_path / "s.jsonl"
    p.write_bytes(b"a" * 10_000 + b"\nb")
    t = Tailer(p)
    chunk = t.read(max_bytes=64)
    assert chunk.lines() == [(1, b"a" * 10_000)] and t.partial == b"b"


def test_log_refresh_reports_new_entries(tmp_path):
    p = tmp_path / "s.jsonl"
    p.write_bytes(session_bytes(entry("aaaaaaa1", None)))
    log = SessionLog.open(p)
    assert not log.refresh().changed
    append(p, line(entry("aaaaaaa2", "aaaaaaa1")) + b'{"type":"custom","id":"aaaaaaa3"')
    r = log.refresh()
    assert [e.id for e in r.new] == ["aaaaaaa2"] and not r.reset
    assert log.leaf_id == "aaaaaaa2"
    append(p, b',"parentId":"aaaaaaa2","customType":"x"}\n')
    r = log.refresh()
    assert [e.id for e in r.new] == ["aaaaaaa3"] and [e.id for e in log.branch()] == ["aaaaaaa1", "aaaaaaa2", "aaaaaaa3"]
    append(p, b"oops\n")
    r = log.refresh()
    assert r.new == [] and r.warnings == ["line 5: invalid JSON (Expecting value: line 1 column 1 (char 0)); skipped"]


def test_log_truncation_resets(tmp_path):
    p = tmp_path / "s.jsonl"
    p.write_bytes(session_bytes(entry("aaaaaaa1", None), entry("aaaaaaa2", "aaaaaaa1")))
    log = SessionLog.open(p)
    p.write_bytes(session_bytes(entry("bbbbbbb1", None)))
    r = log.refresh()
    assert r.reset and [e.id for e in r.new] == ["bbbbbbb1"] and list(log.by_id) == ["bbbbbbb1"]


def test_log_replacement_resets(tmp_path):
    p = tmp_path / "s.jsonl"
    p.write_bytes(session_bytes(entry("aaaaaaa1", None)))
    log = SessionLog.open(p)
    q = tmp_path / "q.jsonl"
    q.write_bytes(session_bytes(entry("aaaaaaa1", None)))
    os.replace(q, p)
    r = log.refresh()
    assert r.reset and [e.id for e in r.new] == ["aaaaaaa1"]


def test_pi_rewrite_on_migration_resets(tmp_path):
    """pi rewrites a version 2 file as version 3 in place (same inode, larger file)."""
    p = tmp_path / "s.jsonl"
    v2 = dict(HEADER, version=2)
    p.write_bytes(session_bytes(entry("aaaaaaa1", None), header=v2))
    log = SessionLog.open(p)
    assert log.version == 2 and not log.writable
    inode = p.stat().st_ino
    with open(p, "r+b") as fh:
        fh.write(session_bytes(entry("aaaaaaa1", None), entry("aaaaaaa2", "aaaaaaa1")))
    assert p.stat().st_ino == inode
    r = log.refresh()
    assert r.reset and log.version == 3 and [e.id for e in log.branch()] == ["aaaaaaa1", "aaaaaaa2"]


def test_rewrite_of_an_earlier_line_resets(tmp_path):
    p = tmp_path / "s.jsonl"
    p.write_bytes(session_bytes(entry("aaaaaaa1", None)))
    log = SessionLog.open(p)
    size = p.stat().st_size
    with open(p, "r+b") as fh:  # same header, but the entry line is now longer
        fh.seek(size - 5)
        fh.write(b"   " + line(entry("aaaaaaa2", None)))
    assert log.refresh().reset
