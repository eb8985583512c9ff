"""Incremental reading of an append-only file, line by line
(docs/session-format.md#following-a-file-that-grows).

Each call stats the file and reads only the bytes appended since the last call, so following a
session costs O(appended bytes). An unterminated last line is held back until its ``\\n`` arrives;
a path that is not a regular file is never read (``NotARegularFile``).
The file counts as replaced, truncated or rewritten (pi rewrites version < 3 files when it migrates
them) when its inode changes, its size drops below what was read, its first line changes, or the
byte before the read position is no longer a ``\\n``; the reader then starts again from offset 0 and
flags a reset.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import BinaryIO, Iterator

from core.files import not_regular
from core.session.errors import NotARegularFile

CHUNK = 1 << 20
_FINGERPRINT = 4096  # bytes of the first line compared to detect a rewrite


class TailChunk:
    """Complete lines read in one go: ``data`` holds whole lines, each ending with ``\\n``."""

    __slots__ = ("data", "offset", "first_line_no", "reset", "size", "line_count_hint")

    def __init__(self, data: bytes | bytearray, offset: int, first_line_no: int, reset: bool = False,
                 size: int = -1, line_count_hint: int | None = None) -> None:
        # data[:size] holds the complete lines (size -1: all of data). data may be the tailer's
        # reusable buffer: it is only valid until the next read (copy what you keep).
        self.data = data
        self.offset = offset  # file offset of data[0]
        self.first_line_no = first_line_no  # 1-based number of the first line in data
        self.reset = reset  # the file was replaced/truncated/rewritten: these lines start from scratch
        self.size = size if size >= 0 else len(data)
        self.line_count_hint = line_count_hint  # set by a consumer that counted the lines while parsing

    def iter_lines(self) -> Iterator[tuple[int, int, int]]:
        """``(line_no, start, end)`` of each line (``end`` excludes the ``\\n``)."""
        find, size = self.data.find, self.size
        line_no, pos = self.first_line_no, 0
        while (end := find(b"\n", pos, size)) >= 0:
            yield line_no, pos, end
            line_no, pos = line_no + 1, end + 1
        self.line_count_hint = line_no - self.first_line_no

    @property
    def line_count(self) -> int:
        if self.line_count_hint is None:
            self.line_count_hint = self.data.count(b"\n", 0, self.size)
        return self.line_count_hint

    def lines(self) -> list[tuple[int, bytes]]:
        """``(line_no, raw line)`` pairs; handy in tests."""
        return [(n, bytes(self.data[s:e])) for n, s, e in self.iter_lines()]

    @property
    def complete(self) -> bytes:
        return bytes(self.data[: self.size])


class Tailer:
    """Reads the complete lines appended to ``path`` since the previous call."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self._clear()
        self._inode: int | None = None
        self._mtime_ns: int | None = None
        self.stat: os.stat_result | None = None  # the file as it was at the last read

    def _clear(self) -> None:
        self.offset = 0  # bytes read so far (complete lines + the held partial line)
        self._lines = 0  # complete lines in the chunks delivered before self._last
        self._last: TailChunk | None = None
        self.partial = b""
        self._first_line = b""
        self._buf = bytearray()  # reused between reads: fresh big buffers cost more than parsing

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

    @property
    def first_line(self) -> bytes:
        """The start of the file's first line, compared at each read to detect a rewrite."""
        return self._first_line

    def resume(self, consumed: int, lines: int, first_line: bytes, inode: int, mtime_ns: int) -> None:
        """Continue after ``consumed`` bytes holding ``lines`` complete lines that were read
        earlier (by another process: the saved index). The next read checks the file as usual."""
        self._clear()
        self.offset, self._lines, self._first_line = consumed, lines, first_line
        self._inode, self._mtime_ns = inode, mtime_ns

    def skip_to(self, offset: int, lines: int) -> None:
        """Carry on after ``offset``, a line start, with ``lines`` complete lines before it: the
        lines in between were indexed from elsewhere (``split.py``)."""
        self._last = None
        self.offset, self._lines, self.partial = offset, lines, b""

    def read(self, max_bytes: int = CHUNK, until: int | None = None) -> TailChunk | None:
        """The next complete lines (at most about ``max_bytes`` new bytes, and none past offset
        ``until``, a line start), or None when none.

        A reset with no complete line yet is still reported (as an empty chunk).
        """
        try:
            # non-blocking, then checked: a FIFO put in the file's place must not hang the reader
            fd = os.open(self.path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        except FileNotFoundError:
            return None
        reset = False
        first_line_no = self.lines + 1  # (counts the previous chunk before its buffer is reused)
        with open(fd, "rb", buffering=0) as fh:
            st = os.fstat(fd)
            if (kind := not_regular(st.st_mode)) is not None:
                raise NotARegularFile(f"{self.path} is {kind}, not a session file")
            if self._inode is not None and self._changed_under_us(st, fh):
                self._clear()
                reset = True
            self._inode, self._mtime_ns, self.stat = st.st_ino, st.st_mtime_ns, st
            stop = st.st_size if until is None or reset else min(st.st_size, until)
            if stop <= self.offset:
                return TailChunk(b"", self.consumed, 1, True) if reset else None
            fh.seek(self.offset)
            while True:
                # Read at least as much as is already held, so that one huge line costs linear time.
                held = len(self.partial)
                need = held + max(min(max(max_bytes, held), stop - self.offset), 1)
                if len(self._buf) < need:
                    self._buf = bytearray(need + need // 2)
                buf = self._buf
                buf[:held] = self.partial
                got = fh.readinto(memoryview(buf)[held:need]) or 0
                self.offset += got
                end = held + got
                cut = buf.rfind(b"\n", 0, end) + 1
                start = self.offset - end
                self.partial = bytes(buf[cut:end])
                if cut or not got or self.offset >= stop:
                    break
        if self.offset >= st.st_size and len(self._buf) > 1 << 16:
            self._buf = bytearray()  # caught up: later reads are small (the chunk keeps its buffer)
        if reset:
            first_line_no = 1
        if not cut:
            return TailChunk(b"", start, first_line_no, True) if reset else None
        if not self._first_line and start == 0:
            self._first_line = bytes(buf[: min(buf.find(b"\n", 0, cut) + 1, _FINGERPRINT)])
        chunk = TailChunk(buf, start, first_line_no, reset, size=cut)
        self._last = chunk
        return chunk

    def _changed_under_us(self, st: os.stat_result, fh: BinaryIO) -> bool:
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
