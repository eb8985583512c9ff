"""Review: files and folders pideck creates are private (issue 3: new files mode 0600)."""

from __future__ import annotations

import stat

from core.session import SessionLog


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


def test_finding_the_newest_session_reads_only_headers_of_the_others(tmp_path, monkeypatch):
    """``pideck`` with no path picks the newest session; it counted the lines of every session
    file for the cwd (reading each in full, hundreds of MB for big pi sessions) to use one."""
    import os

    from session_helpers import entry, session_bytes

    from core.session import discovery

    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(tmp_path / "agent"))
    monkeypatch.setenv("PIDECK_HOME", str(tmp_path / "deck"))
    monkeypatch.delenv("PI_CODING_AGENT_SESSION_DIR", raising=False)
    folder = discovery.pi_sessions_dir("/home/ana/p")
    folder.mkdir(parents=True)
    for i in range(5):
        (folder / f"{i}.jsonl").write_bytes(session_bytes(entry("aaaaaaa1", None), entry("aaaaaaa2", "aaaaaaa1")))
        os.utime(folder / f"{i}.jsonl", (1000 + i, 1000 + i))
    counted = []
    real = discovery._count_lines
    monkeypatch.setattr(discovery, "_count_lines", lambda p: counted.append(p) or real(p))
    newest = discovery.newest_session("/home/ana/p")
    assert newest.path == folder / "4.jsonl" and newest.entries == 2 and newest.kind == "pi"
    assert counted == [folder / "4.jsonl"]
