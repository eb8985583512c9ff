"""The sessions of a directory: pi's and pideck's session files (in the folders of
``core/config/places.py``) and the agents' conversations, listed and the newest chosen.

- the agents' own conversations (Claude Code, Codex, Gemini CLI): ``core/sources/discovery.py``
  knows their folders; ``list_sessions`` lists them beside the sessions, and ``newest_session``
  considers them when asked (``agents=True``).
"""

# (No ``from __future__ import annotations`` here: typing would compile the string annotations of
# the NamedTuples below, and the first compile() of a process costs every command ~1 ms; see
# core/slotted.py.)

import os
from pathlib import Path
from typing import Mapping, NamedTuple

from core.config.places import (
    AGENT_KINDS,
    Kind,
    normalise_cwd,
    pi_custom_session_dir,
    pi_sessions_dir,
    pi_sessions_root,
    pideck_home,
    pideck_sessions_dir,
)
from core.files import jsonl_files
from core.session.parse import read_header


class SessionInfo(NamedTuple):
    """One session file found for a working directory. (A NamedTuple, as in core/primitives/host.py:
    every command that opens a session loads this module.)"""

    path: Path
    kind: Kind
    id: str
    cwd: str | None
    entries: int | None  # complete lines after the header (blank or bad lines included); None: not counted
    size: int
    mtime: float
    conversation: Mapping | None = None
    """A pideck session's conversation (its ``pideck/conversation`` entry's data); on a
    conversation, the same data of its pideck session with ``session`` (the file) added."""


def _count_lines(path: Path) -> int:
    count = 0
    with open(path, "rb") as fh:
        while chunk := fh.read(1 << 20):
            count += chunk.count(b"\n")
    return count


def _scan(folder: Path, kind: Kind, cwd_filter: str | None, count: bool = True) -> list[SessionInfo]:
    from core.sources.binding import conversation_in_file

    found: list[SessionInfo] = []
    for path in jsonl_files(folder):
        header = read_header(path)
        if header is None:
            continue
        cwd = header.get("cwd") if isinstance(header.get("cwd"), str) else None
        if cwd_filter is not None and (cwd is None or normalise_cwd(cwd) != cwd_filter):
            continue
        try:
            st = path.stat()
            entries = max(_count_lines(path) - 1, 0) if count else None
        except OSError:
            continue
        conversation = conversation_in_file(path) if kind == "pideck" else None
        found.append(SessionInfo(path, kind, header["id"], cwd, entries, st.st_size, st.st_mtime, conversation))
    return found


def _sessions(cwd: str | os.PathLike[str], count: bool, kind: Kind | None = None) -> list[SessionInfo]:
    target = normalise_cwd(cwd)
    custom = pi_custom_session_dir()
    sessions: list[SessionInfo] = []
    if kind in (None, "pi"):
        sessions += _scan(pi_sessions_dir(cwd), "pi", target if custom is not None else None, count)
    if kind in (None, "pideck"):
        sessions += _scan(pideck_sessions_dir(cwd), "pideck", None, count)
    sessions.sort(key=lambda s: s.mtime, reverse=True)
    return sessions


def _every_session(count: bool) -> list[SessionInfo]:
    """pi's and pideck's sessions of every directory."""
    custom = pi_custom_session_dir()
    folders: list[tuple[Path, Kind]] = [(custom, "pi")] if custom is not None else []
    roots: tuple[tuple[Path, Kind], ...] = ((pi_sessions_root(), "pi"), (pideck_home() / "sessions", "pideck"))
    for root, kind in roots:
        try:
            folders += sorted((p, kind) for p in root.iterdir() if p.is_dir())
        except OSError:
            continue
    return [s for folder, kind in folders for s in _scan(folder, kind, None, count)]


def _conversations(cwd: str | os.PathLike[str] | None, count: bool, kinds: tuple[Kind, ...] = AGENT_KINDS
                   ) -> list[SessionInfo]:
    from core.sources.discovery import conversations, source_stat

    found: list[SessionInfo] = []
    for path, kind, head, mtime in conversations(cwd):
        if kind not in kinds:  # (kinds holds agent kinds only: kind is one of them below)
            continue
        try:
            size = source_stat(path).st_size
            entries = (size if kind == "opencode" else _count_lines(path)) if count else None  # (parts, not lines)
        except OSError:
            continue
        found.append(SessionInfo(path, kind, head.session_id or path.stem, head.cwd, entries, size, mtime))
    return found


def _newest_conversation(cwd: str | os.PathLike[str], kinds: tuple[Kind, ...] = AGENT_KINDS) -> list[SessionInfo]:
    from core.sources.discovery import newest_conversation, source_stat

    found = newest_conversation(cwd, kinds)
    if found is None:
        return []
    path, kind, head, mtime = found
    try:
        size = source_stat(path).st_size
    except OSError:
        return []
    return [SessionInfo(path, kind, head.session_id or path.stem, head.cwd, None, size, mtime)]  # type: ignore[arg-type]


def list_sessions(cwd: str | os.PathLike[str] | None, count: bool = True) -> list[SessionInfo]:
    """pi's and pideck's sessions and the agents' conversations for ``cwd`` (None: of every
    directory), newest modification first (pi's ``--continue`` order). A conversation's
    ``entries`` are its transcript's complete lines (None without ``count``: a caller that reads
    each one anyway need not read them twice)."""
    sessions = _sessions(cwd, count=count) if cwd is not None else _every_session(count=count)
    sessions += _conversations(cwd, count=count)
    sessions.sort(key=lambda s: s.mtime, reverse=True)
    return sessions


def newest_session(cwd: str | os.PathLike[str], kind: Kind | None = None, *, agents: bool = False,
                   unbound: bool = False) -> SessionInfo | None:
    """The session ``pi --continue`` would pick for ``cwd`` (over both folders, or only the folder
    of ``kind``); with ``agents``, the agents' conversations compete too (``kind`` may name one
    agent: then only its conversations are looked at). Only headers are read: counting lines would
    read the chosen file in full, which the open that follows (from its saved index) never does;
    its ``entries`` is None. ``unbound`` leaves out the pideck sessions of agent conversations:
    each belongs to its own conversation, and a caller that found none must not write into one."""
    if kind in AGENT_KINDS:
        sessions = _newest_conversation(cwd, kinds=(kind,))
    else:
        sessions = _sessions(cwd, count=False, kind=kind)
        if agents and kind is None:
            sessions += _newest_conversation(cwd)
    if unbound:
        sessions = [s for s in sessions if s.conversation is None]
    sessions.sort(key=lambda s: s.mtime, reverse=True)
    if agents and sessions:
        return as_conversation(sessions[0])
    return sessions[0] if sessions else None


def as_conversation(info: SessionInfo) -> SessionInfo:
    """A pideck session that belongs to an agent conversation stands for the conversation, whose
    screen shows both (docs/agent-conversations.md#one-pideck-session-per-conversation); a
    conversation whose transcript is gone leaves the session itself."""
    data = info.conversation
    transcript = data.get("transcript") if data is not None else None
    if info.kind != "pideck" or data is None or data.get("agent") not in AGENT_KINDS or not isinstance(transcript, str):
        return info
    from core.sources.discovery import source_stat

    try:
        st = source_stat(transcript)
    except (OSError, ValueError):
        return info
    return SessionInfo(Path(transcript), data["agent"], data["agentSessionId"], info.cwd, None, st.st_size,
                       max(st.st_mtime, info.mtime), {**data, "session": str(info.path)})


def watched_places(cwd: str | os.PathLike[str]) -> list[tuple[str, str]]:
    """Where the sessions and conversations of ``cwd`` appear, as (who, folder): what the app
    waiting for the first one watches (docs/tui.md#waiting-for-the-first-session)."""
    from core.sources.discovery import (AgentFolders, claude_folder_name, claude_projects_dir, codex_sessions_dir,
                                        copilot_sessions_dir, qwen_chats_dirs)
    from core.sources.opencode import database as opencode_database

    target = normalise_cwd(cwd)
    gemini = AgentFolders().gemini(target)
    return [
        ("pi", str(pi_custom_session_dir() or pi_sessions_dir(target))),
        ("pideck", str(pideck_sessions_dir(target))),
        ("Claude Code", str(claude_projects_dir() / claude_folder_name(target))),
        ("Codex", f"{codex_sessions_dir()}{os.sep}YYYY{os.sep}MM{os.sep}DD (by the directory each names)"),
        ("Gemini CLI", str(gemini[0].folder) if gemini else "(no folder for this directory)"),
        ("Qwen Code", str(qwen_chats_dirs(target)[0])),
        ("opencode", f"{opencode_database()} (by the directory each names)"),
        ("GitHub Copilot CLI", f"{copilot_sessions_dir()}{os.sep}<id> (by the directory each names)"),
    ]


def label(info: SessionInfo) -> str:
    """A session or conversation in a few words: ``Claude Code conversation 2aa06482``, ``pi session
    01a22cf3`` (the id is the file's text: shown literally)."""
    from core.sources.in_database import short_id
    from core.sources.plan import AGENT_NAMES
    from core.untrusted import visible_controls

    noun = "conversation" if info.kind in AGENT_NAMES else "session"
    return f"{AGENT_NAMES.get(info.kind, info.kind)} {noun} {visible_controls(short_id(str(info.id)))}"
