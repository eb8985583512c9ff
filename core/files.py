"""Private files and folders: whatever pideck creates is readable by the user alone."""

from __future__ import annotations

import contextlib
import errno
import json
import os
import stat
from pathlib import Path
from typing import Any, Iterator, Mapping

try:
    import fcntl
except ImportError:  # not POSIX: an empty file is filled unlocked
    fcntl = None  # type: ignore[assignment]



def not_regular(mode: int) -> str | None:
    """What a path that is not a regular file is, in a person's words (None for a regular file).
    pideck never opens such a path to read it: a FIFO blocks until a writer comes, a device like
    ``/dev/zero`` never ends."""
    if stat.S_ISREG(mode):
        return None
    for test, kind in ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return kind
    return "not a regular file"


def jsonl_files(folder: str | os.PathLike[str]) -> list[Path]:
    """The regular ``*.jsonl`` files in ``folder`` (links followed), sorted by name; none when it
    cannot be listed. An entry that cannot be looked at (a symbolic link in a loop, ELOOP; one
    removed meanwhile) is passed over alone: it must not hide the folder's other files."""
    found: list[Path] = []
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                try:
                    if entry.name.endswith(".jsonl") and entry.is_file():
                        found.append(Path(entry.path))
                except OSError:
                    continue
    except (OSError, ValueError):
        return []
    return sorted(found)


def read_small_file(path: Path, limit: int) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes, read without blocking: a FIFO or a
    device put where a small file belongs (a config) must neither hang pideck nor feed it without
    end. Raises FileNotFoundError, another OSError, or ValueError saying what is wrong."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        if (kind := not_regular(os.fstat(fd).st_mode)) is not None:
            raise ValueError(f"it is {kind}, not a regular file")
        data = b""
        while len(data) <= limit and (chunk := os.read(fd, limit + 1 - len(data))):
            data += chunk
    finally:
        os.close(fd)
    if len(data) > limit:
        raise ValueError(f"it is larger than {limit} bytes")
    return data


def make_private_dirs(folder: Path) -> None:
    """Create ``folder`` and every missing ancestor with mode 0700 (``mkdir(parents=True)`` gives
    the ancestors, such as pideck's home and its ``sessions`` folder, the default mode, so anyone
    could list which directories a user works in)."""
    missing: list[Path] = []
    while not folder.exists() and folder.parent != folder:
        missing.append(folder)
        folder = folder.parent
    for each in reversed(missing):
        try:
            each.mkdir(mode=0o700)
        except FileExistsError:
            pass


def replace_private_file(path: Path, data: bytes | list[bytes | memoryview]) -> None:
    """Write ``data`` (or its parts, one after another) to ``path`` atomically (a temporary file
    beside it, mode 0600, then a rename), so a reader sees the old file or the new one, never half
    of one. Raises OSError."""
    make_private_dirs(path.parent)
    write_private_file(path, data, replace=True)


def write_private_file(path: Path, data: bytes | list[bytes | memoryview], *, replace: bool) -> None:
    """Write ``data`` to a temporary file beside ``path`` (mode 0600, never through a link), then
    rename it to ``path``. With ``replace=False`` an existing ``path`` is never touched: the rename
    is a hard link that fails when the name is taken (FileExistsError). Raises OSError; nothing is
    left behind on failure."""
    # (a str, not a Path: pathlib interns the parts of every path it parses, and a long-running
    # catalog writes thousands of these one-off names)
    folder, name = os.path.split(os.fspath(path))
    temporary = os.path.join(folder, f".{name}.{os.getpid()}.{os.urandom(4).hex()}.tmp")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
    try:
        try:
            os.fchmod(fd, 0o600)  # whatever the umask
            for part in data if isinstance(data, list) else [data]:
                write_all(fd, part)
        finally:
            os.close(fd)
        if replace:
            os.replace(temporary, path)
        else:
            _link(temporary, path, data if isinstance(data, bytes) else b"".join(data))
    finally:
        try:
            os.unlink(temporary)
        except OSError:
            pass


_NO_LINKS = {errno.EPERM, errno.EMLINK, errno.EXDEV, errno.ENOSYS, errno.ENOTSUP, errno.EOPNOTSUPP}
"""What ``link`` fails with on a filesystem without hard links (FAT, some network and FUSE ones)."""


def _link(temporary: str, path: Path, data: bytes) -> None:
    """Put the finished ``temporary`` at ``path`` without replacing anything: a hard link, atomic,
    so ``path`` appears whole or not at all. Where links are impossible, an exclusive create and a
    write instead: a kill midway can then leave ``path`` empty or short, never over someone's file,
    and a failed write removes the file it just made."""
    try:
        os.link(temporary, path)
        return
    except FileExistsError:
        raise
    except OSError as exc:
        if exc.errno not in _NO_LINKS:
            raise
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
    try:
        os.fchmod(fd, 0o600)
        write_all(fd, data)
    except OSError:
        os.close(fd)
        os.unlink(path)  # made by this call a moment ago: nobody else's
        raise
    os.close(fd)


def fill_empty_file(path: Path, data: bytes) -> bool:
    """Write ``data`` into the regular file at ``path`` if it is empty (checked again under its
    lock, so two pideck processes never both fill it); False, and nothing done, when it is not.
    A write that fails is cut back to empty. Raises OSError."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        if exc.errno == errno.ELOOP:  # a symbolic link: never written through
            return False
        raise
    try:
        if fcntl is not None:
            fcntl.flock(fd, fcntl.LOCK_EX)
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_size != 0:
            return False
        try:
            write_all(fd, data)
        except OSError:
            os.ftruncate(fd, 0)
            raise
        return True
    finally:
        os.close(fd)


def is_empty_file(path: Path) -> bool:
    """A regular file of no bytes at ``path`` (not through a symbolic link)."""
    try:
        st = os.lstat(path)
    except OSError:
        return False
    return stat.S_ISREG(st.st_mode) and st.st_size == 0


def write_all(fd: int, data: bytes | memoryview) -> None:
    """``os.write`` until every byte is written. A write that writes nothing raises (ENOSPC), so a
    caller takes a stuck write back as it takes back a failed one (``core/session/append.py``)."""
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        if written <= 0:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        view = view[written:]


def read_json(path: Path) -> dict[str, Any] | None:
    """A small JSON object file pideck wrote, or None when it is missing or not one."""
    try:
        with open(path, "rb") as fh:
            value = json.loads(fh.read(1 << 16))
    except (OSError, ValueError):
        return None
    return value if isinstance(value, dict) else None


def write_json(path: Path, value: Mapping[str, object]) -> None:
    """Write ``value`` whole or not at all (a temporary file renamed into place), private. (The
    session files' own writer: ``tempfile`` would cost every hook more than the write.)"""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    text = json.dumps(value, separators=(",", ":"))  # (ASCII: a lone surrogate in a path is kept)
    write_private_file(path, text.encode("ascii"), replace=True)


@contextlib.contextmanager
def locked(lock: Path) -> Iterator[None]:
    """The exclusive lock held on the file ``lock`` (made when missing)."""
    lock.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        if fcntl is not None:
            fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # (releases the lock)
