"""pi-format session log: header, entries, id/parentId tree, current branch, incremental tail,
locked appends and session discovery. Pure Python: never imports Textual."""

from .discovery import (
    SessionInfo, encode_cwd, is_pi_session_path, list_sessions, new_session_path, newest_session,
    normalise_cwd, pi_agent_dir, pi_sessions_dir, pideck_home, pideck_sessions_dir, read_header,
)
from .errors import NotASession, ReadOnlySession, SessionError
from .log import Refresh, SessionLog
from .records import EntryRecord
from .tail import TailChunk, Tailer
from .tree import branch_path, children
from .writer import MISSING, iso_timestamp, serialise, uuid7

__all__ = [
    "EntryRecord", "MISSING", "NotASession", "ReadOnlySession", "Refresh", "SessionError", "SessionInfo",
    "SessionLog", "TailChunk", "Tailer", "branch_path", "children", "encode_cwd", "is_pi_session_path", "iso_timestamp",
    "list_sessions", "new_session_path", "newest_session", "normalise_cwd", "pi_agent_dir",
    "pi_sessions_dir", "pideck_home", "pideck_sessions_dir", "read_header", "serialise", "uuid7",
]
