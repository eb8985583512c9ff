"""The saved index: a session's entry index kept in pideck's state directory between runs.

Opening a big session reads every byte of it; opening it again, unchanged or only appended to,
should not. After an open, the index (``index.py``), the header, the warnings and the current
branch are saved to ``<pideck home>/index/<hash of the session path>.idx``; the next open loads
them, checks that they still describe the file, and reads only the bytes appended since. Results
derived from the branch (the todo fold) are kept in it too, each with the branch prefix it was
derived from, and used only while the current branch still starts with that prefix.

Nothing in it is trusted blindly. The file carries its format, the session path it was made for
and a checksum of its whole content: a foreign, truncated, corrupt or tampered file is ignored
(and replaced by the next save). It is used only while the session is the same file (device and
inode), has not shrunk, is the same size and modification time or has grown, and still holds the
same first line and the same last 4 KiB before the point the index reached; anything else is a
full read. It is written atomically with mode 0600 in folders of mode 0700, never beside a
session file.

``PIDECK_INDEX=off`` turns it off (a pure read of the file every time); ``PIDECK_INDEX=always``
saves it for sessions of any size after any change (the tests run the suite that way too).
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import sys
from array import array
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import discovery
from .files import replace_private_file
from .index import PENDING, EntryIndex
from .parse import is_header

FORMAT = b"pideck session index 1\n"
BLOCK = 4096  # bytes before the indexed end that must still be the same
DIGEST = 32
MIN_BYTES = 1 << 20  # smaller sessions are read in full: quick anyway, and no file to keep
RESAVE_BYTES = 1 << 20  # re-save once this much was appended since the saved index

_ARRAYS = (("offsets", "q"), ("lengths", "q"), ("line_nos", "q"), ("kinds", "i"), ("parents", "q"))


def mode() -> str:
    """``off``, ``always`` or ``on`` (the default), from ``PIDECK_INDEX``."""
    value = os.environ.get("PIDECK_INDEX", "").strip().lower()
    return value if value in ("off", "always") else "on"


def location(session: Path) -> Path | None:
    """Where the saved index of ``session`` lives, or None when that would be beside a session
    file (pideck's home set inside a sessions folder)."""
    session = Path(os.path.abspath(session))
    folder = discovery.pideck_home() / "index"
    if os.path.abspath(folder) == str(session.parent) or discovery.is_pi_session_path(folder / "x"):
        return None
    name = hashlib.sha256(os.fsencode(session)).hexdigest()[:40]
    return folder / f"{name}.idx"


@dataclass
class Saved:
    """Everything a log needs to carry on reading a session where an earlier read stopped."""

    header: dict[str, Any]
    warnings: list[str]
    cycle_warned: list[str]
    index: EntryIndex
    branch: list[int] | None
    consumed: int  # bytes of complete lines indexed
    lines: int  # complete lines in them
    first_line: bytes
    file: os.stat_result  # the session file when it was read
    name_at: int  # position of the newest session_info entry, or -1
    derived: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Results derived from a prefix of the current branch, by name: ``{"covers": n, "branch":
    digest of the branch's first n positions, "value": JSON}`` (``SessionLog.keep_derived``)."""


def _tail_hash(fd: int, consumed: int) -> str:
    start = max(0, consumed - BLOCK)
    return hashlib.sha256(os.pread(fd, consumed - start, start)).hexdigest()


# -- saving ---------------------------------------------------------------------------------------

def save(session: Path, saved: Saved) -> bool:
    """Write the saved index of ``session``; False when it could not be (it is only a cache)."""
    target = location(session)
    if target is None:
        return False
    try:
        fd = os.open(session, os.O_RDONLY)
        try:
            tail = _tail_hash(fd, saved.consumed)
            now, then = os.fstat(fd), saved.file
            if (now.st_ino, now.st_size, now.st_mtime_ns) != (then.st_ino, then.st_size, then.st_mtime_ns):
                return False  # written to since it was read: the bytes just hashed may not be the ones indexed
        finally:
            os.close(fd)
        replace_private_file(target, _encode(Path(os.path.abspath(session)), saved, tail))
    except (OSError, ValueError):
        return False
    return True


def _encode(session: Path, saved: Saved, tail: str) -> bytes:
    index, st = saved.index, saved.file
    sections: list[tuple[str, bytes]] = [(name, getattr(index, name).tobytes()) for name, _ in _ARRAYS]
    if saved.branch is not None:
        sections.append(("branch", array("q", saved.branch).tobytes()))
    joined = "\n".join(index.ids)
    ids_as_lines = joined.count("\n") == max(len(index.ids) - 1, 0)  # no id holds a newline
    ids = joined if ids_as_lines else json.dumps(index.ids)
    sections.append(("ids", ids.encode("utf-8", "surrogatepass")))
    meta = {
        "path": str(session), "dev": st.st_dev, "ino": st.st_ino, "size": st.st_size, "mtime_ns": st.st_mtime_ns,
        "consumed": saved.consumed, "lines": saved.lines, "tail": tail, "first_line": saved.first_line.hex(),
        "byteorder": sys.byteorder, "count": len(index.ids), "ids": "lines" if ids_as_lines else "json",
        "header": saved.header, "warnings": saved.warnings, "cycle_warned": saved.cycle_warned,
        "kinds": index.kind_table, "pending": sorted(index.pending.items()), "duplicates": index.duplicates,
        "name_at": saved.name_at, "derived": saved.derived,
        "sections": [[name, len(data)] for name, data in sections],
    }
    meta_bytes = json.dumps(meta).encode("utf-8")  # ASCII: every odd character escaped
    body = b"".join([FORMAT, len(meta_bytes).to_bytes(8, "little"), meta_bytes, *(data for _, data in sections)])
    return body + hashlib.blake2b(body, digest_size=DIGEST).digest()


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
    except (ValueError, KeyError, TypeError, IndexError, OverflowError, UnicodeError, OSError):
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


def _decode(raw: bytes) -> tuple[dict[str, Any], dict[str, memoryview]]:
    if not raw.startswith(FORMAT) or len(raw) < len(FORMAT) + 8 + DIGEST:
        raise ValueError("not a saved index")
    body, digest = memoryview(raw)[:-DIGEST], raw[-DIGEST:]
    if hashlib.blake2b(body, digest_size=DIGEST).digest() != digest:
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


def _check_against_file(session: Path, meta: dict[str, Any], sections: dict[str, memoryview]) -> Saved | None:
    fd = os.open(session, os.O_RDONLY)
    try:
        st = os.fstat(fd)
        if (st.st_dev, st.st_ino) != (meta["dev"], meta["ino"]) or st.st_size < meta["size"]:
            return None  # another file, or truncated
        if st.st_size == meta["size"] and st.st_mtime_ns != meta["mtime_ns"]:
            return None  # rewritten in place
        consumed, first_line = meta["consumed"], bytes.fromhex(meta["first_line"])
        if not 0 < consumed <= meta["size"] or _tail_hash(fd, consumed) != meta["tail"]:
            return None
        if os.pread(fd, len(first_line), 0) != first_line:
            return None
    finally:
        os.close(fd)
    return _saved(meta, sections, st)


def _saved(meta: dict[str, Any], sections: dict[str, memoryview], st: os.stat_result) -> Saved | None:
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
    kinds = [tuple(k) for k in meta["kinds"]]
    pending = {int(i): parent for i, parent in meta["pending"]}
    branch = None
    if "branch" in sections:
        branch_array = array("q")
        branch_array.frombytes(sections["branch"])
        branch = branch_array.tolist()
    ok = (
        len(ids) == count and (meta["ids"] == "lines" or all(isinstance(i, str) for i in ids))
        and all(len(k) == 4 and all(v is None or isinstance(v, str) for v in k) for k in kinds)
        and all(isinstance(p, str) and 0 <= i < count for i, p in pending.items())
        and is_header(meta["header"]) and all(isinstance(w, str) for w in meta["warnings"])
        and all(isinstance(c, str) for c in meta["cycle_warned"])
        and isinstance(meta["lines"], int) and isinstance(meta["duplicates"], bool)
        and isinstance(meta["name_at"], int) and -1 <= meta["name_at"] < count
        and _derived_ok(meta.get("derived", {}))
    )
    if ok and count:
        parents = arrays["parents"]
        ok = (
            min(arrays["kinds"]) >= 0 and max(arrays["kinds"]) < len(kinds)
            and min(parents) >= PENDING and max(parents) < count and parents.count(PENDING) == len(pending)
        )  # (a wrong offset or length only makes a body fail to read back, with a warning)
    if ok and branch:
        ok = min(branch) >= 0 and max(branch) < count
    if not ok:
        return None
    index = EntryIndex.restore(arrays, ids, pending, kinds, meta["duplicates"])
    return Saved(
        header=meta["header"], warnings=list(meta["warnings"]), cycle_warned=list(meta["cycle_warned"]),
        index=index, branch=branch, consumed=meta["consumed"], lines=meta["lines"],
        first_line=bytes.fromhex(meta["first_line"]), file=st, name_at=meta["name_at"],
        derived=meta.get("derived", {}),
    )


def _derived_ok(derived: Any) -> bool:
    """The derived results' envelopes (each value is checked by the code that reads it)."""
    return isinstance(derived, dict) and all(
        isinstance(kept, dict) and type(kept.get("covers")) is int and kept["covers"] > 0
        and isinstance(kept.get("branch"), str) and "value" in kept
        for kept in derived.values()
    )
