"""Finding sessions: pi's folders, pideck's own, naming, newest first."""

from __future__ import annotations

import os
import re

import pytest
from session_helpers import HEADER, entry, session_bytes

from core.session.log import SessionLog
from core.config.places import encode_cwd, is_pi_session_path, pi_sessions_dir, pideck_sessions_dir
from core.catalog.sessions import list_sessions, newest_session
from core.session.naming import new_session_path


@pytest.fixture
def homes(tmp_path, monkeypatch):
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(tmp_path / "agent"))
    monkeypatch.setenv("PIDECK_HOME", str(tmp_path / "deck"))
    monkeypatch.delenv("PI_CODING_AGENT_SESSION_DIR", raising=False)
    return tmp_path


def test_encode_cwd():
    assert encode_cwd("/home/ana/src/project") == "--home-ana-src-project--"
    assert encode_cwd("/") == "----"
    assert encode_cwd("~/x") == "--" + os.path.expanduser("~/x").lstrip("/").replace("/", "-") + "--"


def test_folders_follow_the_environment(homes):
    assert pi_sessions_dir("/home/ana/p") == homes / "agent" / "sessions" / "--home-ana-p--"
    assert pideck_sessions_dir("/home/ana/p") == homes / "deck" / "sessions" / "--home-ana-p--"
    assert is_pi_session_path(homes / "agent" / "sessions" / "--x--" / "a.jsonl")
    assert not is_pi_session_path(homes / "deck" / "sessions" / "--x--" / "a.jsonl")


def test_default_pideck_home_is_the_platform_state_dir(monkeypatch):
    import platformdirs

    monkeypatch.delenv("PIDECK_HOME", raising=False)
    assert pideck_sessions_dir("/a").parent.parent == platformdirs.user_state_path("pideck")


def test_new_session_path_is_named_like_pi(homes):
    path, session_id, timestamp = new_session_path("/home/ana/p")
    assert path.parent == homes / "deck" / "sessions" / "--home-ana-p--"
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z_[0-9a-f-]{36}\.jsonl", path.name)
    assert path.name == f"{timestamp.replace(':', '-').replace('.', '-')}_{session_id}.jsonl"


def test_create_for_cwd(homes):
    log = SessionLog.create_for_cwd("/home/ana/p")
    assert log.path.parent == homes / "deck" / "sessions" / "--home-ana-p--"
    assert log.path.name.endswith(f"_{log.session_id}.jsonl") and log.cwd == "/home/ana/p" and log.writable
    assert log.path.name.startswith(log.header["timestamp"].replace(":", "-").replace(".", "-"))


def test_list_sessions_newest_first(homes):
    cwd = "/home/ana/p"
    pi_dir, deck_dir = pi_sessions_dir(cwd), pideck_sessions_dir(cwd)
    pi_dir.mkdir(parents=True)
    deck_dir.mkdir(parents=True)
    (pi_dir / "a.jsonl").write_bytes(session_bytes(entry("aaaaaaa1", None), entry("aaaaaaa2", "aaaaaaa1")))
    (deck_dir / "b.jsonl").write_bytes(session_bytes(entry("aaaaaaa1", None)))
    (pi_dir / "junk.jsonl").write_bytes(b"not a session\n")
    (pi_dir / "notes.txt").write_bytes(session_bytes())
    os.utime(pi_dir / "a.jsonl", (1000, 1000))
    os.utime(deck_dir / "b.jsonl", (2000, 2000))
    sessions = list_sessions(cwd)
    assert [(s.path.name, s.kind, s.entries, s.mtime) for s in sessions] == [("b.jsonl", "pideck", 1, 2000), ("a.jsonl", "pi", 2, 1000)]
    assert sessions[1].size == (pi_dir / "a.jsonl").stat().st_size and sessions[1].id == HEADER["id"]
    assert newest_session(cwd).path == deck_dir / "b.jsonl"
    assert list_sessions("/elsewhere") == [] and newest_session("/elsewhere") is None


def test_custom_pi_session_dir_matches_on_header_cwd(homes, monkeypatch):
    flat = homes / "flat"
    flat.mkdir()
    monkeypatch.setenv("PI_CODING_AGENT_SESSION_DIR", str(flat))
    (flat / "mine.jsonl").write_bytes(session_bytes(header=dict(HEADER, cwd="/home/ana/p")))
    (flat / "other.jsonl").write_bytes(session_bytes(header=dict(HEADER, cwd="/home/bob")))
    assert [s.path.name for s in list_sessions("/home/ana/p")] == ["mine.jsonl"]
    assert is_pi_session_path(flat / "mine.jsonl") and not SessionLog.open(flat / "mine.jsonl").writable


def test_finding_the_newest_session_reads_only_headers(tmp_path, monkeypatch):
    """``pideck`` with no path picks the newest session; it counted the lines of every session
    file for the cwd (reading each in full, hundreds of MB for big pi sessions) to use one, and
    then of the chosen one, which its saved index would have spared."""
    import os

    from session_helpers import entry, session_bytes

    from core.catalog import sessions as discovery

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
    assert newest.path == folder / "4.jsonl" and newest.entries is None and newest.kind == "pi"
    assert counted == []  # not even the chosen one: opening it reads what it needs
