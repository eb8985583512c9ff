"""Which pideck session belongs to which agent conversation (docs/agent-conversations.md#one-pideck-session-per-conversation).

Each Claude Code conversation (its session id) and each Codex thread (its thread id) gets a pideck
session of its own, made the first time the conversation needs one (its first pideck tool call, or
a Stop hook with something to record) and found again when the conversation is resumed. Claude
Code's ``/clear`` and ``--fork-session`` start a conversation with a new id, so they get a new
session too.

The binding lives under pideck's home, never in the agent's folders:

- ``bindings/<agent>/<id>.json`` names the session file of one conversation;
- the session names its conversation in its first entry, a ``pideck/conversation`` custom entry
  (``agent``, ``agentSessionId``, ``transcript``, ``cwd``), so a reader can go either way;
- ``bindings/processes/<pid>.json`` names the conversation an agent process is in now, written by
  the agent's hooks (SessionStart first), for a front end that cannot find out by itself.

Every lookup or creation takes the binding's lock, so two front ends of one conversation (the MCP
server and a hook) that need the session at the same moment make one session, not two.
"""

# (No ``from __future__ import annotations``: typing would compile the string annotations of the
# NamedTuples below, and inspect, run, tool and the hooks compile nothing: core/slotted.py.)

import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, cast

from core.config.places import pideck_home, pideck_sessions_dir
from core.files import locked, read_json, write_json
from core.session.naming import new_session_path

try:
    import fcntl
except ImportError:  # pragma: no cover - not on POSIX
    fcntl = None  # type: ignore[assignment]

if TYPE_CHECKING:  # (the type checker's alone: a TypedDict compiles its annotations as it is made)
    from typing import NotRequired, TypedDict

    class ConversationRecord(TypedDict):
        """Which conversation a pideck session belongs to, as ``Conversation.entry`` writes it: the
        data of the session's ``pideck/conversation`` entry, and the start of a binding's and a
        process's record. Read back (``_conversation``), only the agent and the id are known to be
        text; the rest is whatever the file held, checked where it is used."""

        agent: str  # claude, codex, qwen or copilot
        agentSessionId: str
        cwd: NotRequired[object]
        transcript: NotRequired[object]

ENTRY_TYPE = "pideck/conversation"
"""The first entry of a session made for a conversation: which conversation it belongs to."""
AGENTS = ("claude", "codex", "qwen", "copilot")
"""The agents whose conversations get a pideck session: those whose hooks name the conversation
(Claude Code's and Codex's MCP server calls are routed to it too)."""

_PLAIN_ID = r"[A-Za-z0-9][A-Za-z0-9._-]{0,127}"  # (a pattern: re compiles it at its first use and keeps it)


class Conversation(NamedTuple):
    """One agent conversation, as a front end found it. (A NamedTuple, as in core/primitives/host.py:
    made quickly as a hook starts.)"""

    agent: str  # claude or codex
    id: str  # Claude Code's session id, Codex's thread id
    cwd: str
    transcript: str | None = None  # the agent's own transcript of it, where known
    how: str = ""  # how it was found, in a person's words ("the hook input", ...)

    @property
    def short(self) -> str:
        """How a person reads it in a line of text (the id is the agent's text: shown literally)."""
        from core.sources.plan import AGENT_NAMES
        from core.untrusted import visible_controls

        return f"{AGENT_NAMES.get(self.agent, self.agent)} conversation {visible_controls(self.id[:8])}"

    def entry(self) -> "ConversationRecord":
        data: ConversationRecord = {"agent": self.agent, "agentSessionId": self.id, "cwd": self.cwd}
        if self.transcript is not None:
            data["transcript"] = self.transcript
        return data


def bindings_dir() -> Path:
    return pideck_home() / "bindings"


def file_name(value: str) -> str:
    """A file name for an id: the id itself when it is plain (the agents' ids are UUIDs), else a
    digest, so no id can name a path outside the folder."""
    if re.fullmatch(_PLAIN_ID, value) and value not in (".", ".."):
        return value
    import hashlib  # (here: reading a session's conversation needs none)

    return "sha256-" + hashlib.sha256(value.encode("utf-8", "surrogatepass")).hexdigest()


def binding_path(agent: str, conversation_id: str) -> Path:
    return bindings_dir() / file_name(agent) / f"{file_name(conversation_id)}.json"


def bound_session(agent: str, conversation_id: str) -> Path | None:
    """The session file bound to a conversation, when there is one on disk."""
    record = read_json(binding_path(agent, conversation_id))
    session = record.get("session") if record is not None else None
    if isinstance(session, str) and os.path.isfile(session):
        return Path(session)
    return None


def session_for(conversation: Conversation, *, create: bool) -> Path | None:
    """The pideck session of ``conversation``: the bound one, else (``create``) a new one, bound
    from now on. None when there is none and ``create`` is false. A bound file that was deleted is
    made again at its path, so the binding stays what a person can read in the session list."""
    from core.session.log import SessionLog

    where = binding_path(conversation.agent, conversation.id)
    if not create and not where.exists():
        return None  # (most stops are of conversations that never wrote to pideck: no lock file for them)
    with locked(where.with_suffix(".lock")):  # (one per conversation that has a session)
        record = read_json(where)
        recorded = record.get("session") if record is not None else None
        if isinstance(recorded, str) and os.path.isfile(recorded):
            path = Path(recorded)
            if conversation.transcript is not None and record is not None and record.get("transcript") != conversation.transcript:
                write_json(where, {**record, "transcript": conversation.transcript})
            return path
        if not create:
            return None
        if isinstance(recorded, str) and Path(recorded).parent == pideck_sessions_dir(conversation.cwd):
            # (made again only where pideck makes its sessions: a binding never names a path to write elsewhere)
            path, session_id, timestamp = Path(recorded), None, None
        else:
            path, session_id, timestamp = new_session_path(conversation.cwd)
        log = SessionLog.create(path, cwd=conversation.cwd, session_id=session_id, timestamp=timestamp)
        log.append_custom(ENTRY_TYPE, conversation.entry())
        write_json(where, {**conversation.entry(), "session": str(path)})
        return path


def session_head(path: str | os.PathLike[str]) -> "tuple[str | None, ConversationRecord | None, bool]":
    """A session file's id, the conversation it belongs to (the data of its ``pideck/conversation``
    entry, which a session made for one has first), and whether the head was whole enough to say
    (its header and first entry written): listing many sessions reads no more of each."""
    from core.session.parse import loads_line

    try:
        with open(path, "rb") as fh:
            head = fh.read(1 << 13)
    except OSError:
        return None, None, False
    lines = head.split(b"\n")
    values = []
    for raw in lines[:2] if len(lines) > 2 else lines[:-1]:  # (complete lines only)
        try:
            value = loads_line(raw)
        except (ValueError, RecursionError):
            value = None
        values.append(value if isinstance(value, dict) else {})
    session_id = values[0].get("id") if values and isinstance(values[0].get("id"), str) else None
    data = values[1].get("data") if len(values) > 1 and values[1].get("customType") == ENTRY_TYPE else None
    if (bound := _conversation(data)) is not None:
        return session_id, bound, True
    return session_id, None, len(values) > 1


def conversation_in_file(path: str | os.PathLike[str]) -> "ConversationRecord | None":
    """``conversation_of`` from the first lines of a session file alone."""
    return session_head(path)[1]


def conversation_of(records: Any) -> "ConversationRecord | None":
    """The conversation a session belongs to: the data of its ``pideck/conversation`` entry, its
    first, or None for a session of no conversation."""
    for record in records[:1]:  # (a slice: the first record made, not one per entry)
        if getattr(record, "custom_type", None) == ENTRY_TYPE:
            return _conversation(record.get("data"))
    return None


def _conversation(value: object) -> "ConversationRecord | None":
    """``value`` when it names a conversation (its agent and id are text), else None: where a
    record read back from a session or a file becomes one."""
    if isinstance(value, dict) and isinstance(value.get("agent"), str) and isinstance(value.get("agentSessionId"), str):
        return cast("ConversationRecord", value)
    return None


# -- which conversation an agent process is in now ----------------------------------------------


def process_path(pid: int) -> Path:
    return bindings_dir() / "processes" / f"{pid}.json"


def processes_lock() -> Path:
    """One lock for every process record: they are written once a turn, and one lock file per
    pid would pile up."""
    return bindings_dir() / "processes" / ".lock"


def note_process(pid: int, conversation: Conversation, started: str | None) -> None:
    """Record that the agent process ``pid`` (started at ``started``, its start time as
    ``/proc/<pid>/stat`` gives it) is in ``conversation`` now."""
    record: dict[str, object] = {**conversation.entry(), "pid": pid}
    if started is not None:
        record["procStart"] = started
    with locked(processes_lock()):
        write_json(process_path(pid), record)


def forget_process(pid: int, conversation_id: str) -> None:
    """The conversation ended in process ``pid``: its record goes, unless it already names the
    next conversation (``/clear`` ends one and starts another in the same process)."""
    path = process_path(pid)
    with locked(processes_lock()):  # (a SessionStart of the next conversation may be writing it)
        record = read_json(path)
        if record is not None and record.get("agentSessionId") == conversation_id:
            path.unlink(missing_ok=True)


def noted_process(pid: int, started: str | None) -> "ConversationRecord | None":
    """The conversation the hooks recorded for process ``pid``, when the record is of this very
    process (not of an earlier one that had the same pid)."""
    record = read_json(process_path(pid))
    if record is not None and started is not None and record.get("procStart") not in (None, started):
        return None
    return _conversation(record)
