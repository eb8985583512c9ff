"""Qwen Code's chat file (issue 30): the plan of the real 0.15.10 sample at each moment the run
kept, against Qwen's own todo file of that moment; the prompts and answers; telling a Qwen record
from Claude's and Gemini's lines; finding the chats of a directory; ``inspect --json`` and
``inspect --at``; the edges the sample does not show (the setup context, a rewind, a failed call,
lines of no use)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from transcript_samples import BY_NAME

from core.catalog.sessions import list_sessions
from core.sources.detect import HEAD_BYTES, detect_kind, kind_of_line
from core.sources.discovery import conversations, qwen_chats_dirs, qwen_folder_name
from core.sources.qwen import SETUP_ANSWER, QwenReader
from core.sources.reading import Reading

SAMPLE = BY_NAME["qwen-todo-write"]
SAMPLE_CWD = "/home/user/project"
TODO_FILE = f".qwen/todos/{SAMPLE.session_id}.json"


def inspect_json(pideck: Any, path: Path, *more: str) -> dict[str, Any]:
    code, out, err = pideck("inspect", "--json", "--session", str(path), *more)
    assert (code, err) == (0, "")
    return json.loads(out)


def plan_of(shown: dict[str, Any]) -> list[dict[str, Any]]:
    return shown["todo"]["todos"] if shown["todo"] is not None else []


def last_todo_list(data: bytes) -> list[dict[str, Any]]:
    """The ``resultDisplay.todos`` of the last todo_list result in a chat file (raw reading)."""
    todos: list[dict[str, Any]] = []
    for raw in data.splitlines():
        record = json.loads(raw)
        shown = (record.get("toolCallResult") or {}).get("resultDisplay")
        if isinstance(shown, dict) and shown.get("type") == "todo_list":
            todos = shown["todos"]
    return todos


# -- the real sample ----------------------------------------------------------------------------


@pytest.mark.parametrize("moment", SAMPLE.snapshots, ids=[m["snapshot"] for m in SAMPLE.snapshots])
def test_the_plan_at_each_moment_is_qwens_own_todo_file(moment: dict[str, Any], tmp_path: Path, pideck: Any) -> None:
    """The chat file as the run copied it at the moment gives the plan Qwen's ``todos/<id>.json``
    held then (none before the first todo_write), and that is the last todo_list result in it."""
    copy = SAMPLE.snapshot_copy(moment)
    assert copy is not None
    path = tmp_path / "home" / SAMPLE.transcript
    path.parent.mkdir(parents=True)
    path.write_bytes(copy)
    todo_file = SAMPLE.folder / "snapshots" / moment["snapshot"] / TODO_FILE
    expected = json.loads(todo_file.read_text())["todos"] if todo_file.is_file() else []
    shown = inspect_json(pideck, path)
    assert plan_of(shown) == expected == last_todo_list(copy)
    assert shown["warnings"] == []
    if expected:
        assert shown["todo"]["agentPlan"] == {"agent": "qwen", "tool": "todo_write", "noun": "todo"}


def test_the_final_plan_is_the_final_todo_file(pideck: Any) -> None:
    final = json.loads((SAMPLE.home / TODO_FILE).read_text())
    shown = inspect_json(pideck, SAMPLE.path)
    assert plan_of(shown) == final["todos"] and [t["id"] for t in final["todos"]] == ["1", "2", "3", "4"]
    assert all(t["status"] == "completed" for t in final["todos"])


def test_the_prompts_and_the_answers(tmp_path: Path) -> None:
    reading = Reading(SAMPLE.path, "qwen", tmp_path / "cache")
    reading.sync()
    events = [reading.event(i) for i in range(reading.count)]
    prompts = [e[2] for e in events if e[0] == "p"]
    answers = [(e[2], e[3], e[4], e[5]) for e in events if e[0] == "a"]
    assert prompts == ["Add a --session flag to the CLI. Plan it with your todo tool, then start.",
                       "Continue and finish the remaining items."]
    assert answers == [  # (an answer's tokens are its u event's)
        ("TURN-1: planned 4 items; item 1 is done and item 2 is in progress.", "qwen3-coder-plus", None, True),
        ("TURN-2: all 4 items are completed.", "qwen3-coder-plus", None, True)]
    paid = [e[2:] for e in events if e[0] == "u"]
    assert paid == [[None, "qwen3-coder-plus", [50, 20, 0, 0], None, None]] * 11  # (every model call: 7, then 4)
    assert [e[0] for e in events].count("t") == 8
    assert reading.name == prompts[0][:59] + "…"
    assert reading.warnings == []


def test_inspect_json_names_the_agent_and_its_tokens(pideck: Any) -> None:
    agent = inspect_json(pideck, SAMPLE.path)["agent"]
    assert {k: agent[k] for k in ("kind", "sessionId", "cwd", "version", "model", "status", "lastMessage")} == {
        "kind": "qwen", "sessionId": SAMPLE.session_id, "cwd": SAMPLE_CWD, "version": "0.15.10",
        "model": "qwen3-coder-plus", "status": "waiting", "lastMessage": "TURN-2: all 4 items are completed."}
    assert agent["tokens"] == {"input": 50, "output": 20, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 70}


def test_the_agent_works_until_its_turn_ends(tmp_path: Path, pideck: Any) -> None:
    """Mid turn 1 (the prompt and a todo_write on its way) the agent works; between the turns it waits."""
    path = tmp_path / "home" / SAMPLE.transcript
    path.parent.mkdir(parents=True)
    for lines, status in ((4, "working"), (6, "working"), (28, "waiting"), (29, "working"), (44, "waiting")):
        path.write_bytes(SAMPLE.head(lines))
        assert (lines, inspect_json(pideck, path)["agent"]["status"]) == (lines, status)


def test_time_travel_shows_an_earlier_plan(pideck: Any) -> None:
    """``inspect --at`` the first plan entry (entry 3: the prompt is entry 1, the answer that called
    todo_write entry 2): three pending todos."""
    shown = inspect_json(pideck, SAMPLE.path, "--at", "00000003")
    assert plan_of(shown) == [{"content": c, "status": "pending", "id": str(n)} for n, c in
                              enumerate(["Read the CLI entry point", "Add the --session flag", "Test the flag"], 1)]
    code, out, err = pideck("inspect", "--session", str(SAMPLE.path), "--at", "00000003")
    assert (code, err) == (0, "") and "# Qwen Code todos" in out and "○ `#1` Read the CLI entry point" in out


# -- telling the formats apart ------------------------------------------------------------------


def test_a_qwen_chat_is_told_from_claudes_and_geminis(tmp_path: Path) -> None:
    assert detect_kind(SAMPLE.path) == "qwen"
    assert detect_kind(BY_NAME["claude-todowrite"].path) == "claude"
    assert detect_kind(BY_NAME["gemini-write-todos"].path) == "gemini"
    for raw in SAMPLE.lines:  # every kind of record, not just the first
        assert kind_of_line(json.loads(raw)) == "qwen"
    for raw in BY_NAME["claude-tasks"].lines[:20]:
        assert kind_of_line(json.loads(raw)) in ("claude", None)


def test_a_first_line_longer_than_the_head_is_told_by_how_it_starts(tmp_path: Path) -> None:
    record = json.loads(SAMPLE.lines[0])
    record["message"]["parts"][0]["text"] = "x" * (HEAD_BYTES + 10)
    path = tmp_path / "long.jsonl"
    path.write_text(json.dumps(record) + "\n")
    assert detect_kind(path) == "qwen"


# -- finding them ---------------------------------------------------------------------------------


def install(qwen: Path, cwd: Path, session_id: str = SAMPLE.session_id, lines: int | None = None) -> Path:
    """The sample's chat file, its directory made ``cwd``, in ``<qwen>/projects/<slug>/chats``."""
    data = SAMPLE.head(lines or len(SAMPLE.lines)).decode()
    data = data.replace(f'"cwd": "{SAMPLE_CWD}"', f'"cwd": {json.dumps(str(cwd))}')
    data = data.replace(f'"cwd":"{SAMPLE_CWD}"', f'"cwd":{json.dumps(str(cwd))}')
    data = data.replace(SAMPLE.session_id, session_id)
    path = qwen / "projects" / qwen_folder_name(cwd) / "chats" / f"{session_id}.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(data)
    return path


def test_the_folder_name_is_the_directory_with_non_alphanumerics_as_dashes() -> None:
    assert qwen_folder_name(SAMPLE_CWD) == "-home-user-project"  # the sample's own folder
    assert qwen_folder_name("/x/my.project_2") == "-x-my-project-2"


def test_a_directorys_chats_are_listed(home: Path, pideck: Any) -> None:
    project = Path.cwd()
    path = install(home / ".qwen", project)
    found = conversations(project)
    assert [(p, kind, head.session_id, head.cwd) for p, kind, head, _ in found] == [
        (path, "qwen", SAMPLE.session_id, str(project))]
    assert [(s.path, s.kind) for s in list_sessions(project)] == [(path, "qwen")]
    code, out, err = pideck("sessions")
    assert (code, err) == (0, "") and out.splitlines()[1].startswith("qwen ") and str(path) in out
    code, out, err = pideck("overview", "--json")
    assert (code, err) == (0, "") and "qwen" in out and str(path) in out
    assert qwen_chats_dirs(project) == [home / ".qwen" / "projects" / qwen_folder_name(project) / "chats"]


def test_a_chat_of_another_directory_sharing_the_folder_is_not_listed(home: Path) -> None:
    """``/x/my-project`` and ``/x/my.project`` share a folder: the record's own cwd tells them apart."""
    project = Path.cwd()
    mine = install(home / ".qwen", project)
    other = install(home / ".qwen", project, "11111111-2222-3333-4444-555555555555")
    other.write_text(other.read_text().replace(json.dumps(str(project)), json.dumps(str(project) + ".other")))
    assert [p for p, *_ in conversations(project)] == [mine]
    assert sorted(p for p, *_ in conversations(None)) == sorted([mine, other])


@pytest.mark.parametrize("variable", ["QWEN_HOME", "QWEN_RUNTIME_DIR"])
def test_qwen_home_and_its_runtime_folder_move_the_chats(variable: str, home: Path, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    project = Path.cwd()
    moved = tmp_path / "elsewhere"
    monkeypatch.setenv(variable, str(moved))
    path = install(moved, project)
    install(home / ".qwen", project, "11111111-2222-3333-4444-555555555555")  # found only without QWEN_HOME
    found = [p for p, *_ in conversations(project)]
    assert path in found and (len(found) == 1) == (variable == "QWEN_HOME")


def test_pideck_opens_the_newest_chat_of_the_directory(home: Path, pideck: Any) -> None:
    project = Path.cwd()
    path = install(home / ".qwen", project, lines=28)  # between the turns
    code, out, err = pideck("sessions")
    assert (code, err) == (0, "") and out.splitlines()[-1] == f"`pideck` here opens {path}: the newest of this directory"
    shown = inspect_json(pideck, path)
    assert (shown["agent"]["kind"], [t["status"] for t in plan_of(shown)]) == (
        "qwen", ["completed", "in_progress", "pending", "pending"])


# -- what the sample does not show ----------------------------------------------------------------


def record(kind: str, uuid: str, parent: str | None, **more: Any) -> dict[str, Any]:
    return {"uuid": uuid, "parentUuid": parent, "sessionId": "s", "timestamp": f"2026-12-01T21:11:{len(uuid):02d}.000Z",
            "type": kind, "cwd": "/p", "version": "0.15.10", **more}


def todo_result(uuid: str, parent: str, todos: Any, status: str = "success") -> dict[str, Any]:
    return record("tool_result", uuid, parent, message={"role": "user", "parts": [{"functionResponse": {}}]},
                  toolCallResult={"callId": f"call-{uuid}", "status": status,
                                  "resultDisplay": {"type": "todo_list", "todos": todos}})


def feed(lines: list[dict[str, Any]]) -> tuple[QwenReader, list[list[Any]], list[str]]:
    reader = QwenReader()
    events: list[list[Any]] = []
    notes: list[str] = []
    for line in lines:
        events += reader.feed(line)
        notes += reader.notes
        reader.notes = []
    return reader, events, notes


def test_the_setup_context_is_neither_a_prompt_nor_an_answer() -> None:
    setup = "This is the Qwen Code. We are setting up the context for our chat.\nToday's date is ..."
    reader, events, _ = feed([
        record("user", "a", None, message={"role": "user", "parts": [{"text": setup}]}),
        record("assistant", "bb", "a", model="m", message={"role": "model", "parts": [{"text": SETUP_ANSWER}]}),
        record("user", "ccc", "bb", message={"role": "user", "parts": [{"text": "Do it."}]}),
        record("assistant", "dddd", "ccc", model="m",
               message={"role": "model", "parts": [{"text": "thinking", "thought": True}, {"text": "Done."}]}),
    ])
    assert [(e[0], e[2]) for e in events] == [("p", "Do it."), ("a", "Done.")]
    assert reader.name == "Do it."


def test_a_rewind_takes_the_plan_back_and_a_failed_call_changes_nothing() -> None:
    one = [{"id": "1", "content": "A", "status": "pending"}]
    two = [{"id": "1", "content": "A", "status": "completed"}, {"id": "2", "content": "B", "status": "pending"}]
    reader, events, notes = feed([
        record("user", "a", None, message={"role": "user", "parts": [{"text": "Go."}]}),
        todo_result("bb", "a", one),
        todo_result("ccc", "bb", two),
        todo_result("dddd", "ccc", [], status="error"),
        record("user", "eeeee", "bb", message={"role": "user", "parts": [{"text": "Again from there."}]}),
    ])
    assert [(e[0], e[4] if e[0] == "t" else e[2]) for e in events] == [
        ("p", "Go."), ("t", one), ("t", two), ("t", one), ("p", "Again from there.")]
    assert events[3][2] == "branch:bb" and reader.plan == one and notes == []
    again = QwenReader(json.loads(json.dumps(reader.save())))  # the saved state goes on from there
    assert again.feed(todo_result("ffffff", "eeeee", two))[0][4] == two


def test_lines_it_cannot_use_are_warned_about() -> None:
    _, events, notes = feed([
        todo_result("a", "x", "not a list"),
        todo_result("bb", "a", [{"content": "no id", "status": "pending"}, 7]),
        record("user", "ccc", "bb", message="text"),
        ["not", "a", "record"],
    ])
    assert notes == ["todo_write: a todo_list without a list of todos (ignored)",
                     "todo_write: 1 todo that is not an object left out",
                     "todo_write: a todo without an id (numbered by its place)",
                     "a user record without message parts (ignored)"]
    assert [e[4] for e in events if e[0] == "t"] == [[{"content": "no id", "status": "pending", "id": "1"}]]
