"""What pideck keeps only to read faster, and how it stays bounded (docs/caches.md).

In pideck's home: each conversation's cache (``conversations/``: what its reader made of the
transcript, and its lock; ``core/sources/reading.py``), each big session's saved index (``index/``: ``.idx`` and ``.kept``), and per directory the
kept ``status`` line (``attention/status/``) and the catalog's saved rows (``catalog/``). Any of it
may be deleted at any time: the next read makes it again, at the price of one full read.

So it is swept: a conversation's cache or a session's index whose file is gone goes (the catalog removes one the moment it
sees its file go, and ``sweep`` catches what went while no pideck ran), a status line or saved rows
untouched for a week go, the mirrors earlier versions kept of conversations go, and the whole is held under ``MAX_BYTES`` by removing the least recently
written first. The sessions, the bindings and the hooks' records are not kept to read faster: they
are never swept here.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from core.config import places

MAX_BYTES = 512 << 20
"""The most pideck keeps to read faster, all of it together (512 MiB)."""
UNUSED_S = 7 * 24 * 3600
"""A directory's status line or saved rows unused this long are swept (its next look makes them)."""
SWEEP_EVERY_S = 3600.0
"""How often a running pideck sweeps (``sweep_now_and_then``): the catalog removes what it sees go
at once, the sweep is for what went while no pideck ran."""
ORPHAN_S = 3600.0
"""A conversation's files without a readable cache this old were left by a killed sync: swept."""
KINDS = ("mirrors", "indexes", "status")
"""(``mirrors``: the conversations' caches, under the name ``pideck cache --json`` has always given them.)"""
OUTDATED = (".jsonl", ".state")
"""What earlier versions kept of a conversation (a pi-format mirror and its state): read by nothing
now, swept at the next sweep."""


@dataclass
class Item:
    """One thing kept: its files, their size, when last written, and the file it was made from
    (None: made for a directory, or no longer readable)."""

    kind: str
    files: list[Path]
    size: int
    mtime: float
    source: str | None = None
    outdated: bool = False  # an earlier version's: swept whatever its source

    @property
    def gone(self) -> bool:
        """Its file is gone: for a conversation inside an agent's database, the database."""
        if self.source is None:
            return False
        from core.sources.in_database import split

        named = split(self.source)
        return not os.path.lexists(named[0] if named is not None else self.source)


@dataclass
class Usage:
    """How much is kept, by kind (``KINDS``): (items, bytes), and of it, what belongs to files that
    are gone."""

    kinds: dict[str, tuple[int, int]] = field(default_factory=dict)
    gone: tuple[int, int] = (0, 0)

    @property
    def total(self) -> int:
        return sum(size for _, size in self.kinds.values())

    def json(self) -> dict[str, object]:
        return {"home": str(places.pideck_home()), "limit": MAX_BYTES, "total": self.total,
                **{kind: {"items": n, "bytes": size} for kind, (n, size) in self.kinds.items()},
                "gone": {"items": self.gone[0], "bytes": self.gone[1]}}


def items(home: Path | None = None) -> list[Item]:
    """Everything kept to read faster under ``home`` (pideck's home)."""
    home = home or places.pideck_home()
    from core.session import sidecar

    return [*_conversations(home / "conversations"),
            *_grouped(home / "index", "indexes", lambda folder, stem: sidecar.source_of(folder / f"{stem}.idx")),
            *_grouped(home / "attention" / "status", "status"), *_grouped(home / "catalog", "status")]


def usage(home: Path | None = None) -> Usage:
    found = Usage({kind: (0, 0) for kind in KINDS})
    for item in items(home):
        n, size = found.kinds[item.kind]
        found.kinds[item.kind] = (n + 1, size + item.size)
        if item.gone:
            found.gone = (found.gone[0] + 1, found.gone[1] + item.size)
    return found


def sweep(home: Path | None = None, *, max_bytes: int = MAX_BYTES, now: float | None = None) -> tuple[int, int]:
    """Remove what belongs to files that are gone, what is unused or orphaned, then the least
    recently written until the rest is under ``max_bytes``. Returns (items, bytes) removed."""
    now = time.time() if now is None else now
    removed = [0, 0]

    def drop(item: Item) -> None:
        for path in item.files:
            try:
                path.unlink()
            except FileNotFoundError:
                pass
            except OSError:
                continue
        removed[0] += 1
        removed[1] += item.size

    kept: list[Item] = []
    for item in items(home):
        stale = (item.kind == "status" and now - item.mtime > UNUSED_S) or \
                (item.kind == "mirrors" and item.source is None and now - item.mtime > ORPHAN_S)
        if item.gone or stale or item.outdated:
            drop(item)
        else:
            kept.append(item)
    total = sum(item.size for item in kept)
    for item in sorted(kept, key=lambda i: i.mtime):
        if total <= max_bytes:
            break
        drop(item)
        total -= item.size
    return removed[0], removed[1]


KEPT = ("conversations", "index", "attention", "catalog")
"""The folders of pideck's home that hold what ``sweep`` looks after."""


def sweep_now_and_then(home: Path | None = None) -> None:
    """``sweep`` when the last one was ``SWEEP_EVERY_S`` ago or more (any process's: a stamp file
    in the home says when), for the long-running ones: the app, ``watch``, ``overview``."""
    home = home or places.pideck_home()
    if not any(os.path.isdir(home / name) for name in KEPT):
        return  # (nothing kept yet: no stamp either, so a look leaves no file, docs/caches.md)
    stamp = home / "catalog" / ".swept"
    try:
        if time.time() - stamp.stat().st_mtime < SWEEP_EVERY_S:
            return
    except FileNotFoundError:
        pass
    except OSError:
        return
    try:
        stamp.parent.mkdir(parents=True, exist_ok=True)
        stamp.touch()
    except OSError:
        return  # (a home pideck cannot write: nothing of its own to sweep either)
    sweep(home)


def clear(home: Path | None = None) -> tuple[int, int]:
    """Remove all of it (``pideck cache --clear``)."""
    return sweep(home, max_bytes=-1, now=float("inf"))


# -- what is where ----------------------------------------------------------------------------------


def _stat_files(paths: list[Path]) -> tuple[list[Path], int, float]:
    found, size, mtime = [], 0, 0.0
    for path in paths:
        try:
            st = path.lstat()
        except OSError:
            continue
        found.append(path)
        size += st.st_blocks * 512 if hasattr(st, "st_blocks") else st.st_size  # (the room it takes)
        mtime = max(mtime, st.st_mtime)
    return found, size, mtime


def _names(folder: Path) -> dict[str, list[str]]:
    """The files of ``folder`` by stem (``abc.jsonl``, ``abc.state`` -> ``abc``), dot files left out."""
    stems: dict[str, list[str]] = {}
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                if not entry.name.startswith("."):
                    stems.setdefault(entry.name.split(".", 1)[0], []).append(entry.name)
    except OSError:
        pass
    return stems


def _grouped(folder: Path, kind: str, source: Callable[[Path, str], str | None] | None = None) -> list[Item]:
    """The items in ``folder``: its files grouped by stem, each group with the file it was made
    from, ``source(folder, stem)`` (None: made for a directory)."""
    out = []
    for stem, names in _names(folder).items():
        files, size, mtime = _stat_files([folder / name for name in sorted(names)])
        if files:
            out.append(Item(kind, files, size, mtime, source(folder, stem) if source is not None else None))
    return out


def _conversations(folder: Path) -> list[Item]:
    """The conversations' caches, each with its lock, and apart from them what an earlier version
    kept of a conversation (``OUTDATED``)."""
    from core.sources import reading

    out = []
    for stem, names in _names(folder).items():
        old = [name for name in names if name.endswith(OUTDATED)]
        current = [name for name in names if name not in old]
        if old:
            files, size, mtime = _stat_files([folder / name for name in sorted(old)])
            if files:
                out.append(Item("mirrors", files, size, mtime, None, outdated=True))
        files, size, mtime = _stat_files([folder / name for name in sorted(current)])
        if files:
            out.append(Item("mirrors", files, size, mtime, reading.source_of(folder / f"{stem}{reading.SUFFIX}")))
    return out
