"""A big first read of a Claude Code transcript has a second process look through all of it but
its first megabytes for the lines the reader wants, and send them a piece at a time
(core/sources/wanted.py): what is read is the same, to the line number in a warning and how far
the file was read, whether the far part is looked through there or here, wherever the reads fall,
whatever lines too long to read it holds, and whatever a child that fails sent before it failed."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from hostile_transcripts import FORMATS, serialise
from transcript_samples import BY_NAME

from core.sources import reading as reading_module
from core.sources import wanted
from core.sources.reading import MAX_LINE_BYTES, Reading

CLAUDE = FORMATS["claude"]


def hostile_claude() -> bytes:
    """Every hostile case of the Claude format, after its start."""
    return b"".join(map(serialise, [*CLAUDE.start, *(line for case in CLAUDE.cases for line in case.lines)]))


def sample(name: str) -> bytes:
    return BY_NAME[name].head(10_000)


TRANSCRIPTS = {
    "claude-tasks": lambda: sample("claude-tasks"),
    "claude-todowrite": lambda: sample("claude-todowrite"),
    "hostile lines": hostile_claude,
    "a partial last line": lambda: sample("claude-tasks")[:-7],
    "blank lines and a long one": lambda: sample("claude-tasks").replace(
        b"\n", b"\n\n \n" + b'{"type":"attachment","x":"' + b"y" * (wanted.CHILD_CHUNK // 2) + b'"}\n', 1),
}


def read(path: Path, home: Path, monkeypatch: pytest.MonkeyPatch, how: str, chunk: int = 8 << 20,
         limit: int = MAX_LINE_BYTES) -> tuple[str, list[Any]]:
    """What a first read of ``path`` makes of it (its state and events; ``PIDECK_SPLIT=how``,
    ``chunk`` bytes read at a time, no line longer than ``limit`` read), and each piece of a child
    the reading checked (None: refused)."""
    monkeypatch.setenv("PIDECK_SPLIT", how)
    monkeypatch.setattr(reading_module, "CHUNK", chunk)
    monkeypatch.setattr(reading_module, "MAX_LINE_BYTES", limit)
    pieces: list[Any] = []
    check = wanted.checked
    monkeypatch.setattr(wanted, "checked", lambda *args: pieces.append(check(*args)) or pieces[-1])
    reading = Reading(path, "claude", home=home / f"{how}-{chunk}-{limit}")
    reading.sync()
    made = {"state": reading.state, "events": [reading.event(i) for i in range(len(reading.kinds))]}
    return json.dumps(made, sort_keys=True), pieces


@pytest.mark.parametrize("name", list(TRANSCRIPTS))
def test_the_far_part_read_by_a_child_reads_as_read_here(name, tmp_path, monkeypatch):
    path = tmp_path / "t.jsonl"
    path.write_bytes(TRANSCRIPTS[name]())
    here, pieces = read(path, tmp_path, monkeypatch, "off")
    assert not pieces
    there, pieces = read(path, tmp_path, monkeypatch, "always")
    assert there == here
    assert pieces and None not in pieces  # (the child's pieces, every one taken)
    if name != "blank lines and a long one":  # (a line of half a chunk is the reader's: the child stops before it)
        end, lines, found = pieces[-1]
        assert found and end == len(path.read_bytes().rpartition(b"\n")[0]) + 1 and lines >= len(found)


LIMIT = 3000  # bytes: the longest line read, for the next tests (MAX_LINE_BYTES is 32 MiB)


def _user(text: str) -> bytes:
    return serialise({"type": "user", "message": {"role": "user", "content": text},
                      "timestamp": "2026-12-01T07:15:51.945Z", "sessionId": "s-1", "cwd": "/p"})


def _other(size: int) -> bytes:
    """A line the reader never reads (a request's shape), ``size`` bytes with its newline."""
    head = b'{"type":"api-request-shape","body":"'
    return head + b"y" * (size - len(head) - 3) + b'"}\n'


def test_lines_longer_than_the_limit_in_the_far_part(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Too long to be read: one the reader would not read, one it would, one just over the
    limit, and one unfinished at the end. Each is passed over with its number, whichever process
    met it and wherever the reads fall, and the lines after them are read."""
    lines = [_user(f"prompt {i}") for i in range(440)]
    lines[400:400] = [_other(LIMIT + 2)]  # (LIMIT + 1 bytes before its newline)
    lines[405:405] = [_user("x" * (2 * LIMIT))]
    lines[410:410] = [_other(5 * LIMIT)]
    path = tmp_path / "t.jsonl"
    unfinished = _user("unfinished " * 400)[:-1]
    path.write_bytes(b"".join(lines) + unfinished)
    whole, _ = read(path, tmp_path, monkeypatch, "off", 1000, LIMIT)
    for chunk in (97, 1000, LIMIT - 1):
        for how in ("off", "always"):
            got, pieces = read(path, tmp_path, monkeypatch, how, chunk, LIMIT)
            assert got == whole, (how, chunk)
    assert [w.split(":")[0] for w in json.loads(whole)["state"]["warnings"]] == ["line 401", "line 406", "line 411"]
    assert json.loads(whole)["state"]["long"] == len(unfinished)
    # (the child stopped before the first long line: the reading passed over it itself)
    assert pieces and pieces[-1][0] == sum(map(len, lines[:400]))


def test_a_line_at_the_limit_is_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lines = [_user(f"prompt {i}") for i in range(40)]
    lines[30:30] = [_other(LIMIT + 1)]  # (LIMIT bytes before its newline)
    path = tmp_path / "t.jsonl"
    path.write_bytes(b"".join(lines))
    whole, _ = read(path, tmp_path, monkeypatch, "off", 1000, LIMIT)
    got, pieces = read(path, tmp_path, monkeypatch, "always", 1000, LIMIT)
    assert got == whole and json.loads(whole)["state"]["warnings"] == []
    assert pieces and pieces[-1][0] == path.stat().st_size  # (the child looked through to the end)


FAKE = ("import sys; roots = int(sys.argv[1]); sys.path[:0] = sys.argv[2:2 + roots]; "
        "from core.sources import wanted; from core.session.split import send_value, _write; "
        "kind, limit, begin, size = sys.argv[2 + roots:]; wanted.PIECE = 4096; "
        "pieces = wanted.far_pieces(wanted.FILE, wanted.WANTED[kind], int(begin), int(size), int(limit)); ")
"""A child of the test's (``wanted.CHILD``): the real look through, 4 KiB at a time, then what the test adds."""

FAILURES = {
    "no interpreter": None,
    "a child that fails": "import sys; sys.exit(3)",
    "output that is not its own": "import os; os.write(1, b'not marshal')",
    "an answer in one, as the first children sent": "import marshal, os; os.write(1, marshal.dumps((10, 1, [(1, b'{}')])))",
    "a value cut short": FAKE + "_write(bytes([16, 0, 0, 0, 0, 0, 0, 0]) + b'short')",
    "a piece that starts elsewhere": FAKE + "send_value((int(begin) + 1, int(begin) + 10, 1, []))",
    "lines out of order": FAKE + "send_value((int(begin), int(begin) + 10, 10, [(3, b'{}'), (2, b'{}')]))",
    "more lines than it passed": FAKE + "send_value((int(begin), int(begin) + 10, 1, [(1, b'{}'), (2, b'{}')]))",
    "an end past the file": FAKE + "send_value((int(begin), 1 << 40, 2, [(1, b'{}')]))",
    "a newline in a line": FAKE + "send_value((int(begin), int(begin) + 10, 2, [(1, b'a\\nb')]))",
    "text for a line": FAKE + "send_value((int(begin), int(begin) + 10, 2, [(1, 'text')]))",
    "pieces, then one that is not": FAKE + "[send_value(next(pieces)) for _ in range(3)]; send_value('nonsense')",
    "pieces, then killed": FAKE + "[send_value(next(pieces)) for _ in range(3)]; "
                                  "import os, signal; os.kill(os.getpid(), signal.SIGKILL)",
    "pieces, then one that starts elsewhere": FAKE + "[send_value(next(pieces)) for _ in range(3)]; next(pieces); "
                                                     "send_value(next(pieces))",
}


@pytest.mark.parametrize("failure", FAILURES)
def test_a_child_that_fails_or_answers_nonsense_leaves_the_rest_to_the_reader(failure, tmp_path, monkeypatch):
    """Whatever a child sends that is not the next piece of its own is refused, and the reading
    reads on itself from the end of the last piece it took."""
    path = tmp_path / "t.jsonl"
    path.write_bytes(sample("claude-tasks") * 3)
    here, _ = read(path, tmp_path, monkeypatch, "off")
    code = FAILURES[failure]
    if code is None:
        monkeypatch.setattr(sys, "executable", str(tmp_path / "missing-python"))
    else:
        monkeypatch.setattr(wanted, "CHILD", code)
    there, pieces = read(path, tmp_path, monkeypatch, "always")
    assert there == here
    if failure.startswith("pieces"):
        assert len(pieces) >= 3 and None not in pieces[:3] and pieces[3:] in ([], [None])
    elif code is not None and "send_value" in code.replace(FAKE, ""):
        assert pieces == [None]
    else:  # (nothing whole that is a value: nothing checked)
        assert pieces == []
