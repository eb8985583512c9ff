"""An acknowledged append is on disk before it is answered, unless the person relaxes that
(issue 20, item 2; docs/session-format.md#durability)."""

from __future__ import annotations

import errno
import os

import pytest
from private_homes import use_private_homes
from session_helpers import session_bytes

from core.session.errors import ReadOnlySession
from core.session.log import SessionLog
from core.session import append
from core.config.settings import load_session_config


@pytest.fixture
def synced(tmp_path, monkeypatch) -> list[bytes]:
    """What the session file held at each ``fdatasync`` of it."""
    use_private_homes(tmp_path, monkeypatch)
    seen: list[bytes] = []
    real = os.fdatasync

    def record(fd: int) -> None:
        real(fd)
        seen.append(os.pread(fd, 1 << 20, 0))

    monkeypatch.setattr(append.os, "fdatasync", record)
    return seen


def test_every_append_is_synced_before_it_returns_by_default(tmp_path, synced):
    path = tmp_path / "s.jsonl"
    path.write_bytes(session_bytes())
    log = SessionLog.open(path)
    log.append_custom("x", 1)
    assert synced == [path.read_bytes()]  # the whole entry was in the file when it was synced
    log.append_custom("x", 2)
    assert len(synced) == 2


def test_sync_off_leaves_it_to_the_system(tmp_path, synced):
    (tmp_path / "config.toml").write_text('[session]\nsync = "off"\n')
    assert load_session_config()[0].sync == "off"
    path = tmp_path / "s.jsonl"
    path.write_bytes(session_bytes())
    SessionLog.open(path).append_custom("x", 1)
    assert synced == []


def test_an_unknown_sync_value_is_a_warning_and_the_default(tmp_path, synced):
    (tmp_path / "config.toml").write_text('[session]\nsync = "sometimes"\n')
    config, warnings = load_session_config()
    assert config.sync == "data" and len(warnings) == 1 and "sync" in warnings[0]


def test_a_sync_that_fails_takes_the_entry_back(tmp_path, monkeypatch):
    use_private_homes(tmp_path, monkeypatch)
    path = tmp_path / "s.jsonl"
    path.write_bytes(session_bytes())
    before = path.read_bytes()

    def broken(fd: int) -> None:
        raise OSError(errno.EIO, os.strerror(errno.EIO))

    monkeypatch.setattr(append.os, "fdatasync", broken)
    log = SessionLog.open(path)
    with pytest.raises(ReadOnlySession, match="I/O error"):
        log.append_custom("x", 1)
    assert path.read_bytes() == before
