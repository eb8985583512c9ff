"""Every judge a pideck process runs is recorded as a ``pideck/progress-verdict`` entry after the
adapter's own (unchanged) entry, and any other process's view shows the newest one on the branch
(docs/session-format.md#what-pideck-adds-to-the-log)."""

from __future__ import annotations

import json
from pathlib import Path

from core.deck.deck import Deck
from core.session.log import SessionLog
from core.views.view import build_view

VERDICT = "pideck/progress-verdict"


def lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()[1:]]


def test_a_judge_appends_the_verdict_after_the_upstream_entry(tmp_path):
    path = tmp_path / "s.jsonl"
    deck = Deck(SessionLog.create(path, cwd="/p"))
    deck.apply("/agent-progress add parsed")
    [notice] = deck.apply("/agent-progress judge")
    assert notice.message.startswith("Agent Progress: unknown (missing_baseline).")  # upstream's text
    *_, state, verdict = lines(path)
    assert state["customType"] == "agent-progress-state"
    assert state["data"] == {"schemaVersion": 1, "hasBaseline": True, "currentMilestones": ["parsed"],
                             "recordedMilestones": ["parsed"]}
    assert verdict["type"] == "custom" and verdict["customType"] == VERDICT
    assert verdict["parentId"] == state["id"]
    assert verdict["data"] == {"schemaVersion": 1, "via": "command", "verdict": {
        "outcome": "unknown", "reason": "missing_baseline", "recordedMilestones": ["parsed"]}}
    deck.apply("/agent-progress add tailed")
    assert "progress" in deck.call_tool("agent_progress_judge", {}).text
    assert lines(path)[-1]["data"]["via"] == "tool"
    assert lines(path)[-1]["data"]["verdict"]["newMilestones"] == ["tailed"]


def test_a_judge_that_changes_nothing_still_records_its_verdict(tmp_path):
    path = tmp_path / "s.jsonl"
    deck = Deck(SessionLog.create(path, cwd="/p"))
    deck.apply("/agent-progress add parsed")
    deck.apply("/agent-progress judge")
    before = lines(path)
    deck.apply("/agent-progress judge")  # upstream appends no state entry for no progress
    after = lines(path)
    assert after[:-1] == before and after[-1]["customType"] == VERDICT
    assert after[-1]["data"]["verdict"]["outcome"] == "no_progress"


def test_another_process_sees_the_newest_verdict_on_the_branch(tmp_path):
    path = tmp_path / "s.jsonl"
    viewer = Deck(SessionLog.create(path, cwd="/p"))
    view = build_view(viewer)
    assert view.verdict is None and not view.pi_session
    judge = Deck(SessionLog.open(path))
    judge.apply("/agent-progress add parsed")
    judge.apply("/agent-progress judge")
    judge.apply("/agent-progress judge")
    change = viewer.refresh()
    assert change is not None and "progress" in change.parts
    view = build_view(viewer, view, change.parts)
    assert view.verdict is not None and view.verdict["outcome"] == "no_progress"
    assert view.verdict_at == lines(path)[-1]["timestamp"]


def test_a_read_only_session_judges_without_writing(tmp_path):
    path = tmp_path / "s.jsonl"
    writer = Deck(SessionLog.create(path, cwd="/p"))
    writer.apply("/agent-progress add parsed")
    writer.apply("/agent-progress judge")
    size = path.stat().st_size
    reader = Deck(SessionLog.open(path, writable=False))
    [notice] = reader.apply("/agent-progress judge")
    assert notice.level == "info" and "no_progress" in notice.message
    assert path.stat().st_size == size


def test_a_foreign_verdict_entry_of_the_wrong_shape_reads_as_none(tmp_path):
    path = tmp_path / "s.jsonl"
    deck = Deck(SessionLog.create(path, cwd="/p"))
    deck.log.append_custom(VERDICT, {"schemaVersion": 1, "verdict": {"outcome": "[red]x", "recordedMilestones": []}})
    assert build_view(deck).verdict is None
    deck.log.append_custom(VERDICT, {"schemaVersion": 1, "verdict": {"outcome": "progress",
                                                                     "recordedMilestones": [1]}})
    assert build_view(deck).verdict is None


def test_a_pi_session_is_told_apart(tmp_path):
    from core.cli.demo import write_pi_example

    deck = Deck(SessionLog.open(write_pi_example(tmp_path, "/p"), writable=False))
    assert build_view(deck).pi_session


def test_the_activity_tells_of_a_judge_that_found_nothing_new(tmp_path):
    from core.views.activity import Activity

    path = tmp_path / "s.jsonl"
    deck = Deck(SessionLog.create(path, cwd="/p"))
    deck.apply("/agent-progress add parsed")
    deck.apply("/agent-progress judge")
    deck.call_tool("agent_progress_judge", {})
    deck.apply("/agent-progress add tailed")
    deck.apply("/agent-progress judge")
    events = Activity(SessionLog.open(path, writable=False)).update().new
    assert [(e.source, e.text) for e in events if e.text.startswith("verdict")] == [
        ("command", "verdict: baseline set (1 milestone)"),  # worded from the state entry, marked as the person's
        ("tool", "verdict: no progress"),  # no state entry: the verdict entry tells it
        ("command", "verdict: progress (+1 milestone)"),
    ]
