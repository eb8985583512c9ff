"""A pi session file's ledger: read from the fields of its message lines, and kept beside its saved
index so that opening it again folds only what was appended (core/usage/of_log.py
``feed_session``, core/session/keeping.py ``keep_in_file``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from core.session.log import SessionLog
from core.usage.ledger import Ledger
from core.usage.of_log import FIELDS_MIN, KEPT, pricer, usage_of, wanted

HEADER = {"type": "session", "version": 3, "id": "s1", "timestamp": "2026-12-01T10:00:00.000Z", "cwd": "/w"}


def usage(n: int) -> dict[str, Any]:
    return {"input": 100 + n, "output": 10 + n % 7, "cacheRead": n % 3, "cacheWrite": 0, "totalTokens": 0,
            "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0.001 * (n % 5)}}


def lines(count: int, start: int = 0, parent: str | None = None, refused: bool = True) -> tuple[list[str], str | None]:
    """``count`` entries: prompts, answers with usage, a todo result now and then, and the odd
    lines a fields reader must read as a whole read does."""
    out = []
    for n in range(start, start + count):
        eid, ts = f"{n:08x}", f"2026-12-01T{10 + n // 3600 % 10:02d}:{n // 60 % 60:02d}:{n % 60:02d}.000Z"
        entry: dict[str, Any] = {"type": "message", "id": eid, "parentId": parent, "timestamp": ts}
        if n % 50 == 0:
            entry["message"] = {"role": "user", "content": [{"type": "text", "text": f"prompt {n}"}]}
        elif n % 97 == 0:
            todos = [{"id": f"t{k}", "content": f"todo {k}", "status": "in_progress" if k == n % 3 else "pending"}
                     for k in range(3)]
            entry["message"] = {"role": "toolResult", "toolName": "todo", "toolCallId": f"c{n}",
                                "content": [{"type": "text", "text": "ok"}], "details": {"todos": todos}}
        else:
            message: dict[str, Any] = {"role": "assistant", "content": [{"type": "text", "text": "x" * (n % 300)}],
                                       "provider": "anthropic", "model": "claude-sonnet-4-5", "usage": usage(n)}
            if n % 89 == 0:
                message["usage"] = "not an object"  # (no answer: its time still counts)
            if n % 83 == 0:
                message["usage"] = {**usage(n), "cost": 3}  # (a cost the log does not say as an object)
            if n % 71 == 0:
                message["model"] = ["a list"]
            entry["message"] = message
        text = json.dumps(entry, separators=(",", ":"))
        if n % 61 == 0:  # a key given twice: the later counts, as JSON.parse reads it
            text = text[:-2] + ',"usage":' + json.dumps(usage(n + 1000)) + "}}"
        if refused and n % 67 == 0:  # a line msgspec refuses and json reads (a lone surrogate): read whole
            text = text.replace('"content":[', '"note":"\\ud800","content":[', 1)
        out.append(text + "\n")
        parent = eid
    return out, parent


def by_whole_entries(log: SessionLog) -> Any:
    """The ledger fed every wanted entry read whole: what ``usage_of`` must say."""
    ledger = Ledger(pricer())
    for record in log.records:
        if wanted(record):
            ledger.add(record.load())
    return ledger.json()


@pytest.fixture
def session(tmp_path: Path) -> Path:
    path = tmp_path / "s.jsonl"
    body, _ = lines(3 * FIELDS_MIN)
    path.write_text(json.dumps(HEADER) + "\n" + "".join(body))
    return path


@pytest.mark.parametrize("scan, split", [(True, "off"), (True, "always"), (False, "off")],
                         ids=["scanned", "scanned on two cores", "parsed"])
def test_the_fields_fold_as_the_whole_entries(session: Path, scan: bool, split: str,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Whether the scan decoded a message's fields (in this process or the child of a split read),
    they were read of its line afterwards, or the line was read whole, the ledger says the same."""
    monkeypatch.setenv("PIDECK_SPLIT", split)
    log = SessionLog.open(session, writable=False, saved_index=False, scan=scan)
    monkeypatch.setenv("PIDECK_SPLIT", "off")
    expected = by_whole_entries(SessionLog.open(session, writable=False, saved_index=False, scan=False))
    assert usage_of(log) == expected
    assert expected["answers"] > 2 * FIELDS_MIN  # (the fields reader ran: enough messages)


def test_the_scan_hands_over_what_each_message_said_once(tmp_path: Path) -> None:
    session = tmp_path / "clean.jsonl"
    body, _ = lines(FIELDS_MIN, refused=False)  # (a line msgspec refuses has its chunk read line by line)
    session.write_text(json.dumps(HEADER) + "\n" + "".join(body))
    log = SessionLog.open(session, writable=False, saved_index=False, scan=True)
    said = log.take_said()
    assert sorted(said) == [i for i, record in enumerate(log.records) if record.role in ("assistant", "user")]
    first = min(said)
    entry = log.records[first].load()
    assert said[first] == (entry["timestamp"], entry["message"]["role"], entry["message"].get("usage"),
                           entry["message"].get("provider"), entry["message"].get("model"))
    assert log.take_said() == {}


def test_the_ledger_is_kept_and_a_reopen_folds_only_what_was_appended(session: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PIDECK_INDEX", "always")
    first = SessionLog.open(session, writable=False)
    usage_of(first)
    count = len(first.records)
    again = SessionLog.open(session, writable=False)
    kept = again.derived_in_file(KEPT)
    assert kept is not None and kept[1] == count
    assert usage_of(again) == usage_of(first)

    body, _ = lines(40, start=count, parent=first.records[-1].id)
    with session.open("a") as out:
        out.write("".join(body))
    grown = SessionLog.open(session, writable=False)
    assert grown.derived_in_file(KEPT) == kept  # (the kept ledger still holds: only the 40 are folded)
    assert usage_of(grown) == by_whole_entries(SessionLog.open(session, writable=False, saved_index=False))
    assert usage_of(grown)["answers"] > usage_of(first)["answers"]


def test_a_kept_ledger_of_another_file_is_not_taken(session: Path, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PIDECK_INDEX", "always")
    usage_of(SessionLog.open(session, writable=False))
    body, _ = lines(FIELDS_MIN + 10, start=5)  # (other answers, the same length of file or so)
    session.write_text(json.dumps(HEADER) + "\n" + "".join(body))
    log = SessionLog.open(session, writable=False)
    assert log.derived_in_file(KEPT) is None
    assert usage_of(log) == by_whole_entries(SessionLog.open(session, writable=False, saved_index=False))


def test_a_past_point_folds_the_entries_up_to_it(session: Path) -> None:
    """The timeline's preview and ``inspect --at``: the usage of the file as it was at an entry."""
    from core.session.cut import CutLog

    log = SessionLog.open(session, writable=False, saved_index=False)
    point = len(log.records) // 2
    ledger = Ledger(pricer())
    for record in log.records[:point + 1]:
        if wanted(record):
            ledger.add(record.load())
    assert usage_of(CutLog(log, point)) == ledger.json()
    assert usage_of(CutLog(log, point))["answers"] < usage_of(log)["answers"]
