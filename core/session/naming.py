"""The name and path of a new pideck session, made the way pi names its files."""

import os
from pathlib import Path

from core.config.places import pideck_sessions_dir
from core.session.writer import iso_timestamp, utc_now, uuid7


def session_file_name(session_id: str, timestamp: str) -> str:
    """``<timestamp with : and . replaced by ->_<id>.jsonl``, as pi names its files."""
    return f"{timestamp.replace(':', '-').replace('.', '-')}_{session_id}.jsonl"


def new_session_path(
    cwd: str | os.PathLike[str], session_id: str | None = None, timestamp: str | None = None
) -> tuple[Path, str, str]:
    """A path for a new pideck session of ``cwd``: ``(path, session_id, timestamp)``.

    Pass the id and timestamp on to ``SessionLog.create`` so the header matches the file name.
    """
    now = utc_now()
    timestamp = timestamp or iso_timestamp(now)
    session_id = session_id or uuid7(now)
    return pideck_sessions_dir(cwd) / session_file_name(session_id, timestamp), session_id, timestamp
