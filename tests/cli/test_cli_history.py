"""``pideck diff`` and ``pideck inspect --at``: exact output on pi's branched fixture and on a
pideck session, unknown entries, and nothing ever written."""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
BRANCHED = FIXTURES / "pi_sessionmanager_branched.jsonl"


def copy(tmp_path: Path) -> str:
    target = tmp_path / BRANCHED.name
    shutil.copy(BRANCHED, target)
    return str(target)


def test_diff_between_two_points_of_the_current_branch(pideck, tmp_path):
    s = copy(tmp_path)
    # T7 (the first progress entry) to B4 (the second): a verdict, a packet, the todo write B3
    assert pideck("diff", "--session", s, "fb9f4e14", "0c4958b7") == (0, (
        "From fb9f4e14, as of 2026-11-30 15:50:53 UTC, entry 7 of 37\n"
        "to 0c4958b7, as of 2026-11-30 15:50:53 UTC, entry 21 of 37:\n"
        "Agent Progress\n"
        "  + milestone streaming-reader declared\n"
        "  + baseline set\n"
        "  + milestone parser-skeleton recorded\n"
        "Agent Handoff\n"
        "  + packet h1: Build the parser\n"
        "Todos\n"
        "  ~ todo #parse status: in_progress → completed\n"
        "  ~ todo #parse completion confidence: none → 97\n"
        "  ~ todo #cli status: pending → in_progress\n"
        "  ~ todo #cli confidence: 70 → 75\n"
        "  + todo #docs [waiting]: Document the format\n"
        "  ~ plan user intention: Ship the session parser → Ship the session parser and its CLI\n"
        "  ~ plan intent understanding: 90 → 97\n"
        "  ~ goal parser closed loop: 85 → 97\n"
        "  ~ goal parser ownership: none → 96\n"
        "  + goal (no group)\n"), "")


def test_diff_from_the_leaf_to_an_abandoned_branch(pideck, tmp_path):
    s = copy(tmp_path)
    assert pideck("diff", "--session", s, "leaf", "bab39169") == (0, (
        "From 83e8628a, as of 2026-11-30 15:50:53 UTC, entry 37 of 37 (the live state)\n"
        "to bab39169, as of 2026-11-30 15:50:53 UTC, entry 32 of 37 (on another branch):\n"
        "Agent State\n"
        "  ~ objective: Ship the session parser → Abandoned L\n"
        "  - work item parse [in_progress]: Write the JSONL parser\n"
        "  - work item cli [open]: Add the inspect command\n"
        "  - decision format: Read pi's JSONL v3 format as is.\n"
        "Agent Handoff\n"
        "  + packet l1: Abandoned L\n"
        "Todos\n"
        "  - todo #parse [completed]: Write the JSONL parser\n"
        "  - todo #cli [in_progress]: Add the inspect command\n"
        "  - todo #docs [waiting]: Document the format\n"
        "  + todo #late [pending]: Abandoned late todo\n"
        "  ~ plan user intention: Ship the session parser and its CLI → none\n"
        "  ~ plan intent understanding: 97 → none\n"
        "  - goal parser\n"
        "  - goal (no group)\n"), "")


def test_diff_of_a_point_with_itself(pideck, tmp_path):
    s = copy(tmp_path)
    code, out, _ = pideck("diff", "--session", s, "leaf", "83e8628a")
    assert (code, out.splitlines()[-1]) == (0, "No changes.")


def test_diff_json(pideck, tmp_path):
    s = copy(tmp_path)
    # B7 to B9: B9 is the newest handoff entry and invalid (an extra envelope key), so H1 is gone
    code, out, err = pideck("diff", "--session", s, "--json", "6f36ee6c", "09353a65")
    assert (code, err) == (0, "")
    assert json.loads(out) == {
        "from": {"entry": "6f36ee6c", "timestamp": "2026-11-30T15:50:53.736Z", "entryNumber": 24, "entries": 37,
                 "branchLength": 19, "onCurrentBranch": True, "leaf": False},
        "to": {"entry": "09353a65", "timestamp": "2026-11-30T15:50:53.736Z", "entryNumber": 26, "entries": 37,
               "branchLength": 21, "onCurrentBranch": True, "leaf": False},
        "changes": [
            {"part": "handoff", "subject": "packet", "key": "h1", "kind": "removed", "field": "",
             "before": {"schemaVersion": 1, "id": "h1", "source": "planner", "destination": "builder",
                        "goal": "Build the parser", "constraints": ["no network"], "openItems": [],
                        "evidenceReferences": ["run-1"]},
             "after": None},
        ],
        "warnings": [],
    }


def test_diff_unknown_entry_is_a_usage_error(pideck, tmp_path):
    s = copy(tmp_path)
    assert pideck("diff", "--session", s, "nope", "leaf") == (
        2, "", f"pideck diff: no entry nope in {BRANCHED.name}\n")


def test_inspect_at_json_is_inspect_json_plus_as_of(pideck, tmp_path):
    s = copy(tmp_path)
    code, out, err = pideck("inspect", "--session", s, "--at", "bab39169", "--json")
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert data["asOf"] == {"entry": "bab39169", "timestamp": "2026-11-30T15:50:53.736Z", "entryNumber": 32,
                            "entries": 37, "branchLength": 27, "onCurrentBranch": False, "leaf": False}
    assert data["session"] == {"path": s, "id": "01a22d26-e624-7062-b865-fa9848114d32",
                               "cwd": "/home/user/parser-project", "writable": False, "entries": 32,
                               "leaf": "bab39169", "branch_length": 27,
                               "tokens": {"input": 10, "output": 5, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 15}}
    # L1 and L2 are on this branch; the late todo call L3/L4 too
    assert data["state"] == {"schemaVersion": 1, "workItems": [], "decisions": [], "objective": "Abandoned L"}
    assert data["handoff"] == {"packets": [{"schemaVersion": 1, "id": "l1", "source": "builder", "goal": "Abandoned L"}]}
    assert [t["id"] for t in data["todo"]["todos"]] == ["late"]
    assert data["todo"]["cycle"]["armed"] is False and data["todo"]["cycle"]["last_disarm_reason"] == "abandoned"
    assert data["warnings"] == []


def test_inspect_at_the_leaf_is_inspect(pideck, tmp_path):
    s = copy(tmp_path)
    _, now, _ = pideck("inspect", "--session", s, "--json")
    _, at, _ = pideck("inspect", "--session", s, "--json", "--at", "leaf")
    at_leaf, live = json.loads(at), json.loads(now)
    assert at_leaf.pop("asOf")["leaf"] is True
    assert (at_leaf["session"].pop("writable"), live["session"].pop("writable")) == (False, True)  # the past is read-only
    assert at_leaf == live


def test_inspect_at_text(pideck, tmp_path):
    s = copy(tmp_path)
    code, out, _ = pideck("inspect", "--session", s, "--at", "505aa600")
    assert code == 0
    assert out.splitlines()[:4] == [
        "State of 505aa600, as of 2026-11-30 15:50:53 UTC, entry 18 of 37.",
        "",
        f"Session: {s} (18 entries, read-only)",
        "",
    ]
    assert "Agent State: objective: Ship the session parser, 2 work items" in out


def test_inspect_at_on_a_pideck_session_writes_nothing(pideck, tmp_path):
    s = tmp_path / "p.jsonl"
    pideck("run", "--session", str(s), "/agent-state add a First")
    pideck("run", "--session", str(s), "/agent-state add b Second")
    first = json.loads(s.read_text().splitlines()[1])["id"]
    size = s.stat().st_size
    code, out, _ = pideck("inspect", "--session", str(s), "--at", first, "--json")
    assert code == 0 and [w["id"] for w in json.loads(out)["state"]["workItems"]] == ["a"]
    assert pideck("diff", "--session", str(s), first, "leaf")[1].endswith(
        "Agent State\n  + work item b [open]: Second\n")
    assert s.stat().st_size == size


def test_inspect_at_without_a_session_creates_none(pideck, tmp_path):
    code, out, err = pideck("inspect", "--at", "leaf")
    assert (code, out) == (1, "") and err.startswith("pideck: no session for ")
    assert not (tmp_path / "pideck-home" / "sessions").exists()


def overview_sessions(tmp_path: Path) -> tuple[Path, Path]:
    """pi's branched fixture in pi's folder for this directory, and a small pideck session in pideck's."""
    from core.config.places import encode_cwd

    cwd = str(tmp_path / "project")
    pi = tmp_path / "pi-agent" / "sessions" / encode_cwd(cwd) / BRANCHED.name
    pi.parent.mkdir(parents=True)
    shutil.copy(BRANCHED, pi)
    mine = tmp_path / "pideck-home" / "sessions" / encode_cwd(cwd) / "2026-11-30T16-00-00-000Z_x.jsonl"
    mine.parent.mkdir(parents=True)
    lines = [
        {"type": "session", "version": 3, "id": "x", "timestamp": "2026-11-30T16:00:00.000Z", "cwd": cwd},
        {"type": "custom", "customType": "pi-jtodo/state", "data": {"schemaVersion": 1, "todos": [
            {"content": "Write it", "status": "pending", "priority": "high", "id": "w", "confidence": 40}],
            "plan": {}, "goals": []}, "id": "00000001", "parentId": None, "timestamp": "2026-11-30T16:00:01.000Z"},
        {"type": "custom_message", "customType": "pi-jtodo/followup", "content": "You have 1 incomplete todo.",
         "display": True, "details": {"kind": "poke", "ids": ["w"]}, "id": "00000002", "parentId": "00000001",
         "timestamp": "2026-11-30T16:00:02.000Z"},
    ]
    mine.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return pi, mine


def test_overview_json(pideck, tmp_path):
    pi, mine = overview_sessions(tmp_path)
    code, out, err = pideck("overview", "--json")
    assert (code, err) == (0, "")
    rows = json.loads(out)
    # who needs you first: both stopped with open work, the most recently active (pideck's, 16:00) first
    assert [row.pop("attention")["state"] for row in rows] == ["stopped with open work"] * 2
    day = time.strftime("%Y-%m-%d", time.localtime(1796053853))  # (its answers' local date: 2026-11-30T15:50:53Z)
    assert rows == [
        {"path": str(mine), "name": mine.name, "cwd": str(tmp_path / "project"), "kind": "pideck", "readOnly": False,
         "entries": 2, "todos": {"settled": 0, "total": 1, "lowestConfidence": 40},
         "workItems": {"open": 0, "in_progress": 0, "blocked": 0, "done": 0},
         "milestones": {"declared": 0, "recorded": 0}, "packets": 0,
         "lastActivity": "2026-11-30T16:00:02.000Z", "flag": "poked", "warnings": 0,
         "lastMessage": None, "tokens": None, "usage": None},
        {"path": str(pi), "name": "Streaming parser", "cwd": "/home/user/parser-project", "kind": "pi",
         "readOnly": True, "entries": 37, "todos": {"settled": 1, "total": 3, "lowestConfidence": 60},
         "workItems": {"open": 1, "in_progress": 1, "blocked": 0, "done": 0},
         "milestones": {"declared": 2, "recorded": 1}, "packets": 0,
         "lastActivity": "2026-11-30T15:50:53.736Z", "flag": None, "warnings": 1,
         "lastMessage": "Streaming it is.", "tokens": {"total": 15, "contextShare": None},
         # its 3 answers, priced by pi itself at $0 (docs/attention.md#what-a-row-spent), the first item in progress
         "usage": {"cost": 0.0, "tokens": 45, "day": {"date": day, "cost": 0.0, "tokens": 45},
                   "costliestItem": {"content": "Add the inspect command", "cost": 0.0},
                   "largestItem": {"content": "Add the inspect command", "tokens": 15}}},
    ]
    assert pideck("overview", "--all", "--json")[1] == out  # no other directory has sessions


def test_overview_text(pideck, tmp_path, monkeypatch):
    import time

    overview_sessions(tmp_path)
    monkeypatch.setattr(time, "time", lambda: 1796054412.0)  # 2026-11-30T16:00:12Z
    code, out, err = pideck("overview")
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        "KIND    NAME                              STATE                   IN   TODOS  CONF  ITEMS o/p/b/d  MILESTONES  "
        "PACKETS  LAST       FLAG   COST     TOKENS  DIRECTORY" + " " * (len(str(tmp_path / "project")) - 9 + 2) + "MESSAGE",
        # who needs you first: pi's session stopped with 2 open; pideck's was written 10 s ago
        "pi      Streaming parser                  stopped with open work  9m   1/3    60    1/1/0/0        2 (1 rec.)  "
        "0        9 min ago         $0.0000  15      /home/user/parser-project" + " " * (len(str(tmp_path / "project")) - 25 + 2)
        + "Streaming it is.",
        "pideck  2026-11-30T16-00-00-000Z_x.jsonl  working                 10s  0/1    40    0/0/0/0        0           "
        f"0        10 s ago   poked  —        —       {tmp_path / 'project'}",
    ]


def test_overview_without_sessions(pideck):
    assert pideck("overview") == (0, "No sessions for this directory. `pideck` starts one.\n", "")
    assert pideck("overview", "--json") == (0, "[]\n", "")
