"""pi-format session log: header, entries, id/parentId tree, current branch, incremental tail,
locked appends and session discovery. Pure Python: never imports Textual.

The names below are loaded on first use: importing one submodule (``core.session.errors`` for the
command line's error type) must not load the log, msgspec and platformdirs with it.
"""

from __future__ import annotations

from importlib import import_module

TYPE_CHECKING = False  # (typing's own constant, without importing typing: mypy reads it the same)
if TYPE_CHECKING:
    from typing import Any

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

_HOMES = {
    "discovery": ("SessionInfo", "encode_cwd", "is_pi_session_path", "list_sessions", "new_session_path",
                  "newest_session", "normalise_cwd", "pi_agent_dir", "pi_sessions_dir", "pideck_home",
                  "pideck_sessions_dir", "read_header"),
    "errors": ("NotASession", "ReadOnlySession", "SessionError"),
    "log": ("Refresh", "SessionLog"),
    "records": ("EntryRecord",),
    "tail": ("TailChunk", "Tailer"),
    "tree": ("branch_path", "children"),
    "writer": ("MISSING", "iso_timestamp", "serialise", "uuid7"),
}
_MODULE_OF = {name: module for module, names in _HOMES.items() for name in names}

__all__ = sorted(_MODULE_OF)


def __getattr__(name: str) -> Any:
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value
