"""Claude Code's subagents are part of their conversation (docs/agent-conversations.md#subagents):
the sample run (tests/fixtures/agent-transcripts/claude-subagent/, read its README.md) is replayed
through its snapshot moments, both transcripts rebuilt as they were from ``snapshots/index.json``,
and the plan pideck reads is compared with Claude's own task files of the moment (one list both
agents share), each item marked with the agent that made it; then what the agent object says while
the subagent runs, and TodoWrite, whose lists each agent keeps for itself."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from transcript_samples import FIXTURES

from core.agents.plan_gate import read_plan
from core.deck.deck import Deck
from core.sources.log import ConversationLog
from core.sources.reading import Reading

SAMPLE = FIXTURES / "claude-subagent"
SESSION = "b7d01310-a8b8-4926-8509-4fea1459b430"
AGENT = "a3785cc920c3f3b42"
PROJECT = ".claude/projects/-home-user-project"
MAIN = f"{PROJECT}/{SESSION}.jsonl"
SIDE = f"{PROJECT}/{SESSION}/subagents"
SUB = f"{SIDE}/agent-{AGENT}.jsonl"
META = f"{SIDE}/agent-{AGENT}.meta.json"
TASKS = f".claude/tasks/{SESSION}"
MOMENTS = json.loads((SAMPLE / "snapshots" / "index.json").read_text())
DESCRIPTION = "Add the --session flag"


def lines_of(relative: str) -> list[bytes]:
    return (SAMPLE / "final" / relative).read_bytes().splitlines(keepends=True)


def at(moment: dict[str, Any], relative: str) -> int:
    """The file's complete lines at the moment (0: not there yet)."""
    shown = moment["files"].get(relative)
    return int(shown["lines"]) if shown else 0


def build(home: Path, moment: dict[str, Any]) -> Path:
    """The conversation's files as they were at ``moment``: each transcript its first N lines
    (README.md: whole lines only ever appended), meta.json as copied then."""
    main, sub = home / MAIN, home / SUB
    main.parent.mkdir(parents=True, exist_ok=True)
    main.write_bytes(b"".join(lines_of(MAIN)[:at(moment, MAIN)]))
    if at(moment, SUB):
        sub.parent.mkdir(parents=True, exist_ok=True)
        sub.write_bytes(b"".join(lines_of(SUB)[:at(moment, SUB)]))
    meta = SAMPLE / "snapshots" / moment["snapshot"] / META
    if meta.is_file():
        (home / META).parent.mkdir(parents=True, exist_ok=True)
        (home / META).write_bytes(meta.read_bytes())
    return main


def made_by_the_subagent(subagent_lines: list[bytes]) -> set[str]:
    """The subjects of the tasks the subagent's own transcript creates (an independent reading of
    the raw lines: its TaskCreate calls)."""
    subjects = set()
    for raw in subagent_lines:
        line = json.loads(raw)
        content = line.get("message", {}).get("content") if line.get("type") == "assistant" else None
        for block in content if isinstance(content, list) else []:
            if block.get("type") == "tool_use" and block.get("name") == "TaskCreate":
                subjects.add(block["input"]["subject"])
    return subjects


def task_files(folder: Path, by_subagent: set[str]) -> list[dict[str, Any]]:
    """Claude's own task files as plan items, each the subagent made marked with its description."""
    items = []
    for path in sorted(folder.glob("*.json"), key=lambda p: int(p.stem)):
        task = json.loads(path.read_text())
        item = {"content": task["subject"], "status": task["status"], "id": task["id"],
                "activeForm": task["activeForm"], "description": task["description"],
                "blocks": task["blocks"], "blockedBy": task["blockedBy"]}
        if task["subject"] in by_subagent:
            item["madeBy"] = DESCRIPTION
        items.append(item)
    return items


def todos_of(deck: Deck[Any]) -> list[dict[str, Any]]:
    return deck.todo.state.to_json()["todos"] if deck.has_todo_state() else []


STATUS = {"t+004.83s": "working", "t+008.87s": "working", "t+015.45s": "working", "t+020.01s": "working",
          "t+024.06s": "waiting"}
"""The agent object's status at each moment (no live-session file in the copies): the parent's
turn runs until its last answer (24.06 s); from 8.87 s to 19.6 s only because its Agent call waits."""
SUBAGENT = {"t+004.83s": None, "t+008.87s": "running", "t+015.45s": "running", "t+020.01s": "finished",
            "t+024.06s": "finished"}


def test_the_plan_at_each_snapshot_moment(home: Path) -> None:
    """One follower, the files grown from moment to moment: the plan is what Claude's task files
    said then (the subagent's tasks #3 and #4 in the one list, marked with its description), and
    the subagent is listed as it ran."""
    by_subagent = made_by_the_subagent(lines_of(SUB))
    assert by_subagent == {"Find the argument parser", "Add the --session option"}
    log = ConversationLog.open_transcript(build(home, MOMENTS[0]))
    deck = Deck(log)
    for moment in MOMENTS:
        build(home, moment)
        deck.refresh()
        name = moment["snapshot"]
        expected = task_files(SAMPLE / "snapshots" / name / TASKS, by_subagent)
        assert (name, todos_of(deck)) == (name, expected)
        agent = log.agent()
        assert (name, agent["status"]) == (name, STATUS[name])
        shown = agent.get("subagents")
        assert (name, shown and [(s["id"], s["description"], s["type"], s["status"]) for s in shown]) == (
            name, SUBAGENT[name] and [(AGENT, DESCRIPTION, "general-purpose", SUBAGENT[name])])
    assert (log.warnings, deck.warnings) == ([], [])
    assert [t["status"] for t in todos_of(deck)] == ["completed"] * 4


def test_the_snapshot_real_copies_are_the_heads() -> None:
    """What ``build`` relies on: where the run kept real copies (t+015.45s), they are the final
    files' first N lines."""
    import gzip

    moment = next(m for m in MOMENTS if m["snapshot"] == "t+015.45s")
    for relative in (MAIN, SUB):
        copy = gzip.decompress((SAMPLE / moment["files"][relative]["copy"]).read_bytes())
        assert copy == b"".join(lines_of(relative)[:at(moment, relative)])


def test_the_final_plan_and_agent_object(pideck: Any) -> None:
    """``pideck inspect --json`` of the final conversation: the plan Claude's final task files hold,
    and its subagent, finished, with its times (its first and last lines)."""
    code, out, err = pideck("inspect", "--json", "--session", str(SAMPLE / "final" / MAIN))
    assert (code, err) == (0, "")
    shown = json.loads(out)
    assert shown["todo"]["todos"] == task_files(SAMPLE / "final" / TASKS, made_by_the_subagent(lines_of(SUB)))
    assert [t.get("madeBy") for t in shown["todo"]["todos"]] == [None, None, DESCRIPTION, DESCRIPTION]
    assert shown["agent"]["subagents"] == [{"id": AGENT, "description": DESCRIPTION, "type": "general-purpose",
                                            "status": "finished", "started": "2026-12-01T21:17:41.082Z",
                                            "finished": "2026-12-01T21:17:52.813Z"}]
    assert (shown["agent"]["status"], shown["agent"]["lastMessage"]) == ("waiting", "TURN-1: done")
    assert shown["warnings"] == []
    code, out, err = pideck("inspect", "--session", str(SAMPLE / "final" / MAIN))
    assert "Subagents: Add the --session flag (finished)" in out.splitlines()


def test_a_subagents_end_turn_is_not_the_conversations(home: Path) -> None:
    """The subagent's last line (its answer, ``end_turn``) read while the parent's Agent call has
    no result yet: the conversation works on (the parent waits for the subagent's report)."""
    moment = next(m for m in MOMENTS if m["snapshot"] == "t+015.45s")
    main = build(home, moment)
    (home / SUB).write_bytes(b"".join(lines_of(SUB)))
    assert json.loads(lines_of(SUB)[-1])["message"]["stop_reason"] == "end_turn"
    (home / META).write_bytes((SAMPLE / "final" / META).read_bytes())  # finished: true
    log = ConversationLog.open_transcript(main)
    agent = log.agent()
    assert agent["status"] == "working"
    assert agent["lastMessage"] != "SUBAGENT-DONE"  # (the subagent's answer is its own)
    assert [s["status"] for s in agent["subagents"] or []] == ["finished"]


def test_a_background_subagent_keeps_the_conversation_working(home: Path) -> None:
    """The parent's turn ended, but a subagent's meta.json does not say ``finished`` (a background
    subagent, the default, goes on after the turn): working, until it finishes. (The run captured
    no background subagent, README.md: here the Agent call's result says only that it started.)"""
    main = home / MAIN
    shutil.copytree(SAMPLE / "final" / ".claude", home / ".claude")
    data = main.read_bytes()
    assert data.count(b'"toolUseResult":{"status":"completed"') == 1
    main.write_bytes(data.replace(b'"toolUseResult":{"status":"completed"', b'"toolUseResult":{"status":"async_launched"'))
    meta = json.loads((home / META).read_text())
    (home / META).write_text(json.dumps({k: v for k, v in meta.items() if k != "finished"}))
    log = ConversationLog.open_transcript(main)
    assert log.agent()["status"] == "working"
    (home / "meta.tmp").write_text(json.dumps(meta))
    os.replace(home / "meta.tmp", home / META)  # (as Claude rewrites it: a new file renamed over it)
    log.refresh()
    assert log.agent()["status"] == "waiting"


def test_a_re_open_goes_on_where_each_file_stopped(home: Path) -> None:
    """The cache keeps how far each file was read: a reading opened later (another process) takes
    the events from it and reads only what each transcript gained."""
    moment = next(m for m in MOMENTS if m["snapshot"] == "t+015.45s")
    main = build(home, moment)
    first = Reading(main, "claude")
    first.sync()
    assert first.state["subagents"] == {f"agent-{AGENT}.jsonl": {
        "offset": len(b"".join(lines_of(SUB)[:53])), "lines": 53,
        "identity": [(home / SUB).stat().st_dev, (home / SUB).stat().st_ino]}}
    shutil.copy(SAMPLE / "final" / MAIN, main)  # (rewritten in place: the same file, grown)
    with open(home / SUB, "ab") as f:
        f.write(b"".join(lines_of(SUB)[53:]))
    again = Reading(main, "claude")
    synced = again.sync()
    assert not synced.rebuilt
    fresh = Reading(SAMPLE / "final" / MAIN, "claude", home / "elsewhere")
    fresh.sync()
    assert [again.event(i) for i in range(again.count)] == [fresh.event(i) for i in range(fresh.count)]
    assert again.count > first.count


def test_the_stop_hook_judges_the_whole_plan(home: Path) -> None:
    """The Stop hook's gate reads the plan through the same reading (plan_gate.read_plan): the
    subagent's open task is among the open items."""
    moment = next(m for m in MOMENTS if m["snapshot"] == "t+015.45s")
    plan = read_plan(str(build(home, moment)))
    assert plan is not None and (plan.tool, plan.open_ids) == ("TaskCreate/TaskUpdate", ("1", "2", "4"))


def line(kind: str, content: Any, ts: str, **more: Any) -> bytes:
    """A transcript line in the shape Claude Code 2.1.328 writes (the sample's, trimmed)."""
    body = {"parentUuid": None, "isSidechain": "agentId" in more, "type": kind,
            "message": {"role": kind, "content": content, **({"model": "claude-sonnet-4-5", "stop_reason": more.pop(
                "stop", "tool_use")} if kind == "assistant" else {})},
            "uuid": f"u-{ts}", "timestamp": ts, "sessionId": SESSION, "cwd": "/home/user/project", "version": "2.1.328",
            **more}
    return json.dumps(body).encode() + b"\n"


def todo_write(call: str, todos: list[tuple[str, str]], ts: str, **more: Any) -> bytes:
    return line("assistant", [{"type": "tool_use", "id": call, "name": "TodoWrite", "input": {"todos": [
        {"content": c, "status": s, "activeForm": c + "..."} for c, s in todos]}}], ts, **more)


def test_todowrite_lists_are_each_agents_own(home: Path) -> None:
    """With TodoWrite (``CLAUDE_CODE_ENABLE_TASKS=false``) each agent keeps its own list: the
    conversation's plan is the parent's, then the subagent's, its items marked with its
    description. Its results carry no ``toolUseResult`` (README.md): the call's list is taken."""
    parent = [("Plan the flag", "completed"), ("Hand it to a subagent", "in_progress")]
    mine = [("Find the parser", "completed"), ("Add the option", "in_progress")]
    main = home / MAIN
    main.parent.mkdir(parents=True)
    prompt = "Subagent job: add --session"
    main.write_bytes(b"".join([
        line("user", "Add a --session flag.", "2026-12-01T10:00:00.000Z"),
        todo_write("toolu_p1", parent, "2026-12-01T10:00:01.000Z"),
        line("user", [{"tool_use_id": "toolu_p1", "type": "tool_result", "content": "Todos have been modified"}],
             "2026-12-01T10:00:01.100Z", toolUseResult={"oldTodos": [], "newTodos": [
                 {"content": c, "status": s, "activeForm": c + "..."} for c, s in parent]}),
        line("assistant", [{"type": "tool_use", "id": "toolu_agent", "name": "Agent", "input": {
            "description": "Add the flag", "subagent_type": "general-purpose", "prompt": prompt}}],
            "2026-12-01T10:00:02.000Z"),
    ]))
    sub = home / SIDE / "agent-b1.jsonl"
    sub.parent.mkdir(parents=True)
    sub.write_bytes(b"".join([  # (no meta.json: the prompt tells which Agent call made it)
        line("user", prompt, "2026-12-01T10:00:02.100Z", agentId="b1"),
        todo_write("toolu_s1", mine, "2026-12-01T10:00:03.000Z", agentId="b1"),
        line("user", [{"tool_use_id": "toolu_s1", "type": "tool_result", "content": "Todos have been modified"}],
             "2026-12-01T10:00:03.100Z", agentId="b1"),
        line("assistant", [{"type": "text", "text": "SUB-DONE"}], "2026-12-01T10:00:04.000Z", agentId="b1",
             stop="end_turn"),
    ]))
    log = ConversationLog.open_transcript(main)
    deck = Deck(log)
    assert todos_of(deck) == [
        {"content": "Plan the flag", "status": "completed", "id": "1", "activeForm": "Plan the flag..."},
        {"content": "Hand it to a subagent", "status": "in_progress", "id": "2", "activeForm": "Hand it to a subagent..."},
        {"content": "Find the parser", "status": "completed", "id": "s1.1", "activeForm": "Find the parser...",
         "madeBy": "Add the flag"},
        {"content": "Add the option", "status": "in_progress", "id": "s1.2", "activeForm": "Add the option...",
         "madeBy": "Add the flag"},
    ]
    agent = log.agent()
    assert (agent["status"], [(s["id"], s["description"], s["status"]) for s in agent["subagents"] or []]) == (
        "working", [("b1", "Add the flag", "running")])
    with open(main, "ab") as f:
        f.write(line("user", [{"tool_use_id": "toolu_agent", "type": "tool_result", "content": "SUB-DONE"}],
                     "2026-12-01T10:00:05.000Z", toolUseResult={"status": "completed", "agentId": "b1"}))
        f.write(todo_write("toolu_p2", [(c, "completed") for c, _ in parent], "2026-12-01T10:00:06.000Z"))
        f.write(line("user", [{"tool_use_id": "toolu_p2", "type": "tool_result", "content": "ok"}],
                     "2026-12-01T10:00:06.100Z"))
        f.write(line("assistant", [{"type": "text", "text": "DONE"}], "2026-12-01T10:00:07.000Z", stop="end_turn"))
    deck.refresh()
    assert [(t["id"], t["status"], t.get("madeBy")) for t in todos_of(deck)] == [
        ("1", "completed", None), ("2", "completed", None), ("s1.1", "completed", "Add the flag"),
        ("s1.2", "in_progress", "Add the flag")]
    agent = log.agent()
    assert (agent["status"], [s["status"] for s in agent["subagents"] or []]) == ("waiting", ["finished"])


@pytest.mark.parametrize("moment", ["t+008.87s", "t+015.45s"])
def test_time_travel_says_nothing_of_whether_subagents_run(moment: str, home: Path, pideck: Any) -> None:
    """``inspect --at``: whether a subagent runs is known only of now."""
    main = build(home, next(m for m in MOMENTS if m["snapshot"] == moment))
    code, out, err = pideck("inspect", "--json", "--session", str(main), "--at", "00000002")
    assert (code, err) == (0, "")
    assert json.loads(out)["agent"]["subagents"] is None


def test_a_hostile_subagents_folder(home: Path) -> None:
    """A line that is not JSON in a subagent's transcript is skipped with a warning naming the file;
    a FIFO named like a transcript is never opened (it would block), a meta.json that is not JSON is
    passed over; the rest is read."""
    moment = next(m for m in MOMENTS if m["snapshot"] == "t+015.45s")
    main = build(home, moment)
    with open(home / SUB, "ab") as f:
        f.write(b'{"type":"user","isSidechain":true,"agentId":"' + AGENT.encode() + b'", broken\n')
    os.mkfifo(home / SIDE / "agent-fifo.jsonl")
    (home / SIDE / "agent-junk.meta.json").write_text("{not json")
    log = ConversationLog.open_transcript(main)
    assert log.warnings == [f"agent-{AGENT}.jsonl line 54: not JSON (skipped)"]
    assert [(t["id"], t["status"], t.get("madeBy")) for t in todos_of(Deck(log))] == [
        ("1", "in_progress", None), ("2", "pending", None), ("3", "completed", DESCRIPTION),
        ("4", "in_progress", DESCRIPTION)]
    assert [s["id"] for s in log.agent()["subagents"] or []] == [AGENT]


def test_the_overview_row_follows_a_subagent(home: Path) -> None:
    """The overview reads a conversation again when its subagent's transcript grows, though the
    conversation's own transcript stays as it was (the parent waits at its Agent call)."""
    from core.catalog.overview import Overview

    moment = next(m for m in MOMENTS if m["snapshot"] == "t+015.45s")
    build(home, moment)
    overview = Overview(None, rescan_s=0)
    overview.refresh()
    assert [(r.status, r.todos_settled, r.todos_total) for r in overview.rows] == [("working", 1, 4)]
    (row,) = overview.rows
    assert (row.status_text, row.json()["subagents"]) == ("working (1 subagent)", 1)  # (the STATUS cell, --json)
    assert overview.refresh().read == 0  # nothing changed: nothing read
    with open(home / SUB, "ab") as f:
        f.write(b"".join(lines_of(SUB)[53:]))
    tick = overview.refresh()
    assert tick.read == 1
    assert [(r.status, r.todos_settled, r.todos_total) for r in overview.rows] == [("working", 2, 4)]
    assert overview.rows[0].subagents == 1  # (its meta.json and the parent have not said it finished)


def test_the_activity_says_when_the_subagent_started_and_finished_and_what_it_changed() -> None:
    """Its start at its first line, its end at the Agent call's result, and each change of the
    shared list it made named with its description, all in the order of the lines."""
    from core.views.activity import Activity

    log = ConversationLog.open_transcript(SAMPLE / "final" / MAIN)
    activity = Activity(log)
    activity.update()
    assert [(e.timestamp, e.part, e.text) for e in activity.events] == [
        ("2026-12-01T21:17:36.768Z", "todo", "task #1 added"),
        ("2026-12-01T21:17:37.838Z", "todo", "task #2 added"),
        ("2026-12-01T21:17:40.006Z", "todo", "task #1 started"),
        ("2026-12-01T21:17:41.082Z", "session", "subagent started: Add the --session flag"),
        ("2026-12-01T21:17:43.278Z", "todo", "task #3 added (by Add the --session flag)"),
        ("2026-12-01T21:17:44.318Z", "todo", "task #4 added (by Add the --session flag)"),
        ("2026-12-01T21:17:46.470Z", "todo", "task #3 started (by Add the --session flag)"),
        ("2026-12-01T21:17:47.551Z", "todo", "task #3 completed (by Add the --session flag)"),
        ("2026-12-01T21:17:48.631Z", "todo", "task #4 started (by Add the --session flag)"),
        ("2026-12-01T21:17:51.729Z", "todo", "task #4 completed (by Add the --session flag)"),
        ("2026-12-01T21:17:52.813Z", "session", "subagent finished: Add the --session flag"),
        ("2026-12-01T21:17:53.994Z", "todo", "task #1 completed"),
        ("2026-12-01T21:17:55.048Z", "todo", "task #2 started"),
        ("2026-12-01T21:17:56.132Z", "todo", "task #2 completed"),
    ]
