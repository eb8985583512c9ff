"""Hostile lines in the three transcript formats give the plan a person would expect and a
warning naming the line, never a traceback (hostile_transcripts.py has the cases), whether the
file is read at once or followed while it grows; a partial last line waits for its newline."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from hostile_transcripts import FORMATS, Format, Case, expected_warnings, serialise, transcript

from core.sources.log import ConversationLog
from core.deck.deck import Deck

CASES = [(fmt, case) for fmt in FORMATS.values() for case in fmt.cases]


def todos_of(deck: Deck[Any]) -> list[dict[str, Any]]:
    return deck.todo.state.to_json()["todos"]


def place(home: Path, fmt: Format, data: bytes) -> Path:
    path = home / fmt.transcript
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


@pytest.mark.parametrize("fmt, case", CASES, ids=[f"{f.kind}: {c.name}" for f, c in CASES])
def test_a_hostile_line(fmt: Format, case: Case, home: Path) -> None:
    data = transcript(fmt, case)
    path = place(home, fmt, data)
    log = ConversationLog.open_transcript(path)
    deck = Deck(log)
    assert todos_of(deck) == case.plan
    assert log.warnings == expected_warnings(fmt, case)
    assert deck.warnings == []  # the plan pideck tells is always one the todo model takes
    if case.check is not None:
        assert case.check(log.agent())

    # the same, followed a line at a time from the format's start
    lines = data.splitlines(keepends=True)
    grown = place(home / "grown", fmt, b"".join(lines[:len(fmt.start)]))
    follower = ConversationLog.open_transcript(grown)
    following = Deck(follower)
    for raw in lines[len(fmt.start):]:
        with open(grown, "ab") as f:
            f.write(raw)
        following.refresh()
    assert (todos_of(following), follower.warnings) == (case.plan, expected_warnings(fmt, case))


@pytest.mark.parametrize("fmt", FORMATS.values(), ids=list(FORMATS))
def test_a_partial_last_line_waits_for_its_newline(fmt: Format, home: Path) -> None:
    """The last line arrives in three writes, the newline last: until then the plan is the one
    before it, and nothing is warned about."""
    last = serialise(fmt.next[-1])
    path = place(home, fmt, b"".join(map(serialise, [*fmt.start, *fmt.next[:-1]])) + last[:10])
    log = ConversationLog.open_transcript(path)
    deck = Deck(log)
    assert todos_of(deck) == fmt.plan
    for piece in (last[10:-1], last[-1:]):
        assert deck.refresh() is None and todos_of(deck) == fmt.plan
        with open(path, "ab") as f:
            f.write(piece)
    deck.refresh()
    assert (todos_of(deck), log.warnings, deck.warnings) == (fmt.next_plan, [], [])


@pytest.mark.parametrize("fmt", FORMATS.values(), ids=list(FORMATS))
def test_a_partial_last_line_at_the_end_of_the_file_is_never_read(fmt: Format, home: Path, pideck: Any) -> None:
    """A transcript whose writer died mid-line: ``inspect`` shows the plan before the line, and
    the file stays as it is (pideck repairs only its own logs)."""
    data = b"".join(map(serialise, [*fmt.start, *fmt.next]))[:-1]
    path = place(home, fmt, data)
    code, out, err = pideck("inspect", "--json", "--session", str(path))
    assert (code, err) == (0, "")
    import json

    assert json.loads(out)["todo"]["todos"] == fmt.plan
    assert path.read_bytes() == data
