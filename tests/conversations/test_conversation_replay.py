"""The sample conversations with their plans exactly as the agents had them at every line
(issue 16, "Done when"): each sample is grown line by line into a file pideck follows, and after
every line (and after half of it) the plan pideck derives is compared with the plan the agent's
tool calls imply (plan_oracle.py, an independent reading of the raw lines). Then the same through
``pideck inspect --json`` at the snapshot moments, against the real copies the run kept, and
Claude's Task plan against the task files Claude itself wrote."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from plan_oracle import plans_by_line
from transcript_samples import BY_NAME, GEMINI_STUB, SAMPLES, Sample, task_folder

from core.sources.log import ConversationLog
from core.deck.deck import Deck

ROOT = Path(__file__).resolve().parents[2]
PLAN_CHANGES = {"claude-tasks": 12, "claude-todowrite": 8, "codex-update-plan": 8, "gemini-write-todos": 8,
                "gemini-resume-next-minute": 8, "qwen-todo-write": 8,
                "copilot-sql-todos": 8}
"""Plan changes per sample, from the READMEs: Claude's 4 TaskCreate and 8 TaskUpdate calls (its
TaskList and TaskGet restate the plan unchanged), 8 calls of each whole-list tool, Copilot's 8 sql
calls (each changes its todos table)."""


def ids(samples: list[Sample]) -> list[str]:
    return [s.name for s in samples]


def todos_of(deck: Deck[Any]) -> list[dict[str, Any]]:
    return deck.todo.state.to_json()["todos"]


def agent_plan_of(deck: Deck[Any]) -> dict[str, Any] | None:
    return deck.todo.state.to_json().get("agentPlan")


def append(path: Path, data: bytes) -> None:
    with open(path, "ab") as f:
        f.write(data)


@pytest.mark.parametrize("sample", SAMPLES, ids=ids(SAMPLES))
def test_the_plan_at_every_line(sample: Sample, tmp_path: Path) -> None:
    """One ConversationLog follows a copy that grows a line at a time, each line in two writes:
    the first half must be held back (a partial last line is never read), the whole line must
    bring the oracle's plan."""
    expected = plans_by_line(sample.kind, sample.lines)
    growing = tmp_path / "agent" / sample.transcript
    growing.parent.mkdir(parents=True)
    growing.write_bytes(sample.lines[0])
    log = ConversationLog.open_transcript(growing)
    deck = Deck(log)
    assert log.reading is not None and log.reading.kind == sample.kind
    assert todos_of(deck) == expected[1][0]
    changes = 0
    for n in range(2, len(sample.lines) + 1):
        raw = sample.lines[n - 1]
        append(growing, raw[: len(raw) // 2])
        deck.refresh()
        assert (n - 1, log.reading.state["lines"], todos_of(deck)) == (n - 1, n - 1, expected[n - 1][0])
        append(growing, raw[len(raw) // 2:])
        deck.refresh()
        assert (n, todos_of(deck)) == (n, expected[n][0])
        if sample.kind == "codex":
            assert (n, (agent_plan_of(deck) or {}).get("explanation")) == (n, expected[n][1])
        changes += expected[n][0] != expected[n - 1][0]
    assert changes == PLAN_CHANGES[sample.name]
    assert expected[-1][0] and all(t["status"] == "completed" for t in expected[-1][0])  # as the runs ended
    assert (log.warnings, deck.warnings) == ([], [])
    plan = agent_plan_of(deck)
    assert plan is not None and (plan["agent"], plan["tool"], plan["noun"]) == (sample.kind, sample.tool, sample.noun)


def inspect_json(pideck: Any, path: Path, *more: str) -> dict[str, Any]:
    code, out, err = pideck("inspect", "--json", "--session", str(path), *more)
    assert (code, err) == (0, "")
    return json.loads(out)


def plan_shown(shown: dict[str, Any]) -> list[dict[str, Any]]:
    """``todo.todos`` of ``inspect --json`` (``todo`` is null before the agent's first plan)."""
    return shown["todo"]["todos"] if shown["todo"] is not None else []


def check_agent(agent: dict[str, Any], sample: Sample, path: Path) -> None:
    assert {k: agent[k] for k in ("kind", "sessionId", "version", "transcript")} == {
        "kind": sample.kind, "sessionId": sample.session_id, "version": sample.version, "transcript": str(path)}


def moments(sample: Sample) -> list[int]:
    """The line counts of the run's snapshot moments, and the whole file."""
    return sorted({*(sample.snapshot_lines(m) for m in sample.snapshots), len(sample.lines)})


@pytest.mark.parametrize("sample", SAMPLES, ids=ids(SAMPLES))
def test_inspect_json_at_the_snapshot_moments(sample: Sample, tmp_path: Path, pideck: Any) -> None:
    """``pideck inspect --json --session`` on the transcript as it was at each snapshot moment
    (``head -n N``, byte-identical to what the CLI had written then, README.md)."""
    expected = plans_by_line(sample.kind, sample.lines)
    for n in moments(sample):
        path = tmp_path / f"at-{n}" / sample.transcript
        path.parent.mkdir(parents=True)
        path.write_bytes(sample.head(n))
        shown = inspect_json(pideck, path)
        assert (n, plan_shown(shown)) == (n, expected[n][0])
        assert shown["warnings"] == []
        check_agent(shown["agent"], sample, path)
        assert shown["session"]["writable"] is False


@pytest.mark.parametrize("sample", [BY_NAME["claude-tasks"], BY_NAME["codex-update-plan"], BY_NAME["gemini-write-todos"],
                                    BY_NAME["qwen-todo-write"], BY_NAME["copilot-sql-todos"]],
                         ids=["claude", "codex", "gemini", "qwen", "copilot"])
def test_inspect_json_as_a_separate_process(sample: Sample, tmp_path: Path) -> None:
    """The whole CLI, once per format: the final transcript in a copied home."""
    path = sample.copy_home(tmp_path / "home")
    done = subprocess.run([sys.executable, "-m", "core.cli.main", "inspect", "--json", "--session", str(path)],
                          cwd=tmp_path / "project", capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert (done.returncode, done.stderr) == (0, "")
    shown = json.loads(done.stdout)
    assert shown["todo"]["todos"] == plans_by_line(sample.kind, sample.lines)[-1][0]
    check_agent(shown["agent"], sample, path)
    assert shown["agent"]["status"] in ("waiting", "ended")  # the run is over


REAL_COPIES = [(s, m) for s in SAMPLES for m in s.snapshots if s.snapshot_copy(m) is not None]


@pytest.mark.parametrize("sample, moment", REAL_COPIES, ids=[f"{s.name} {m['snapshot']}" for s, m in REAL_COPIES])
def test_the_real_copies_of_the_snapshots(sample: Sample, moment: dict[str, Any], tmp_path: Path, pideck: Any) -> None:
    """Where the run copied the transcript itself (Claude's and Codex's between the turns,
    Gemini's chat file at every moment): the copy is the final file's first N lines, and pideck
    reads it so."""
    n = sample.snapshot_lines(moment)
    copy = sample.snapshot_copy(moment)
    assert copy == sample.head(n)
    assert len(copy) == moment["files"][sample.transcript]["bytes"]
    path = tmp_path / "copy" / sample.transcript
    path.parent.mkdir(parents=True)
    path.write_bytes(copy)
    assert plan_shown(inspect_json(pideck, path)) == plans_by_line(sample.kind, sample.lines)[n][0]


TASKS = BY_NAME["claude-tasks"]
TASK_FOLDER = task_folder(TASKS)


def task_files(folder: Path) -> list[dict[str, Any]]:
    """Claude's own task files (``<n>.json``, rewritten in place) as plan items, by id."""
    items = []
    for path in sorted(folder.glob("*.json"), key=lambda p: int(p.stem)):
        task = json.loads(path.read_text())
        items.append({"content": task["subject"], "status": task["status"], "id": task["id"],
                      "activeForm": task["activeForm"], "description": task["description"],
                      "blocks": task["blocks"], "blockedBy": task["blockedBy"]})
    return items


def lines_matching_the_task_files(moment: dict[str, Any]) -> int:
    """The transcript line count whose plan Claude's task files showed at ``moment``. A Task tool
    writes its file ~0.1 s before the transcript gets the call and its result (README.md), so the
    files at a moment hold every change the transcript had at the moment, and one more when the
    moment fell between a task file's write and the transcript's next append: then they match
    the transcript as that append left it."""
    t = moment["t"]
    grew = [(e["t"], e["lines"]) for e in TASKS.growth if e["file"] == TASKS.transcript]
    written = [e["t"] for e in TASKS.growth if e["file"].startswith(TASK_FOLDER) and e["t"] <= t]
    last_append = max((at for at, _ in grew if at <= t), default=0.0)
    if written and max(written) > last_append:
        return next(lines for at, lines in grew if at > max(written))
    return TASKS.snapshot_lines(moment)


def test_the_task_files_lead_the_transcript_by_one_write() -> None:
    """What the comparison below relies on: every task file write is followed, within 0.3 s and
    before any other task file write, by an append to the transcript."""
    events = [e for e in TASKS.growth if e["file"] == TASKS.transcript or e["file"].startswith(TASK_FOLDER + "/")]
    writes = [i for i, e in enumerate(events) if e["file"] != TASKS.transcript and e["file"].endswith(".json")]
    assert len(writes) == PLAN_CHANGES["claude-tasks"]  # one write per change: 4 created, 8 rewritten
    for i in writes:
        following = events[i + 1]
        assert following["file"] == TASKS.transcript and 0 < following["t"] - events[i]["t"] < 0.3


@pytest.mark.parametrize("moment", TASKS.snapshots, ids=[m["snapshot"] for m in TASKS.snapshots])
def test_the_task_plan_matches_claudes_task_files(moment: dict[str, Any], tmp_path: Path, pideck: Any) -> None:
    """At each snapshot moment, the plan pideck reads from the transcript is what Claude's task
    files said. Every moment of this run fell after the transcript had caught up with the files
    (so the comparison is at exactly the moment's line count); a moment inside the ~0.1 s lead
    would be compared with the transcript as its next append left it."""
    n = lines_matching_the_task_files(moment)
    assert n == TASKS.snapshot_lines(moment)
    path = tmp_path / "home" / TASKS.transcript
    path.parent.mkdir(parents=True)
    path.write_bytes(TASKS.head(n))
    files = task_files(TASKS.folder / "snapshots" / moment["snapshot"] / TASK_FOLDER)
    assert files and inspect_json(pideck, path)["todo"]["todos"] == files


def test_the_final_task_plan_matches_claudes_task_files(pideck: Any) -> None:
    files = task_files(TASKS.home / TASK_FOLDER)
    assert [t["status"] for t in files] == ["completed"] * 4
    assert inspect_json(pideck, TASKS.path)["todo"]["todos"] == files


@pytest.mark.parametrize("moment, status", [("t+012.81s", "waiting"), ("t+020.40s", "working")])
def test_claudes_live_session_file_says_busy_or_idle(moment: str, status: str, tmp_path: Path, pideck: Any) -> None:
    """The snapshot's ``sessions/<pid>.json`` (idle between the turns, busy in turn 2), with its pid
    made this test's (the run's Claude is long gone, and a dead pid means the session ended)."""
    at = next(m for m in TASKS.snapshots if m["snapshot"] == moment)
    path = tmp_path / "home" / TASKS.transcript
    path.parent.mkdir(parents=True)
    path.write_bytes(TASKS.head(TASKS.snapshot_lines(at)))
    live = json.loads((TASKS.folder / "snapshots" / moment / ".claude/sessions/17941.json").read_text())
    sessions = tmp_path / "home" / ".claude" / "sessions"
    sessions.mkdir()
    (sessions / f"{os.getpid()}.json").write_text(json.dumps({**live, "pid": os.getpid()}))
    assert inspect_json(pideck, path)["agent"]["status"] == status
    (sessions / f"{os.getpid()}.json").unlink()  # Claude deletes it at exit
    assert inspect_json(pideck, path)["agent"]["status"] == "ended"


def test_the_gemini_stub_left_by_a_resume_in_the_next_minute(pideck: Any) -> None:
    """``variant-resume-next-minute/``: the resumed Gemini first started a file of its own (a
    header and one ``$set``, no records) and then went on in the first one. The stub opens as
    the same session, with no plan and nothing to warn about; the first file holds both turns."""
    variant = BY_NAME["gemini-resume-next-minute"]
    stub = variant.home / GEMINI_STUB
    assert len(stub.read_bytes().splitlines()) == 2
    shown = inspect_json(pideck, stub)
    assert (shown["todo"], shown["warnings"]) == (None, [])
    assert (shown["agent"]["kind"], shown["agent"]["sessionId"]) == ("gemini", variant.session_id)
    whole = inspect_json(pideck, variant.path)
    assert whole["agent"]["lastMessage"].startswith("TURN-2")
    assert whole["todo"]["todos"] == plans_by_line("gemini", variant.lines)[-1][0]
