"""``pideck tail PATH [--from N]``: the bytes of a file from offset N, then whatever is appended to
it, until the reader goes away: the remote side of a deck mirrored from another machine
(core/remote/mirror.py runs it there over ssh). It only reads: nothing is written, created or locked.

Once the bytes there were at the start are out, one line on stderr says how far it got
(``pideck tail: following at N``), so the reader knows its copy has caught up with the file. A
file replaced, removed or cut shorter than what was sent is said on stderr and ends the command
with ``EXIT_REPLACED``: the reader starts its copy again from the beginning.
"""

from __future__ import annotations

import argparse
import os
import sys

from core.cli.common import EXIT_OK, EXIT_WARNING

EXIT_REPLACED = 3
"""The file is not the one being followed any more (replaced, removed, truncated)."""
POLL_MS = 200
"""How often (milliseconds) the file is looked at for new bytes."""
CHUNK = 1 << 16
FOLLOWING = "pideck tail: following at "
"""The start of the stderr line said once the bytes there were at the start are written."""


def run(args: argparse.Namespace) -> int:
    import select
    import stat

    path: str = args.path
    offset: int = args.start
    if offset < 0:
        print("pideck tail: --from must be 0 or more", file=sys.stderr)
        return EXIT_WARNING
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))  # (a FIFO must not block the open)
    except OSError as exc:
        print(f"pideck tail: cannot read {path}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_WARNING
    try:
        opened = os.fstat(fd)
        if not stat.S_ISREG(opened.st_mode):
            print(f"pideck tail: {path} is not a regular file", file=sys.stderr)
            return EXIT_WARNING
        out = sys.stdout.buffer
        poller = select.poll()
        reader_gone: select.poll | None = poller
        try:
            poller.register(out.fileno(), 0)  # (only POLLERR/POLLHUP: the reading end was closed)
        except (OSError, ValueError, AttributeError):
            reader_gone = None  # (no file under stdout: an in-process caller's)
        said = False
        while True:
            why = replaced(path, opened, offset)
            if why is not None:
                print(f"pideck tail: {path} {why}", file=sys.stderr)
                return EXIT_REPLACED
            while chunk := os.pread(fd, CHUNK, offset):
                out.write(chunk)
                out.flush()
                offset += len(chunk)
            if not said:
                said = True
                print(f"{FOLLOWING}{offset}", file=sys.stderr, flush=True)
            if reader_gone is not None:
                if reader_gone.poll(POLL_MS):
                    return EXIT_OK
            else:
                import time

                time.sleep(POLL_MS / 1000)
    except (BrokenPipeError, KeyboardInterrupt):  # the reader went away (ssh ended): nothing more to do
        return EXIT_OK
    finally:
        os.close(fd)


def replaced(path: str, opened: os.stat_result, offset: int) -> str | None:
    """Why the file at ``path`` is no longer the one opened, or None: another file there (or none),
    or one cut shorter than the ``offset`` bytes already sent."""
    try:
        now = os.stat(path)
    except FileNotFoundError:
        return "was removed"
    except OSError as exc:
        return f"cannot be read: {exc.strerror or exc}"
    if (now.st_dev, now.st_ino) != (opened.st_dev, opened.st_ino):
        return "was replaced by another file"
    if now.st_size < offset:
        return f"was truncated ({now.st_size} bytes, {offset} were read)"
    return None
