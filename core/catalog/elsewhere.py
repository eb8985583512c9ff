"""Writes that go to another session: which other pideck session of a directory is being written
while a screen shows another one (docs/tui.md#writes-that-go-elsewhere)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

from core.catalog.overview import FileKey, Listing, file_key
from core.sources import binding


@dataclass(frozen=True)
class Elsewhere:
    """Another session of this directory than the one on screen is being written."""

    label: str  # what it is, in a few words ("Claude Code conversation 2aa06482", "pideck session 5f0c1a2b")
    open_path: str  # what to open to see it: the conversation's transcript, else the session file


class WriteWatch:
    """Which other pideck session of a directory is being written while a screen shows another
    one (docs/tui.md#writes-that-go-elsewhere). A look costs a ``stat`` per session file of the
    directory (the folder is listed again only when it changed).

    """

    def __init__(self, cwd: str) -> None:
        from core.config.places import pideck_sessions_dir

        self.folder = pideck_sessions_dir(cwd)
        self._listing = Listing()
        self._keys: dict[Path, FileKey] = {}
        self._written: dict[Path, int] = {}  # sessions written since the first look: when (mtime_ns)
        self._heads: dict[Path, tuple[str | None, binding.ConversationRecord | None]] = {}
        self._first = True

    def look(self, here: Iterable[Path], conversations: bool = True) -> Elsewhere | None:
        """The session written most recently since the first look, other than those ``here``
        (the screen's own), with what to call it and what to open; None when there is none.
        ``conversations=False`` (the screen of a Claude Code or Codex conversation still going)
        leaves out the sessions bound to a conversation: another conversation's writes are not its
        agent's. Once the conversation has ended (Claude Code's ``/clear`` starts the next one in
        the same process), they count."""
        files = self._listing.files(self.folder)
        for path in files:
            try:
                key = file_key(os.stat(path))
            except OSError:
                continue
            if not self._first and self._keys.get(path) != key:
                self._written[path] = key[2]
            self._keys[path] = key
        self._first = False
        present, mine = set(files), {os.path.abspath(p) for p in here}
        for path in [p for p in self._written if p not in present]:
            del self._written[path]
        for _, path in sorted(((t, p) for p, t in self._written.items()), reverse=True):
            if os.path.abspath(path) in mine:
                continue
            if path not in self._heads:
                session_id, bound, whole = binding.session_head(path)
                if whole:  # (a session being made has its header before its conversation entry)
                    self._heads[path] = session_id, bound
            else:
                session_id, bound = self._heads[path]
            if bound is None:
                return Elsewhere(f"pideck session {(session_id or path.stem)[:8]}", str(path))
            if conversations:
                transcript = bound.get("transcript")
                label = binding.Conversation(bound["agent"], bound["agentSessionId"], "").short
                shown = transcript if isinstance(transcript, str) and os.path.isfile(transcript) else str(path)
                return Elsewhere(label, shown)
        return None
