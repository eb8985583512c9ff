"""The lines of a transcript its reader wants, found without parsing the rest, and, for a big
first read, found in the rest of the file by a second process meanwhile
(docs/agent-conversations.md#how-pideck-reads-them).

The child looks through all of the read but its first ``NEAR_BYTES`` and sends what it finds a
piece (``PIECE`` bytes of the file) at a time, as soon as it has looked through it: the reader
takes the pieces' lines in turn while the child looks through the next ones. It only looks, the
reader also parses, so the child keeps ahead, and the reader, once past the first megabytes,
never looks through a byte itself.

This module is also the child's whole program (``child_main``, run with ``-I -S``): it imports
nothing beyond the standard library's ``re``, ``os`` and ``marshal`` but how a value is sent
(core/session/split.py ``send_value``).
"""

from __future__ import annotations

import os
import re
TYPE_CHECKING = False  # (typing is not loaded in the child, only read by the type checker)
if TYPE_CHECKING:
    from collections.abc import Iterator
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

NEAR_BYTES = 10 << 20
"""What the reader reads of a big first read itself, before it takes the child's pieces: about as
long as the child takes to start. (The 105 MB transcript of tests/benchmarks/test_conversation_benchmark.py
opened in 133 ms with 10 MiB; 141 with 5, 146 with 16, 167 with 32, 187 with 47, about the
far 55% the child took in one answer at the end before; medians of 7 taken in turn.)"""

PIECE = 1 << 20
"""Bytes of the file the child looks through before it sends what it found in them."""

CHILD_CHUNK = 16 << 20
"""The child's buffer (one, reused): a line of more than half of it is left to the reader, the
child stops before it."""

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
    lines the ``kind``'s reader wants, passing no line longer than ``limit`` bytes, and send each
    piece ``far_pieces`` finds as soon as it is found."""
    from core.session.split import send_value

    kind, limit, begin, size = argv[0], int(argv[1]), int(argv[2]), int(argv[3])
    for piece in far_pieces(FILE, WANTED[kind], begin, size, limit):
        send_value(piece)
    os._exit(0)  # (at once: the interpreter's shutdown would hold the pipe's end back by milliseconds)


def far_pieces(fd: int, wanted: re.Pattern[bytes], begin: int, size: int,
               limit: int) -> Iterator[tuple[int, int, int, list[tuple[int, bytes]]]]:
    """``(start, end, lines, found)`` of each piece of the complete lines from ``begin`` on
    (before ``size``), about ``PIECE`` bytes each: where it starts and ends, how many lines it
    has, and the wanted ones with their numbers among them (from 1). It stops before a line
    longer than ``limit`` (the reader's: it passes over such a line, and says so) or than half a
    chunk (too long to hold here); the reader reads on from there itself."""
    buf, held, at = bytearray(CHILD_CHUNK), 0, begin
    fh = open(fd, "rb", buffering=0, closefd=False)
    fh.seek(at)
    while at < size:
        with memoryview(buf) as view:
            got = fh.readinto(view[held:min(CHILD_CHUNK, held + PIECE, held + size - at)]) or 0
        if not got:
            break
        at += got
        end = held + got
        cut = buf.rfind(b"\n", 0, end) + 1
        long = _long_line(buf, end, limit) if end > limit else None
        if long is not None:
            cut = long
        if cut:
            some, count = numbered_lines(buf, 0, cut - 1, 0, wanted)
            yield at - end, at - end + cut, count, [(number, bytes(line)) for number, line in some]
        held = end - cut
        if long is not None or held >= CHILD_CHUNK // 2:
            return
        buf[:held] = buf[cut:end]  # the unfinished line to the front


def _long_line(buf: bytearray, end: int, limit: int) -> int | None:
    """Where the first line of ``buf[:end]`` longer than ``limit`` bytes (its newline not
    counted) starts, the unfinished last one included (it only grows); None when there is none."""
    at = 0
    while True:
        newline = buf.find(b"\n", at, end)
        stop = newline if newline >= 0 else end
        if stop - at > limit:
            return at
        if newline < 0:
            return None
        at = newline + 1


def checked(piece: object, begin: int, size: int) -> tuple[int, int, list[tuple[int, bytes]]] | None:
    """``(end, lines, found)`` of ``piece`` as ``far_pieces`` gives it, when it starts at
    ``begin`` (where the one before it ended), ends by ``size`` and every part is of its type and
    in its range (the reader relies on them); None otherwise."""
    if type(piece) is not tuple or len(piece) != 4:
        return None
    start, end, lines, found = piece
    if (type(start) is not int or type(end) is not int or type(lines) is not int or type(found) is not list
            or start != begin or not begin < end <= size or not 0 < lines <= end - begin):
        return None
    last = 0
    for one in found:
        if type(one) is not tuple or len(one) != 2 or type(one[0]) is not int or type(one[1]) is not bytes:
            return None
        if not last < one[0] <= lines or b"\n" in one[1]:
            return None
        last = one[0]
    return end, lines, found
