"""`pideck sessions` and ``list_sessions``: the agents' conversations beside pi's and pideck's
sessions, found where each CLI keeps them, told by content, never touched."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from discovery_helpers import (
    CLAUDE_TASKS, CLAUDE_TODOWRITE, CODEX, GEMINI, LINES, MTIMES, SESSION_IDS, digests,
)
from core.cli.common import human_size
from core.sources.discovery import AgentFolders, claude_folder_name, conversations, read_head
from core.session.log import SessionLog
from core.catalog.sessions import list_sessions, newest_session
from core.config.places import pideck_sessions_dir

HEADER = "KIND     ENTRIES      SIZE  LAST CHANGE          PATH\n"


def line(kind: str, entries: int, path: Path) -> str:
    changed = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(path.stat().st_mtime))
    return f"{kind:<8} {entries:>7} {human_size(path.stat().st_size):>9}  {changed:<19}  {path}\n"


def test_sessions_lists_every_agent_s_conversations_newest_first(homes, pideck):
    paths = homes.install_all()
    code, out, err = pideck("sessions")
    assert (code, err) == (0, "")
    assert out == HEADER + "".join([
        line("gemini", LINES[GEMINI], paths[GEMINI]),
        line("codex", LINES[CODEX], paths[CODEX]),
        line("claude", LINES[CLAUDE_TODOWRITE], paths[CLAUDE_TODOWRITE]),
        line("claude", LINES[CLAUDE_TASKS], paths[CLAUDE_TASKS]),
    ]) + f"`pideck` here opens {paths[GEMINI]}: the newest of this directory\n"


def test_sessions_and_conversations_share_one_list(homes, pideck):
    paths = homes.install_all()
    log = SessionLog.create_for_cwd(str(homes.cwd))
    os.utime(log.path, (MTIMES[CODEX] + 30, MTIMES[CODEX] + 30))  # between Codex's and Gemini's
    out = pideck("sessions")[1]
    assert [row.split()[0] for row in out.splitlines()[1:-1]] == ["gemini", "pideck", "codex", "claude", "claude"]
    assert f"pideck         0 " in out and str(pideck_sessions_dir(homes.cwd)) in out
    assert [s.path for s in list_sessions(homes.cwd)] == [
        paths[GEMINI], log.path, paths[CODEX], paths[CLAUDE_TODOWRITE], paths[CLAUDE_TASKS]]


def test_only_this_directory_s_unless_all(homes, pideck):
    mine = homes.install(CODEX)
    theirs = homes.install(CODEX, cwd="/srv/other", session_id="11111111-2222-3333-4444-555555555555", mtime=1)
    claude_theirs = homes.install(CLAUDE_TASKS, cwd="/srv/other", mtime=2)
    assert [s.path for s in list_sessions(homes.cwd)] == [mine]  # the same day folder: told by the head's cwd
    code, out, _ = pideck("sessions", "--all")
    assert code == 0 and out == HEADER + "".join([
        line("codex", LINES[CODEX], mine), line("claude", LINES[CLAUDE_TASKS], claude_theirs),
        line("codex", LINES[CODEX], theirs)])
    info = {s.path: s for s in list_sessions(None)}
    assert (info[theirs].cwd, info[theirs].id, info[theirs].kind) == ("/srv/other", "11111111-2222-3333-4444-555555555555", "codex")
    assert (info[claude_theirs].cwd, info[claude_theirs].id) == ("/srv/other", SESSION_IDS[CLAUDE_TASKS])


def test_no_conversation_anywhere(homes, pideck):
    assert pideck("sessions") == (0, "No sessions for this directory. `pideck` starts one.\n", "")
    assert pideck("sessions", "--all") == (0, "No sessions yet.\n", "")


def test_claude_folders_two_directories_share_are_told_apart_by_the_transcript(homes):
    """``/x/my-project`` and ``/x/my.project`` have one Claude folder: ``-x-my-project``."""
    assert claude_folder_name("/x/my-project") == claude_folder_name("/x/my.project") == "-x-my-project"
    dash = homes.install(CLAUDE_TASKS, cwd="/x/my-project")
    dot = homes.install(CLAUDE_TODOWRITE, cwd="/x/my.project")
    assert dash.parent == dot.parent
    assert [s.path for s in list_sessions("/x/my-project")] == [dash]
    assert [s.path for s in list_sessions("/x/my.project")] == [dot]


def test_claude_folder_names_as_claude_code_makes_them():
    assert claude_folder_name("/home/user/project") == "-home-user-project"
    assert claude_folder_name("/home/ana/my_app.v2 (copy)") == "-home-ana-my-app-v2--copy-"
    assert claude_folder_name("/home/ana/Документы") == "-home-ana-" + "-" * 9
    assert claude_folder_name("/home/ana/😀") == "-home-ana---"  # two UTF-16 code units, two dashes


def test_a_long_directory_is_found_under_its_cut_and_hashed_folder(homes):
    """Claude cuts a folder name longer than 200 characters and appends a hash of the path, whose
    kind depends on the build: the folder is found by its first 200 characters, the transcript by
    its own cwd."""
    deep = "/" + "/".join(["a" * 40] * 6)  # 246 characters
    other = deep[:-1] + "b"  # the same first 200
    name = claude_folder_name(deep)
    assert len(name) == 246 and claude_folder_name(other)[:200] == name[:200]
    projects = homes.claude / "projects"
    for where, suffix in ((deep, "-1x2y3z"), (other, "-9q8w7e")):
        path = homes.install(CLAUDE_TASKS, cwd=where, session_id=f"00000000-0000-0000-0000-00000000000{suffix[-1]}")
        folder = projects / (name[:200] + suffix)
        folder.mkdir()
        path.rename(folder / path.name)
        path.parent.rmdir()
    found = list_sessions(deep)
    assert [(s.path.parent.name, s.cwd) for s in found] == [(name[:200] + "-1x2y3z", deep)]


def test_codex_and_gemini_and_claude_homes_follow_their_variables(homes, tmp_path, monkeypatch):
    paths = homes.install_all()
    elsewhere = tmp_path / "elsewhere"
    for source, target in ((homes.claude, elsewhere / "claude-config"), (homes.codex, elsewhere / "codex-home"),
                           (homes.gemini, elsewhere / "gemini-home" / ".gemini")):
        target.parent.mkdir(parents=True, exist_ok=True)
        source.rename(target)
    assert list_sessions(homes.cwd) == []
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(elsewhere / "claude-config"))
    monkeypatch.setenv("CODEX_HOME", str(elsewhere / "codex-home"))
    monkeypatch.setenv("GEMINI_CLI_HOME", str(elsewhere / "gemini-home"))
    assert [s.kind for s in list_sessions(homes.cwd)] == ["gemini", "codex", "claude", "claude"]
    assert all(s.path.is_relative_to(elsewhere) for s in list_sessions(homes.cwd))
    assert {s.path.name for s in list_sessions(homes.cwd)} == {p.name for p in paths.values()}


def test_gemini_stub_files_from_resume_are_never_listed(homes):
    real, stub = homes.gemini_resume_variant()
    assert read_head(stub).records is False and read_head(real).records is True
    assert stub.stat().st_mtime > real.stat().st_mtime
    assert [s.path for s in list_sessions(homes.cwd)] == [real]
    assert newest_session(homes.cwd, agents=True).path == real


def test_gemini_files_of_one_session_are_one_conversation(homes):
    """Two chat files that both hold records for one session id (a resume in a later minute that
    got records of its own): the most recently changed one stands for the session."""
    older = homes.install(GEMINI, mtime=1000)
    newer = older.with_name("session-2026-12-01T08-00-ea096d15.jsonl")
    newer.write_bytes(older.read_bytes())
    os.utime(newer, (2000, 2000))
    assert [s.path for s in list_sessions(homes.cwd)] == [newer]


def test_gemini_projects_from_projects_json_and_hash_folders(homes):
    path = homes.install(GEMINI)
    folder = homes.gemini / "tmp" / "renamed" / "chats"
    folder.parent.mkdir(parents=True)
    path.parent.rename(folder)
    assert list_sessions(homes.cwd) == []  # projects.json still names "project"
    homes.gemini_project(homes.cwd, "renamed")
    assert [s.path.parent for s in list_sessions(homes.cwd)] == [folder]
    import hashlib

    hashed = homes.gemini / "tmp" / hashlib.sha256(str(homes.cwd).encode()).hexdigest() / "chats"
    hashed.parent.mkdir(parents=True)
    folder.rename(hashed)  # how releases before projects.json named the folder
    assert [(s.path.parent, s.cwd) for s in list_sessions(homes.cwd)] == [(hashed, str(homes.cwd))]
    assert [(s.kind, s.cwd) for s in list_sessions(None)] == [("gemini", None)]
    (hashed.parent / ".project_root").write_text(str(homes.cwd))
    assert [(s.kind, s.cwd) for s in list_sessions(None)] == [("gemini", str(homes.cwd))]


def test_content_decides_not_the_name(homes):
    """Files in the agents' folders that are not their transcripts are not listed: a pi session, junk,
    an empty file, a folder, a FIFO (never opened: nothing hangs); a transcript with another name is."""
    folder = homes.claude / "projects" / claude_folder_name(homes.cwd)
    folder.mkdir(parents=True)
    (folder / "pi.jsonl").write_text(json.dumps({"type": "session", "version": 3, "id": "x", "cwd": str(homes.cwd),
                                                 "timestamp": "2026-12-01T00:00:00.000Z"}) + "\n")
    (folder / "junk.jsonl").write_bytes(b"\x00\xff not json\n")
    (folder / "empty.jsonl").write_bytes(b"")
    (folder / "dir.jsonl").mkdir()
    os.mkfifo(folder / "fifo.jsonl")
    renamed = homes.install(CLAUDE_TASKS)
    renamed = renamed.rename(folder / "whatever.jsonl")
    codex_in_claude = folder / "codex.jsonl"
    codex_in_claude.write_bytes(homes.install(CODEX).read_bytes())
    assert [s.path.name for s in list_sessions(homes.cwd) if s.kind == "claude"] == ["whatever.jsonl"]
    assert read_head(folder / "fifo.jsonl").kind is None


def test_a_transcript_still_being_started_is_listed_by_its_folder(homes):
    """Claude's first lines (queue-operation) name no cwd: the folder vouches for it until one does."""
    path = homes.install(CLAUDE_TASKS, lines=2)
    head = read_head(path)
    assert (head.kind, head.session_id, head.cwd, head.complete) == ("claude", SESSION_IDS[CLAUDE_TASKS], None, False)
    assert [(s.path, s.cwd, s.entries) for s in list_sessions(homes.cwd)] == [(path, str(homes.cwd), 2)]
    partial = homes.install(CODEX)
    partial.write_bytes(partial.read_bytes()[:5000])  # the first line not written out yet
    head = read_head(partial)
    assert (head.kind, head.cwd, head.complete) == ("codex", str(homes.cwd), False)


def test_listing_reads_and_creates_nothing_in_the_agents_folders(homes, pideck, tmp_path):
    homes.install_all()
    homes.gemini_resume_variant()
    homes.claude_live(os.getpid(), SESSION_IDS[CLAUDE_TASKS], "busy")
    before = digests(homes.home)
    pideck_home = tmp_path / "pideck-home"
    assert pideck("sessions")[0] == 0 and pideck("sessions", "--all")[0] == 0
    assert list_sessions(None) and conversations(None, AgentFolders())
    assert digests(homes.home) == before
    assert not pideck_home.exists()  # `sessions` makes nothing, not even pideck's own home


@pytest.mark.parametrize("kind", ["claude", "codex", "gemini"])
def test_newest_of_one_agent(homes, kind):
    paths = homes.install_all()
    expected = {"claude": paths[CLAUDE_TODOWRITE], "codex": paths[CODEX], "gemini": paths[GEMINI]}[kind]
    newest = newest_session(homes.cwd, kind=kind)
    assert (newest.path, newest.kind, newest.entries) == (expected, kind, None)
    assert newest_session(homes.cwd) is None  # without agents=True: pi's and pideck's only, as before
    assert newest_session(homes.cwd, agents=True).path == paths[GEMINI]


def test_finding_the_newest_reads_heads_from_the_newest_down(homes, monkeypatch):
    """`pideck` at start-up: a rollout's directory is only in its head, but the heads of older
    rollouts than the first one that belongs are never read."""
    from core.sources import discovery

    for k in range(5):
        homes.install(CODEX, cwd=f"/srv/other-{k}", session_id=f"00000000-0000-0000-0000-00000000000{k}", mtime=5000 + k)
    mine = homes.install(CODEX, mtime=4000)
    older = homes.install(CODEX, session_id="00000000-0000-0000-0000-000000000009", mtime=3000)
    read = []
    real = discovery.read_head
    monkeypatch.setattr(discovery, "read_head", lambda p: read.append(Path(p).name) or real(p))
    assert newest_session(homes.cwd, agents=True).path == mine
    assert len(read) == 6 and older.name not in read
