"""``pideck inspect --json`` on session files written by pi's own SessionManager.

The expected values are derived by hand from pi's tree rule (docs/session-format.md#the-branch-rule:
the leaf is the last line; the branch is the parentId chain from it) and the adapters' restore rule
(docs/primitives.md#restore-rules: the newest custom entry of the type on the branch, validated
strictly, no fallback; docs/todo-replay.md#restoring-the-todo-state for the todo list), never copied
from pideck's output.

``pi_sessionmanager_branched.jsonl`` was written by @earendil-works/pi-coding-agent 1.6.0's
SessionManager, ``pi_sessionmanager_branched_0.84.2.jsonl`` by 0.84.2's, with the same script
(tests/fixtures/make_pi_sessionmanager_fixture.mjs; its header comment draws the tree). The two files
differ only in ids, timestamps and the branch summary's ``fromId``. Entry names below (T = trunk,
A = abandoned branch, B = current branch, L = late abandoned branch, F = after the branch summary)
follow that script.
"""

from __future__ import annotations

import json
import shutil
import time
from datetime import datetime
from pathlib import Path

import pytest

from cli_helpers import read_lines

pytestmark = pytest.mark.read_three_ways  # (how lines are read: the split scan too, tests/conftest.py)

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
BRANCHED = FIXTURES / "pi_sessionmanager_branched.jsonl"
BRANCHED_084 = FIXTURES / "pi_sessionmanager_branched_0.84.2.jsonl"
PI_SMALL_BRANCHED = FIXTURES / "2026-11-30T14-53-16-479Z_01a22cf2-253f-70fd-b26f-f043e48c877f.jsonl"

# Ids as printed by the generator when the committed fixture was written.
IDS = {
    "T1": "be427429", "T2": "8590216b", "T3": "3df98f9b", "T4": "5b1e7958", "T5": "b5397fd0",
    "T6": "a6a7dde9", "T7": "fb9f4e14", "T8": "b200b1af", "T9": "58124085", "T10": "61cc65ba",
    "T11": "35491fb0", "T12": "fa8ee7f1",
    "A1": "e56ae110", "A2": "8bad514b", "A3": "c662ab80", "A4": "fda1abaa", "A5": "b6231bac",
    "B1": "505aa600", "B2": "1f3c2181", "B3": "3d8a879e", "B4": "0c4958b7", "B5": "98a7f74d",
    "B6": "302721a2", "B7": "6f36ee6c", "B8": "da072054", "B9": "09353a65", "B10": "69bb99f3",
    "L1": "7f2c2deb", "L2": "de579758", "L3": "2ce797d6", "L4": "4e5460b9", "L5": "bab39169",
    "F1": "9b75b179", "F2": "80f95293", "F3": "b22663af", "F4": "fd78b857", "F5": "83e8628a",
}
# The same for the 0.84.2 file.
IDS_084 = {
    "T1": "80920d36", "T2": "7ae2f279", "T3": "87793dfc", "T4": "469d979e", "T5": "118ace27",
    "T6": "6b1f3ced", "T7": "d8c28498", "T8": "e7b51e0b", "T9": "b315e22b", "T10": "9f77857f",
    "T11": "c395798b", "T12": "38df7292",
    "A1": "c9281387", "A2": "f63f2da5", "A3": "684546c0", "A4": "c5157701", "A5": "037610f5",
    "B1": "8a08b012", "B2": "4d4b39b7", "B3": "f9260403", "B4": "a354fa08", "B5": "a0a8fd4f",
    "B6": "e12c9dc0", "B7": "280703e2", "B8": "917de6bf", "B9": "c25f07c2", "B10": "f8b3da8d",
    "L1": "3532074d", "L2": "5e3d7c3c", "L3": "88eedccc", "L4": "ee5609c9", "L5": "900f5503",
    "F1": "6eae3f9a", "F2": "8f9484ce", "F3": "66a82a37", "F4": "e004fda1", "F5": "9b11c5bc",
}
# (file, session id, header timestamp, ids, what the branch summary's fromId names)
PI_FILES = {
    "1.6.0": (BRANCHED, "01a22d26-e624-7062-b865-fa9848114d32", "2026-11-30T15:50:53.733Z", IDS, "L5"),
    # 0.84.2 records the entry it branches from, 1.6.0 the leaf it leaves
    "0.84.2": (BRANCHED_084, "01a22d2e-e6c4-71a0-8c12-d4ed179053c3", "2026-11-30T15:59:38.180Z", IDS_084, "B10"),
}
by_version = pytest.mark.parametrize("version", list(PI_FILES))

CURRENT_BRANCH = [f"T{i}" for i in range(1, 13)] + [f"B{i}" for i in range(1, 11)] + [f"F{i}" for i in range(1, 6)]

HANDOFF_WARNING = "Agent Handoff: persisted state was invalid; starting with fresh state."
STATE_WARNING = "Agent State: persisted state was invalid; starting with empty state."

# T6 (S1): the newest agent-state-state on the branch. A1 and L1 are newer in the file but sit on
# abandoned branches. The extra envelope key "savedBy" is allowed by the Agent State adapter.
EXPECTED_STATE = {
    "schemaVersion": 1,
    "workItems": [
        {"id": "parse", "content": "Write the JSONL parser", "status": "in_progress"},
        {"id": "cli", "content": "Add the inspect command", "status": "open"},
    ],
    "decisions": [{"id": "format", "content": "Read pi's JSONL v3 format as is."}],
    "objective": "Ship the session parser",
}

# B4 (P2): newer than T7 on the branch; A4 is abandoned. Extra envelope keys are allowed.
EXPECTED_PROGRESS = {
    "hasBaseline": True,
    "currentMilestones": ["parser-skeleton", "streaming-reader"],
    "recordedMilestones": ["parser-skeleton"],
}

# B3's details (the newest todo candidate on the branch; A3 and L4 are abandoned), restored
# leniently: " parser " is trimmed, null and "" groups are dropped, the unknown status "waiting" is
# kept, the jcode-internal "blocked_by" and the extra "plan_update"/"goal_updates" are dropped.
EXPECTED_TODO = {
    "todos": [
        {"content": "Write the JSONL parser", "status": "completed", "priority": "high", "id": "parse",
         "group": "parser", "confidence": 80, "completion_confidence": 97, "confidence_history": [80, 97]},
        {"content": "Add the inspect command", "status": "in_progress", "priority": "medium", "id": "cli",
         "confidence": 75, "confidence_history": [70, 75]},
        {"content": "Document the format", "status": "waiting", "priority": "low", "id": "docs",
         "confidence": 60, "confidence_history": [60]},
    ],
    "plan": {
        "user_intention": "Ship the session parser and its CLI",
        "understands_user_intent": 97,
        "understands_user_intent_history": [90, 97],
    },
    "goals": [
        {"group": "parser", "closed_feedback_loop": 97, "closed_feedback_loop_history": [85, 97],
         "feedback_loop": "run the parser tests", "end_to_end_ownership": 96,
         "end_to_end_ownership_history": [96]},
        {"closed_feedback_loop": 70, "closed_feedback_loop_history": [70]},
    ],
}

# Replay (docs/todo-replay.md#replay-from-the-branch) over the branch: armed at start (default
# config); B6 {armed: true} re-arms and resets; B7 poke: attempts 0, poke_state set (first one, so
# unchanged_settles 0), targets its ids; B8 completion: attempts 1, last_signature = signature(v2
# todos) (the signature covers the completed item only), targets ["parse"]. The abandoned disarms A5
# and L5 never apply.
EXPECTED_CYCLE = {
    "armed": True,
    "digest_delivered": False,
    "spike_challenged": False,
    "attempts": 1,
    "last_signature": [json.dumps(["parse", "completed", 97, 97])],
    "unchanged_settles": 0,
    "targets": ["parse"],
    "last_disarm_reason": None,
}


def _copy(src: Path, tmp_path: Path) -> Path:
    dest = tmp_path / "sessions" / src.name
    dest.parent.mkdir()
    shutil.copyfile(src, dest)
    return dest


def _inspect(pideck, path: Path) -> dict:
    code, out, err = pideck("inspect", "--session", str(path), "--json")
    assert code == 0, err
    return json.loads(out)


@by_version
def test_fixture_is_what_the_generator_describes(version: str) -> None:
    """Guards the hand derivation below: the ids, parents and types the expectations rely on."""
    src, session_id, timestamp, ids, summary_from = PI_FILES[version]
    lines = read_lines(src)
    header, entries = lines[0], lines[1:]
    assert header == {"type": "session", "version": 3, "id": session_id,
                      "timestamp": timestamp, "cwd": "/home/user/parser-project"}
    assert [e["id"] for e in entries] == list(ids.values())
    parent = {e["id"]: e["parentId"] for e in entries}
    assert parent[ids["A1"]] == parent[ids["B1"]] == ids["T12"]  # the first branch point
    assert parent[ids["L1"]] == parent[ids["F1"]] == ids["B10"]  # the branch summary's fork
    by_id = {e["id"]: e for e in entries}
    assert by_id[ids["F1"]]["type"] == "branch_summary" and by_id[ids["F1"]]["fromId"] == ids[summary_from]
    assert by_id[ids["B5"]]["type"] == "compaction" and by_id[ids["B5"]]["firstKeptEntryId"] == ids["B1"]
    assert by_id[ids["B9"]]["data"]["savedBy"] == "fixture"  # the invalid handoff envelope


@by_version
def test_inspect_pi_sessionmanager_fixture(pideck, tmp_path: Path, version: str) -> None:
    src, session_id, _, ids, _ = PI_FILES[version]
    path = _copy(src, tmp_path)
    before = path.read_bytes()
    result = _inspect(pideck, path)
    assert path.read_bytes() == before  # inspecting never writes

    assert result["session"] == {
        "path": str(path),
        "id": session_id,
        "cwd": "/home/user/parser-project",
        "writable": True,  # outside pi's session folders
        "entries": 37,
        "leaf": ids["F5"],  # the last line: a label entry clearing T4's label
        "branch_length": len(CURRENT_BRANCH),  # 27: T1..T12, B1..B10, F1..F5
        # the newest assistant message's usage (pi's SessionManager wrote 10 in, 5 out on each)
        "tokens": {"input": 10, "output": 5, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 15},
    }
    assert result["state"] == EXPECTED_STATE
    assert result["progress"] == EXPECTED_PROGRESS
    # B9 is the newest agent-handoff-state on the branch and its envelope has an extra key: one
    # warning and no packets, never a fallback to the valid T8 (nor to the abandoned A2 and L2).
    assert result["handoff"] == {"packets": []}
    assert {k: v for k, v in result["todo"].items() if k != "cycle"} == EXPECTED_TODO
    assert result["todo"]["cycle"] == EXPECTED_CYCLE
    assert result["warnings"] == [HANDOFF_WARNING]
    assert set(result) == {"session", "state", "progress", "handoff", "todo", "warnings", "usage"}
    # every answer of the file, abandoned branches too (pi's own footer counts them): 10 in, 5 out
    # each, at the cost pi wrote (the faux model's $0)
    assert (result["usage"]["answers"], result["usage"]["tokens"]["total"], result["usage"]["cost"]) == (3, 45, 0.0)


@by_version
def test_inspect_pi_fixture_text_mode(pideck, tmp_path: Path, version: str) -> None:
    path = _copy(PI_FILES[version][0], tmp_path)
    code, out, err = pideck("inspect", "--session", str(path))
    assert code == 0, err
    assert "Agent State: objective: Ship the session parser, 2 work items (1 open, 1 in_progress, 0 blocked, 0 done), 1 decision." in out
    assert "Agent Progress: 2 declared milestones; baseline established (1 recorded milestone)." in out
    assert "Agent Handoff: 0 packets in the current session." in out
    assert HANDOFF_WARNING in out
    for abandoned in ("Abandoned A", "Abandoned L", "Abandoned todo", "Abandoned late todo"):
        assert abandoned not in out


def test_inspect_pi_small_branched_fixture(pideck, tmp_path: Path) -> None:
    """pi's small branched SessionManager file: c3 is on the branch, c2 is abandoned; c3's payload
    ``state: {step, notes}`` is not an Agent State snapshot, so the restore is empty with one warning
    (no fallback to c1, and c2's payload is never looked at)."""
    path = _copy(PI_SMALL_BRANCHED, tmp_path)
    result = _inspect(pideck, path)
    one = {"tokens": {"input": 1, "output": 1, "cacheRead": 0, "cacheWrite": 0, "total": 2}, "cost": 0.0}
    assert result == {
        "session": {
            "path": str(path),
            "id": "01a22cf2-253f-70fd-b26f-f043e48c877f",
            "cwd": "/home/user/demo-project",
            "writable": True,
            "entries": 5,
            "leaf": "73a3a127",
            "branch_length": 4,
            "tokens": {"input": 1, "output": 1, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 2},
        },
        "state": None,
        "progress": {"hasBaseline": False, "currentMilestones": [], "recordedMilestones": []},
        "handoff": {"packets": []},
        "todo": None,
        "warnings": [STATE_WARNING],
        # its one assistant message (on the branch) with the usage and cost pi wrote of it
        "usage": {"answers": 1, **one, "costFrom": "log", "unpriced": [], "models": {"faux-1": {"answers": 1, **one}},
                  "days": {local_day("2026-11-30T14:53:16.480Z"): {"answers": 1, **one}},
                  "context": {"tokens": 2, "window": None, "model": "faux-1", "share": None}, "compactions": [],
                  "items": [], "unplanned": {"answers": 1, **one},
                  "turns": [{"at": "2026-11-30T14:53:16.480Z", "answers": 1, **one}]},
    }


def local_day(at: str) -> str:
    """The local date of a time (what ``usage.days`` is keyed by)."""
    return time.strftime("%Y-%m-%d", time.localtime(datetime.fromisoformat(at.replace("Z", "+00:00")).timestamp()))


@by_version
@pytest.mark.parametrize("leaf", ["A5", "L5", "B9"])
def test_inspect_follows_the_last_line(pideck, tmp_path: Path, leaf: str, version: str) -> None:
    """Cut the file after another entry: pi's leaf is then that entry, and the restore follows it.

    A5 ends branch A (S2, H2, the pi-jtodo/state A3, PA, and a disarm); L5 ends branch L (S4, H4,
    the todo result L4, a disarm); B9 ends on the invalid handoff entry itself."""
    src, _, _, ids, _ = PI_FILES[version]
    lines = src.read_text(encoding="utf-8").splitlines(keepends=True)
    cut = 1 + list(ids).index(leaf) + 1  # header + entries up to and including ``leaf``
    path = tmp_path / "cut.jsonl"
    path.write_text("".join(lines[:cut]), encoding="utf-8")
    result = _inspect(pideck, path)
    assert result["session"]["leaf"] == ids[leaf]
    if leaf == "A5":
        assert result["session"]["branch_length"] == 17
        assert result["state"]["objective"] == "Abandoned A"
        assert result["progress"] == {"hasBaseline": True, "currentMilestones": ["abandoned-a"],
                                      "recordedMilestones": ["abandoned-a"]}
        assert [p["id"] for p in result["handoff"]["packets"]] == ["a1", "a2"]
        assert [t["id"] for t in result["todo"]["todos"]] == ["abandoned"]
        assert result["todo"]["cycle"]["armed"] is False
        assert result["todo"]["cycle"]["last_disarm_reason"] == "passed"
        assert result["warnings"] == []
    elif leaf == "L5":
        assert result["session"]["branch_length"] == 27
        assert result["state"] == {"schemaVersion": 1, "workItems": [], "decisions": [],
                                   "objective": "Abandoned L"}
        assert result["progress"] == EXPECTED_PROGRESS
        assert [p["id"] for p in result["handoff"]["packets"]] == ["l1"]
        assert result["todo"]["todos"] == [{"content": "Abandoned late todo", "status": "pending",
                                            "priority": "high", "id": "late", "confidence": 40,
                                            "confidence_history": [40]}]
        assert result["todo"]["plan"] == {} and result["todo"]["goals"] == []
        assert result["todo"]["cycle"]["armed"] is False
        assert result["todo"]["cycle"]["last_disarm_reason"] == "abandoned"
        assert result["warnings"] == []
    else:
        assert result["session"]["branch_length"] == 21
        assert result["state"] == EXPECTED_STATE
        assert result["handoff"] == {"packets": []}
        assert result["todo"]["todos"] == EXPECTED_TODO["todos"]
        assert result["warnings"] == [HANDOFF_WARNING]


# ---- the live path, and todo results that are not state candidates ------------------------------

RESTORE_TODO_WARNING = "pi-jtodo: the newest saved todo state is invalid; starting with an empty todo list."


def _line(entry: dict) -> str:
    return json.dumps(entry, separators=(",", ":"), ensure_ascii=False) + "\n"


def _todo_result(entry_id: str, parent: str, call_id: str, details: object = ..., is_error: bool = False) -> str:
    """A ``todo`` toolResult entry in pi's key order; ``details`` omitted when not given (pi drops
    an undefined ``details``, e.g. on an error result)."""
    message: dict = {"role": "toolResult", "toolCallId": call_id, "toolName": "todo",
                     "content": [{"type": "text", "text": "Error: bad input"}]}
    if details is not ...:
        message["details"] = details
    message |= {"isError": is_error, "timestamp": 1796054500000}
    return _line({"type": "message", "id": entry_id, "parentId": parent,
                  "timestamp": "2026-11-30T16:01:00.000Z", "message": message})


def _fresh(path: Path) -> dict:
    from core.deck.deck import Deck
    from core.cli.inspect import inspect_json
    from core.session.log import SessionLog

    return inspect_json(Deck(SessionLog.open(path, writable=False)))


@by_version
def test_tailing_the_pi_fixture_line_by_line_matches_a_fresh_open(tmp_path: Path, version: str) -> None:
    """The Deck's incremental path (pideck watching pi write) derives at every line what a fresh
    open of the file so far derives: branch switches, the branch summary and the invalid handoff."""
    from core.deck.deck import Deck
    from core.cli.inspect import inspect_json
    from core.session.log import SessionLog

    lines = PI_FILES[version][0].read_text(encoding="utf-8").splitlines(keepends=True)
    live, cut = tmp_path / "live.jsonl", tmp_path / "cut.jsonl"
    live.write_text(lines[0], encoding="utf-8")
    deck = Deck(SessionLog.open(live, writable=False))
    for n in range(1, len(lines)):
        with live.open("a", encoding="utf-8") as fh:
            fh.write(lines[n])
        deck.refresh()
        cut.write_text("".join(lines[: n + 1]), encoding="utf-8")
        got, want = inspect_json(deck), _fresh(cut)
        got["session"].pop("path"), want["session"].pop("path")
        assert got == want, f"after line {n + 1}"
    assert got["warnings"] == [HANDOFF_WARNING] and got["state"] == EXPECTED_STATE


def test_tailed_todo_state_warnings_follow_the_newest_candidate(tmp_path: Path) -> None:
    """Regression: on an append that extends the branch, the Deck reloaded only the three
    primitives, so an invalid newest todo state never warned live (and a later valid one could
    not clear the warning), unlike a fresh open."""
    from core.deck.deck import Deck
    from core.session.log import SessionLog
    from core.cli.inspect import inspect_json

    path = _copy(BRANCHED, tmp_path)
    deck = Deck(SessionLog.open(path, writable=False))
    assert inspect_json(deck)["warnings"] == [HANDOFF_WARNING]
    invalid = {"type": "custom", "customType": "pi-jtodo/state",
               "data": {"schemaVersion": 1, "todos": [{"id": "x"}], "plan": {}, "goals": []},
               "id": "0badf00d", "parentId": IDS["F5"], "timestamp": "2026-11-30T16:01:00.000Z"}
    with path.open("a", encoding="utf-8") as fh:
        fh.write(_line(invalid))
    deck.refresh()
    live = inspect_json(deck)
    assert live["warnings"] == [HANDOFF_WARNING, RESTORE_TODO_WARNING] == _fresh(path)["warnings"]
    assert live["todo"]["todos"] == [] and live["todo"]["plan"] == {} and live["todo"]["goals"] == []
    with path.open("a", encoding="utf-8") as fh:
        fh.write(_todo_result("0badf00e", "0badf00d", "call_todo_9", details={
            "todos": [{"content": "Recovered", "status": "pending", "priority": "low", "id": "r"}]}))
    deck.refresh()
    live = inspect_json(deck)
    assert live["warnings"] == [HANDOFF_WARNING] == _fresh(path)["warnings"]
    assert live["todo"]["todos"] == [{"content": "Recovered", "status": "pending", "priority": "low", "id": "r"}]


@pytest.mark.parametrize("details", [..., None, {"error": "bad input"}, {"todos": None}, {"todos": "[]"}])
def test_todo_results_without_a_todos_list_are_not_state_candidates(pideck, tmp_path: Path, details) -> None:
    """A candidate (docs/todo-replay.md#restoring-the-todo-state) is a todo toolResult whose details
    are a dict with a list ``todos``. An error result (pi omits undefined details) is skipped: the
    newest candidate is still B3, so the todo list stays v2 with no warning. Regression: pideck took
    any details with a ``todos`` key as a candidate and warned with an empty list."""
    path = _copy(BRANCHED, tmp_path)
    with path.open("a", encoding="utf-8") as fh:
        fh.write(_todo_result("0badf00d", IDS["F5"], "call_todo_9", details=details, is_error=True))
    result = _inspect(pideck, path)
    assert {k: v for k, v in result["todo"].items() if k != "cycle"} == EXPECTED_TODO
    assert result["warnings"] == [HANDOFF_WARNING]


def test_a_branch_whose_only_todo_result_has_no_state_gives_null_todo(pideck, tmp_path: Path) -> None:
    """Regression: ``todo`` was an empty list instead of null when the branch held a todo
    toolResult without state details (no candidate at all)."""
    path = _copy(PI_SMALL_BRANCHED, tmp_path)
    with path.open("a", encoding="utf-8") as fh:
        fh.write(_todo_result("0badf00d", "73a3a127", "call_todo_9", is_error=True))
    result = _inspect(pideck, path)
    assert result["todo"] is None
    assert result["session"]["leaf"] == "0badf00d" and result["session"]["branch_length"] == 5
    assert result["warnings"] == [STATE_WARNING]
