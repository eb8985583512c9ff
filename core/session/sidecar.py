"""The saved index: a session's entry index kept in pideck's state directory between runs.

Opening a big session reads every byte of it; opening it again, unchanged or only appended to,
should not. After an open, the index (``index.py``), the header, the warnings and the current
branch are saved to ``<pideck home>/index/<hash of the session path>.idx``; the next open loads
them, checks that they still describe the file, and reads only the bytes appended since. Results
derived from the branch (the todo fold) are kept beside it in ``<hash>.kept`` (small, so keeping
one never rewrites the index), each with the branch prefix it was derived from, and are used only
while the current branch still starts with that prefix.

Nothing in them is trusted blindly. Each file carries its format, the session path it was made
for and a checksum of its whole content: a foreign, truncated, corrupt or tampered file is ignored
(and replaced by the next save). It is used only while the session is the same file (device and
inode), has not shrunk, is the same size and modification time or has grown, and still holds the
same first line and the same last 4 KiB before the point the index reached; anything else is a
full read. It is written atomically with mode 0600 in folders of mode 0700, never beside a
session file.

``PIDECK_INDEX=off`` turns it off (a pure read of the file every time); ``PIDECK_INDEX=always``
saves it for sessions of any size after any change (the tests run the suite that way too).
"""

from __future__ import annotations

import json
import os
import stat
import sys
from array import array
from itertools import compress
from operator import ne
from pathlib import Path
from typing import TYPE_CHECKING, Any

from core.config import places
from core.files import replace_private_file
from core.session.index import PENDING, EntryIndex
from core.session.parse import is_header

if TYPE_CHECKING:  # (the type checker's alone: a TypedDict compiles its annotations as it is made)
    from typing import TypedDict

    from core.session.entry import Header
    from core.session.index import Kind

    class Identity(TypedDict):
        """What a saved file records of the session it describes (``_identity``)."""

        path: str  # absolute
        dev: int
        ino: int
        size: int
        mtime_ns: int
        consumed: int  # bytes of complete lines indexed
        tail: str  # the ``BLOCK`` bytes before ``consumed``, in hex
        first_line: str  # in hex

    class Meta(Identity):
        """A saved index's metadata, the JSON before its arrays (``_encode``). Read back, a value
        is whatever the file held until ``_saved`` has checked it."""

        lines: int
        byteorder: str
        count: int  # entries
        ids: str  # ``lines`` (one id a line) or ``json`` (an array)
        header: Header
        warnings: list[str]
        cycle_warned: list[str]
        kinds: list[Kind]
        pending: list[tuple[int, str]]  # (position, parentId) pairs
        duplicates: bool
        name_at: int
        sections: list[tuple[str, int]]  # (name, bytes) of the parts after the metadata, in order

    class Kept(TypedDict):
        """One derived result kept beside the saved index (``keeping.py``)."""

        covers: int  # branch entries it was derived from (entries in file order for ``keeping.FILE_ORDER``)
        branch: str  # their fingerprint (``keeping._branch_digest``), or ``keeping.FILE_ORDER``
        value: Any  # JSON, checked by the code that reads it

FORMAT = b"pideck session index 3\n"
KEPT_FORMAT = b"pideck derived results 3\n"
BLOCK = 4096  # bytes before the indexed end that must still be the same
DIGEST = 4  # a CRC-32 (``checksum``)
MIN_BYTES = 1 << 20  # smaller sessions are read in full: quick anyway, and no file to keep
RESAVE_BYTES = 1 << 20  # re-save once this much was appended since the saved index

_ARRAYS = (("offsets", "q"), ("lengths", "q"), ("line_nos", "q"), ("kinds", "i"), ("parents", "q"))


def checksum(*parts: bytes | memoryview) -> bytes:
    """The checksum ending a saved file: a CRC-32 of its parts. It tells a file damaged or cut
    short from a whole one; what a whole file says is still checked (``_saved``). Not a hash that
    resists forgery: whoever can write pideck's state folder can write a valid file anyway."""
    import zlib

    crc = 0
    for part in parts:
        crc = zlib.crc32(part, crc)
    return crc.to_bytes(DIGEST, "little")


def mode() -> str:
    """``off``, ``always`` or ``on`` (the default), from ``PIDECK_INDEX``."""
    value = os.environ.get("PIDECK_INDEX", "").strip().lower()
    return value if value in ("off", "always") else "on"


def location(session: Path) -> Path | None:
    """Where the saved index of ``session`` lives, or None when that would be beside a session
    file (pideck's home set inside a sessions folder)."""
    session = Path(os.path.abspath(session))
    folder = places.pideck_home() / "index"
    if os.path.abspath(folder) == str(session.parent) or places.is_pi_session_path(folder / "x"):
        return None
    return folder / f"{fingerprint(os.fsencode(session))}.idx"


def fingerprint(data: bytes | memoryview) -> str:
    """64 bits that tell ``data`` apart: its CRC-32 and Adler-32. Names a session's saved files
    (two paths with one name only take turns at keeping an index: each file records its path) and
    identifies a kept result's branch. hashlib would load OpenSSL, which costs a re-open more than
    the checks it makes."""
    import zlib

    return f"{zlib.crc32(data):08x}{zlib.adler32(data):08x}"


def forget(session: Path) -> None:
    """Remove the saved index of a session that is gone (and what was kept beside it)."""
    target = location(session)
    for path in (target, kept_location(session)) if target is not None else ():
        try:
            path.unlink()  # type: ignore[union-attr]
        except OSError:
            pass


def source_of(saved_index: Path) -> str | None:
    """The session a saved index file was made for (None when it is not a readable one): its
    metadata alone is read, not its checksum (a sweep asks whether the session is still there)."""
    try:
        with open(saved_index, "rb") as fh:
            head = fh.read(len(FORMAT) + 8)
            if len(head) < len(FORMAT) + 8 or not head.startswith(FORMAT):
                return None
            meta = json.loads(fh.read(int.from_bytes(head[len(FORMAT):], "little")))
    except (OSError, ValueError, MemoryError, OverflowError):
        return None
    path = meta.get("path") if isinstance(meta, dict) else None
    return path if isinstance(path, str) else None


def kept_location(session: Path) -> Path | None:
    """Where the results derived from ``session`` are kept (beside its saved index), or None."""
    target = location(session)
    return target.with_suffix(".kept") if target is not None else None


class Saved:
    """Everything a log needs to carry on reading a session where an earlier read stopped."""

    __slots__ = ("header", "warnings", "cycle_warned", "index", "branch", "consumed", "lines", "first_line", "file",
                 "name_at")

    def __init__(self, *, header: Header, warnings: list[str], cycle_warned: list[str], index: EntryIndex,
                 branch: list[int] | None, consumed: int, lines: int, first_line: bytes, file: os.stat_result,
                 name_at: int) -> None:
        self.header = header
        self.warnings = warnings
        self.cycle_warned = cycle_warned
        self.index = index
        self.branch = branch
        self.consumed = consumed  # bytes of complete lines indexed
        self.lines = lines  # complete lines in them
        self.first_line = first_line
        self.file = file  # the session file when it was read
        self.name_at = name_at  # position of the newest session_info entry, or -1


def _tail_bytes(fd: int, consumed: int) -> str:
    """The ``BLOCK`` bytes before ``consumed``, as they are kept to compare with (in hex: the bytes
    themselves, so a rewrite of them is always seen)."""
    start = max(0, consumed - BLOCK)
    return os.pread(fd, consumed - start, start).hex()


# -- saving ---------------------------------------------------------------------------------------

def save(session: Path, saved: Saved) -> bool:
    """Write the saved index of ``session``; False when it could not be (it is only a cache)."""
    target = location(session)
    identity = _identity(session, saved.consumed, saved.first_line, saved.file) if target is not None else None
    if target is None or identity is None:
        return False
    try:
        replace_private_file(target, _encode(identity, saved))
    except (OSError, ValueError):
        return False
    return True


def save_kept(session: Path, kept: dict[str, Kept], consumed: int, first_line: bytes, file: os.stat_result) -> bool:
    """Write the derived results of ``session`` (name -> JSON), derived from the index of its first
    ``consumed`` bytes as read when the file was ``file``; False when they could not be."""
    target = kept_location(session)
    identity = _identity(session, consumed, first_line, file) if target is not None else None
    if target is None or identity is None:
        return False
    try:
        body = KEPT_FORMAT + json.dumps({**identity, "kept": kept}).encode("utf-8")
        replace_private_file(target, body + checksum(body))
    except (OSError, ValueError):
        return False
    return True


def _identity(session: Path, consumed: int, first_line: bytes, then: os.stat_result) -> Identity | None:
    """What a saved file records of the session it describes, or None when the session was written
    to since it was read (the bytes hashed now may not be the ones read)."""
    try:
        fd = os.open(session, os.O_RDONLY)
        try:
            tail = _tail_bytes(fd, consumed)
            now = os.fstat(fd)
        finally:
            os.close(fd)
    except OSError:
        return None
    if (now.st_ino, now.st_size, now.st_mtime_ns) != (then.st_ino, then.st_size, then.st_mtime_ns):
        return None
    return {
        "path": os.path.abspath(session), "dev": then.st_dev, "ino": then.st_ino, "size": then.st_size,
        "mtime_ns": then.st_mtime_ns, "consumed": consumed, "tail": tail, "first_line": first_line.hex(),
    }


def _encode(identity: Identity, saved: Saved) -> list[bytes | memoryview]:
    """The saved index's bytes as parts written one after another: the arrays as they are in
    memory, never joined into one copy (a big session's index is megabytes)."""
    index = saved.index
    sections: list[tuple[str, bytes | memoryview]] = [(name, memoryview(getattr(index, name)).cast("B"))
                                                      for name, _ in _ARRAYS]
    if saved.branch is not None:
        sections.append(("branch", memoryview(_runs(saved.branch)).cast("B")))
    joined = "\n".join(index.ids)
    ids_as_lines = joined.count("\n") == max(len(index.ids) - 1, 0)  # no id holds a newline
    ids = joined if ids_as_lines else json.dumps(index.ids)
    sections.append(("ids", ids.encode("utf-8", "surrogatepass")))
    meta: Meta = {
        **identity, "lines": saved.lines, "byteorder": sys.byteorder, "count": len(index.ids), "ids": "lines" if ids_as_lines else "json",
        "header": saved.header, "warnings": saved.warnings, "cycle_warned": saved.cycle_warned,
        "kinds": index.kind_table, "pending": sorted(index.pending.items()), "duplicates": index.duplicates,
        "name_at": saved.name_at,
        "sections": [(name, len(data)) for name, data in sections],
    }
    meta_bytes = json.dumps(meta).encode("utf-8")  # ASCII: every odd character escaped
    parts = [FORMAT, len(meta_bytes).to_bytes(8, "little"), meta_bytes, *(data for _, data in sections)]
    return [*parts, checksum(*parts)]


def _runs(branch: list[int]) -> array[int]:
    """The branch as runs of consecutive positions, ``[start, length, start, length, ...]``: a
    branch is a few long runs (one for a session that never branched), cheap to check and to
    restore."""
    ends = [*compress(range(1, len(branch)), map(ne, branch[1:], map((1).__add__, branch))), len(branch)]
    runs, start = array("q"), 0
    for end in ends if branch else []:
        runs.extend((branch[start], end - start))
        start = end
    return runs


def _branch_of(runs: array[int], count: int) -> list[int] | None:
    """The branch ``_runs`` made, or None when a run does not fit in an index of ``count``."""
    starts, lengths = runs[0::2], runs[1::2]
    if len(runs) % 2 or (runs and (min(starts) < 0 or min(lengths) < 1 or sum(lengths) > count
                                   or max(map(int.__add__, starts, lengths)) > count)):
        return None  # (a branch visits each entry at most once: no longer than the index)
    branch: list[int] = []
    for start, length in zip(starts, lengths):
        branch += range(start, start + length)  # (one C-level extend per run)
    return branch


# -- loading --------------------------------------------------------------------------------------

def load(session: Path) -> Saved | None:
    """The saved index of ``session`` when it exists and still describes the file, else None."""
    target = location(session)
    if target is None:
        return None
    raw = _read_regular(target)
    if raw is None:
        return None
    try:
        meta, sections = _decode(raw)
        if meta["path"] != os.path.abspath(session):
            return None  # made for another file
        return _check_against_file(session, meta, sections)
    except (ValueError, KeyError, TypeError, IndexError, OverflowError, UnicodeError, OSError, RecursionError):
        return None


def _read_regular(path: Path) -> bytes | None:
    """The bytes of ``path`` if it is a regular file (never a FIFO or a link someone put there)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        with os.fdopen(fd, "rb", closefd=False) as fh:
            return fh.read()
    except OSError:
        return None
    finally:
        os.close(fd)


def _decode(raw: bytes) -> tuple[Meta, dict[str, memoryview]]:
    if not raw.startswith(FORMAT) or len(raw) < len(FORMAT) + 8 + DIGEST:
        raise ValueError("not a saved index")
    body, digest = memoryview(raw)[:-DIGEST], raw[-DIGEST:]
    if checksum(body) != digest:
        raise ValueError("checksum mismatch")
    at = len(FORMAT)
    meta_len = int.from_bytes(body[at:at + 8], "little")
    at += 8
    meta = json.loads(bytes(body[at:at + meta_len]))
    at += meta_len
    sections: dict[str, memoryview] = {}
    for name, size in meta["sections"]:
        sections[name] = body[at:at + size]
        at += size
    if at != len(body) or meta["byteorder"] != sys.byteorder:
        raise ValueError("bad layout")
    return meta, sections


def _check_against_file(session: Path, meta: Meta, sections: dict[str, memoryview]) -> Saved | None:
    st = _still_described(session, meta)
    return _saved(meta, sections, st) if st is not None else None


def _still_described(session: Path, meta: Identity) -> os.stat_result | None:
    """The session file now, when ``meta`` (written by ``_identity``) still describes it."""
    fd = os.open(session, os.O_RDONLY)
    try:
        st = os.fstat(fd)
        if (st.st_dev, st.st_ino) != (meta["dev"], meta["ino"]) or st.st_size < meta["size"]:
            return None  # another file, or truncated
        if st.st_size == meta["size"] and st.st_mtime_ns != meta["mtime_ns"]:
            return None  # rewritten in place
        consumed, first_line = meta["consumed"], bytes.fromhex(meta["first_line"])
        if not 0 < consumed <= meta["size"] or _tail_bytes(fd, consumed) != meta["tail"]:
            return None
        if os.pread(fd, len(first_line), 0) != first_line:
            return None
    finally:
        os.close(fd)
    return st


def load_kept(session: Path, read: os.stat_result, consumed: int) -> dict[str, Kept]:
    """The derived results kept for ``session`` (name -> ``{"covers", "branch", "value"}``) when
    they still describe the file, which was ``read`` when its first ``consumed`` bytes were
    indexed (they must include the bytes the results were derived from); else none."""
    target = kept_location(session)
    raw = _read_regular(target) if target is not None else None
    if raw is None or not raw.startswith(KEPT_FORMAT) or len(raw) < len(KEPT_FORMAT) + DIGEST:
        return {}
    body, digest = raw[:-DIGEST], raw[-DIGEST:]
    try:
        if checksum(body) != digest:
            return {}
        meta = json.loads(body[len(KEPT_FORMAT):])
        if (meta["path"] != os.path.abspath(session) or meta["ino"] != read.st_ino
                or not meta["consumed"] <= consumed or _still_described(session, meta) is None):
            return {}
        kept = meta["kept"]
    except (ValueError, KeyError, TypeError, IndexError, OverflowError, UnicodeError, OSError, RecursionError):
        return {}
    return kept if _kept_ok(kept) else {}


def _saved(meta: Meta, sections: dict[str, memoryview], st: os.stat_result) -> Saved | None:
    """The saved state, after checking that its parts fit together (a file with a valid checksum
    can still have been written by something else)."""
    count = meta["count"]
    arrays = {}
    for name, code in _ARRAYS:
        arrays[name] = values = array(code)
        values.frombytes(sections[name])
        if len(values) != count:
            return None
    text = bytes(sections["ids"]).decode("utf-8", "surrogatepass")
    ids = (text.split("\n") if count else []) if meta["ids"] == "lines" else json.loads(text)
    # (JSON arrays: one not of 4 is a ValueError, and the file is ignored)
    kinds: list[Kind] = [(kind, ct, role, tool) for kind, ct, role, tool in meta["kinds"]]
    pending = {int(i): parent for i, parent in meta["pending"]}
    branch = None
    if "branch" in sections:
        runs = array("q")
        runs.frombytes(sections["branch"])
        if (branch := _branch_of(runs, count)) is None:
            return None
    ok = (
        len(ids) == count and (meta["ids"] == "lines" or all(isinstance(i, str) for i in ids))
        and all(all(v is None or isinstance(v, str) for v in k) for k in kinds)
        and all(isinstance(p, str) and 0 <= i < count for i, p in pending.items())
        and is_header(meta["header"]) and all(isinstance(w, str) for w in meta["warnings"])
        and all(isinstance(c, str) for c in meta["cycle_warned"])
        and isinstance(meta["lines"], int) and isinstance(meta["duplicates"], bool)
        and isinstance(meta["name_at"], int) and -1 <= meta["name_at"] < count
    )
    if ok and count:
        parents = arrays["parents"]
        ok = (
            _codes_fit(arrays["kinds"], len(kinds))
            and min(parents) >= PENDING and max(parents) < count and parents.count(PENDING) == len(pending)
            and all(parents[i] == PENDING for i in pending)
        )  # (a wrong offset or length only makes a body fail to read back, with a warning)
    if not ok:
        return None
    index = EntryIndex.restore(arrays, ids, pending, kinds, meta["duplicates"])
    return Saved(
        header=meta["header"], warnings=list(meta["warnings"]), cycle_warned=list(meta["cycle_warned"]),
        index=index, branch=branch, consumed=meta["consumed"], lines=meta["lines"],
        first_line=bytes.fromhex(meta["first_line"]), file=st, name_at=meta["name_at"],
    )


def _codes_fit(codes: array[int], kinds: int) -> bool:
    """Every kind code is below ``kinds``. With at most 256 kinds (every real session) this is a
    check of the array's bytes, each step in C: each code's high bytes are zero, its low byte one
    of the allowed values."""
    if kinds > 256 or codes.itemsize != 4:
        return min(codes) >= 0 and max(codes) < kinds
    raw = codes.tobytes()
    low = 0 if sys.byteorder == "little" else 3
    high = b"".join(raw[i::4] for i in range(4) if i != low)
    return not high.strip(b"\0") and not raw[low::4].translate(None, bytes(range(kinds)))


def _kept_ok(kept: Any) -> bool:
    """The kept results' envelopes (each value is checked by the code that reads it)."""
    return isinstance(kept, dict) and all(
        isinstance(one, dict) and type(one.get("covers")) is int and one["covers"] > 0
        and isinstance(one.get("branch"), str) and "value" in one
        for one in kept.values()
    )
