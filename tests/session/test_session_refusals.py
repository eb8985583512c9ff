"""Every refusal to append says its real reason (issue 9, items 5 and 9), and a refused append
changes no byte: a file from a newer or older format version, a file opened read-only, a file
emptied, replaced, deleted or made unwritable under an open log."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from file_faults import not_writable, opening_to_write_fails
from session_helpers import HEADER, entry, line, session_bytes

from core.primitives.host import Notice
from core.deck.deck import Deck
from core.session.errors import NotASession, ReadOnlySession
from core.session.log import SessionLog
from core.session.errors import (
    FILE_GONE, NO_HEADER, OPENED_READ_ONLY, PI_SESSION_READ_ONLY, NotARegularFile, cannot_write, version_read_only,
)


def write(tmp_path: Path, data: bytes, name: str = "s.jsonl") -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def content(path: Path) -> bytes | None:
    return path.read_bytes() if path.is_file() else None  # (reading a FIFO would block)


def refused(log: SessionLog) -> str:
    before = content(log.path)
    with pytest.raises(ReadOnlySession) as err:
        log.append_custom("x", 1)
    assert content(log.path) == before
    return str(err.value)


def test_a_newer_format_version_is_read_but_never_written(tmp_path):
    path = write(tmp_path, session_bytes(entry("aaaaaaa1", None), header={**HEADER, "version": 99}))
    log = SessionLog.open(path)
    assert [r.id for r in log.branch()] == ["aaaaaaa1"]
    assert log.warnings == ["line 1: version 99 session file, newer than pideck knows (3); read as version 3 "
                            "and opened read-only"]
    assert refused(log) == version_read_only(99) == (
        "This session is read-only: it is a version 99 file, newer than the version 3 pideck knows, so pideck "
        "reads it but never writes to it. Nothing was changed.")
    assert not SessionLog.open(path, writable=True).writable  # --write does not change that


def test_an_old_format_version_outside_pi_folders_says_so_not_that_it_belongs_to_pi(tmp_path):
    header = {"type": "session", "version": 2, "id": "old", "timestamp": "2024-01-01T00:00:00.000Z", "cwd": "/x"}
    path = write(tmp_path, line(header) + line(entry("aaaaaaa1", None)))
    log = SessionLog.open(path)
    assert refused(log) == version_read_only(2) == (
        "This session is read-only: it is a version 2 file, which pideck reads but never writes (pi migrates "
        "such files to version 3 by rewriting them). Nothing was changed.")
    deck = Deck(log)
    assert deck.apply("/agent-state add a b") == [Notice(version_read_only(2), "refused")]
    assert deck.settle() == (None, Notice(version_read_only(2), "refused"))


def test_a_log_opened_read_only_on_purpose_says_so(tmp_path):
    path = write(tmp_path, session_bytes())
    assert refused(SessionLog.open(path, writable=False)) == OPENED_READ_ONLY
    tool = Deck(SessionLog.open(path, writable=False)).call_tool("agent_progress_add_milestone", {"milestone": "m"})
    assert (tool.text, tool.refused) == (OPENED_READ_ONLY, True)


def test_pi_s_own_file_says_it_belongs_to_pi(tmp_path, monkeypatch):
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(tmp_path / "agent"))
    folder = tmp_path / "agent" / "sessions" / "--x--"
    folder.mkdir(parents=True)
    assert refused(SessionLog.open(write(folder, session_bytes()))) == PI_SESSION_READ_ONLY


def test_a_file_emptied_under_an_open_log_gets_no_headerless_entry(tmp_path):
    """The TUI appended an entry without a header into a truncated file; pideck then rejected its
    own file."""
    path = write(tmp_path, session_bytes(entry("aaaaaaa1", None)))
    log = SessionLog.open(path)
    os.truncate(path, 0)
    assert refused(log) == NO_HEADER
    assert path.read_bytes() == b"" and not log.writable
    deck = Deck(SessionLog.open(write(tmp_path, session_bytes(), "t.jsonl")))
    os.truncate(deck.log.path, 0)  # emptied after the Deck read it: the command still refuses
    assert deck.apply("/agent-state add a b") == [Notice(NO_HEADER, "refused")]
    assert deck.log.path.read_bytes() == b""


def test_a_file_replaced_by_one_that_is_not_a_session_gets_nothing(tmp_path):
    path = write(tmp_path, session_bytes(entry("aaaaaaa1", None)))
    log = SessionLog.open(path)
    path.write_bytes(b"# notes\n")  # no line parses: no header
    assert refused(log) == NO_HEADER
    path.write_bytes(session_bytes(entry("aaaaaaa1", None)))
    log = SessionLog.open(path)
    path.write_bytes(b'{"hello":"world"}\n')  # the first parsed line is not a header
    with pytest.raises(NotASession, match="not a pi session file"):
        log.append_custom("x", 1)
    assert path.read_bytes() == b'{"hello":"world"}\n'


def test_a_deleted_file_is_refused_as_gone_and_not_recreated(tmp_path):
    path = write(tmp_path, session_bytes())
    log = SessionLog.open(path)
    path.unlink()
    assert refused(log) == FILE_GONE and not path.exists()
    deck = Deck(SessionLog.open(write(tmp_path, session_bytes(), "t.jsonl")))
    deck.log.path.unlink()
    assert deck.apply("/agent-state add a b") == [Notice(FILE_GONE, "refused")]
    assert deck.watchdog_tick(10**15) == [] and not deck.log.path.exists()


def test_a_file_that_may_not_be_written_is_refused_with_the_reason(tmp_path, monkeypatch):
    path = write(tmp_path, session_bytes())
    log = SessionLog.open(path)
    not_writable(monkeypatch, path)
    assert refused(log) == cannot_write("permission denied")
    assert not log.writable


def test_a_permission_error_met_while_appending_is_a_refusal(tmp_path, monkeypatch):
    """The file became unwritable between the check and the write."""
    path = write(tmp_path, session_bytes())
    log = SessionLog.open(path)
    opening_to_write_fails(monkeypatch, path)
    assert refused(log) == cannot_write("permission denied")


def test_a_fifo_put_in_place_of_the_file_neither_hangs_nor_is_written(tmp_path):
    path = write(tmp_path, session_bytes(entry("aaaaaaa1", None)))
    log = SessionLog.open(path)
    path.unlink()
    os.mkfifo(path)
    assert "FIFO" in refused(log)
    with pytest.raises(NotARegularFile):
        log.refresh()
    with pytest.raises(NotARegularFile, match="is a FIFO"):
        SessionLog.open(path)
