"""An agent's conversation as a session log: the mirror of its transcript (``mirror.py``), followed
like any pi session, read-only, and the agent object (who, where, doing what, tokens)
(docs/agent-conversations.md).

Each refresh first brings the mirror up to date with the transcript, then takes in what the mirror
gained the way a session log takes in what another writer appended, so every view of a session
works on a conversation unchanged.
"""

from __future__ import annotations

import os
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

from core.files import not_regular
from core.session.errors import NotASession
from core.session.log import Refresh, SessionLog
from core.session.writer import iso_timestamp
from core.sources.detect import detect_kind
from core.sources.discovery import LiveSessions, claude_live_folder, conversation_status
from core.sources.mirror import Mirror
from core.sources.plan import AGENT_NAMES
from core.sources.reader import AGENT_ENDED

if TYPE_CHECKING:
    from core.session.entry import AgentObject


def agent_read_only(kind: str) -> str:
    """The refusal of a write to an agent's conversation, and what works instead
    (docs/agent-conversations.md#read-only): a Claude Code or Codex conversation gets a pideck
    session of its own, where the same commands write, at the agent's first pideck tool call or Stop
    hook; beside any other, the person can keep a session of their own."""
    from core.sources.binding import AGENTS  # (a refusal is rare: not on the open's path)

    name = AGENT_NAMES.get(kind, kind)
    instead = (f"Commands write to its pideck session, which starts with {name}'s first pideck tool call or "
               f"Stop hook (`pideck install {kind}` sets them up)." if kind in AGENTS
               else "For notes of your own beside it, start a pideck session: `pideck --new`.")
    return (f"This is {name}'s own conversation: pideck follows it read-only and never "
            f"writes to an agent's files. Nothing was changed. {instead}")


class ConversationLog(SessionLog):
    """A read-only session log over the mirror of an agent's transcript."""

    def __init__(self, path: str | os.PathLike[str], *, mirror: Mirror, **options: Any) -> None:
        self.mirror = mirror  # (set first: the open's first refresh asks it)
        self._live = LiveSessions()  # Claude Code's word on whether it runs
        self._told = False  # the transcript's warnings so far are among the log's
        super().__init__(path, **options)

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
        mirror.sync()  # (the mirror file must be there to be opened)
        log = cls.open(mirror.path, writable=False, mirror=mirror)
        assert isinstance(log, ConversationLog)
        return log

    def refresh(self) -> Refresh:
        """Bring the mirror up to date with the transcript, then take in what the mirror gained;
        the transcript's warnings join the log's (all of them after the mirror was read anew)."""
        try:
            fresh = self.mirror.sync().warnings
        except FileNotFoundError:
            fresh = []  # the transcript is gone: what was read stays on screen
        except OSError as exc:
            fresh = [f"{self.mirror.source}: cannot be read ({exc.strerror or exc})"]
        result = super().refresh()
        told = self.mirror.warnings if result.reset or not self._told else fresh
        self._told = True
        self.warnings.extend(told)
        result.warnings = list(result.warnings) + told
        return result

    # -- what a front end shows -----------------------------------------------------------------

    @property
    def kind(self) -> str:
        return self.mirror.kind

    @property
    def entry_count(self) -> int:
        """The transcript's lines read: what the agent wrote, whatever pideck made of it (the same
        count ``pideck sessions`` gives a transcript it has not read)."""
        return int(self.mirror.state.get("lines", 0))

    @property
    def shown_path(self) -> Path:
        return self.mirror.source

    @property
    def read_only_reason(self) -> str | None:
        return agent_read_only(self.kind)

    @property
    def cwd(self) -> str | None:
        cwd = self.mirror.info.get("cwd")
        return cwd if isinstance(cwd, str) and cwd else super().cwd

    @property
    def session_id(self) -> str | None:
        sid = self.mirror.info.get("sessionId")
        return sid if isinstance(sid, str) else super().session_id

    def watched(self) -> tuple[Path, ...]:
        """The transcript, and for Claude Code its live-session folder and the files in it: a
        Claude that exits deletes its file there without writing to the transcript, and one that
        goes idle rewrites its file in place (the folder does not change then)."""
        live = claude_live_folder(self.mirror.source) if self.kind == "claude" else None
        if live is None:
            return (self.mirror.source,)
        try:
            files = sorted(live / name for name in os.listdir(live) if name.endswith(".json"))
        except OSError:
            files = []
        return (self.mirror.source, live, *files)

    def agent(self) -> AgentObject:
        """The agent object of ``inspect --json`` (docs/agent-conversations.md#the-agent-object)."""
        mirror, info = self.mirror, self.mirror.info
        self._live.tick()  # (a new look at the live-session files, each parsed again only when it changed)
        status = conversation_status(mirror, self._live)
        try:
            mtime_ms: int | None = os.stat(mirror.source).st_mtime_ns // 1_000_000
        except OSError:
            mtime_ms, status = None, AGENT_ENDED
        last_ms, of_line = mirror.last_activity_ms(mtime_ms)
        last = iso_timestamp(datetime.fromtimestamp(last_ms / 1000, timezone.utc)) if last_ms is not None else None
        return {
            "kind": self.kind,
            "name": AGENT_NAMES.get(self.kind, self.kind),
            "sessionId": info.get("sessionId"),
            "cwd": self.cwd or None,
            "version": info.get("version"),
            "model": info.get("model"),
            "status": status,
            "lastActivity": last,
            "lastActivityOf": ("line" if of_line else "file") if last is not None else None,
            "lastMessage": info.get("lastMessage"),
            "tokens": info.get("tokens"),
            "transcript": os.fsdecode(mirror.source),
            "pideckSession": self._pideck_session(info.get("sessionId")),
        }

    def _pideck_session(self, session_id: str | None) -> str | None:
        """The pideck session of this conversation, when it has one (core/sources/binding.py)."""
        from core.sources.binding import AGENTS, bound_session

        if self.kind not in AGENTS or not isinstance(session_id, str) or not session_id:
            return None
        found = bound_session(self.kind, session_id)
        return str(found) if found is not None else None
