"""The second core: the far part of a big read scanned by another process
(docs/session-format.md#reading-a-big-file-on-two-cores).

A first read of a big session spends most of its time validating its lines as JSON
(``scan.py``), and one line's validity never depends on another's. So once the first chunk of a
read of at least ``SPLIT_MIN_BYTES`` has shown a version 3 header, the log starts a child process
(the same interpreter, only this module and the scanner loaded) on the far part of the bytes left,
handing it the file already open, and reads the near part itself meanwhile. The child decodes its
lines a piece at a time (``scan.decode_batch``, a pure function of the bytes) and sends the runs
of pieces it decoded back; the log checks that what came back covers the far part line after
line, then takes the batches in file order (``Indexer.apply_batch``). Everything that depends on
what came before (duplicate ids, parents, the branch, warnings, line numbers) is decided there, by
the same code as for the near part, so the index is the one a read in one piece makes. A piece
the child could not decode (a line that is not an ordinary entry), or a batch the log refuses (an
id seen before, a parent not earlier in the file), is read again by the log itself, line by line;
a child that fails, or sends anything this module's child would not, is read past as if it never
ran.

``PIDECK_SPLIT=off`` never starts one; ``PIDECK_SPLIT=always`` scans every read and splits every
one of two lines or more (the tests read files all ways).
"""

from __future__ import annotations

import marshal
import os
import stat
import sys
from array import array
from itertools import compress, repeat
from operator import add, ge, gt, lt, ne, sub

TYPE_CHECKING = False  # (typing's own constant, without importing typing: a conversation's child loads this module)
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

    from core.session.scan import Batch

SPLIT_MIN_BYTES = 64 << 20
"""New bytes a read must have to be split: below this, starting the child (about 20 ms of the
other core) costs about what it saves."""

CHILD_SHARE = 0.45
"""The part of the new bytes the child scans, from the far end."""

PIECE = 1 << 20
"""Bytes the child reads and decodes at a time (its memory stays about this size)."""

_FILE = 3
"""The child's descriptor of the session file, open in the parent and handed over."""

_CHILD = ("import sys; roots = int(sys.argv[1]); sys.path[:0] = sys.argv[2:2 + roots]; "
          "from core.session.split import child_main; child_main(sys.argv[2 + roots:])")


def mode() -> str:
    """``off``, ``always`` or ``on`` (the default), from ``PIDECK_SPLIT``."""
    value = os.environ.get("PIDECK_SPLIT", "").strip().lower()
    return value if value in ("off", "always") else "on"


def _line_start_after(fd: int, at: int, size: int) -> int:
    """The offset of the first line that starts after offset ``at`` (``size`` when none does)."""
    while at < size:
        window = os.pread(fd, min(1 << 16, size - at), at)
        if not window:
            break
        newline = window.find(b"\n")
        if newline >= 0:
            return at + newline + 1
        at += len(window)
    return size


def _widen(pipe: int) -> None:
    """Let the pipe hold a megabyte (Linux): a child's answer of a few megabytes then goes over in
    a few writes, where 64 KiB at a time waits for the parent to be scheduled fifty times."""
    try:
        import fcntl

        fcntl.fcntl(pipe, fcntl.F_SETPIPE_SZ, 1 << 20)
    except (ImportError, AttributeError, OSError):
        pass  # (another system, or a lower limit: the pipe as it is)


def send_value(value: Any) -> None:
    """Send ``value`` to the parent as one of several (``FarPart.values``): the length of its
    marshal bytes, then those bytes."""
    out = marshal.dumps(value)
    _write(len(out).to_bytes(8, "little"))
    _write(out)


def _write(out: bytes) -> None:
    view = memoryview(out)
    while view:
        view = view[os.write(1, view):]


def send_and_exit(out: bytes) -> None:
    """Write ``out`` to the parent, whole (a child's answer), and end at once: the parent reads
    until the pipe closes, which the interpreter's shutdown (freeing everything the child made)
    would hold back by milliseconds."""
    _write(out)
    os._exit(0)


_STR, _STR_OR_NONE = {str}, {str, type(None)}


class FarPart:
    """A child process scanning the bytes ``begin`` to ``size`` of one file."""

    def __init__(self, pid: int, out: int, begin: int) -> None:
        self._pid: int | None = pid  # None once the child is reaped
        self._out, self.begin = out, begin
        self.end = begin  # where the child's last complete line ends (known once taken)

    @classmethod
    def start(cls, path: os.PathLike[str] | str, offset: int, size: int, inode: int, child: str = "",
              share: float = CHILD_SHARE, args: tuple[str, ...] = ()) -> FarPart | None:
        """Start scanning the far part (``share`` of it) of ``path[offset:size]``, or None when
        there is no line start to split at or the child cannot be started. The child is handed
        the file already open (the regular file of inode ``inode`` the log reads), never its path:
        whatever is put at the path meanwhile, both read the same bytes. ``child``: the code of
        another child (given ``args``, then ``begin`` and ``size``; ``values`` reads what it
        sends), for a reader with another use for a second core (core/sources/wanted.py)."""
        if not sys.executable or not hasattr(os, "posix_spawn"):
            return None
        try:
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        except OSError:
            return None
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode) or st.st_ino != inode:
                return None
            begin = _line_start_after(fd, offset + int((size - offset) * (1 - share)), size)
            if begin >= size:
                return None
            import msgspec

            import core

            roots = [os.path.dirname(os.path.dirname(p)) for p in (core.__file__, msgspec.__file__) if p]
            read_end, write_end = os.pipe()
            _widen(write_end)
            try:
                pid = os.posix_spawn(
                    sys.executable,
                    [sys.executable, "-I", "-S", "-c", child or _CHILD, str(len(roots)), *roots, *args, str(begin),
                     str(size)],
                    os.environ,
                    file_actions=[(os.POSIX_SPAWN_DUP2, write_end, 1), (os.POSIX_SPAWN_DUP2, fd, _FILE),
                                  (os.POSIX_SPAWN_CLOSE, read_end),
                                  (os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
                                  (os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0)],
                )
            except OSError:
                os.close(read_end)
                return None
            finally:
                os.close(write_end)
        except OSError:
            return None
        finally:
            os.close(fd)
        return cls(pid, read_end, begin)

    def take(self) -> list[tuple] | None:
        """The child's segments in file order, once it has ended: ``("batch", Batch)`` for lines
        it decoded, ``("lines", start, end, count)`` for lines the log must read itself. None when
        the child failed or what it sent is not what this module's child sends (the log then
        reads the whole far part itself)."""
        out = bytearray()
        try:
            while piece := os.read(self._out, 1 << 20):
                out += piece
        except BaseException:  # (an interrupt meanwhile: the child goes too)
            self.end_now()
            raise
        if self._reap(kill=False) not in (0, None):  # (None: SIGCHLD ignored, the status is unknown)
            return None
        try:
            end, lines, raw = marshal.loads(out)
            del out  # (peak memory: the bytes go before the batches are built)
            segments = self._checked(end, lines, raw)
        except (ValueError, EOFError, TypeError, IndexError, KeyError, OverflowError):
            return None
        if segments is not None:
            self.end = end
        return segments

    def values(self) -> Iterator[object]:
        """Each value the child sends (``send_value``), as soon as it is whole, until the child's
        end of the pipe closes or what comes is not such a value (a child that failed: what it
        left half sent is dropped). The caller ends with ``end_now``: the child may still run."""
        while (head := self._exactly(8)) is not None and (body := self._exactly(int.from_bytes(head, "little"))) is not None:
            try:
                yield marshal.loads(body)
            except (ValueError, EOFError, TypeError):
                return

    def _exactly(self, n: int) -> bytes | None:
        """The next ``n`` bytes from the child, or None when the pipe closes first."""
        got = bytearray()
        while len(got) < n:
            piece = os.read(self._out, min(n - len(got), 1 << 20))
            if not piece:
                return None
            got += piece
        return bytes(got)

    def _checked(self, end: object, lines: object, raw: object) -> list[tuple] | None:
        """The segments, when they cover ``begin`` to ``end`` line after line with ``lines``
        lines in all, and every field is of the type and range the log relies on."""
        from core.session.scan import Batch

        if type(end) is not int or type(lines) is not int or type(raw) is not list:
            return None
        segments: list[tuple] = []
        at, counted = self.begin, 0
        for one in raw:
            if type(one) is not tuple or not one:
                return None
            if one[0] == "lines":
                _, start, stop, count = one
                if not (type(start) is type(stop) is type(count) is int and start == at < stop and count > 0):
                    return None
                segments.append(("lines", start, stop, count))
                at, counted = stop, counted + count
                continue
            _, ids, parent_ids, back, outside, table, codes, offsets, lengths, said_at, said = one
            code_array, offset_array, length_array = array("i"), array("q"), array("q")
            code_array.frombytes(codes)
            offset_array.frombytes(offsets)
            length_array.frombytes(lengths)
            n = len(ids)
            if (not n or not n == len(code_array) == len(offset_array) == len(length_array)
                    or type(ids) is not list or not set(map(type, ids)) <= _STR
                    or type(table) is not list or not all(type(k) is tuple and len(k) == 4
                                                          and set(map(type, k)) <= _STR_OR_NONE for k in table)
                    or not 0 <= min(code_array) <= max(code_array) < len(table)
                    or offset_array[0] != at or min(length_array) < 0
                    or any(map(ne, offset_array[1:], map(add, offset_array, map((1).__add__, length_array))))):
                return None  # (each line right after the one before it, from where the last segment ended)
            said_array = array("q")
            said_array.frombytes(said_at)
            if (type(said) is not list or len(said) != len(said_array)
                    or any(type(fields) is not tuple or len(fields) != 5 for fields in said)
                    or (said_array and not (0 <= min(said_array) and max(said_array) < n))):
                return None  # (what a message said: five fields each, of entries of this batch)
            batch = Batch(ids, parent_ids, table, code_array, offset_array, length_array, list(said_array), said)
            if back is not None:  # (how far back each parent is: within the batch, or looked up)
                batch.back = array("q")
                batch.back.frombytes(back)
                if (type(outside) is not list or len(batch.back) != n or min(batch.back) < 0
                        or any(map(gt, batch.back, range(n))) or batch.back.count(0) != len(outside)):
                    return None
                for one_outside in outside:
                    i, parent_id = one_outside
                    if type(i) is not int or not 0 <= i < n or batch.back[i] or type(parent_id) not in _STR_OR_NONE:
                        return None
                batch.outside = outside
            elif type(parent_ids) is not list or len(parent_ids) != n or not set(map(type, parent_ids)) <= _STR_OR_NONE:
                return None
            segments.append(("batch", batch))
            at, counted = offset_array[-1] + length_array[-1] + 1, counted + n
        return segments if (at, counted) == (end, lines) else None

    def end_now(self) -> None:
        """Stop the child, if it still runs (the log reads on without it). Safe to call again."""
        self._reap(kill=True)

    def _reap(self, kill: bool) -> int | None:
        """End with the child once: its exit status (None when the system already reaped it)."""
        pid, self._pid = self._pid, None
        if pid is None:
            return None
        if kill:
            import signal  # (here: every command loads this module, few ever stop a child)

            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        os.close(self._out)
        try:
            return os.waitpid(pid, 0)[1]
        except ChildProcessError:  # (SIGCHLD ignored by whoever started pideck: nothing to reap)
            return None


# -- the child ---------------------------------------------------------------------------------


def child_main(argv: list[str]) -> None:
    """Scan the file handed over as descriptor ``_FILE`` from ``begin`` to ``size`` and write
    the segments to stdout (``take``)."""
    begin, size = int(argv[0]), int(argv[1])
    send_and_exit(marshal.dumps(scan_far(_FILE, begin, size)))


def scan_far(fd: int, begin: int, size: int) -> tuple[int, int, list[tuple]]:
    """``(end, lines, segments)`` of the complete lines of ``fd`` from ``begin`` to ``size``:
    runs of decoded lines merged into one batch, each piece that did not decode as its line
    range."""
    from core.session.scan import decode_batch

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
        self.said_at = array("q")
        self.said: list[tuple] = []

    def add(self, piece: Batch) -> None:
        self.said_at.extend(map(len(self.ids).__add__, piece.said_at))
        self.said += piece.said
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
                self.codes.tobytes(), self.offsets.tobytes(), self.lengths.tobytes(), self.said_at.tobytes(), self.said)
