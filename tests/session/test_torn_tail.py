"""A line another writer is still writing is left to finish: pideck waits while a partial last line
is young or growing, and repairs only one that has gone quiet (a writer that died mid-line). Every
read path says such a line is there (issue 20, items 4 and 8)."""

from __future__ import annotations

import json
import os
import threading
import time

from core.deck.deck import Deck
from core.session.log import SessionLog
from core.session import append as append_module
from pideck_run import pideck  # noqa: F401  (the fixture)


def other_writers_line(parent: str | None) -> bytes:
    entry = {"type": "custom", "customType": "someone-else", "data": {"n": 1}, "id": "0ther001",
             "parentId": parent, "timestamp": "2026-12-01T10:00:00.000Z"}
    return (json.dumps(entry, separators=(",", ":")) + "\n").encode()


def test_a_line_written_in_two_pieces_is_not_torn(tmp_path):
    log = SessionLog.create(tmp_path / "s.jsonl", cwd=str(tmp_path))
    line = other_writers_line(None)
    half = len(line) // 2
    with open(log.path, "ab") as out:  # the first half, then a pause: a lock-free writer at work
        out.write(line[:half])

    def second_half() -> None:
        time.sleep(0.2)
        with open(log.path, "ab") as out:
            out.write(line[half:])

    writer = threading.Thread(target=second_half)
    writer.start()
    deck = Deck(SessionLog.open(log.path))
    deck.apply("/agent-state add w1 Mine")
    writer.join()
    reread = SessionLog.open(log.path)
    assert reread.warnings == []
    assert [r.get("id") for r in reread.records][0] == "0ther001"
    assert reread.records[1].get("parentId") == "0ther001"  # (ours follows theirs, whole)


def test_a_quiet_partial_line_is_a_dead_writers_and_is_repaired(tmp_path, monkeypatch):
    monkeypatch.setattr(append_module, "TORN_GRACE_S", 0.05)
    log = SessionLog.create(tmp_path / "s.jsonl", cwd=str(tmp_path))
    with open(log.path, "ab") as out:
        out.write(b'{"type":"custom","customType":"agent-st')
    old = time.time() - 10
    os.utime(log.path, (old, old))
    deck = Deck(SessionLog.open(log.path))
    assert deck.log.warnings == ["the last line (line 2) is incomplete: 39 bytes, no newline yet; not read "
                                 "until a writer ends it"]
    deck.apply("/agent-state add w1 Mine")
    reread = SessionLog.open(log.path)
    assert [r.get("customType") for r in reread.records] == ["agent-state-state"]
    assert reread.warnings and reread.warnings[0].startswith("line 2: ")  # the torn line, skipped, said


def test_every_read_path_says_the_incomplete_last_line(tmp_path, pideck):
    log = SessionLog.create(tmp_path / "s.jsonl", cwd=str(tmp_path))
    Deck(log).apply("/agent-state add w1 Mine")
    with open(log.path, "ab") as out:
        out.write(b'{"type":"custom","customType":"agent-st')
    said = "the last line (line 3) is incomplete: 39 bytes, no newline yet; not read until a writer ends it"
    for argv in (["inspect", "--session", str(log.path), "--json"],
                 ["inspect", "--session", str(log.path), "--json", "--at", "leaf"]):
        code, out, _ = pideck(*argv)
        assert code == 0 and said in json.loads(out)["warnings"], argv
    code, out, _ = pideck("diff", "--session", str(log.path), "--json", "leaf", "leaf")
    assert said in json.loads(out)["warnings"]
