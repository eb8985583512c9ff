"""An agent's conversation as a session log: the mirror of its transcript (``mirror.py``), followed
like any pi session, read-only, and the agent object (who, where, doing what, tokens)
(docs/agent-conversations.md).

Each refresh first brings the mirror up to date with the transcript, then takes in what the mirror
gained the way a session log takes in what another writer appended, so every view of a session
works on a conversation unchanged.
"""

from __future__ import annotations

import json
import os
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from core.conversations.detect import detect_kind
from core.conversations.mirror import Mirror
from core.conversations.reader import ENDED, WAITING, WORKING, agent_name
from core.session.errors import NotASession
from core.session.files import not_regular, read_small_file
from core.session.log import Refresh, SessionLog

LIVE_FILE_BYTES = 1 << 16


def agent_read_only(kind: str) -> str:
    return (f"This is {agent_name(kind)}'s own conversation: pideck follows it read-only and never "
            "writes to an agent's files. Nothing was changed.")


class ConversationLog(SessionLog):
    """A read-only session log over the mirror of an agent's transcript."""

    mirror: Mirror | None = None

    @classmethod
    def open_transcript(cls, path: str | os.PathLike[str], kind: str | None = None) -> ConversationLog:
        """Follow the transcript at ``path``; raises ``NotASession`` when no reader knows it."""
        source = Path(path)
        mode = os.stat(source).st_mode
        if (what := not_regular(mode)) is not None:
            raise NotASession(f"{source} is {what}, not a conversation")
        kind = kind or detect_kind(source)
        if kind is None:
            raise NotASession(f"{source} is not a conversation of Claude Code, Codex or Gemini CLI")
        mirror = Mirror(source, kind)
        mirror.sync()
        log = cls.open(mirror.path, writable=False)
        assert isinstance(log, ConversationLog)
        log.mirror = mirror
        log.warnings.extend(mirror.warnings)
        return log

    def refresh(self) -> Refresh:
        mirror = self.mirror
        fresh: list[str] = []
        if mirror is not None:
            try:
                fresh = mirror.sync().warnings
            except FileNotFoundError:
                pass  # the transcript is gone: what was read stays on screen
            except OSError as exc:
                fresh = [f"{mirror.source}: cannot be read ({exc.strerror or exc})"]
        result = super().refresh()
        if mirror is not None:
            told = mirror.warnings if result.reset else fresh
            self.warnings.extend(told)
            result.warnings = list(result.warnings) + told
        return result

    # -- what a front end shows -----------------------------------------------------------------

    @property
    def kind(self) -> str:
        return self.mirror.kind if self.mirror is not None else ""

    @property
    def shown_path(self) -> Path:
        return self.mirror.source if self.mirror is not None else self.path

    @property
    def read_only_reason(self) -> str | None:
        return agent_read_only(self.kind)

    @property
    def cwd(self) -> str | None:
        cwd = self.mirror.info.get("cwd") if self.mirror is not None else None
        return cwd if isinstance(cwd, str) and cwd else super().cwd

    @property
    def session_id(self) -> str | None:
        sid = self.mirror.info.get("sessionId") if self.mirror is not None else None
        return sid if isinstance(sid, str) else super().session_id

    def watched(self) -> tuple[Path, ...]:
        """The transcript, and for Claude Code its live-session folder (a Claude that exits
        deletes its file there without writing to the transcript)."""
        if self.mirror is None:
            return (self.path,)
        live = claude_sessions_folder(self.mirror.source) if self.kind == "claude" else None
        return (self.mirror.source,) + ((live,) if live is not None else ())

    def agent(self) -> dict[str, Any]:
        """The agent object of ``inspect --json`` (docs/agent-conversations.md#the-agent-object)."""
        mirror = self.mirror
        info = dict(mirror.info) if mirror is not None else {}
        status = str(info.get("status") or WAITING)
        try:
            mtime = os.stat(mirror.source).st_mtime if mirror is not None else None
        except OSError:
            mtime, status = None, ENDED
        if self.kind == "claude" and mirror is not None:
            status = claude_live_status(mirror.source, info.get("sessionId")) or status
        return {
            "kind": self.kind,
            "name": agent_name(self.kind),
            "sessionId": info.get("sessionId"),
            "cwd": info.get("cwd"),
            "version": info.get("version"),
            "model": info.get("model"),
            "status": status,
            "lastActivity": _iso(mtime),
            "lastMessage": info.get("lastMessage"),
            "tokens": info.get("tokens"),
            "transcript": os.fsdecode(mirror.source) if mirror is not None else None,
        }


def claude_live_status(transcript: Path, session_id: Any) -> str | None:
    """Claude Code's word on a session: each running Claude writes ``<config>/sessions/<pid>.json``
    (``sessionId``, ``status`` busy or idle) and deletes it at exit. None when this transcript is
    not inside a Claude config folder, or that folder has no ``sessions`` folder to ask."""
    folder = claude_sessions_folder(transcript)
    if folder is None or not isinstance(session_id, str):
        return None
    try:
        names = [n for n in os.listdir(folder) if n.endswith(".json")]
    except OSError:
        return None
    for name in names:
        try:
            live = json.loads(read_small_file(folder / name, LIVE_FILE_BYTES))
        except (OSError, ValueError, RecursionError):
            continue  # rewritten in place under us, or not Claude's: the next look will tell
        if not isinstance(live, dict) or live.get("sessionId") != session_id:
            continue
        pid = live.get("pid")
        if type(pid) is int and pid > 0 and not _alive(pid):
            continue  # a Claude that died without cleaning up
        return WORKING if live.get("status") == "busy" else WAITING
    return ENDED


def claude_sessions_folder(transcript: Path) -> Path | None:
    """``<config>/sessions`` of the Claude config folder a transcript lies in
    (``<config>/projects/<cwd>/<id>.jsonl``), or None when it lies elsewhere."""
    if transcript.parent.parent.name != "projects":
        return None
    return transcript.parent.parent.parent / "sessions"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # someone else's process: it exists
    return True


def _iso(seconds: float | None) -> str | None:
    if seconds is None:
        return None
    moment = datetime.fromtimestamp(seconds, timezone.utc)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"
