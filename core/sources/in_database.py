"""How pideck names a conversation kept inside an agent's database (opencode's):
``<database>#<session id>``. No such file exists; every view, cache and ``pideck PATH`` uses the
name as a transcript's path, and the few places that look at the file ask ``split`` first. Kept
apart from the reader so that telling the name costs no import of SQLite."""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

SEPARATOR = "#"
"""Between the database's path and the session id."""
SESSION_PREFIX = "ses_"
"""How opencode's session ids start."""


def short_id(session_id: str) -> str:
    """What a person sees of a session id: its first 8 characters, after opencode's ``ses_``
    (which every one of its ids starts with)."""
    return session_id.removeprefix(SESSION_PREFIX)[:8]


def conversation_path(db: Path, session_id: str) -> Path:
    return Path(f"{os.fsdecode(db)}{SEPARATOR}{session_id}")


def split(path: str | os.PathLike[str]) -> tuple[Path, str] | None:
    """The database and session id a conversation's name holds; None for any other path."""
    text = os.fsdecode(path)
    return _split(text) if SEPARATOR in text else None


@lru_cache(maxsize=4096)
def _split(text: str) -> tuple[Path, str] | None:
    """(A catalog's tick asks this of every conversation it lists.)"""
    db, sep, session_id = text.rpartition(SEPARATOR)
    if not sep or not session_id.startswith(SESSION_PREFIX) or "/" in session_id or not db.endswith(".db"):
        return None
    return Path(db), session_id
