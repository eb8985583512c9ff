"""The second core: the far part of a big read scanned by another process
(docs/session-format.md#reading-a-big-file-on-two-cores).

A first read of a big session spends most of its time validating its lines as JSON
(``scan.py``), and one line's validity never depends on another's. So before a read of at least
``SPLIT_MIN_BYTES`` the log starts a child process (the same interpreter, only this module and the
scanner loaded) on the far part of the new bytes, and reads the near part itself meanwhile. The
child decodes its lines in batches (``scan.decode_batch``, a pure function of the bytes) and sends
the batches back; the log then takes them in file order (``Indexer.apply_batch``). Everything that
depends on what came before (duplicate ids, parents, the branch, warnings, line numbers) is
decided there, by the same code as for the near part, so the index is the one a read in one piece
makes. A part the child could not decode (a line that is not an ordinary entry) is read again by
the log itself, line by line; a child that fails in any way is read past as if it never ran.

``PIDECK_SPLIT=off`` never starts one; ``PIDECK_SPLIT=always`` splits every scanned read of two
lines or more (the tests read files both ways).
"""

from __future__ import annotations

import marshal
import os
import sys
from array import array
from itertools import compress, repeat
from operator import ge, gt, lt, sub
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .scan import Batch

SPLIT_MIN_BYTES = 64 << 20
"""New bytes a read must have to be split: below this, starting the child (about 20 ms of the
other core) costs about what it saves."""

CHILD_SHARE = 0.45
"""The part of the new bytes the child scans, from the far end."""

PIECE = 1 << 20
"""Bytes the child reads and decodes at a time (its memory stays about this size)."""

_CHILD = ("import sys; sys.path[:0] = sys.argv[1].split({sep!r}); "
          "from core.session.split import child_main; child_main(sys.argv[2:])")


def mode() -> str:
    """``off``, ``always`` or ``on`` (the default), from ``PIDECK_SPLIT``."""
    value = os.environ.get("PIDECK_SPLIT", "").strip().lower()
    return value if value in ("off", "always") else "on"


def _line_start_after(fd: int, at: int, size: int) -> int:
    """The offset of the first line that starts at or after ``at`` (``size`` when none does)."""
    while at < size:
        window = os.pread(fd, min(1 << 16, size - at), at)
        if not window:
            break
        newline = window.find(b"\n")
        if newline >= 0:
            return at + newline + 1
        at += len(window)
    return size


class FarPart:
    """A child process scanning the bytes ``begin`` to ``size`` of one file."""

    def __init__(self, pid: int, out: int, begin: int) -> None:
        self._pid, self._out, self.begin = pid, out, begin
        self.end = begin  # where the child's last complete line ends (known once taken)
        self.lines = 0  # complete lines in begin..end

    @classmethod
    def start(cls, path: os.PathLike[str] | str, offset: int, size: int) -> FarPart | None:
        """Start scanning the far part of ``path[offset:size]``, or None when there is no line
        start to split at or the child cannot be started."""
        try:
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
            try:
                begin = _line_start_after(fd, offset + int((size - offset) * (1 - CHILD_SHARE)), size)
            finally:
                os.close(fd)
        except OSError:
            return None
        if begin >= size or not sys.executable or not hasattr(os, "posix_spawn"):
            return None
        import msgspec

        import core

        roots = os.pathsep.join(os.path.dirname(os.path.dirname(p)) for p in (core.__file__, msgspec.__file__) if p)
        read_end, write_end = os.pipe()
        try:
            pid = os.posix_spawn(
                sys.executable,
                [sys.executable, "-I", "-S", "-c", _CHILD.format(sep=os.pathsep), roots, os.fspath(path), str(begin), str(size)],
                os.environ,
                file_actions=[(os.POSIX_SPAWN_DUP2, write_end, 1), (os.POSIX_SPAWN_CLOSE, read_end),
                              (os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
                              (os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0)],
            )
        except OSError:
            os.close(read_end)
            return None
        finally:
            os.close(write_end)
        return cls(pid, read_end, begin)

    def take(self) -> list[tuple] | None:
        """The child's segments in file order, once it has ended: ``("batch", Batch)`` for lines
        it decoded, ``("lines", start, end, count)`` for lines the log must read itself. None when
        the child failed (the log then reads the whole far part itself)."""
        from .scan import Batch

        out = bytearray()
        try:
            while piece := os.read(self._out, 1 << 20):
                out += piece
        finally:
            os.close(self._out)
            _, status = os.waitpid(self._pid, 0)
        if status != 0:
            return None
        try:
            end, lines, raw = marshal.loads(out)
            del out  # (peak memory: the bytes go before the batches are built)
            segments: list[tuple] = []
            for one in raw:
                if one[0] == "lines":
                    _, start, stop, count = one
                    segments.append(("lines", int(start), int(stop), int(count)))
                    continue
                _, ids, parent_ids, back, outside, table, codes, offsets, lengths = one
                code_array, offset_array, length_array = array("i"), array("q"), array("q")
                code_array.frombytes(codes)
                offset_array.frombytes(offsets)
                length_array.frombytes(lengths)
                n = len(ids)
                if (not n == len(code_array) == len(offset_array) == len(length_array)
                        or (n and not 0 <= min(code_array) <= max(code_array) < len(table))):
                    return None
                batch = Batch(ids, parent_ids, [tuple(kind) for kind in table], code_array, offset_array, length_array)
                if back is not None:  # (how far back each parent is: within the batch, or looked up)
                    batch.back = array("q")
                    batch.back.frombytes(back)
                    batch.outside = [(int(i), p if p is None else str(p)) for i, p in outside]
                    if (len(batch.back) != n or (n and min(batch.back) < 0) or any(map(gt, batch.back, range(n)))
                            or batch.back.count(0) != len(batch.outside)
                            or any(not 0 <= i < n or batch.back[i] for i, _ in batch.outside)):
                        return None
                elif len(parent_ids) != n:
                    return None
                segments.append(("batch", batch))
        except (ValueError, EOFError, TypeError, IndexError):
            return None
        self.end, self.lines = int(end), int(lines)
        return segments

    def cancel(self) -> None:
        """Stop the child (the log reads on without it)."""
        try:
            os.kill(self._pid, 9)
        except OSError:
            pass
        os.close(self._out)
        os.waitpid(self._pid, 0)


# -- the child ---------------------------------------------------------------------------------


def child_main(argv: list[str]) -> None:
    """Scan ``path`` from ``begin`` to ``size`` and write the segments to stdout (``take``)."""
    path, begin, size = argv[0], int(argv[1]), int(argv[2])
    fd = os.open(path, os.O_RDONLY)
    out = marshal.dumps(scan_far(fd, begin, size))
    view = memoryview(out)
    while view:
        view = view[os.write(1, view):]


def scan_far(fd: int, begin: int, size: int) -> tuple[int, int, list[tuple]]:
    """``(end, lines, segments)`` of the complete lines of ``fd`` from ``begin`` to ``size``:
    runs of decoded lines merged into one batch, each piece that did not decode as its line
    range."""
    from .scan import decode_batch

    segments: list[tuple] = []
    batch: _Merged | None = None  # the run of decoded pieces being merged
    # One buffer, reused: fresh big buffers cost page faults, and a piece decoded right after it
    # is read is still in the processor's cache.
    buf, held, at, lines = bytearray(PIECE), 0, begin, 0
    fh = open(fd, "rb", buffering=0, closefd=False)
    fh.seek(at)
    while at < size:
        want = min(max(PIECE, held), size - at)  # (at least what is held: a long line costs linear time)
        if len(buf) < held + want:
            buf = buf[:held] + bytearray(want)
        with memoryview(buf) as view:
            got = fh.readinto(view[held:held + want]) or 0
        if not got:
            break
        at += got
        end = held + got
        cut = buf.rfind(b"\n", 0, end) + 1
        start = at - end
        held = end - cut
        if not cut:
            continue
        decoded = decode_batch(buf, 0, cut, start)
        if decoded is None:
            count = buf.count(b"\n", 0, cut)
            if batch is not None:
                segments.append(batch.wire())
                batch = None
            segments.append(("lines", start, start + cut, count))
        else:
            count = len(decoded.ids)
            if batch is None:
                batch = _Merged()
            batch.add(decoded)
        lines += count
        buf[:held] = buf[cut:end]  # the unfinished line to the front
    if batch is not None:
        segments.append(batch.wire())
    return at - held, lines, segments


class _Merged:
    """Decoded pieces in a row, merged into one batch as marshal carries it cheaply."""

    def __init__(self) -> None:
        self.ids: list = []
        self.parent_ids: list = []
        self.kinds: dict = {}  # kind -> code in the merged batch
        self.codes = array("i")
        self.offsets = array("q")
        self.lengths = array("q")

    def add(self, piece: Batch) -> None:
        self.ids += piece.ids
        self.parent_ids += piece.parent_ids
        ours = [self.kinds.setdefault(kind, len(self.kinds)) for kind in piece.table]
        self.codes.extend(piece.codes if ours == list(range(len(ours))) else map(ours.__getitem__, piece.codes))
        self.offsets.extend(piece.offsets)
        self.lengths.extend(piece.lengths)

    def wire(self) -> tuple:
        """The batch for the log. Each parent found earlier in the batch is sent as how far back
        it is, worked out here on the child's core: the log then only looks up the few others
        (the first entry's parent, roots) by id."""
        ids, parent_ids, n = self.ids, self.parent_ids, len(self.ids)
        at = dict(zip(ids, range(n)))
        back = outside = None
        if len(at) == n:  # (an id twice in the batch: the log's own path decides about it)
            found = list(map(at.get, parent_ids, repeat(-1)))
            if not any(map(ge, found, range(n))):  # (a parent later in the batch: likewise)
                outside = [(i, parent_ids[i]) for i in compress(range(n), map(lt, found, repeat(0)))]
                steps = array("q", map(sub, range(n), found))
                for i, _ in outside:
                    steps[i] = 0
                back = steps.tobytes()
        return ("batch", ids, parent_ids if back is None else None, back, outside, list(self.kinds),
                self.codes.tobytes(), self.offsets.tobytes(), self.lengths.tobytes())
