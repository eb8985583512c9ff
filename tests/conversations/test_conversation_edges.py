"""Edges a real user meets that the sample runs do not show: an interactive Claude's metadata lines
before the conversation, a pi header torn before its newline, times out of range, a Gemini call
seen while it still runs, a dependency between Claude tasks (docs/agent-conversations.md)."""

from __future__ import annotations

import json
from pathlib import Path

from hostile_transcripts import C_SESSION, CLAUDE, serialise, update
from transcript_samples import BY_NAME as SAMPLES

from core.sources.detect import detect_kind
from core.sources.log import ConversationLog
from core.deck.deck import Deck

SNAPSHOT = {"type": "file-history-snapshot", "messageId": "m1", "isSnapshotUpdate": False,
            "snapshot": {"messageId": "m1", "trackedFileBackups": {}, "timestamp": "2026-12-01T07:15:51.945Z"}}


def test_a_claude_transcript_that_starts_with_a_file_snapshot_is_claudes(home: Path, pideck) -> None:
    """Interactive Claude Code writes a file-history snapshot (no session id) before the first
    prompt: the transcript is still found, listed and read."""
    sample = SAMPLES["claude-tasks"]
    folder = home / ".claude" / "projects" / "-home-user-project"
    folder.mkdir(parents=True)
    path = folder / f"{sample.session_id}.jsonl"
    path.write_bytes(serialise(SNAPSHOT) + b"".join(sample.lines))
    assert detect_kind(path) == "claude"
    code, out, err = pideck("inspect", "--json", "--session", str(path))
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert data["agent"]["kind"] == "claude" and data["agent"]["sessionId"] == sample.session_id
    assert [t["status"] for t in data["todo"]["todos"]] == ["completed"] * 4


def test_a_pi_header_torn_before_its_newline_is_no_claude_transcript(tmp_path: Path) -> None:
    path = tmp_path / "torn.jsonl"
    path.write_bytes(b'{"type":"session","version":3,"id":"abc","cwd":"/tm')
    assert detect_kind(path) is None


def test_times_out_of_range_give_no_traceback(tmp_path: Path, pideck) -> None:
    """A time of year 1 an hour east of UTC is before year 1 in UTC: such a line's time is not
    taken, and diff and inspect --at still answer."""
    lines = [json.loads(line) for line in SAMPLES["codex-update-plan"].lines]
    for line in lines:
        line["timestamp"] = "0001-01-01T00:00:00+01:00"
    path = tmp_path / "rollout.jsonl"
    path.write_bytes(b"".join(serialise(line) for line in lines))
    code, out, err = pideck("diff", "--session", str(path), "00000002", "leaf")
    assert (code, err) == (0, "")
    assert out.startswith("From 00000002, as of 1970-01-01 00:00:00 UTC, entry 2 of")
    assert "  + step #4 [completed]: Document the flag in the README" in out


def test_a_gemini_call_seen_while_it_runs_is_taken_when_it_ends(tmp_path: Path) -> None:
    """The last copy of a record wins: a write_todos first written as still executing counts once
    a later copy says it succeeded."""
    todos = {"todos": [{"description": "Read", "status": "in_progress"}]}
    record = {"id": "g1", "timestamp": "2026-12-01T07:17:34.809Z", "type": "gemini", "content": ""}
    lines = [{"sessionId": "ea096d15", "projectHash": "h", "startTime": "2026-12-01T07:17:34.016Z", "kind": "main"},
             {"id": "u1", "timestamp": "2026-12-01T07:17:34.035Z", "type": "user", "content": [{"text": "Go"}]},
             {**record, "toolCalls": [{"id": "w1", "name": "write_todos", "args": todos, "status": "executing"}]},
             {**record, "toolCalls": [{"id": "w1", "name": "write_todos", "args": todos, "status": "success"}]}]
    path = tmp_path / "session-2026-12-01T07-17-ea096d15.jsonl"
    path.write_bytes(b"".join(serialise(line) for line in lines[:3]))
    deck = Deck(ConversationLog.open_transcript(path))
    assert deck.todo.state.todos == []
    with path.open("ab") as out:
        out.write(serialise(lines[3]))
    deck.refresh()
    assert [(t.id, t.content, t.status) for t in deck.todo.state.todos] == [("1", "Read", "in_progress")]


def test_a_claude_dependency_has_both_ends_and_a_deleted_blocker_lets_go(tmp_path: Path) -> None:
    """TaskUpdate addBlockedBy records the wait on the task and the block on its blocker, as Claude
    records both; deleting the blocker takes it out of what the other waits for."""
    fmt = CLAUDE
    start = b"".join(serialise(line) for line in fmt.start)
    path = tmp_path / f"{C_SESSION}.jsonl"

    def lines(call_id: str, given: dict) -> bytes:
        return b"".join(serialise(line) for line in update(call_id, given))

    path.write_bytes(start + lines("d1", {"taskId": "2", "addBlockedBy": ["1"]}))
    deck = Deck(ConversationLog.open_transcript(path))
    assert [(t.id, t.blocks, t.blocked_by) for t in deck.todo.state.todos] == [("1", ["2"], []), ("2", [], ["1"])]
    with path.open("ab") as out:
        out.write(lines("d2", {"taskId": "1", "status": "deleted"}))
    deck.refresh()
    assert [(t.id, t.blocks, t.blocked_by) for t in deck.todo.state.todos] == [("2", [], [])]
