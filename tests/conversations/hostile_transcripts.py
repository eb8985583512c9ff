"""Hostile lines in the three transcript formats (Claude Code, Codex, Gemini CLI): cut short,
unknown, huge, nested deep, with wrong field types in every field the readers read, from a CLI
version never seen, with hostile text. Each case is a transcript (a good start of the format and
the case's lines) with the plan pideck must show and the warnings it must give; the table test
checks those, the CLI matrix runs every command on them
(test_conversation_hostile_lines.py, test_conversation_hostile_matrix.py)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Callable

MB5 = 5 << 20
HOSTILE_TEXT = "\x1b]0;pwned\x07\x1b[2J[red]x[/red] \u202e\x00\ud800 \udcff"
Line = Any  # a JSON value (serialised compactly, as the CLIs write) or raw bytes (taken as they are)


def serialise(value: Line) -> bytes:
    """One line as the CLIs write it: compact JSON, UTF-8, lone surrogates as ``\\uXXXX``
    escapes (as ``JSON.stringify`` writes them)."""
    if isinstance(value, bytes):
        return value
    raw = (json.dumps(value, separators=(",", ":"), ensure_ascii=False) + "\n").encode("utf-8", "backslashreplace")
    return raw.replace(json.dumps(DEEP).encode(), b"[" * 5000 + b"]" * 5000)


def cut(value: Line) -> bytes:
    """The line cut in the middle (a torn write), with its newline."""
    raw = serialise(value)
    return raw[: len(raw) // 2] + b"\n"


def nested(depth: int) -> Any:
    """A list nested ``depth`` deep (json serialises up to ~1000; ``DEEP`` stands for deeper)."""
    value: Any = []
    for _ in range(depth - 1):
        value = [value]
    return value


DEEP = "<nested 5000 deep>"
"""Where a value stands for a list nested 5000 deep, spliced into the serialised line."""


@dataclass
class Case:
    name: str
    family: str  # what the CLI matrix puts in one file: truncated, unknown, huge, deep, types, version, text
    lines: list[Line]  # after the format's start
    plan: list[dict[str, Any]]  # ``todo.todos`` after every line
    warnings: list[tuple[int, str]] = field(default_factory=list)  # (index in ``lines`` from 1, text)
    first: Line | None = None  # instead of the format's first line
    check: Callable[[dict[str, Any]], bool] | None = None  # more about the agent object


@dataclass
class Format:
    kind: str
    transcript: str  # where it lies under $HOME
    start: list[Line]  # a good start: a prompt and a plan
    plan: list[dict[str, Any]]  # the plan after ``start``
    next: list[Line]  # more good lines, the last of which changes the plan
    next_plan: list[dict[str, Any]]
    cases: list[Case]


# -- Claude Code ----------------------------------------------------------------------------------

C_SESSION = "5e55e55e-0000-4000-8000-000000000001"
C_TIME = "2026-12-01T07:15:51.945Z"


def claude(kind: str, content: Any, **more: Any) -> dict[str, Any]:
    return {"parentUuid": None, "isSidechain": False, "type": kind,
            "message": {"role": "assistant" if kind == "assistant" else "user", "content": content},
            "uuid": "00000000-0000-4000-8000-000000000000", "timestamp": C_TIME, "cwd": "/home/user/project",
            "sessionId": C_SESSION, "version": "2.1.328", **more}


def call(call_id: Any, name: Any, given: Any) -> dict[str, Any]:
    return claude("assistant", [{"type": "tool_use", "id": call_id, "name": name, "input": given}])


def result(call_id: Any, answer: Any, **block: Any) -> dict[str, Any]:
    return claude("user", [{"tool_use_id": call_id, "type": "tool_result", "content": "ok", **block}], toolUseResult=answer)


def create(call_id: str, task_id: Any, subject: str, **given: Any) -> list[dict[str, Any]]:
    return [call(call_id, "TaskCreate", {"subject": subject, "description": "d", "activeForm": "Doing", **given}),
            result(call_id, {"task": {"id": task_id, "subject": subject, "description": "d"}})]


def update(call_id: str, given: Any, answer: Any = None) -> list[dict[str, Any]]:
    return [call(call_id, "TaskUpdate", given), result(call_id, {"success": True} if answer is None else answer)]


def todo_write(call_id: str, todos: Any, new_todos: Any) -> list[dict[str, Any]]:
    return [call(call_id, "TodoWrite", {"todos": todos}), result(call_id, {"oldTodos": [], "newTodos": new_todos})]


def task(task_id: str, status: str, content: str, **more: Any) -> dict[str, Any]:
    return {"content": content, "status": status, "id": task_id, "activeForm": "Doing", "description": "d",
            "blocks": [], "blockedBy": [], **more}


C_PLAN = [task("1", "pending", "Read"), task("2", "pending", "Add")]
C_NEXT = [task("1", "pending", "Read"), task("2", "in_progress", "Add")]
C_THIRD = [*C_PLAN, task("3", "pending", "Test")]

CLAUDE = Format(
    "claude", ".claude/projects/-home-user-project/" + C_SESSION + ".jsonl",
    [{"type": "queue-operation", "operation": "enqueue", "timestamp": C_TIME, "sessionId": C_SESSION},
     claude("user", [{"type": "text", "text": "Plan it."}]), *create("c1", "1", "Read"), *create("c2", "2", "Add")],
    C_PLAN, update("c9", {"taskId": "2", "status": "in_progress"}), C_NEXT, [
        Case("a tool call cut short", "truncated", [cut(call("c3", "TaskCreate", {"subject": "Test"})),
                                                   *update("c9", {"taskId": "2", "status": "in_progress"})],
             C_NEXT, [(1, "not JSON (skipped)")]),
        Case("a tool result cut short", "truncated", [create("c3", "3", "Test")[0], cut(create("c3", "3", "Test")[1])],
             C_PLAN, [(2, "not JSON (skipped)")]),
        Case("unknown line types and blocks", "unknown", [
            {"type": "brand-new-kind", "sessionId": C_SESSION}, {"type": "attachment", "attachment": {"type": "brand-new"}},
            {"no": "type"}, [1, 2], "text", 5, None, claude("assistant", [{"type": "brand_new_block", "x": 1}]),
            claude("user", [{"type": "image", "source": {}}]), claude("system", "compacted"),
            *create("c3", "3", "Test"), {**create("c4", "4", "Elsewhere")[0], "isSidechain": True}],
            C_THIRD),
        Case("a tool that is not a plan tool", "unknown", [call("c3", "TaskStop", {"task_id": "1"}),
                                                          result("c3", {"success": True})], C_PLAN),
        Case("a 5 MB task", "huge", create("c3", "3", "T" * MB5), [*C_PLAN, task("3", "pending", "T" * MB5)]),
        Case("a 5 MB line of another kind", "huge", [{"type": "api-request-shape", "body": "y" * MB5}], C_PLAN),
        Case("a line nested 300 deep", "deep", [claude("user", nested(300)), *create("c3", "3", "Test")],
             C_THIRD, [(1, "nested more than 256 levels deep (skipped)")]),
        Case("a call nested 5000 deep", "deep", create("c3", "3", "Test", metadata=DEEP),
             C_PLAN, [(1, "nested more than 256 levels deep (skipped)")]),
        Case("a call nested 200 deep", "deep", create("c3", "3", "Test", metadata=nested(200)), C_THIRD),
        Case("toolUseResult a string", "types", [create("c3", "3", "Test")[0], result("c3", "Task #3 created")],
             C_PLAN, [(2, "TaskCreate's result names no task id (the new task is not shown)")]),
        Case("a task id that is a number", "types", create("c3", 3, "Test"), C_THIRD),
        Case("a task id that is empty", "types", create("c3", "", "Test"),
             C_PLAN, [(2, "TaskCreate's result names no task id (the new task is not shown)")]),
        Case("a task id that is a list", "types", create("c3", ["3"], "Test"),
             C_PLAN, [(2, "TaskCreate's result names no task id (the new task is not shown)")]),
        Case("a task id made twice", "types", create("c3", "2", "Again"),
             [task("1", "pending", "Read"), task("2", "pending", "Again")],
             [(2, "TaskCreate's result names task #2 again (the older one is replaced)")]),
        Case("taskId a number", "types", update("c3", {"taskId": 2, "status": "completed"}),
             [task("1", "pending", "Read"), task("2", "completed", "Add")]),
        Case("status a number", "types", update("c3", {"taskId": "2", "status": 5}),
             C_PLAN, [(2, "TaskUpdate: status is not text (ignored)")]),
        Case("status a word never seen", "types", update("c3", {"taskId": "2", "status": "paused"}),
             [task("1", "pending", "Read"), task("2", "paused", "Add")]),
        Case("subject, activeForm and description of wrong types", "types",
             update("c3", {"taskId": "1", "subject": 1, "activeForm": [], "description": {}, "status": "in_progress"}),
             [task("1", "in_progress", "Read"), task("2", "pending", "Add")],
             [(2, "TaskUpdate: subject is not text (ignored)"),
              (2, "TaskUpdate: activeForm is not text (ignored)"),
              (2, "TaskUpdate: description is not text (ignored)")]),
        Case("input not an object", "types", update("c3", "2"), C_PLAN, [(2, "TaskUpdate of no task id (ignored)")]),
        Case("an update of a task not in the plan", "types", update("c3", {"taskId": "9", "status": "completed"}),
             C_PLAN, [(2, "TaskUpdate of task #9, which is not in the plan (ignored)")]),
        Case("an update that failed", "types", update("c3", {"taskId": "2", "status": "completed"}, {"success": False}),
             C_PLAN),
        Case("a deleted task", "types", update("c3", {"taskId": "1", "status": "deleted"}), [task("2", "pending", "Add")]),
        Case("an error result", "types", [call("c3", "TaskUpdate", {"taskId": "2", "status": "completed"}),
                                          result("c3", "Error: no", is_error=True)], C_PLAN),
        Case("blocks of wrong types", "types", update("c3", {"taskId": "2", "addBlocks": "1", "addBlockedBy": [1, None, "1"]}),
             [task("1", "pending", "Read", blocks=["2"]), task("2", "pending", "Add", blockedBy=["1"])]),
        Case("a dependency, then its blocker deleted", "dependencies",
             [*update("c3", {"taskId": "2", "addBlockedBy": ["1"]}), *update("c4", {"taskId": "1", "status": "deleted"})],
             [task("2", "pending", "Add", blockedBy=[])]),
        Case("TaskList's tasks not a list", "types", [call("c3", "TaskList", {}), result("c3", {"tasks": "#1 [pending] Read"})],
             C_PLAN, [(2, "TaskList's result holds no list of tasks (ignored)")]),
        Case("TaskList's tasks not objects", "types",
             [call("c3", "TaskList", {}), result("c3", {"tasks": [5, {"id": "1", "subject": "Read", "status": "completed"}]})],
             C_PLAN, [(2, "TaskList's result has tasks without an id (ignored)")]),
        Case("TaskList's task fields of wrong types", "types",
             [call("c3", "TaskList", {}), result("c3", {"tasks": [{"id": 1, "subject": 5, "status": "completed", "blockedBy": "x"},
                                                                  {"id": "2", "subject": "Add", "status": None}]})],
             [task("1", "completed", "Read"), task("2", "pending", "Add")]),
        Case("TaskGet's task without an id", "types",
             [call("c3", "TaskGet", {"taskId": "1"}), result("c3", {"task": {"subject": "Read", "status": "completed"}})],
             C_PLAN, [(2, "TaskGet's result names no task id (ignored)")]),
        Case("message, content and blocks of wrong types", "types", [
            {**claude("user", "x"), "message": "hello"}, claude("user", 5), claude("assistant", {"a": 1}),
            claude("user", [1, "x", None, {"type": 5}]), claude("assistant", [{"type": "text", "text": {"a": 1}}]),
            {**claude("assistant", [{"type": "text", "text": "ok"}]), "message": {"content": [], "usage": "x", "model": 5}},
            claude("assistant", [{"type": "tool_use", "id": 5, "name": "TaskCreate", "input": {}}]),
            result(["c9"], {"task": {"id": "9"}}), result({"a": 1}, {"task": {"id": "9"}}),
            {**claude("user", "y"), "isMeta": "yes", "isSidechain": "no"}], C_PLAN),
        Case("usage with wrong types", "types", [
            {**claude("assistant", [{"type": "text", "text": "Done."}]),
             "message": {"role": "assistant", "content": [{"type": "text", "text": "Done."}], "stop_reason": 5,
                         "usage": {"input_tokens": "5", "output_tokens": [1], "cache_read_input_tokens": -3}}}],
             C_PLAN),
        Case("sessionId, cwd, version and timestamp of wrong types", "types", [
            claude("user", "hi", sessionId=5, cwd=[1], version={}, timestamp=7), *create("c3", "3", "Test", )], C_THIRD,
            check=lambda agent: (agent["sessionId"], agent["cwd"], agent["version"]) == (C_SESSION, "/home/user/project", "2.1.328")),
        Case("TodoWrite's todos not a list", "types", todo_write("c3", "x", "x"),
             C_PLAN, [(2, "TodoWrite without a list of todos (ignored)")]),
        Case("TodoWrite's todos of wrong types", "types",
             todo_write("c3", [], [5, {"content": 5, "status": 7, "activeForm": []},
                                   {"content": "Ok", "status": "completed", "activeForm": "Doing"}]),
             [{"content": "", "status": "pending", "id": "1"},
              {"content": "Ok", "status": "completed", "id": "2", "activeForm": "Doing"}],
             [(2, "TodoWrite: 1 todo that is not an object left out"),
              (2, "TodoWrite: content is not text (taken as '')"),
              (2, "TodoWrite: status is not text (taken as 'pending')")]),
        Case("TodoWrite's result without its list", "types",
             todo_write("c3", [{"content": "Ok", "status": "pending", "activeForm": "Doing"}], {"a": 1}),
             [{"content": "Ok", "status": "pending", "id": "1", "activeForm": "Doing"}]),
        Case("a Claude Code version never seen", "version", [
            {**line, "version": "9.0.0", "brandNewField": {"x": 1}} for line in [
                claude("user", "Go on."), *update("c3", {"taskId": "2", "status": "in_progress", "brandNewField": 1})]],
             C_NEXT, check=lambda agent: agent["version"] == "9.0.0"),
        Case("hostile text in a task", "text", create("c3", "3", HOSTILE_TEXT),
             [*C_PLAN, task("3", "pending", HOSTILE_TEXT)]),
        Case("bytes that are not UTF-8", "text",
             [serialise(create("c3", "3", "T\u00e9st")[0]), serialise(create("c3", "3", "T\u00e9st")[1]).replace(
                 "T\u00e9st".encode(), b"T\xff\xfest")],
             [*C_PLAN, task("3", "pending", "T\ufffd\ufffdst")]),
    ])


# -- Codex ----------------------------------------------------------------------------------------

X_TIME = "2026-12-01T07:16:36.000Z"


def codex(kind: str, payload: Any, **more: Any) -> dict[str, Any]:
    return {"timestamp": X_TIME, "type": kind, "payload": payload, **more}


def update_plan(plan: Any, explanation: Any = None, raw: Any = None, **more: Any) -> dict[str, Any]:
    arguments = {"plan": plan, **({} if explanation is None else {"explanation": explanation})}
    return codex("response_item", {"type": "function_call", "name": "update_plan", "call_id": "call_1",
                                   "arguments": json.dumps(arguments) if raw is None else raw, **more})


def step(text: str, status: str) -> dict[str, Any]:
    return {"step": text, "status": status}


def item(n: int, status: str, content: str) -> dict[str, Any]:
    return {"content": content, "status": status, "id": str(n)}


X_SESSION = "01a23076-0000-7000-8000-000000000001"
X_META = codex("session_meta", {"id": X_SESSION, "cwd": "/home/user/project", "originator": "codex_exec",
                                "cli_version": "0.169.0", "base_instructions": {"text": "Be good."}})
X_PLAN = [item(1, "pending", "Read"), item(2, "pending", "Add")]
X_NEXT = [item(1, "completed", "Read"), item(2, "in_progress", "Add")]
X_NEXT_LINE = update_plan([step("Read", "completed"), step("Add", "in_progress")])

CODEX = Format(
    "codex", ".codex/sessions/2026/12/01/rollout-2026-12-01T07-16-36-" + X_SESSION + ".jsonl",
    [X_META, codex("event_msg", {"type": "task_started"}),
     codex("response_item", {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "Plan it."}]}),
     update_plan([step("Read", "pending"), step("Add", "pending")])],
    X_PLAN, [X_NEXT_LINE], X_NEXT, [
        Case("an update_plan cut short", "truncated", [cut(X_NEXT_LINE)], X_PLAN, [(1, "not JSON (skipped)")]),
        Case("a line cut short, then a good one", "truncated", [cut(codex("event_msg", {"type": "token_count"})), X_NEXT_LINE],
             X_NEXT, [(1, "not JSON (skipped)")]),
        Case("unknown line types", "unknown", [
            codex("brand_new", {"x": 1}), codex("response_item", {"type": "brand_new_item"}),
            codex("event_msg", {"type": "brand_new_event"}), {"timestamp": X_TIME, "type": "world_state"},
            [1], "text", None, codex("response_item", {"type": "function_call", "name": "shell", "arguments": "{}"}),
            codex("response_item", {"type": "custom_tool_call", "name": "update_plan", "input": "{}"}), X_NEXT_LINE], X_NEXT),
        Case("a 5 MB step", "huge", [update_plan([step("S" * MB5, "pending")])], [item(1, "pending", "S" * MB5)]),
        Case("a 5 MB first line", "huge", [X_NEXT_LINE], X_NEXT,
             first=codex("session_meta", {"id": X_SESSION, "cwd": "/home/user/project", "cli_version": "0.169.0",
                                          "base_instructions": {"text": "b" * MB5}}),
             check=lambda agent: agent["sessionId"] == X_SESSION),
        Case("a line nested 300 deep", "deep", [codex("event_msg", nested(300)), X_NEXT_LINE],
             X_NEXT, [(1, "nested more than 256 levels deep (skipped)")]),
        Case("arguments nested 5000 deep", "deep", [update_plan([], raw="[" * 5000 + "]" * 5000)],
             X_PLAN, [(1, "update_plan's arguments are not JSON (ignored)")]),
        Case("arguments an object", "types", [update_plan([], raw={"plan": [step("Read", "completed")]})],
             [item(1, "completed", "Read")]),
        Case("arguments not JSON", "types", [update_plan([], raw="{plan: [")],
             X_PLAN, [(1, "update_plan's arguments are not JSON (ignored)")]),
        Case("arguments a number", "types", [update_plan([], raw=5)],
             X_PLAN, [(1, "update_plan's arguments hold no plan list (ignored)")]),
        Case("arguments JSON but not an object", "types", [update_plan([], raw="[1, 2]")],
             X_PLAN, [(1, "update_plan's arguments hold no plan list (ignored)")]),
        Case("plan not a list", "types", [update_plan("Read, then Add")],
             X_PLAN, [(1, "update_plan's arguments hold no plan list (ignored)")]),
        Case("steps of wrong types", "types", [update_plan([5, "Read", {"step": 5, "status": 6}, step("Add", "completed")])],
             [item(1, "pending", ""), item(2, "completed", "Add")],
             [(1, "update_plan: 2 steps that are not an object left out"),
              (1, "update_plan: step is not text (taken as '')"),
              (1, "update_plan: status is not text (taken as 'pending')")]),
        Case("a status never seen", "types", [update_plan([step("Read", "done")])], [item(1, "done", "Read")]),
        Case("an empty plan", "types", [update_plan([])], []),
        Case("explanation and call_id of wrong types", "types",
             [update_plan([step("Read", "completed")], explanation=5, call_id=[1])], [item(1, "completed", "Read")]),
        Case("payload, content and name of wrong types", "types", [
            codex("response_item", "x"), {"timestamp": X_TIME, "type": "response_item"},
            codex("response_item", {"type": "message", "role": "user", "content": 5}),
            codex("response_item", {"type": "message", "role": "user", "content": "typed"}),
            codex("response_item", {"type": "message", "role": 5, "content": [{"type": "input_text", "text": 5}]}),
            codex("response_item", {"type": "function_call", "name": ["update_plan"], "arguments": "{}"}),
            codex("event_msg", {"type": "task_complete", "last_agent_message": 5}), codex("event_msg", 5)], X_PLAN),
        Case("token counts of wrong types", "types", [
            codex("event_msg", {"type": "token_count", "info": "x"}),
            codex("event_msg", {"type": "token_count", "info": {"last_token_usage": {
                "input_tokens": "5", "cached_input_tokens": 3, "output_tokens": None, "total_tokens": -1},
                "model_context_window": "big"}}),
            codex("event_msg", {"type": "token_count", "info": {"last_token_usage": {
                "input_tokens": 2, "cached_input_tokens": 5, "output_tokens": True}, "model_context_window": -4}})],
             X_PLAN),
        Case("session_meta and turn_context of wrong types", "types", [
            codex("session_meta", {"id": 5, "cwd": {}, "cli_version": 9}), codex("turn_context", {"cwd": [], "model": 5}),
            X_NEXT_LINE], X_NEXT,
            check=lambda agent: (agent["sessionId"], agent["version"]) == (X_SESSION, "0.169.0")),
        Case("a Codex version never seen", "version", [X_NEXT_LINE], X_NEXT,
             first=codex("session_meta", {"id": X_SESSION, "cwd": "/home/user/project", "cli_version": "7.0.0",
                                          "brand_new": {"x": 1}}, ordinal=0, brandNew=True),
             check=lambda agent: agent["version"] == "7.0.0"),
        Case("hostile text in a step", "text", [update_plan([step(HOSTILE_TEXT, "pending")], explanation=HOSTILE_TEXT)],
             [item(1, "pending", HOSTILE_TEXT)]),
    ])


# -- Gemini CLI -----------------------------------------------------------------------------------

G_SESSION = "ea096d15-0000-4000-8000-000000000001"
G_TIME = "2026-12-01T07:17:34.016Z"


def record(record_id: Any, kind: str = "gemini", **more: Any) -> dict[str, Any]:
    return {"id": record_id, "timestamp": G_TIME, "type": kind, "content": "", **more}


def todos_call(record_id: Any, todos: Any, status: Any = "success", **more: Any) -> dict[str, Any]:
    return record(record_id, toolCalls=[{"id": f"write_todos_{record_id}", "name": "write_todos", "args": {"todos": todos},
                                         "status": status, **more}])


def todo(text: str, status: str) -> dict[str, Any]:
    return {"description": text, "status": status}


G_HEADER = {"sessionId": G_SESSION, "projectHash": "9dad1e4e", "startTime": G_TIME, "lastUpdated": G_TIME, "kind": "main"}
G_PLAN = [item(1, "pending", "Read"), item(2, "pending", "Add")]
G_NEXT = [item(1, "completed", "Read"), item(2, "blocked", "Add"), item(3, "cancelled", "Skip")]
G_NEXT_LINE = todos_call("r3", [todo("Read", "completed"), todo("Add", "blocked"), todo("Skip", "cancelled")])

GEMINI = Format(
    "gemini", ".gemini/tmp/project/chats/session-2026-12-01T07-17-ea096d15.jsonl",
    [G_HEADER, {"$set": {"messages": [], "lastUpdated": G_TIME}},
     record("r1", "user", content=[{"text": "Plan it."}]), record("r2"),
     todos_call("r2", [todo("Read", "pending"), todo("Add", "pending")])],
    G_PLAN, [G_NEXT_LINE], G_NEXT, [
        Case("a record cut short", "truncated", [cut(G_NEXT_LINE)], G_PLAN, [(1, "not JSON (skipped)")]),
        Case("a line cut short, then a good one", "truncated", [cut({"$set": {"lastUpdated": G_TIME}}), G_NEXT_LINE],
             G_NEXT, [(1, "not JSON (skipped)")]),
        Case("unknown line and record types", "unknown", [
            {"$brandNew": {"x": 1}}, record("i1", "info", content="Loaded."), record("i2", "brand_new"),
            {"sessionId": G_SESSION}, [1], "text", None, 5,
            record("r4", toolCalls=[{"id": "t", "name": "run_shell_command", "args": {"command": "ls"}, "status": "success"}]),
            G_NEXT_LINE], G_NEXT),
        Case("a 5 MB todo", "huge", [todos_call("r3", [todo("D" * MB5, "pending")])], [item(1, "pending", "D" * MB5)]),
        Case("a line nested 300 deep", "deep", [record("r3", content=nested(300)), G_NEXT_LINE],
             G_NEXT, [(1, "nested more than 256 levels deep (skipped)")]),
        Case("$rewindTo a record never written", "types", [{"$rewindTo": "no-such-record"}],
             G_PLAN, [(1, "$rewindTo names no record of this file (ignored)")]),
        Case("$rewindTo a number", "types", [{"$rewindTo": 5}], G_PLAN, [(1, "$rewindTo names no record of this file (ignored)")]),
        Case("args not an object", "types", [record("r3", toolCalls=[{"id": "w", "name": "write_todos", "args": "[]",
                                                                      "status": "success"}])],
             G_PLAN, [(1, "write_todos without a list of todos (ignored)")]),
        Case("todos not a list", "types", [todos_call("r3t", {"0": todo("Read", "completed")})],
             G_PLAN, [(1, "write_todos without a list of todos (ignored)")]),
        Case("todos of wrong types", "types", [todos_call("r3w", [5, None, {"description": 5, "status": 7}, todo("Add", "completed")])],
             [item(1, "pending", ""), item(2, "completed", "Add")],
             [(1, "write_todos: 2 todos that are not an object left out"),
              (1, "write_todos: description is not text (taken as '')"),
              (1, "write_todos: status is not text (taken as 'pending')")]),
        Case("a call that failed", "types", [todos_call("r3f", [todo("Read", "completed")], status="error")], G_PLAN),
        Case("toolCalls and record fields of wrong types", "types", [
            record("r3", toolCalls="write_todos"), record("r4", toolCalls=[1, None, {"id": {"a": 1}, "name": 5}]),
            todos_call(5, [todo("Read", "completed")]), record("r5", content=5, tokens={"input": "x", "output": []}),
            record("r6", "user", content={"text": 1}), {"$set": "x"}, {"$set": {"sessionId": 5}},
            todos_call("r7", [todo("Read", "completed")], status=5)], G_PLAN,
            check=lambda agent: agent["sessionId"] == G_SESSION),
        Case("a header of a version never seen", "version", [
            {**G_HEADER, "kind": "brand-new", "formatVersion": 9, "directories": 5}, G_NEXT_LINE], G_NEXT),
        Case("hostile text in a todo", "text", [todos_call("r3", [todo(HOSTILE_TEXT, "pending")])],
             [item(1, "pending", HOSTILE_TEXT)]),
        # rewinds: Gemini drops the record named and every later one, so the plan goes back
        Case("$rewindTo past a write_todos", "rewind", [record("u2", "user", content=[{"text": "Go on."}]), G_NEXT_LINE,
                                                        {"$rewindTo": "u2"}], G_PLAN),
        Case("$rewindTo the write_todos itself", "rewind", [G_NEXT_LINE, {"$rewindTo": "r3"}], G_PLAN),
        Case("$rewindTo past every plan", "rewind", [G_NEXT_LINE, {"$rewindTo": "r1"}], []),
        Case("$rewindTo, then a new plan", "rewind", [G_NEXT_LINE, {"$rewindTo": "r3"},
                                                      todos_call("r8", [todo("Again", "in_progress")])],
             [item(1, "in_progress", "Again")]),
        Case("a record rewritten after a rewind", "rewind", [G_NEXT_LINE, {"$rewindTo": "r3"}, G_NEXT_LINE], G_NEXT),
    ])

FORMATS = {f.kind: f for f in (CLAUDE, CODEX, GEMINI)}


def transcript(fmt: Format, case: Case) -> bytes:
    lines = [case.first if case.first is not None else fmt.start[0], *fmt.start[1:], *case.lines]
    return b"".join(map(serialise, lines))


def expected_warnings(fmt: Format, case: Case) -> list[str]:
    return [f"line {len(fmt.start) + i}: {text}" for i, text in case.warnings]
