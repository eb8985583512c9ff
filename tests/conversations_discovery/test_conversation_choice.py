"""What `pideck` opens in a directory: the newest session or agent conversation of any kind, or the
newest of the kind `[tui] prefer_kind` names; `pideck PATH` opens any transcript. The commands that
write keep choosing among pi's and pideck's sessions."""

from __future__ import annotations

import os

import pytest

from discovery_helpers import CLAUDE_TASKS, CLAUDE_TODOWRITE, CODEX, GEMINI, MTIMES, digests
from core.catalog.opening import Opened, choose_session
from core.session.log import SessionLog


def opened_by(pideck, *args: str) -> Opened:
    got: list[Opened] = []
    code, _, err = pideck(*args, tui=lambda opened: got.append(opened() if callable(opened) else opened) or 0)
    assert (code, err) == (0, ""), err
    return got[0]


def shown(opened: Opened):
    log = opened.deck.log
    return getattr(log, "kind", None), getattr(log, "shown_path", log.path)


def test_pideck_opens_the_newest_conversation_of_any_kind(homes, pideck):
    paths = homes.install_all()
    before = digests(homes.home)
    assert shown(opened_by(pideck)) == ("gemini", paths[GEMINI])
    assert digests(homes.home) == before
    os.utime(paths[CLAUDE_TASKS], (MTIMES[GEMINI] + 60, MTIMES[GEMINI] + 60))
    assert shown(opened_by(pideck)) == ("claude", paths[CLAUDE_TASKS])


def test_a_newer_pideck_session_wins_as_before(homes, pideck):
    homes.install_all()
    log = SessionLog.create_for_cwd(str(homes.cwd))
    assert opened_by(pideck).deck.log.path == log.path  # written just now: the newest


@pytest.mark.parametrize("prefer, expected", [
    ("claude", CLAUDE_TODOWRITE), ("codex", CODEX), ("gemini", GEMINI), ("any", GEMINI),
    ("pi", GEMINI), ("pideck", GEMINI),  # none of that kind here: the newest of any kind
])
def test_prefer_kind(homes, pideck, prefer, expected):
    paths = homes.install_all()
    assert pideck("config", "set", "tui.prefer_kind", prefer)[0] == 0
    assert shown(opened_by(pideck))[1] == paths[expected]


def test_prefer_kind_pideck_takes_an_older_pideck_session(homes, pideck):
    homes.install_all()
    log = SessionLog.create_for_cwd(str(homes.cwd))
    os.utime(log.path, (1000, 1000))  # older than every conversation
    assert shown(opened_by(pideck))[0] == "gemini"
    pideck("config", "set", "tui.prefer_kind", "pideck")
    assert opened_by(pideck).deck.log.path == log.path


def test_prefer_kind_is_checked(pideck):
    code, out, err = pideck("config", "set", "tui.prefer_kind", "cursor")
    assert (code, out) == (2, "")
    assert err == "pideck config: prefer_kind must be one of any, pideck, pi, claude, codex, gemini, qwen, opencode, copilot (got 'cursor')\n"


@pytest.mark.parametrize("sample", [CLAUDE_TASKS, CLAUDE_TODOWRITE, CODEX, GEMINI])
def test_pideck_path_opens_any_transcript_read_only(homes, pideck, sample):
    path = homes.install(sample)
    opened = opened_by(pideck, str(path))
    kind, where = shown(opened)
    assert where == path and kind == sample.split("-")[0] and not opened.deck.log.writable
    assert [t.status for t in opened.deck.todo.todos] == ["completed"] * 4


def test_the_writing_and_reading_commands_keep_to_sessions(homes, pideck, isolated_sessions):
    """`run`, `tool`, `gate`, `inspect` and `diff` choose among pi's and pideck's sessions as before
    (a conversation is read-only: a command that writes could never land there)."""
    homes.install_all()
    before = digests(homes.home)
    assert pideck("inspect") == (1, "", f"pideck: no session for {homes.cwd} yet\n")
    assert pideck("gate") == (0, "", "")
    code, out, _ = pideck("run", "/agent-state add a Do it")
    assert code == 0
    made = isolated_sessions()
    assert len(made) == 1 and choose_session(None).path == made[0]
    assert digests(homes.home) == before


def test_pideck_session_still_wins(homes, pideck, monkeypatch, tmp_path):
    homes.install_all()
    named = tmp_path / "named.jsonl"
    SessionLog.create(named, cwd=str(homes.cwd))
    monkeypatch.setenv("PIDECK_SESSION", str(named))
    assert opened_by(pideck).deck.log.path == named


@pytest.fixture
def isolated_sessions(tmp_path):
    def made():
        return sorted((tmp_path / "pideck-home" / "sessions").rglob("*.jsonl"))
    return made
