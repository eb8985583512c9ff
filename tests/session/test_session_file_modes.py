"""Files and folders pideck creates are private (docs/session-format.md#new-files-and-file-modes)."""

from __future__ import annotations

import stat

from core.session.log import SessionLog


def mode(path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_every_folder_pideck_creates_for_its_sessions_is_private(tmp_path, monkeypatch):
    monkeypatch.setenv("PIDECK_HOME", str(tmp_path / "state" / "pideck"))
    log = SessionLog.create_for_cwd("/home/ana/p")
    assert mode(log.path) == 0o600
    for folder in (log.path.parent, tmp_path / "state" / "pideck" / "sessions", tmp_path / "state" / "pideck",
                   tmp_path / "state"):
        assert mode(folder) == 0o700, folder


def test_an_existing_folder_keeps_its_mode(tmp_path):
    (tmp_path / "shared").mkdir(mode=0o755)
    (tmp_path / "shared").chmod(0o755)
    log = SessionLog.create(tmp_path / "shared" / "new" / "s.jsonl", cwd="/x")
    assert mode(tmp_path / "shared") == 0o755 and mode(tmp_path / "shared" / "new") == 0o700
    assert mode(log.path) == 0o600
