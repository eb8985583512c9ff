"""A big first read of a Claude Code transcript has a second process look through its far part
for the lines the reader wants (core/sources/wanted.py): what is read is the same, to the line
number in a warning, whether the far part is looked through there, here, or by a child that
fails."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hostile_transcripts import FORMATS, serialise
from transcript_samples import BY_NAME

from core.session import split
from core.sources import wanted
from core.sources.reading import Reading

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


def read(path: Path, home: Path, monkeypatch: pytest.MonkeyPatch, how: str) -> tuple[str, list]:
    monkeypatch.setenv("PIDECK_SPLIT", how)
    monkeypatch.setenv("PIDECK_HOME", str(home / how))
    reading = Reading(path, "claude")
    reading.sync()
    return json.dumps(reading.state, sort_keys=True), [list(reading.event(i)) for i in range(len(reading.kinds))]


@pytest.mark.parametrize("name", list(TRANSCRIPTS))
def test_the_far_part_read_by_a_child_reads_as_read_here(name, tmp_path, monkeypatch):
    path = tmp_path / "t.jsonl"
    path.write_bytes(TRANSCRIPTS[name]())
    taken: list[object] = []
    take_value = split.FarPart.take_value
    monkeypatch.setattr(split.FarPart, "take_value", lambda far: taken.append(take_value(far)) or taken[-1])
    here = read(path, tmp_path, monkeypatch, "off")
    assert not taken
    assert read(path, tmp_path, monkeypatch, "always") == here
    assert len(taken) == 1
    if name != "blank lines and a long one":  # (a line of half a chunk is the parent's: the child gives up)
        end, lines, found = taken[0]
        assert found and end <= path.stat().st_size and lines >= len(found)


@pytest.mark.parametrize("child", [
    "import sys; sys.exit(3)",
    "import os; os.write(1, b'not marshal')",
    "import marshal, os; os.write(1, marshal.dumps((10**9, 1, [(1, b'{}')])))",
    "import marshal, os; os.write(1, marshal.dumps((0, 5, [(9, b'{}')])))",
    "import marshal, os; os.write(1, marshal.dumps((0, 5, [(1, 'text')])))",
])
def test_a_child_that_fails_or_answers_nonsense_leaves_the_far_part_to_the_reader(child, tmp_path, monkeypatch):
    path = tmp_path / "t.jsonl"
    path.write_bytes(sample("claude-tasks"))
    here = read(path, tmp_path, monkeypatch, "off")
    monkeypatch.setattr(wanted, "CHILD", child)
    assert read(path, tmp_path, monkeypatch, "always") == here
