"""The catalog's last look, saved per scope (a directory, or every one), so that a new process
reads only the files that changed since (docs/caches.md).

``pideck status`` is called by prompts and status bars; each call is a new process that would
otherwise read every transcript's head and bring every conversation's reading up to date before it can count: 2.7 s
over 5,000 conversations whenever one of them moved. With the rows saved, a file whose device,
inode, size and modification time are those saved is taken as saved: its row, its head, and the
agent's own word on its turn (the status of a Claude Code conversation is asked of its live-session
files again: those move without the transcript).

Nothing in it is trusted beyond that: a file of another format, or one that does not parse, is
ignored and written anew.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import fields
from pathlib import Path
from typing import Any

from core.catalog.rows import OverviewRow
from core.config.places import pideck_home
from core.files import replace_private_file
from core.sources.discovery import Head

FORMAT = 3  # (3: a row's usage: cost, tokens, day, items)

_FIELDS = tuple(f.name for f in fields(OverviewRow))  # (a row is saved as its values, in this order)
_WORK_ITEMS = _FIELDS.index("work_items")

Key = tuple[int, int, int, int]
"""What says a file is unchanged: device, inode, size, modification time (ns)."""


def key_of(st: os.stat_result) -> Key:
    return st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns


class Entry:
    """One file as the catalog last saw it."""

    __slots__ = ("key", "row", "head", "own_status", "conversation")

    def __init__(self, key: Key, row: OverviewRow, head: Head | None, own_status: str | None,
                 conversation: tuple[str, str] | None) -> None:
        self.key, self.row, self.head = key, row, head
        self.own_status = own_status  # a conversation's status by its transcript alone
        self.conversation = conversation  # (agent, id) of a conversation, or of the one a session is bound to

    def json(self) -> list[Any]:
        head = None if self.head is None else [self.head.kind, self.head.session_id, self.head.cwd, self.head.records,
                                               self.head.complete]
        return [list(self.key), [getattr(self.row, name) for name in _FIELDS], head, self.own_status,
                list(self.conversation) if self.conversation else None]

    @classmethod
    def from_json(cls, value: Any) -> Entry:
        key, row, head, own, conversation = value
        row[_WORK_ITEMS] = tuple(row[_WORK_ITEMS])
        row = OverviewRow(*row)
        return cls(tuple(key), row, Head(*head) if head is not None else None, own,
                   tuple(conversation) if conversation else None)


class SavedRows:
    """The saved rows of one scope (``cwd`` None: every session pideck knows)."""

    def __init__(self, cwd: str | None) -> None:
        name = hashlib.sha256((cwd if cwd is not None else "\0all").encode("utf-8", "surrogateescape")).hexdigest()[:24]
        self.path = pideck_home() / "catalog" / f"{name}.json"
        self._entries: dict[str, Entry] | None = None

    def get(self, path: Path | str, key: Key) -> Entry | None:
        """The saved entry of ``path`` when the file is still as it was saved."""
        if self._entries is None:
            self._entries = self._load()
        entry = self._entries.get(str(path))
        return entry if entry is not None and entry.key == key else None

    def _load(self) -> dict[str, Entry]:
        try:
            saved = json.loads(self.path.read_bytes())
            if not isinstance(saved, dict) or saved.get("format") != FORMAT:
                return {}
            return {path: Entry.from_json(value) for path, value in saved["rows"].items()}
        except (OSError, ValueError, TypeError, KeyError, AttributeError, IndexError):
            return {}

    def save(self, entries: dict[str, Entry]) -> None:
        """Keep ``entries`` (every file of the scope, as now): the next process starts from them."""
        data = json.dumps({"format": FORMAT, "rows": {path: e.json() for path, e in entries.items()}},
                          ensure_ascii=True, separators=(",", ":"))
        try:
            replace_private_file(self.path, data.encode("ascii"))
        except OSError:
            pass  # (a home pideck cannot write: the next process reads again, that is all)
        self._entries = dict(entries)
