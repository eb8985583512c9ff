"""The hostile matrix (tests/hostile/test_hostile_matrix.py) over the three transcript formats:
every CLI command on a Claude Code, Codex or Gemini CLI transcript full of hostile lines
(hostile_transcripts.py, one file per family of cases) exits 0, 1 or 2 without a traceback or
a hang, lets no control character reach a terminal, and leaves every byte of the agent's folders
as it was, with no file added there."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Callable

import pytest

from hostile.test_hostile_matrix import COMMANDS, Box, Case, Command, digest, files_under, run_one, sandbox
from hostile_transcripts import FORMATS, Format, serialise, transcript


def family_file(fmt: Format, family: str) -> bytes:
    """Every case of the family after one start (the first line as the first case that changes
    it has it)."""
    cases = [c for c in fmt.cases if c.family == family]
    first = next((c.first for c in cases if c.first is not None), fmt.start[0])
    return b"".join(map(serialise, [first, *fmt.start[1:], *(line for c in cases for line in c.lines)]))


def live_session_files(box: Box) -> Path:
    """Claude's ``sessions/<pid>.json`` (read for busy / idle), as hostile as its transcript."""
    folder = box.root / "home" / ".claude" / "sessions"
    folder.mkdir(parents=True)
    session = FORMATS["claude"].start[1]["sessionId"]
    for name, data in {"1.json": b"{not json", "2.json": b"[1]", "3.json": b"[" * 300 + b"]" * 300,
                       "4.json": b'{"sessionId":"%s","pid":"x","status":5}' % session.encode(),
                       "5.json": b'{"sessionId":"%s","pid":-1,"status":"busy"}' % session.encode(),
                       "6.json": b"x" * (1 << 20), "7.json": b"\xff\xfe"}.items():
        (folder / name).write_bytes(data)
    (folder / "8.json").mkdir()
    os.mkfifo(folder / "9.json")
    return folder


def a_deep_live_session_file(box: Box) -> None:
    (live_session_files(box) / "10.json").write_bytes(b"[" * 30000 + b"]" * 30000)


FILES: dict[str, tuple[Format, bytes, Callable[[Box], object] | None]] = {
    **{f"{fmt.kind}: {family}": (fmt, family_file(fmt, family), None)
       for fmt in FORMATS.values() for family in dict.fromkeys(c.family for c in fmt.cases)},
    **{f"{fmt.kind}: a partial last line": (fmt, b"".join(map(serialise, [*fmt.start, *fmt.next]))[:-1], None)
       for fmt in FORMATS.values()},
    **{f"{fmt.kind}: the first line alone": (fmt, serialise(fmt.start[0]), None) for fmt in FORMATS.values()},
    "claude: hostile live-session files": (FORMATS["claude"], transcript(FORMATS["claude"], FORMATS["claude"].cases[0]),
                                           live_session_files),
    "claude: a live-session file nested 30000 deep": (
        FORMATS["claude"], transcript(FORMATS["claude"], FORMATS["claude"].cases[0]), a_deep_live_session_file),
}
@pytest.mark.parametrize("name", list(FILES))
def test_every_command_survives_the_transcript(name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    fmt, data, more = FILES[name]
    (tmp_path / "box").mkdir()
    box = sandbox(tmp_path / "box", monkeypatch)
    agent_home = box.root / "home"
    path = agent_home / fmt.transcript
    path.parent.mkdir(parents=True)
    path.write_bytes(data)
    if more is not None:
        more(box)
    before = {p: digest(d) for p, d in files_under(agent_home).items()}
    problems: list[str] = []
    for command in COMMANDS:
        problems += run_one(command, Case(session=path), box, monkeypatch, capsys).problems
        after = {p: digest(d) for p, d in files_under(agent_home).items()}
        if after != before:
            changed = sorted(p.name for p in set(before) | set(after) if before.get(p) != after.get(p))
            problems.append(f"{' '.join(command.argv) or '(no arguments)'}: changed or added {changed} in the agent's folders")
            before = after
    assert problems == []


@pytest.mark.parametrize("kind", list(FORMATS))
def test_the_matrix_reads_the_transcripts_for_real(kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """The harness itself: its family of wrong field types opens as the agent's conversation, with
    every warning its cases expect, and a write is refused as read-only."""
    fmt, data, _ = FILES[f"{kind}: types"]
    (tmp_path / "box").mkdir()
    box = sandbox(tmp_path / "box", monkeypatch)
    path = box.root / "home" / fmt.transcript
    path.parent.mkdir(parents=True)
    path.write_bytes(data)
    shown = run_one(Command(("inspect", "--json")), Case(session=path), box, monkeypatch, capsys)
    assert (shown.code, shown.problems) == (0, [])
    inspected = json.loads(shown.out)
    assert inspected["agent"]["kind"] == kind and inspected["todo"]["todos"]
    told = [w.split(": ", 1)[1] for w in inspected["warnings"] if w.startswith("line ")]
    assert told == [text for c in fmt.cases if c.family == "types" for _, text in c.warnings]
    refused = run_one(Command(("run", "/agent-state add a Hostile item")), Case(session=path), box, monkeypatch, capsys)
    assert refused.code == 1 and "read-only" in refused.err and refused.problems == []
    assert b"[" * 5000 in FILES[f"{kind}: deep"][1] or kind == "gemini"
    assert not FILES[f"{kind}: a partial last line"][1].endswith(b"\n")
