"""The feed's lines read back (core/catalog/hosts.py, docs/hosts.md#the-feed) and the rules of an
unreachable host, fed directly: no sshd."""

from __future__ import annotations

import json

import pytest

from core.catalog.attention import Attention
from core.catalog.hosts import FeedError, Gone, Hello, HostView, Seen, Tick, parse_line, records_of
from core.catalog.notify import Notifier, notification_text
from core.config.settings import NotifyConfig

ROW = {"path": "/p/a.jsonl", "name": "fix \x1b[31mit", "cwd": "/p", "kind": "claude", "readOnly": True, "entries": 3,
       "todos": {"settled": 1, "total": 2, "lowestConfidence": None},
       "workItems": {"open": 0, "in_progress": 0, "blocked": 0, "done": 0},
       "milestones": {"declared": 0, "recorded": 0}, "packets": 0, "lastActivity": "2026-12-01T10:00:00.000Z",
       "flag": "waiting", "warnings": 0, "lastMessage": None, "tokens": None, "usage": None, "status": "waiting"}
RECORD = {"path": "/p/a.jsonl", "kind": "claude", "name": "fix \x1b[31mit", "conversation": "c1", "state": "needs you",
          "since": "2026-12-01T10:00:00.000Z", "evidence": "asks", "previous": None, "entries": 3,
          "todos": {"settled": 1, "total": 2}}


def line(value: object) -> bytes:
    return json.dumps(value).encode()


def test_each_kind_of_line() -> None:
    assert parse_line("box", line({"type": "hello", "version": "0.1.0"})) == Hello("0.1.0")
    assert parse_line("box", line({"type": "tick", "pending": 4})) == Tick(4)
    assert parse_line("box", line({"type": "gone", "path": "/p/a.jsonl"})) == Gone("box:/p/a.jsonl")
    seen = parse_line("box", line({"type": "record", "record": RECORD, "row": ROW}))
    assert isinstance(seen, Seen)
    record = seen.record
    assert (record.path, record.host, record.name, record.attention, record.todos, record.session_id) == (
        "box:/p/a.jsonl", "box", "fix \x1b[31mit", Attention("needs you", 1796119200000, "asks"), (1, 2), "c1")
    assert record.row is not None and record.row.remote_path == "/p/a.jsonl"
    assert record.json()["host"] == "box" and record.row.json()["path"] == "box:/p/a.jsonl"


@pytest.mark.parametrize("raw, said", [
    (b"Welcome\x1b[2J", "not JSON: Welcome␛[2J"),
    (b"NaN", "not JSON: NaN"),
    (b"[1]", "not a JSON object: [1]"),
    (b'{"type":"nope"}', 'not a line of the feed: {"type":"nope"}'),
    (b'{"type":"hello","version":1}', "a hello line whose version is not str"),
    (b"\xff\xfe", "not JSON: \ufffd\ufffd"),
    (line({"type": "record", "record": {**RECORD, "state": "unreachable"}, "row": ROW}),
     "a record line whose state is not one of pideck's"),
    (line({"type": "record", "record": RECORD, "row": {**ROW, "entries": "3"}}), "a record line whose entries is not int"),
    (line({"type": "record", "record": RECORD, "row": {**ROW, "entries": True}}), "a record line whose entries is not int"),
    (line({"type": "record", "record": RECORD, "row": {**ROW, "kind": "a b"}}), "a record line whose kind is not a word"),
    (line({"type": "record", "record": RECORD, "row": {**ROW, "path": "/other"}}),
     "a record line whose path is not its row's"),
    (line({"type": "record", "record": RECORD, "row": {**ROW, "lastActivity": "yesterday"}}),
     "a record line whose lastActivity is not a time"),
    (b"x" * (4 * 1024 * 1024 + 1), f"a line of {4 * 1024 * 1024 + 1} bytes"),
])
def test_what_is_not_the_feed_says_what_it_was(raw: bytes, said: str) -> None:
    with pytest.raises(FeedError) as caught:
        parse_line("box", raw)
    assert str(caught.value) == said


def test_a_long_text_is_cut() -> None:
    seen = parse_line("box", line({"type": "record", "record": RECORD, "row": {**ROW, "name": "n" * 10_000}}))
    assert isinstance(seen, Seen) and seen.record.row is not None and len(seen.record.row.name) == 4096


def test_an_unreachable_host_shows_its_last_rows_unreachable_or_itself() -> None:
    seen = parse_line("box", line({"type": "record", "record": RECORD, "row": ROW}))
    assert isinstance(seen, Seen)
    live = HostView("box", {seen.record.path: seen.record}, True, 0, "", True, True)
    assert records_of(live) == {seen.record.path: seen.record}
    down = live._replace(reachable=False, since_ms=1796119320000, reason="ssh: connect to host box port 22: Connection refused")
    (record,) = records_of(down).values()
    assert record.row is not None
    assert (record.path, record.attention.state, record.row.status, record.row.flag) == (
        "box:/p/a.jsonl", "unreachable", "unreachable", None)
    assert record.attention.evidence.startswith("unreachable since ")
    assert record.attention.evidence.endswith(": ssh: connect to host box port 22: Connection refused")
    (alone,) = records_of(down._replace(records={})).values()
    assert (alone.path, alone.kind, alone.name, alone.host, alone.attention.state) == (
        "box:", "host", "box", "box", "unreachable")


def test_a_host_gone_is_told_once_not_once_per_row() -> None:
    rows = [parse_line("box", line({"type": "record", "record": {**RECORD, "path": p}, "row": {**ROW, "path": p}}))
            for p in ("/p/a.jsonl", "/p/b.jsonl")]
    records = {s.record.path: s.record for s in rows if isinstance(s, Seen)}
    down = HostView("box", records, False, 1796119320000, "ssh: gone", True, True)
    changed = [r._replace(previous="needs you") for r in records_of(down).values()]
    notifier = Notifier(NotifyConfig(per_conversation_s=0, per_minute=0))
    told = notifier.take(changed, {r.path: r for r in changed}, 0, lambda path: False)
    assert len(told) == 1
    assert notification_text(told[0]).startswith("host box unreachable since ")
    assert notification_text(told[0]).endswith(": ssh: gone")


def test_a_feed_listing_more_records_than_a_host_may_is_not_pideck_s(monkeypatch, tmp_path) -> None:
    """A hostile feed naming record after record would fill this machine's memory: past the
    bound, the host is unreachable with the reason, its records dropped."""
    import sys
    import time

    from core import __version__
    from core.catalog import hosts
    from core.catalog.hosts import Follower
    from core.config.settings import HostConfig

    monkeypatch.setattr(hosts, "MAX_RECORDS", 3)
    lines = [line({"type": "hello", "version": __version__})]
    for n in range(5):
        path = f"/p/{n}.jsonl"
        lines.append(line({"type": "record", "record": {**RECORD, "path": path}, "row": {**ROW, "path": path}}))
    feed = tmp_path / "feed"
    feed.write_bytes(b"\n".join(lines) + b"\n")
    script = f"import sys, time; sys.stdout.buffer.write(open({str(feed)!r}, 'rb').read()); sys.stdout.flush(); time.sleep(60)"
    follower = Follower(HostConfig("box", "box"), argv=[sys.executable, "-c", script]).start()
    try:
        deadline = time.monotonic() + 20
        while follower.view().reason != "not pideck's feed: more than 3 records":
            assert time.monotonic() < deadline, follower.view()
            time.sleep(0.05)
        assert not follower.view().reachable
    finally:
        follower.close()


@pytest.mark.parametrize(("path", "split"), [
    ("box:/home/u/.claude/projects/p/a.jsonl", ("box", "/home/u/.claude/projects/p/a.jsonl")),
    ("vm-2.lan:/srv/s.jsonl", ("vm-2.lan", "/srv/s.jsonl")),
    ("/home/u/odd:name.jsonl", (None, "/home/u/odd:name.jsonl")),
    ("/home/u/.local/share/opencode/opencode.db#ses_1", (None, "/home/u/.local/share/opencode/opencode.db#ses_1")),
])
def test_a_catalog_path_says_its_host(path: str, split: tuple[str | None, str]) -> None:
    """ctrl+g and Enter open a row by its path: a remote one's deck there, a local one's here."""
    from core.catalog.rows import host_of

    assert host_of(path) == split
