"""Incremental reading of an append-only file, line by line (textual-notes.md §5.3).

Each call stats the file and reads only the bytes appended since the last call, so following a
session costs O(appended bytes). An unterminated last line is held back until its ``\\n`` arrives.
The file counts as replaced, truncated or rewritten (pi rewrites version < 3 files when it migrates
them) when its inode changes, its size drops below what was read, its first line changes, or the
byte before the read position is no longer a ``\\n``; the reader then starts again from offset 0 and
flags a reset.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

CHUNK = 4 << 20
_FINGERPRINT = 4096  # bytes of the first line compared to detect a rewrite


@dataclass
class TailChunk:
    """Complete lines read in one go: ``data`` holds whole lines, each ending with ``\\n``."""

    data: bytes
    offset: int  # file offset of data[0]
    first_line_no: int  # 1-based number of the first line in data
    reset: bool = False  # the file was replaced/truncated/rewritten: these lines start from scratch
    _count: int | None = None

    def iter_lines(self) -> Iterator[tuple[int, int, int]]:
        """``(line_no, start, end)`` of each line in ``data`` (``end`` excludes the ``\\n``)."""
        data, find = self.data, self.data.find
        line_no, pos = self.first_line_no, 0
        while (end := find(b"\n", pos)) >= 0:
            yield line_no, pos, end
            line_no, pos = line_no + 1, end + 1
        self._count = line_no - self.first_line_no

    @property
    def line_count(self) -> int:
        return self._count if self._count is not None else self.data.count(b"\n")

    def lines(self) -> list[tuple[int, bytes]]:
        """``(line_no, raw line)`` pairs; handy in tests."""
        return [(n, self.data[s:e]) for n, s, e in self.iter_lines()]


class Tailer:
    """Reads the complete lines appended to ``path`` since the previous call."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self._clear()
        self._inode: int | None = None
        self._mtime_ns: int | None = None

    def _clear(self) -> None:
        self.offset = 0  # bytes read so far (complete lines + the held partial line)
        self._lines = 0  # complete lines in the chunks delivered before self._last
        self._last: TailChunk | None = None
        self.partial = b""
        self._first_line = b""

    @property
    def lines(self) -> int:
        """Complete lines delivered so far."""
        if self._last is not None:
            self._lines += self._last.line_count
            self._last = None
        return self._lines

    @property
    def consumed(self) -> int:
        """File offset just after the last complete line delivered."""
        return self.offset - len(self.partial)

    def read(self, max_bytes: int = CHUNK) -> TailChunk | None:
        """The next complete lines (at most about ``max_bytes`` new bytes), or None when none.

        A reset with no complete line yet is still reported (as an empty chunk).
        """
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            return None
        reset = False
        with open(self.path, "rb") as fh:
            if self._inode is not None and self._changed_under_us(st, fh):
                self._clear()
                reset = True
            self._inode, self._mtime_ns = st.st_ino, st.st_mtime_ns
            if st.st_size <= self.offset:
                return TailChunk(b"", self.consumed, self.lines + 1, True) if reset else None
            fh.seek(self.offset)
            while True:
                # Read at least as much as is already held, so one huge line costs linear time.
                more = fh.read(max(max_bytes, len(self.partial)))
                self.offset += len(more)
                data = self.partial + more if self.partial else more
                cut = data.rfind(b"\n") + 1
                start = self.offset - len(data)
                self.partial = data[cut:]
                if cut or not more or self.offset >= st.st_size:
                    break
        if not cut:
            return TailChunk(b"", start, self.lines + 1, True) if reset else None
        complete = data[:cut] if cut < len(data) else data
        if not self._first_line and start == 0:
            self._first_line = complete[: min(complete.find(b"\n") + 1, _FINGERPRINT)]
        chunk = TailChunk(complete, start, self.lines + 1, reset)
        self._last = chunk
        return chunk

    def _changed_under_us(self, st: os.stat_result, fh) -> bool:
        if st.st_ino != self._inode or st.st_size < self.offset:
            return True
        if st.st_size == self.offset and st.st_mtime_ns == self._mtime_ns:
            return False  # idle tick: one stat, nothing else
        if self._first_line:
            fh.seek(0)
            if fh.read(len(self._first_line)) != self._first_line:
                return True
        if self.consumed > 0:
            fh.seek(self.consumed - 1)
            if fh.read(1) != b"\n":
                return True
        return False
