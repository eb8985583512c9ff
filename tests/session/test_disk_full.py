"""A write that fails or stops short leaves the file exactly as it was, and is refused with one
line naming the cause (issue 20, items 1, 6 and 7): a full disk, a quota, an I/O error, a file too
large, a read-only filesystem, a file whose mode has no write bit (root included)."""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path

import pytest
from disk_faults import read_only_filesystem
from private_homes import use_private_homes
from session_helpers import entry, session_bytes

from core.deck.deck import Deck
from core.session.errors import ReadOnlySession
from core.session.log import SessionLog
from core.session import writer
from pideck_run import pideck  # noqa: F401  (the fixture)


def fail_writes(monkeypatch: pytest.MonkeyPatch, code: int, *, after: int = 0, only: Path | None = None) -> list[int]:
    """``os.write`` in the writer writes half of what it is given, then fails with ``code``
    (after ``after`` writes that go through whole); ``only``: on that file alone (pideck's saved
    index goes on being written). Returns the list of bytes written."""
    real_write = os.write
    calls: list[int] = []

    def write(fd: int, data: bytes) -> int:
        if only is not None and os.readlink(f"/proc/self/fd/{fd}") != str(only):
            return real_write(fd, data)
        calls.append(len(data))
        if len(calls) <= after:
            return real_write(fd, data)
        if len(calls) == after + 1 and len(data) > 1:
            return real_write(fd, bytes(data[: len(data) // 2]))
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(writer.os, "write", write)
    return calls


CAUSES = {errno.ENOSPC: "the disk is full", errno.EDQUOT: "over its disk quota", errno.EIO: "an I/O error",
          errno.EFBIG: "the file is too large"}


@pytest.mark.parametrize("code", sorted(CAUSES), ids=lambda c: errno.errorcode[c])
def test_a_short_write_then_an_error_leaves_the_file_as_it_was(tmp_path, monkeypatch, code):
    path = tmp_path / "s.jsonl"
    path.write_bytes(session_bytes(entry("aaaaaaa1", None)))
    before = path.read_bytes()
    log = SessionLog.open(path)
    fail_writes(monkeypatch, code)
    with pytest.raises(ReadOnlySession) as err:
        log.append_custom("x", {"big": "y" * 20000})
    assert path.read_bytes() == before
    text = str(err.value)
    assert CAUSES[code] in text and "Nothing was changed." in text and "\n" not in text
    assert "Errno" not in text
    monkeypatch.undo()
    log.append_custom("x", 1)  # the next append works, on a whole file
    assert [r.id for r in SessionLog.open(path).branch()][0] == "aaaaaaa1"
    assert len(SessionLog.open(path).branch()) == 2


def test_a_repaired_partial_line_is_undone_too(tmp_path, monkeypatch):
    """The ``\\n`` that starts the entry on its own line is part of the append: it goes as well."""
    path = tmp_path / "s.jsonl"
    path.write_bytes(session_bytes(entry("aaaaaaa1", None)) + b'{"torn')
    before = path.read_bytes()
    log = SessionLog.open(path)
    fail_writes(monkeypatch, errno.ENOSPC, after=1)
    with pytest.raises(ReadOnlySession):
        log.append_custom("x", "y" * 1000)
    assert path.read_bytes() == before


def test_a_deck_call_on_a_full_disk_is_a_refusal(tmp_path, monkeypatch):
    path = tmp_path / "s.jsonl"
    path.write_bytes(session_bytes())
    before = path.read_bytes()
    deck = Deck(SessionLog.open(path))
    fail_writes(monkeypatch, errno.ENOSPC)
    result = deck.call_tool("agent_progress_add_milestone", {"milestone": "m" * 20000})
    assert result.refused and "the disk is full" in result.text and "Nothing was changed." in result.text
    notices = deck.apply("/agent-state add a b")
    assert [n.level for n in notices] == ["refused"] and "the disk is full" in notices[0].message
    assert path.read_bytes() == before


def test_the_cli_on_a_full_disk_says_so_in_one_line_and_exits_1(tmp_path, monkeypatch, pideck):
    use_private_homes(tmp_path, monkeypatch)
    path = tmp_path / "s.jsonl"
    path.write_bytes(session_bytes())
    before = path.read_bytes()
    fail_writes(monkeypatch, errno.ENOSPC, only=path)
    code, out, err = pideck("tool", "--session", str(path), "agent_progress_add_milestone",
                            json.dumps({"milestone": "m" * 20000}))
    assert (code, out) == (1, "")
    assert len(err.strip().splitlines()) == 1 and "the disk is full" in err and "Nothing was changed." in err
    assert "Errno" not in err
    assert path.read_bytes() == before


def test_mode_0444_is_refused_even_for_root(tmp_path):
    path = tmp_path / "s.jsonl"
    path.write_bytes(session_bytes())
    path.chmod(0o444)
    before = path.read_bytes()
    log = SessionLog.open(path)
    assert not log.writable
    with pytest.raises(ReadOnlySession) as err:
        log.append_custom("x", 1)
    assert "permission denied: its mode r--r--r--" in str(err.value) and "Nothing was changed." in str(err.value)
    assert path.read_bytes() == before


def test_a_read_only_filesystem_is_named_as_such(tmp_path, monkeypatch):
    path = tmp_path / "s.jsonl"
    path.write_bytes(session_bytes())
    log = SessionLog.open(path)
    read_only_filesystem(monkeypatch, path)
    with pytest.raises(ReadOnlySession) as err:
        log.append_custom("x", 1)
    assert "read-only filesystem" in str(err.value)
    assert "permission denied" not in str(err.value).lower()
    monkeypatch.setattr(os, "access", lambda p, mode: True)  # the mount went read-only after the check
    with pytest.raises(ReadOnlySession) as err:
        log.append_custom("x", 1)
    assert "read-only filesystem" in str(err.value)


def test_the_mcp_server_answers_a_full_disk_as_a_rejected_call(tmp_path, monkeypatch):
    """The same refusal reaches an MCP client as the call's error text (``isError``), not a crash."""
    from core.agents.mcp_server import Sessions

    use_private_homes(tmp_path, monkeypatch)
    path = tmp_path / "s.jsonl"
    path.write_bytes(session_bytes())
    before = path.read_bytes()
    sessions = Sessions(str(path), write=False)
    fail_writes(monkeypatch, errno.ENOSPC, only=path)
    result = sessions.call_tool("agent_progress_add_milestone", {"milestone": "m" * 20000})
    assert result.rejected and "the disk is full" in result.text and "Errno" not in result.text
    assert path.read_bytes() == before
