"""A new session file appears whole or not at all, and an empty file is a session not written yet
(issue 20, items 3 and 7): a create that fails leaves nothing behind and says why in one line."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest
from private_homes import use_private_homes

from core.deck.deck import Deck
from core.session.errors import ReadOnlySession
from core.session.log import SessionLog
from core.session import writer
from core.session.errors import EmptySession, NoSession
from pideck_run import pideck  # noqa: F401  (the fixture)


def test_a_create_on_a_full_disk_leaves_no_file(tmp_path, monkeypatch):
    path = tmp_path / "s.jsonl"

    def full(fd: int, data: bytes) -> int:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(writer.os, "write", full)
    with pytest.raises(ReadOnlySession) as err:
        SessionLog.create(path, cwd=tmp_path)
    assert "the disk is full" in str(err.value) and "Errno" not in str(err.value)
    assert list(tmp_path.iterdir()) == []  # neither the file nor a temporary one


def test_an_empty_file_is_a_session_not_written_yet(tmp_path):
    path = tmp_path / "s.jsonl"
    path.write_bytes(b"")
    with pytest.raises(EmptySession, match="empty"):
        SessionLog.open(path)
    log = SessionLog.create(path, cwd=tmp_path)  # a create takes it as not there yet
    assert log.header is not None and log.writable
    assert path.read_bytes().count(b"\n") == 1


def test_a_create_never_replaces_a_file_with_content(tmp_path):
    path = tmp_path / "s.jsonl"
    path.write_bytes(b"something\n")
    with pytest.raises(FileExistsError):
        SessionLog.create(path, cwd=tmp_path)
    assert path.read_bytes() == b"something\n"


def test_a_create_where_links_are_impossible_still_works(tmp_path, monkeypatch):
    def no_links(src, dst, *args, **kwargs):
        raise OSError(errno.EPERM, os.strerror(errno.EPERM))

    monkeypatch.setattr(os, "link", no_links)
    log = SessionLog.create(tmp_path / "s.jsonl", cwd=tmp_path)
    assert log.header is not None and [p.name for p in tmp_path.iterdir()] == ["s.jsonl"]


@pytest.mark.parametrize(("code", "cause"), [(errno.EROFS, "read-only filesystem"), (errno.EACCES, "permission denied")],
                         ids=["EROFS", "EACCES"])
def test_creating_where_nothing_may_be_written_is_exit_1_naming_the_cause(tmp_path, monkeypatch, pideck, code, cause):
    use_private_homes(tmp_path, monkeypatch)
    folder = tmp_path / "ro"
    folder.mkdir()
    real_open = os.open

    def refuse(p, flags, *args):
        if flags & os.O_CREAT and Path(p).parent == folder:
            raise OSError(code, os.strerror(code))
        return real_open(p, flags, *args)

    monkeypatch.setattr(os, "open", refuse)
    code_, out, err = pideck("run", "--session", str(folder / "s.jsonl"), "/agent-state add a b")
    assert code_ == 1
    assert cause in err and "Errno" not in err and len(err.strip().splitlines()) == 1
    assert list(folder.iterdir()) == []


def test_an_empty_file_reads_as_no_session_yet(tmp_path):
    path = tmp_path / "s.jsonl"
    path.write_bytes(b"")
    with pytest.raises(NoSession):  # (what a read command says of a session not there yet)
        SessionLog.open(path)


def test_runs_on_the_default_session_on_a_full_disk_leave_nothing_in_pidecks_home(tmp_path, monkeypatch, pideck):
    use_private_homes(tmp_path, monkeypatch)
    monkeypatch.chdir(tmp_path)
    home = Path(os.environ["PIDECK_HOME"])

    def full(fd: int, data: bytes) -> int:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(writer.os, "write", full)
    for _ in range(2):
        code, out, err = pideck("run", "/agent-state add a b")
        assert code == 1 and "the disk is full" in err and "Errno" not in err
    assert [p for p in home.rglob("*") if p.is_file()] == []


@pytest.mark.parametrize("argv", [["tool", "agent_state_add_work_item", '{"id": "w1", "content": "Do it"}'],
                                  ["run", "/agent-state add w1 Do it"]])
def test_a_command_on_an_empty_file_writes_its_header_and_goes_on(tmp_path, pideck, argv):
    """A create that never got its header (a kill, a full disk) left an empty file, and every later
    command on that path said it had no session header: it is a session not written yet."""
    path = tmp_path / "s.jsonl"
    path.write_bytes(b"")
    code, _, err = pideck(argv[0], "--session", str(path), *argv[1:])
    assert (code, err) == (0, "")
    assert [item["id"] for item in Deck(SessionLog.open(path)).state.snapshot()["workItems"]] == ["w1"]
