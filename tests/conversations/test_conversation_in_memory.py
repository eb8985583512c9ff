"""A conversation is read, not written again to be read (issue 27): the entries the Deck, the
activity and the time travel see are made in memory from what the agent's reader answered, and
what pideck keeps on disk for a fast re-open is the reader's cache, not a pi-format copy of the
conversation that is indexed and parsed again (docs/agent-conversations.md#what-pideck-keeps-of-a-conversation)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from transcript_samples import SAMPLES, Sample

from core.config.places import pideck_home
from core.deck.deck import Deck
from core.session import bodies, indexing, parse
from core.session.log import SessionLog
from core.sources import reading as reading_module
from core.sources.log import ConversationLog
from core.sources.reading import Reading
from core.views.timetravel import TimeMachine


def _refused(name: str):
    def refuse(*args, **kwargs):
        raise AssertionError(f"{name} was called: an entry of the conversation was parsed from JSON")
    return refuse


@pytest.mark.parametrize("sample", SAMPLES, ids=[s.name for s in SAMPLES])
def test_no_pi_format_copy_is_written_or_parsed(sample: Sample, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Following a real transcript as it grows, its Deck and its past points: every line the
    reading parses is one of the transcript's, nothing parses a session line (where a parsed line
    becomes an entry: ``parse.is_entry``, the indexer, the body reader), no session file is opened,
    and nothing under ``<pideck home>/conversations/`` is a session log."""
    transcript = set(sample.lines)
    parsed: list[bytes] = []
    real_loads_line = reading_module.loads_line

    def loads_line(raw, *args, **kwargs):
        parsed.append(bytes(raw))
        return real_loads_line(raw, *args, **kwargs)

    monkeypatch.setattr(reading_module, "loads_line", loads_line)
    for module, name in ((parse, "is_entry"), (parse, "is_header"), (indexing, "is_entry"), (indexing, "parse_line"),
                         (bodies, "is_entry"), (bodies, "loads_line")):
        monkeypatch.setattr(module, name, _refused(f"{module.__name__}.{name}"))
    monkeypatch.setattr(SessionLog, "open", _refused("SessionLog.open"))

    growing = tmp_path / "agent" / sample.transcript
    growing.parent.mkdir(parents=True)
    half = len(sample.lines) // 2
    growing.write_bytes(b"".join(sample.lines[:half]))
    log = ConversationLog.open_transcript(growing)
    deck = Deck(log)
    deck.todo.state
    with open(growing, "ab") as f:
        f.write(b"".join(sample.lines[half:]))
    assert log.refresh().new
    deck = Deck(log)
    plan = deck.todo.state.to_json()["todos"]
    assert plan  # (every sample plans)
    machine = TimeMachine(log)
    for record in log.records:
        machine.deck_at(record.id).todo.state
    again = ConversationLog.open_transcript(growing)  # (a re-open: the cache, in this process)
    assert Deck(again).todo.state.to_json()["todos"] == plan
    assert [r.load() for r in again.records] == [r.load() for r in log.records]

    assert parsed and all(raw + b"\n" in transcript for raw in parsed)
    folder = pideck_home() / "conversations"
    for path in folder.iterdir():
        assert path.suffix in (".cache", ".lock"), path.name
        data = path.read_bytes()
        if not data:
            continue
        head = json.loads(data.split(b"\n", 1)[0])
        assert "type" not in head and head["format"] == reading_module.FORMAT  # (no session header)
        events = json.loads(data.split(b"\n", 1)[1])  # the reader's events, in one JSON array
        assert len(events) == len(log.records) and all(isinstance(e, list) for e in events)


def test_a_re_open_of_an_unchanged_transcript_reads_none_of_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Another process opening the transcript again takes the cache: the transcript is not read
    (only the digest of its last 4 KiB is looked at), and no event is parsed beyond those a view
    asks for."""
    sample = SAMPLES[0]
    path = sample.copy_home(tmp_path / "copy")
    first = ConversationLog.open_transcript(path)
    monkeypatch.setattr(reading_module.Reading, "_read", _refused("Reading._read"))
    later = ConversationLog.open_transcript(path)
    assert later.reading.state["lines"] == first.reading.state["lines"] == len(sample.lines)
    assert [r.load() for r in later.records] == [r.load() for r in first.records]
    assert later.warnings == first.warnings
    assert Reading(path, sample.kind).path == first.reading.path


def test_lines_that_make_no_event_do_not_rewrite_the_cache(tmp_path: Path) -> None:
    """Most of an agent's lines (tool calls and their output) add no event: following them costs no
    rewrite of the cache, and a re-open reads again only those lines, to the same conversation."""
    sample = next(s for s in SAMPLES if s.kind == "claude")
    growing = tmp_path / "agent" / sample.transcript
    growing.parent.mkdir(parents=True)
    growing.write_bytes(b"".join(sample.lines))
    log = ConversationLog.open_transcript(growing)
    cache = log.reading.path
    written = cache.stat().st_mtime_ns, cache.read_bytes()
    quiet = json.dumps({"type": "system", "subtype": "note", "timestamp": "2026-12-01T09:00:00.000Z"}) + "\n"
    with open(growing, "a") as f:
        f.write(quiet * 3)
    assert log.refresh().new == [] and log.reading.state["lines"] == len(sample.lines) + 3
    assert (cache.stat().st_mtime_ns, cache.read_bytes()) == written
    again = ConversationLog.open_transcript(growing)
    assert again.reading.state["lines"] == len(sample.lines) + 3
    assert [r.load() for r in again.records] == [r.load() for r in log.records]
