"""A transcript's lines cost time linear in the file and memory bounded by the longest line pideck
holds, whatever the file is: an unfinished last line of many megabytes (an agent killed in the
middle of a write, or a hostile file) is passed over, not held and copied again at every read; and
a transcript written with any JSON writer's spacing reads as the compact one
(docs/agent-conversations.md#how-pideck-reads-them)."""

from __future__ import annotations

import json
import os
import tracemalloc
from pathlib import Path
from typing import Any

import pytest
from transcript_samples import BY_NAME, SAMPLES

from core.deck.deck import Deck
from core.sources import reading as reading_module
from core.sources.log import ConversationLog
from core.sources.reading import CHUNK, MAX_LINE_BYTES, Reading

CLAUDE = BY_NAME["claude-todowrite"]
HEAD = 40  # lines of the sample before the long line: the first plan is in them


def _transcript(home: Path, head: bytes) -> Path:
    path = home / "t.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(head)
    return path


def _grow_unfinished(path: Path, by: int) -> None:
    """``by`` more bytes of one line without its newline (a sparse file: cheap to make)."""
    os.truncate(path, path.stat().st_size + by)


def _user_line(text: str) -> bytes:
    line = {"type": "user", "message": {"role": "user", "content": text}, "uuid": "u-late",
            "timestamp": "2026-12-01T08:00:00.000Z", "sessionId": CLAUDE.session_id}
    return json.dumps(line, separators=(",", ":")).encode() + b"\n"


class _CountedReads:
    """``open`` for the reading module that counts the transcript bytes it reads."""

    def __init__(self) -> None:
        self.read = 0

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        handle = open(*args, **kwargs)
        counter = self

        class Counted:
            def __enter__(self) -> Counted:
                return self

            def __exit__(self, *exc: object) -> None:
                handle.close()

            def seek(self, offset: int) -> int:
                return handle.seek(offset)

            def fileno(self) -> int:
                return handle.fileno()

            def read(self, size: int = -1) -> bytes:
                data = handle.read(size)
                counter.read += len(data)
                return data

        return Counted()


def test_an_unfinished_line_longer_than_the_limit_is_never_held(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = _transcript(home, CLAUDE.head(HEAD))
    _grow_unfinished(path, 2 * MAX_LINE_BYTES)  # 64 MiB of one line, no newline yet
    reading = Reading(path, "claude")
    tracemalloc.start()
    try:
        synced = reading.sync()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    # held: at most the limit and a few chunks, never the line (the old reader held it twice over)
    assert peak < MAX_LINE_BYTES + 3 * CHUNK, peak
    assert synced.warnings == []  # (nothing to say until the line ends)
    first_plan = Deck(ConversationLog.open_transcript(path)).todo.state.to_json()["todos"]
    assert [t["status"] for t in first_plan] == ["pending"] * 3

    # the line grows: only what it gained is read (time linear in the file, not in reads x size)
    counted = _CountedReads()
    monkeypatch.setattr(reading_module, "open", counted, raising=False)
    _grow_unfinished(path, CHUNK)
    assert reading.sync().warnings == []
    assert counted.read <= CHUNK + 2 * 4096  # (and a digest of the last 4 KiB read, twice)

    # it ends: skipped with its number, and the line after it is read
    with open(path, "ab") as f:
        f.write(b"\n" + _user_line("after the long line"))
    counted.read = 0
    synced = reading.sync()
    assert synced.warnings == [f"line {HEAD + 1}: longer than {MAX_LINE_BYTES >> 20} MiB (skipped)"]
    assert counted.read < 2 * 4096 + len(_user_line("after the long line")) + 16
    log = ConversationLog.open_transcript(path)
    assert log.warnings == synced.warnings
    last = log.records[-1].load()["message"]["content"][0]["text"]
    assert last == "after the long line"
    assert "after the long line" in log.reading.path.read_text()  # (and the cache keeps it)


def test_a_long_line_within_the_limit_is_read_whole(home: Path) -> None:
    """A line of 3 chunks (a big tool result) is read as any other: held only once it is whole."""
    big = {"type": "user", "message": {"role": "user", "content": "x" * (3 * CHUNK)}, "uuid": "u-big",
           "timestamp": "2026-12-01T08:00:00.000Z", "sessionId": CLAUDE.session_id}
    path = _transcript(home, CLAUDE.head(HEAD) + json.dumps(big).encode() + b"\n")
    reading = Reading(path, "claude")
    assert reading.sync().warnings == []
    assert reading.event(reading.count - 1)[2] == "x" * (3 * CHUNK)
    assert reading.path.read_bytes().count(b"x" * 1000) >= 3 * CHUNK // 1000 - 1  # (the cache holds it)


def _spaced(line: bytes) -> bytes:
    """The line as Python's default json.dumps writes it: ``"type": "user"``, ``, `` between items."""
    return json.dumps(json.loads(line)).encode() + b"\n"


@pytest.mark.parametrize("sample", SAMPLES[:4], ids=[s.name for s in SAMPLES[:4]])
def test_a_transcript_with_spaces_reads_as_the_compact_one(sample: Any, home: Path) -> None:
    compact = _transcript(home / "compact", b"".join(sample.lines))
    spaced = _transcript(home / "spaced", b"".join(_spaced(line) for line in sample.lines))
    assert b'"type": "' in spaced.read_bytes()
    a, b = ConversationLog.open_transcript(compact), ConversationLog.open_transcript(spaced)
    assert b.reading.kind == a.reading.kind == sample.kind
    entries_a = [record.load() for record in a.records]
    entries_b = [record.load() for record in b.records]
    assert len(entries_b) == len(entries_a) > 3
    assert entries_b == entries_a
    assert Deck(b).todo.state.to_json() == Deck(a).todo.state.to_json()


def test_a_line_just_over_the_limit_is_said_to_be_wherever_the_reads_fall(home: Path,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """A line the reader would not read, a little longer than the limit: skipped with its warning
    whether it grew past the limit in a read before the one it ends in or in that one (it used to
    pass without a word in the second case), so a read that begins elsewhere (a second process's
    part, a later sync) says the same."""
    limit = 3000
    monkeypatch.setattr(reading_module, "MAX_LINE_BYTES", limit)
    head = b'{"type":"api-request-shape","body":"'
    other = head + b"y" * (limit + 200 - len(head) - 3) + b'"}\n'  # (limit + 199 bytes before its newline)
    lines = [_user_line(f"prompt {i}") for i in range(6)]
    path = _transcript(home, b"".join([*lines[:3], other, *lines[3:]]))
    said = []
    for chunk in (97, 1000, 2900, limit - 1):
        monkeypatch.setattr(reading_module, "CHUNK", chunk)
        reading = Reading(path, "claude", home=home / f"home-{chunk}")
        said.append(reading.sync().warnings)
        assert reading.state["lines"] == 7 and reading.count == 6
    assert said == [["line 4: longer than 0 MiB (skipped)"]] * 4
