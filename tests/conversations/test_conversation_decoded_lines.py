"""A big read of a Claude Code transcript decodes only what the reader reads of each line
(core/sources/claude_lines.py), and a chunk's lines are told without joining the chunk to the line
the last one left unfinished: what the reading makes of a transcript (its events, warnings, agent
object, lines and bytes read, its subagents' too) is the same as with every line parsed in full,
for the real samples, every hostile Claude line and lines that only a full parse reads right; and
its cache (whose events a big read writes with msgspec) gives a re-open the same events; and so
does a read whose far part a second process looked through (core/sources/wanted.py). Every other
agent's transcript reads the same in chunks of any size too."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from hostile_transcripts import FORMATS, serialise, transcript
from transcript_samples import BY_NAME, FIXTURES, SAMPLES

from core.sources import reading as reading_module
from core.sources import wanted
from core.sources.reading import Reading

CLAUDE = FORMATS["claude"]
T = "2026-12-01T07:15:51.945Z"


def _line(kind: str, message: Any, **more: Any) -> dict[str, Any]:
    return {"type": kind, "message": message, "timestamp": T, "sessionId": "s-1", "cwd": "/p", **more}


def _answer(usage: Any, content: Any = None, **message: Any) -> dict[str, Any]:
    return _line("assistant", {"id": "m-1", "model": "claude-sonnet-4-5", "usage": usage, "stop_reason": "end_turn",
                               "content": [{"type": "text", "text": "done"}] if content is None else content, **message},
                 requestId="r-1")


USAGE = {"input_tokens": 10, "output_tokens": 5, "cache_read_input_tokens": 100, "cache_creation_input_tokens": 7,
         "server_tool_use": {"web_search_requests": 0}, "service_tier": "standard"}
TRICKY: list[bytes] = [
    serialise(_answer(USAGE)),
    serialise(_answer({**USAGE, "input_tokens": 10 ** 30})),  # an integer past 64 bits
    serialise(_answer(USAGE)).replace(b'"input_tokens":10', b'"input_tokens":1e400'),  # infinity to json
    serialise(_answer(USAGE)).replace(b'"service_tier":"standard"', b'"service_tier":NaN'),
    serialise(_answer(USAGE)).replace(b'"service_tier":"standard"', b'"service_tier":"\\ud800"'),  # lone surrogate
    serialise(_answer(USAGE)).replace(b'"text":"done"', b'"text":"\\udcff done"'),
    serialise(_answer(USAGE)).replace(b'"service_tier":"standard"', b'"service_tier":"\xff\xfe"'),  # not UTF-8
    serialise(_answer(USAGE)).replace(b'"text":"done"', b'"text":"d\xffone"'),
    serialise(_answer(USAGE)).replace(b'"service_tier":"standard"', b'"service_tier":"a\x01b"'),  # a raw control
    serialise(_answer(USAGE)).replace(b'"service_tier":"standard"', b'"deep":' + b"[" * 300 + b"]" * 300),
    serialise(_answer(USAGE)).replace(b'"service_tier":"standard"', b'"deep":' + b"[" * 200 + b"]" * 200),
    serialise(_answer([1, 2])),  # usage not an object
    serialise(_answer(None)),
    serialise(_answer(USAGE, content={"type": "text", "text": "an object"})),
    serialise(_answer(USAGE, content=["text", {"type": "text", "text": "after a string"}])),
    serialise(_answer(USAGE, content=[{"type": "text", "text": "  "}, {"type": "tool_use", "id": 5, "name": "Bash"}])),
    serialise(_answer(USAGE, model=None, id=None)),
    serialise(_answer(USAGE, content=None)),
    serialise(_line("assistant", "a string")),
    serialise(_line("assistant", None)),
    serialise(_line("user", {"content": "a prompt\nof two lines", "role": "user"}, isMeta=False)),
    serialise(_line("user", {"content": "meta", "role": "user"}, isMeta=True)),
    serialise(_line("user", {"content": 5})),
    serialise(_line("user", {"content": [{"type": "text", "text": "a"}, {"type": "text", "text": 7}, 3]})),
    serialise(_line("user", {"content": [{"type": "text", "text": "typed"}]}))[:-2] + b',"message":5}\n',  # twice
    serialise(_line("user", 5))[:-2] + b',"message":{"content":"the second one"}}\n',
    serialise(_line("user", {"content": "spaced"})).replace(b'"type":"user"', b'"type" : \t"user"'),
    serialise(_line("user", {"content": "crlf"})).replace(b"\n", b"\r\n"),
    b"\xef\xbb\xbf" + serialise(_line("user", {"content": "after a BOM"})),
    serialise(_line("user", {"content": "-0"}, extra=-0, more=-0.0, num=1.5e-400)),
    b'{"typ\\u0065":"user","message":{"content":"an escaped key"},"type":"user"}\n',
    b'{"type":"user","message":{"content":"trailing"}} x\n',
    b'{"type":"user","message":{"content":"cut\n',
    b'["type","user"]\n',
    b'"\\"type\\":\\"user\\""\n',
    b'{"type":"attachment","inside":{"type":"user"},"timestamp":"2026-12-01T09:00:00.000Z"}\n',
    b'{"type":"attachment","timestamp":"2026-12-01T10:00:00.000Z"}\n',
    serialise(_line("system", None, subtype="compact_boundary", compactMetadata={"preTokens": 1234})),
    serialise(_line("system", None, subtype="compact_boundary", compactMetadata=[1])),
    serialise(_line("assistant", {"content": [{"type": "text", "text": "a subagent's"}], "usage": USAGE},
                    isSidechain=True)),
    serialise(_line("user", {"content": "last"})),
]


def read(path: Path, home: Path, decoded: bool, chunk: int, monkeypatch: pytest.MonkeyPatch,
         kind: str = "claude", split: list[object] | None = None) -> dict[str, Any]:
    """What a first read of ``path`` makes of it, every line parsed in full or (``decoded``) decoded
    for the reader's fields, ``chunk`` bytes read at a time; with ``split``, each file's far part
    looked through by a second process (core/sources/wanted.py) where it has a line start, the
    pieces the reading took put in ``split``."""
    monkeypatch.setattr(reading_module, "SCAN_MIN_BYTES", 0 if decoded else 1 << 62)
    monkeypatch.setattr(reading_module, "CHUNK", chunk)
    monkeypatch.setenv("PIDECK_SPLIT", "off" if split is None else "always")
    pieces: list[object] = [] if split is None else split
    check = wanted.checked
    monkeypatch.setattr(wanted, "checked", lambda *args: pieces.append(check(*args)) or pieces[-1])
    reading = Reading(path, kind, home=home)
    reading.sync()
    assert None not in pieces  # (no piece refused)
    again = Reading(path, kind, home=home)  # (from the cache the first one wrote)
    again.sync()
    assert [again.event(i) for i in range(again.count)] == [reading.event(i) for i in range(reading.count)]
    return {"events": [reading.event(i) for i in range(reading.count)], "warnings": reading.warnings,
            "info": reading.info, "state": {k: v for k, v in reading.state.items() if k not in ("reader", "tail", "sizes")},
            "reader": reading.reader.save(), "first": reading.reader.first_ts, "last": reading.reader.last_ts}


def same_both_ways(path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, split: bool = False) -> dict[str, Any]:
    """Read whole, then decoded in chunks of any size, in one piece and split across two
    processes (which must have happened, with ``split``)."""
    whole = read(path, tmp_path / "whole", False, 8 << 20, monkeypatch)
    for chunk, pieces in ((8 << 20, None), (4096, None), (97, None), (8 << 20, []), (97, [])):
        got = read(path, tmp_path / f"decoded-{chunk}-{pieces}", True, chunk, monkeypatch, split=pieces)
        assert json.dumps(got, sort_keys=True) == json.dumps(whole, sort_keys=True), (chunk, pieces)
        assert pieces != [] or not split, "the read was not split"
    return whole


@pytest.mark.parametrize("name", ["claude-tasks", "claude-todowrite"])
def test_a_sample_reads_the_same(name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    whole = same_both_ways(BY_NAME[name].path, tmp_path, monkeypatch, split=True)
    assert whole["events"] and whole["info"]["tokens"]


def test_a_sample_with_a_subagent_reads_the_same(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "agent"
    shutil.copytree(FIXTURES / "claude-subagent" / "final", home)
    path = next((home / ".claude" / "projects").glob("*/*.jsonl"))
    whole = same_both_ways(path, tmp_path, monkeypatch, split=True)
    assert whole["state"]["subagents"] and whole["info"]["subagents"]


@pytest.mark.parametrize("case", CLAUDE.cases, ids=[c.name for c in CLAUDE.cases])
def test_a_hostile_line_reads_the_same(case: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "t.jsonl"
    path.write_bytes(transcript(CLAUDE, case))
    same_both_ways(path, tmp_path, monkeypatch)


def test_lines_only_a_full_parse_reads_right_read_the_same(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "t.jsonl"
    path.write_bytes(b"".join(TRICKY))
    whole = same_both_ways(path, tmp_path, monkeypatch, split=True)
    assert len(whole["warnings"]) >= 5 and whole["state"]["lines"] == len(TRICKY)


@pytest.mark.parametrize("name", [s.name for s in SAMPLES if s.kind != "claude"])
def test_another_agents_transcript_reads_the_same_in_chunks_of_any_size(name: str, tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    sample = BY_NAME[name]
    path = sample.copy_home(tmp_path / "agent")
    whole = read(path, tmp_path / "whole", False, 8 << 20, monkeypatch, sample.kind)
    for chunk in (4096, 97):
        got = read(path, tmp_path / f"chunks-{chunk}", False, chunk, monkeypatch, sample.kind)
        assert json.dumps(got, sort_keys=True) == json.dumps(whole, sort_keys=True), chunk
    assert whole["events"] and whole["state"]["lines"] == len(sample.lines)
