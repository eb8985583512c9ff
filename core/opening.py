"""Choosing a session and opening its Deck: the one front door of the CLI, the TUI, the MCP server
and the hooks. Problems a person should see come back as warnings; printing them is the front
end's business (inside the TUI, stderr is not on screen)."""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from core.deck import Deck
from core.conversations.plan import AGENT_NAMES
from core.session.discovery import (AGENT_KINDS, SessionInfo, as_conversation, is_pi_session_path, new_session_path,
                                    newest_session)
from core.session.errors import NoSession, ReadOnlySession
from core.session.log import SessionLog
from core.todo.config import load_config

KINDS = ("pi", "pideck", *AGENT_KINDS)
"""Every kind ``prefer`` may name."""


@dataclass
class Opened:
    """A session's Deck and what the person should be told about opening it."""

    deck: Deck[SessionLog]
    warnings: list[str] = field(default_factory=list)
    why: str | None = None
    """Why this session was opened, when nothing named it (``default_choice``)."""


def choose_session(
    path: str | os.PathLike[str] | None,
    *,
    write: bool = False,
    cwd: str | os.PathLike[str] | None = None,
    create: bool = True,
    pideck_only: bool = False,
    agents: bool = False,
    prefer: str | None = None,
) -> SessionLog:
    """``path``, else ``$PIDECK_SESSION``, else the newest session for ``cwd`` (pideck's or pi's,
    as ``pi --continue`` picks), else a new pideck session. A path that does not exist becomes a new
    pideck session there, except inside pi's folders without ``write``. pi's own files open
    read-only unless ``write`` is set.

    ``agents`` lets the agents' own conversations (Claude Code, Codex, Gemini CLI; always
    read-only) compete for the newest, as ``pideck`` in a directory does; ``prefer`` names a kind
    whose newest session or conversation is taken first when the directory has one (the
    ``[tui] prefer_kind`` setting; ``any`` or None: no preference).

    ``pideck_only`` leaves pi's sessions out of the search for the newest one, and the pideck
    sessions of agent conversations (a path or ``$PIDECK_SESSION`` is still taken as given): the
    MCP server and the hooks write for an agent that is not pi, a pi file would refuse every write,
    and a conversation's session is its own (docs/mcp-and-hooks.md#which-session-a-call-goes-to).
    ``create=False`` never makes a file: a missing path or no session at all is ``NoSession`` (a
    FileNotFoundError).
    """
    cwd = os.fspath(cwd) if cwd is not None else os.getcwd()
    writable = True if write else None  # None: the log decides by where the file lives
    chosen = path if path is not None else os.environ.get("PIDECK_SESSION") or None
    if chosen is not None:
        target = Path(chosen)
        if not os.path.lexists(target):  # (a dangling symbolic link is opened, and fails, never created)
            if not create:
                raise NoSession(f"no session file at {target}")
            if not write and is_pi_session_path(target):
                raise ReadOnlySession(f"no session file at {target}, and pideck creates files inside pi's "
                                      "session folders only with --write")
            return SessionLog.create(target, cwd=cwd)
        return open_log(target, writable=writable)
    if agents and not pideck_only:
        newest, _ = default_choice(cwd, prefer)
    else:
        newest = newest_session(cwd, kind="pideck", unbound=True) if pideck_only else newest_session(cwd)
    if newest is not None:
        if newest.kind in AGENT_KINDS:  # (discovery told its kind from its head already)
            from core.conversations.log import ConversationLog

            return ConversationLog.open_transcript(newest.path, newest.kind)
        return SessionLog.open(newest.path, writable=writable)
    if not create:
        raise NoSession(f"no session for {cwd} yet")
    new_path, session_id, timestamp = new_session_path(cwd)
    return SessionLog.create(new_path, cwd=cwd, session_id=session_id, timestamp=timestamp)


def default_choice(cwd: str | os.PathLike[str], prefer: str | None) -> tuple[SessionInfo | None, str]:
    """What ``pideck`` opens in ``cwd`` when nothing names a session, and why, in a person's words:
    the newest session or agent conversation, or the newest of the ``prefer`` kind. A pideck
    session that belongs to an agent conversation stands for the conversation (its screen shows
    both)."""
    if prefer in KINDS:
        preferred = newest_session(cwd, kind=prefer)
        if preferred is not None:
            return as_conversation(preferred), f"the newest of kind {prefer}, as [tui] prefer_kind says"
    newest = newest_session(cwd, agents=True)
    if newest is None:
        return None, "nothing here yet: a new pideck session"
    data = newest.conversation
    if data is not None and newest.kind in AGENT_KINDS:
        return newest, (f"the newest: {AGENT_NAMES.get(newest.kind, newest.kind)} conversation "
                        f"{str(data['agentSessionId'])[:8]}, with its pideck session {Path(data['session']).name}")
    return newest, "the newest of this directory"


def open_log(path: str | os.PathLike[str], writable: bool | None = None) -> SessionLog:
    """The log of the file at ``path``: an agent's conversation (Claude Code, Codex, Gemini CLI),
    told by its content and always read-only, else a pi-format session (``SessionLog.open``)."""
    from core.conversations.detect import detect_kind

    try:
        regular = stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        regular = False  # SessionLog.open says what is wrong with it
    try:
        kind = detect_kind(path) if regular else None
    except OSError:
        kind = None  # unreadable: SessionLog.open says so in its own words
    if kind is not None:
        from core.conversations.log import ConversationLog

        return ConversationLog.open_transcript(path, kind)
    return SessionLog.open(path, writable=writable)


def open_deck(
    path: str | os.PathLike[str] | None = None,
    *,
    write: bool = False,
    cwd: str | os.PathLike[str] | None = None,
    create: bool = True,
    pideck_only: bool = False,
    clock: Callable[[], int] | None = None,
    agents: bool = False,
    prefer: str | None = None,
) -> Opened:
    """The Deck over the session ``choose_session`` picks, with the user's todo configuration."""
    config, problems = load_config()
    why = None
    if path is None and agents and not pideck_only and not os.environ.get("PIDECK_SESSION"):
        newest, why = default_choice(os.fspath(cwd) if cwd is not None else os.getcwd(), prefer)
        path = newest.path if newest is not None else None
    log = choose_session(path, write=write, cwd=cwd, create=create, pideck_only=pideck_only, agents=agents,
                         prefer=prefer)
    return Opened(Deck(log, todo_config=config, clock=clock), [f"config: {p}" for p in problems], why)
