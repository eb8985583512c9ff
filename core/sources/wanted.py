"""The lines of a transcript its reader wants, found without parsing the rest, and, for a big
first read, found in the far part of the file by a second process meanwhile
(docs/agent-conversations.md#how-pideck-reads-them).

This module is also the child's whole program (``child_main``, run with ``-I -S``): it imports
nothing of pideck's and nothing beyond the standard library's ``re``, ``os`` and ``marshal``.
"""

from __future__ import annotations

import marshal
import os
import re
import sys
TYPE_CHECKING = False  # (typing is not loaded in the child, only read by the type checker)
if TYPE_CHECKING:
    from typing import TypeVar

    Bytes = TypeVar("Bytes", bytes, bytearray)

WANTED: dict[str, re.Pattern[bytes]] = {
    # Claude's transcript is mostly request shapes and prompt snapshots (~100 KB lines) that say
    # nothing about the conversation: only lines that can be a user or assistant line (or a
    # compaction's boundary) are parsed: those with "type":"user", "type":"assistant" or
    # "subtype":"compact_boundary" in them.
    # Any JSON writer's spacing is read; the compact form agents write costs nothing more. Spacing
    # within a line: a match never runs past a line's end, whatever the chunks are.
    # (Looked for from ``ype"``, the key's quote checked behind it: a pattern that starts with a
    # few plain bytes is searched for a third faster than one that starts with a choice.)
    "claude": re.compile(rb'ype"(?:(?<="type")[^\S\n]*:[^\S\n]*"(?:user|assistant)"'
                         rb'|(?<="subtype")[^\S\n]*:[^\S\n]*"compact_boundary")'),
}

FAR_SHARE = 0.55
"""The part of a big first read the child looks through, from the far end. More than half: the
reader itself (the parent's) is busy with every wanted line of the file meanwhile, while the
child only looks for those of its part."""

CHILD_CHUNK = 16 << 20
"""Bytes the child reads at a time (one buffer, reused; a line of more than half of it is left to the
parent)."""

CHILD = ("import sys; roots = int(sys.argv[1]); sys.path[:0] = sys.argv[2:2 + roots]; "
         "from core.sources.wanted import child_main; child_main(sys.argv[2 + roots:])")
"""The child's program (``core/session/split.py`` starts it, the file handed over as ``FILE``)."""
FILE = 3


def numbered_lines(data: Bytes, begin: int, end: int, first: int,
                   wanted: re.Pattern[bytes] | None) -> tuple[list[tuple[int, Bytes]], int]:
    """The lines of ``data[begin:end]`` (line ``first + 1`` on) with their numbers, and how many
    there are; with ``wanted``, only those it finds something in, looked for in the whole chunk at
    once (a Claude transcript's ~100 KB lines of request shapes are then never split off, let alone
    parsed), the lines between counted as they are passed."""
    if wanted is None:
        lines = data[begin:end].split(b"\n")
        return list(enumerate(lines, first + 1)), len(lines)
    found: list[tuple[int, Bytes]] = []
    number, counted, last = first, begin, -1
    for match in wanted.finditer(data, begin, end):
        start = max(data.rfind(b"\n", begin, match.start()) + 1, begin)
        if start == last:
            continue  # (another hit in a line already given)
        last = start
        number += _newlines(data, counted, start)
        counted = start
        stop = data.find(b"\n", match.end(), end + 1)
        found.append((number + 1, data[start:stop]))
    return found, number + _newlines(data, counted, end + 1) - first


HOPS = 8
"""Newlines looked for one by one before the rest of a stretch is counted at once."""


def _newlines(data: bytes | bytearray, start: int, end: int) -> int:
    """``data.count(b"\\n", start, end)``. The lines between two wanted ones are mostly long (a
    request's shape, an attachment: kilobytes each), and finding each newline (memchr) is several
    times faster than counting the bytes one by one; a stretch of many short lines is counted."""
    find, n, at = data.find, 0, start
    while n < HOPS:
        at = find(b"\n", at, end) + 1
        if not at:
            return n
        n += 1
    return n + data.count(b"\n", at, end)


# -- the child ---------------------------------------------------------------------------------


def child_main(argv: list[str]) -> None:
    """Look through the file handed over as descriptor ``FILE`` from ``begin`` to ``size`` for the
    lines the ``kind``'s reader wants, and write ``far_lines``' answer to stdout (exit 1 when it
    has none)."""
    kind, begin, size = argv[0], int(argv[1]), int(argv[2])
    answer = far_lines(FILE, WANTED[kind], begin, size)
    if answer is None:
        sys.exit(1)
    view = memoryview(marshal.dumps(answer))
    while view:
        view = view[os.write(1, view):]
    os._exit(0)  # (at once: the interpreter's shutdown would hold the pipe's end back by milliseconds)


def far_lines(fd: int, wanted: re.Pattern[bytes], begin: int, size: int) -> tuple[int, int, list[tuple[int, bytes]]] | None:
    """``(end, lines, found)``: where the last complete line from ``begin`` on ends (before
    ``size``), how many complete lines there are, and the wanted ones with their numbers (1 for
    the line at ``begin``). None at a line longer than a chunk: how the reader passes over a line
    too long to hold, and warns of it, depends on where its reads start, so the parent reads
    such a part itself, as a reader that got that far would."""
    found: list[tuple[int, bytes]] = []
    buf, held, at, lines = bytearray(CHILD_CHUNK), 0, begin, 0
    fh = open(fd, "rb", buffering=0, closefd=False)
    fh.seek(at)
    while at < size:
        with memoryview(buf) as view:
            got = fh.readinto(view[held:min(CHILD_CHUNK, held + size - at)]) or 0
        if not got:
            break
        at += got
        end = held + got
        cut = buf.rfind(b"\n", 0, end) + 1
        held = end - cut
        if held >= CHILD_CHUNK // 2:
            return None
        if not cut:
            continue
        some, count = numbered_lines(buf, 0, cut - 1, lines, wanted)
        found += [(number, bytes(line)) for number, line in some]
        lines += count
        buf[:held] = buf[cut:end]  # the unfinished line to the front
    return at - held, lines, found


def checked(answer: object, begin: int, size: int) -> tuple[int, int, list[tuple[int, bytes]]] | None:
    """``answer`` as ``far_lines`` gives it, when every part is of its type and in its range (the
    reader relies on them); None otherwise."""
    if type(answer) is not tuple or len(answer) != 3:
        return None
    end, lines, found = answer
    if type(end) is not int or type(lines) is not int or type(found) is not list or not begin <= end <= size:
        return None
    last = 0
    for one in found:
        if type(one) is not tuple or len(one) != 2 or type(one[0]) is not int or type(one[1]) is not bytes:
            return None
        if not last < one[0] <= lines or b"\n" in one[1]:
            return None
        last = one[0]
    return end, lines, found
