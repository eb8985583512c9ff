"""Choosing a session and opening its Deck: the one front door of the CLI, the TUI, the MCP server
and the hooks. Problems a person should see come back as warnings; printing them is the front
end's business (inside the TUI, stderr is not on screen)."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from core.catalog.sessions import SessionInfo, as_conversation, newest_session
from core.config.places import AGENT_KINDS, is_pi_session_path
from core.config.settings import load_config
from core.deck.deck import Deck
from core.sources.in_database import short_id
from core.files import is_empty_file, jsonl_files
from core.session.errors import NoSession, ReadOnlySession, SessionError
from core.session.log import SessionLog
from core.session.naming import new_session_path
from core.session.parse import read_header

KINDS = ("pi", "pideck", *AGENT_KINDS)
"""Every kind ``prefer`` may name."""


if TYPE_CHECKING:  # (the type checker's alone: the conversation's module loads once there is one)
    from core.sources.log import ConversationLog

    OpenLog = SessionLog | ConversationLog
    """The log of a session file, or of an agent's conversation (``core/sources/log.py``)."""
    SessionDeck = Deck[OpenLog]
    """The Deck of a session file or of an agent's conversation: what a front end opens."""
else:
    SessionDeck = Deck
FILE_PROBLEMS = (OSError, SessionError)
"""What a file can do to an open session (gone, unreadable, no longer a session): a front end shows
it and goes on."""


def gets_a_session(kind: str | None) -> bool:
    """Whether an agent's conversations get a pideck session of their own (Claude Code's and
    Codex's, whose hooks and MCP server pideck can tell apart by conversation)."""
    from core.sources.binding import AGENTS  # (only a conversation's screen asks: not on gate's path)

    return kind in AGENTS


def open_bound_session(kind: str | None, conversation_id: str | None, template: SessionDeck) -> SessionDeck | None:
    """The Deck of a conversation's pideck session once it exists (the agent's first pideck tool
    call or Stop hook makes it), with ``template``'s todo settings and clock; None until then, or
    while it cannot be read (looked at again later)."""
    from core.sources.binding import bound_session

    path = bound_session(kind, conversation_id) if kind and conversation_id and gets_a_session(kind) else None
    if path is None:
        return None
    try:
        return Deck(SessionLog.open(path), todo_config=template.todo.config, clock=template.todo.clock)
    except (OSError, SessionError, ValueError):
        return None


class Opened:
    """A session's Deck and what the person should be told about opening it."""

    __slots__ = ("deck", "warnings", "why", "follows")

    def __init__(self, deck: SessionDeck, warnings: list[str] | None = None, why: str | None = None) -> None:
        self.deck = deck
        self.warnings: list[str] = [] if warnings is None else warnings
        self.why = why
        """Why this session was opened, when nothing named it (``default_choice``)."""
        self.follows: str | None = None
        """The directory the app follows, when no file was named (``follow_directory``)."""


class Waiting:
    """Nothing to open yet: the app waits in ``cwd`` (docs/tui.md#waiting-for-the-first-session).
    ``follow``: for the directory's first session or conversation, which opens by itself;
    otherwise (``pideck --new``) only for the person's first command. Either way the person's first
    command makes a pideck session (``first_write_session``): opening, looking and quitting leave
    no file anywhere."""

    __slots__ = ("cwd", "follow", "warnings")

    def __init__(self, cwd: str, follow: bool = True, warnings: list[str] | None = None) -> None:
        self.cwd = cwd
        self.follow = follow
        self.warnings: list[str] = [] if warnings is None else warnings


def follow_directory(cwd: str | os.PathLike[str], *, prefer: str | None = None, write: bool = False,
                     folders: bool = False) -> Opened | Waiting:
    """``pideck`` with no file named (``folders``: ``pideck DIR``, where DIR may also be a folder of
    session files): the newest session or conversation of ``cwd`` (``default_choice``), else
    ``Waiting`` for the first one. Nothing is created."""
    cwd = os.path.abspath(cwd)
    if folders:
        path, why = directory_choice(cwd, prefer)
    else:
        newest, why = default_choice(cwd, prefer)
        path = newest.path if newest is not None else None
    if path is None:
        return Waiting(cwd, warnings=[f"config: {p}" for p in load_config()[1]])
    opened = open_deck(path, write=write, cwd=cwd, create=False)
    opened.why, opened.follows = why, cwd
    return opened


def first_write_session(cwd: str | os.PathLike[str]) -> Opened:
    """The pideck session the person's first command in a waiting app is written to, made now."""
    config, problems = load_config()
    deck: SessionDeck = Deck(SessionLog.create_for_cwd(cwd), todo_config=config)
    return Opened(deck, [f"config: {p}" for p in problems], "a new pideck session, made for your first command")


def remove_if_unwritten(path: str | os.PathLike[str]) -> bool:
    """Remove a session ``first_write_session`` made whose first command wrote nothing (it only
    read, or was refused): the app's quit leaves no file nobody wrote in. Kept as soon as anyone
    (an agent's tool call too) wrote an entry or left a line, even a broken one. True when
    removed."""
    try:
        log = SessionLog.open(path, writable=True, saved_index=False)
        with log.locked():
            log.refresh()
            with open(path, "rb") as fh:
                data = fh.read(1 << 16)
            if log.entry_count or data.count(b"\n") != 1 or not data.endswith(b"\n"):
                return False  # (one line, the header, is all pideck wrote)
            os.unlink(path)
    except (OSError, SessionError):
        return False
    try:
        os.rmdir(os.path.dirname(os.path.abspath(path)))  # (the directory's folder, made for it, when now empty)
    except OSError:
        pass
    return True


def choose_session(
    path: str | os.PathLike[str] | None,
    *,
    write: bool = False,
    cwd: str | os.PathLike[str] | None = None,
    create: bool = True,
    pideck_only: bool = False,
    agents: bool = False,
    prefer: str | None = None,
    new: bool = False,
) -> OpenLog:
    """``path``, else ``$PIDECK_SESSION``, else the newest session for ``cwd`` (pideck's or pi's,
    as ``pi --continue`` picks), else a new pideck session. A path that does not exist becomes a new
    pideck session there, except inside pi's folders without ``write``. pi's own files open
    read-only unless ``write`` is set. ``new`` (and no ``path``): a new pideck session for ``cwd``,
    whatever exists (``pideck --new``).

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
    if new and path is None:
        return SessionLog.create_for_cwd(cwd)
    chosen = path if path is not None else os.environ.get("PIDECK_SESSION") or None
    if chosen is not None:
        target = Path(chosen)
        # (a dangling symbolic link is opened, and fails, never created; an empty file is a create that
        # never got its header, a kill or a full disk: it is not there yet, docs/session-format.md)
        if not (os.path.lexists(target) or in_database(target)) or (create and is_empty_file(target)):
            if not create:
                raise NoSession(f"no session file at {target}")
            if not write and is_pi_session_path(target):
                raise ReadOnlySession(f"no session file at {target}, and pideck creates files inside pi's "
                                      "session folders only with --write. Nothing was changed.")
            return SessionLog.create(target, cwd=cwd)
        return open_log(target, writable=writable)
    if agents and not pideck_only:
        newest, _ = default_choice(cwd, prefer)
    else:
        newest = newest_session(cwd, kind="pideck", unbound=True) if pideck_only else newest_session(cwd)
    if newest is not None:
        if newest.kind in AGENT_KINDS:  # (discovery told its kind from its head already)
            from core.sources.log import ConversationLog

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
    from core.sources.plan import AGENT_NAMES

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
                        f"{short_id(str(data['agentSessionId']))}, with its pideck session {Path(data['session']).name}")
    return newest, "the newest of this directory"


def in_database(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` names a conversation inside an agent's database (opencode's)."""
    from core.sources.in_database import split

    return split(path) is not None


def source_file(path: Path) -> Path:
    """The file a session or conversation lives in: for one inside an agent's database, the
    database."""
    from core.sources.in_database import split

    named = split(path)
    return named[0] if named is not None else path


def open_log(path: str | os.PathLike[str], writable: bool | None = None) -> OpenLog:
    """The log of the file at ``path``: an agent's conversation (Claude Code, Codex, Gemini CLI),
    told by its content and always read-only, else a pi-format session (``SessionLog.open``)."""
    from core.sources.detect import detect_kind
    from core.sources.in_database import split

    if split(path) is None and Path(path).name.endswith(".db"):
        from core.sources import opencode

        if opencode.is_database(path):
            path = opencode.newest(Path(path))  # (a database of many conversations: its newest)
    if split(path) is not None:
        from core.sources.log import ConversationLog

        return ConversationLog.open_transcript(path, "opencode")
    try:
        regular = stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        regular = False  # SessionLog.open says what is wrong with it
    try:
        kind = detect_kind(path) if regular else None
    except OSError:
        kind = None  # unreadable: SessionLog.open says so in its own words
    if kind is not None:
        from core.sources.log import ConversationLog

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
    new: bool = False,
) -> Opened:
    """The Deck over the session ``choose_session`` picks, with the user's todo configuration."""
    config, problems = load_config()
    why = None
    if path is None and agents and not pideck_only and not new and not os.environ.get("PIDECK_SESSION"):
        newest, why = default_choice(os.fspath(cwd) if cwd is not None else os.getcwd(), prefer)
        path = newest.path if newest is not None else None
    log = choose_session(path, write=write, cwd=cwd, create=create, pideck_only=pideck_only, agents=agents,
                         prefer=prefer, new=new)
    return Opened(Deck(log, todo_config=config, clock=clock), [f"config: {p}" for p in problems], why)


# -- what a person typed: ``pideck PATH`` (docs/session-format.md#what-pideck-path-opens) -----------


def directory_choice(folder: str | os.PathLike[str], prefer: str | None) -> tuple[Path | None, str]:
    """What ``pideck DIR`` opens, and why: what ``pideck`` run in DIR would (``default_choice``),
    else, for a folder that holds sessions itself (pi's or pideck's folder of one directory's
    sessions), its newest session file; None (with ``default_choice``'s why) when it has neither."""
    chosen, why = default_choice(folder, prefer)
    if chosen is not None:
        return chosen.path, why
    for path in _jsonl_files(folder, newest_first=True):
        if read_header(path) is not None:
            return path, "the newest session file in that folder"
    return None, why


def _jsonl_files(folder: str | os.PathLike[str], newest_first: bool = False) -> list[Path]:
    """The regular ``*.jsonl`` files in ``folder`` (none when it cannot be listed)."""
    files = jsonl_files(folder)
    if not newest_first:
        return files
    found: list[tuple[float, Path]] = []
    for path in files:
        try:
            found.append((path.stat().st_mtime, path))
        except OSError:
            continue
    found.sort(key=lambda item: (-item[0], item[1].name))
    return [path for _, path in found]


def is_bare_word(text: str) -> bool:
    """Whether ``text`` reads as a command word rather than a path: no path separator and no
    ``.jsonl`` suffix (``pideck stauts`` is a mistyped command, ``pideck ./stauts`` a path)."""
    separators = [os.sep] + ([os.altsep] if os.altsep else [])
    return bool(text) and not text.endswith(".jsonl") and not any(sep in text for sep in separators)


def describe_missing(typed: str) -> str:
    """One line for a path that does not exist: that it does not exist (nor its folder, when that
    is missing too), the nearest session file in its folder by name (a typo, most likely), and that
    ``--new`` creates it. ``typed`` is shown as the person typed it."""
    import difflib
    import shlex

    from core.untrusted import visible_controls as shown  # (a typed path may hold any character)

    if not typed:
        return "an empty path names no session file"
    folder, name = os.path.split(typed.rstrip(os.sep) or typed)
    named = os.path.join(os.curdir, typed) if is_bare_word(typed) else typed  # (a bare word reads as a command)
    create = f"`pideck --new {shlex.quote(shown(named))}` creates it"
    if folder and not os.path.isdir(folder):
        return f"{shown(typed)} does not exist, nor does its folder {shown(folder)}; {create}"
    # by stem: every candidate ends in .jsonl, which alone would make unrelated names look near
    stems = {path.name.removesuffix(".jsonl"): path.name for path in _jsonl_files(folder or os.curdir)}
    nearest = difflib.get_close_matches(name.removesuffix(".jsonl"), stems, n=1)
    if not nearest:
        return f"{shown(typed)} does not exist; {create}"
    return (f"{shown(typed)} does not exist (the nearest session in its folder: "
            f"{shown(os.path.join(folder, stems[nearest[0]]))}); {create}")
