"""The plan an agent's own tool calls imply, read from its raw transcript lines: an oracle for the
replay tests, written from the sample READMEs (tests/fixtures/agent-transcripts/) and nothing of
``core.sources``, so that pideck's readers are checked against an independent reading.

Each oracle is fed the transcript's lines in order (``feed``) and answers, after any line, the
plan as pideck's todo model writes it (``todos``): ``content``, ``status`` and ``id``, plus what
the tool gives (Claude's ``activeForm``, ``description``, ``blocks``, ``blockedBy``). A tool that
sends its whole list each call (TodoWrite, update_plan, write_todos) numbers its items from 1;
Claude's Task tools have their own ids.

When the plan changes, per CLI:

- Claude Code: a tool call and its result reach the file together, after the tool ran; the
  change is taken from the result line (a call whose result is an error changes nothing).
  TaskCreate: the result's ``task`` (id, subject, description) and the call's ``activeForm``; a
  new task is pending, blocks and waits for nothing (as its ``tasks/<list>/<n>.json`` file says).
  TaskUpdate: the call's input holds the changed fields (``deleted`` removes the task). TaskList
  and TaskGet restate tasks (subject, status and, where given, description, blocks, blockedBy).
  TodoWrite: the result's ``newTodos`` is the whole list.
- Codex: the ``function_call`` line of ``update_plan`` is the change (written before the tool
  runs, and the tool only ever answers "Plan updated"); ``arguments`` is a JSON string with the
  whole ``plan`` and maybe an ``explanation``.
- Gemini CLI: records are upserted by ``id`` (the last copy of a record wins, in the place its
  first copy took); ``{"$rewindTo": id}`` drops that record and every later one. The plan is the
  ``args.todos`` of the last ``write_todos`` call with status ``success`` among the records.
  ``$set`` lines patch the session header: the ``messages`` they carry restate the conversation
  for Gemini's own context (at a resume, first a fresh context of one message, then the 21
  records already in the file), which is not a call of the plan tool, so they are no plan source.
- Qwen Code: a ``tool_result`` record whose ``toolCallResult.resultDisplay`` is a ``todo_list``
  (status ``success``) holds the whole list as Qwen kept it, with Qwen's own ids ("1".."4"). The
  records are chained by ``parentUuid``; in the samples every record follows the one before.
- GitHub Copilot CLI: no plan tool; the model keeps ``todos`` and ``todo_deps`` in the session's
  SQLite database with its ``sql`` tool, so the plan is what the queries of the ``sql`` calls
  (``tool.execution_start`` ``arguments.query``) whose ``tool.execution_complete`` says
  ``success`` leave in a database made with the schema the real ``session.db`` of the sample has
  (read from its ``sqlite_master``), run with a plain ``sqlite3`` connection: each todo's ``id``,
  ``title`` as content, ``description``, and ``done`` said ``completed``.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

COPILOT_DB = (Path(__file__).resolve().parent.parent / "fixtures" / "agent-transcripts" / "copilot-sql-todos" / "final"
              / ".copilot" / "session-state" / "6380de6d-a46c-4052-87be-b060133f199b" / "session.db")


class Oracle:
    explanation: str | None = None  # Codex's, of the newest call

    def feed(self, raw: bytes) -> None:
        if not raw.strip():
            return
        self.line(json.loads(raw))

    def line(self, value: dict[str, Any]) -> None:
        raise NotImplementedError

    def todos(self) -> list[dict[str, Any]]:
        raise NotImplementedError


def numbered(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{**item, "id": str(n)} for n, item in enumerate(items, 1)]


class ClaudeOracle(Oracle):
    def __init__(self) -> None:
        self.calls: dict[str, dict[str, Any]] = {}  # tool_use id -> the tool_use block
        self.tasks: dict[str, dict[str, Any]] = {}  # the Task tools' list, by id, in creation order
        self.todo_list: list[dict[str, Any]] | None = None  # TodoWrite's

    def line(self, value: dict[str, Any]) -> None:
        if value.get("isSidechain") or value.get("type") not in ("user", "assistant"):
            return
        content = value["message"]["content"]
        if not isinstance(content, list):
            return
        for block in content:
            if block.get("type") == "tool_use":
                self.calls[block["id"]] = block
            elif block.get("type") == "tool_result":
                call = self.calls.pop(block["tool_use_id"], None)
                if call is not None and not block.get("is_error"):
                    self.result(call["name"], call["input"], value.get("toolUseResult"))

    def result(self, name: str, given: dict[str, Any], result: dict[str, Any]) -> None:
        if name == "TodoWrite":
            self.todo_list = numbered([{"content": t["content"], "status": t["status"], "activeForm": t["activeForm"]}
                                       for t in result["newTodos"]])
        elif name == "TaskCreate":
            task = result["task"]
            self.tasks[task["id"]] = {"content": task["subject"], "status": "pending", "id": task["id"],
                                      "activeForm": given["activeForm"], "description": task["description"],
                                      "blocks": [], "blockedBy": []}
        elif name == "TaskUpdate":
            if given.get("status") == "deleted":
                del self.tasks[given["taskId"]]
                return
            self.restate(self.tasks[given["taskId"]], given)
            for key, field in (("addBlocks", "blocks"), ("addBlockedBy", "blockedBy")):
                self.tasks[given["taskId"]][field] += given.get(key, [])
        elif name == "TaskList":
            for task in result["tasks"]:
                self.restate(self.tasks[task["id"]], task)
        elif name == "TaskGet":
            self.restate(self.tasks[result["task"]["id"]], result["task"])

    @staticmethod
    def restate(task: dict[str, Any], fields: dict[str, Any]) -> None:
        for key, target in (("subject", "content"), ("status", "status"), ("activeForm", "activeForm"),
                            ("description", "description"), ("blocks", "blocks"), ("blockedBy", "blockedBy")):
            if key in fields:
                task[target] = fields[key]

    def todos(self) -> list[dict[str, Any]]:
        if self.todo_list is not None:
            return [dict(t) for t in self.todo_list]
        return [dict(t, blocks=list(t["blocks"]), blockedBy=list(t["blockedBy"])) for t in self.tasks.values()]


class CodexOracle(Oracle):
    def __init__(self) -> None:
        self.plan: list[dict[str, Any]] = []

    def line(self, value: dict[str, Any]) -> None:
        payload = value.get("payload", {})
        if value.get("type") == "response_item" and payload.get("type") == "function_call" \
                and payload.get("name") == "update_plan":
            arguments = json.loads(payload["arguments"])
            self.plan = numbered([{"content": s["step"], "status": s["status"]} for s in arguments["plan"]])
            self.explanation = arguments.get("explanation")

    def todos(self) -> list[dict[str, Any]]:
        return [dict(t) for t in self.plan]


class GeminiOracle(Oracle):
    def __init__(self) -> None:
        self.records: dict[str, dict[str, Any]] = {}

    def line(self, value: dict[str, Any]) -> None:
        if isinstance(value.get("$rewindTo"), str):
            ids = list(self.records)
            if value["$rewindTo"] in ids:
                for record_id in ids[ids.index(value["$rewindTo"]):]:
                    del self.records[record_id]
        elif isinstance(value.get("id"), str):
            self.records[value["id"]] = value

    def todos(self) -> list[dict[str, Any]]:
        plan: list[dict[str, Any]] = []
        for record in self.records.values():
            for call in record.get("toolCalls") or []:
                if call.get("name") == "write_todos" and call.get("status") == "success":
                    plan = numbered([{"content": t["description"], "status": t["status"]} for t in call["args"]["todos"]])
        return plan


class QwenOracle(Oracle):
    def __init__(self) -> None:
        self.plan: list[dict[str, Any]] = []

    def line(self, value: dict[str, Any]) -> None:
        result = value.get("toolCallResult") if value.get("type") == "tool_result" else None
        shown = (result or {}).get("resultDisplay")
        if isinstance(shown, dict) and shown.get("type") == "todo_list" and result["status"] == "success":
            self.plan = [{"content": t["content"], "status": t["status"], "id": t["id"]} for t in shown["todos"]]

    def todos(self) -> list[dict[str, Any]]:
        return [dict(t) for t in self.plan]


def copilot_schema() -> list[str]:
    """The tables the real ``session.db`` of the sample was made with (Copilot's own schema)."""
    conn = sqlite3.connect(f"file:{COPILOT_DB}?mode=ro", uri=True)
    try:
        return [sql for (sql,) in conn.execute("SELECT sql FROM sqlite_master WHERE type = 'table' ORDER BY rowid")]
    finally:
        conn.close()


def copilot_todos(conn: sqlite3.Connection) -> list[dict[str, Any]]:
    """The plan a Copilot session database holds, as pideck's todo model writes it."""
    words = {"done": "completed"}
    return [{"content": title, "status": words.get(status, status), "id": todo_id, "description": description}
            for todo_id, title, description, status in
            conn.execute("SELECT id, title, description, status FROM todos ORDER BY rowid")]


class CopilotOracle(Oracle):
    def __init__(self) -> None:
        self.db = sqlite3.connect(":memory:", isolation_level=None)
        for sql in copilot_schema():
            self.db.execute(sql)
        self.queries: dict[str, str] = {}

    def line(self, value: dict[str, Any]) -> None:
        data = value["data"]
        if value["type"] == "tool.execution_start" and data["toolName"] == "sql":
            self.queries[data["toolCallId"]] = data["arguments"]["query"]
        elif value["type"] == "tool.execution_complete" and data["toolCallId"] in self.queries \
                and data["success"] is True:
            self.db.executescript(self.queries.pop(data["toolCallId"]))

    def todos(self) -> list[dict[str, Any]]:
        return copilot_todos(self.db)


ORACLES: dict[str, type[Oracle]] = {"claude": ClaudeOracle, "codex": CodexOracle, "gemini": GeminiOracle,
                                    "qwen": QwenOracle, "copilot": CopilotOracle}


def plans_by_line(kind: str, lines: list[bytes]) -> list[tuple[list[dict[str, Any]], str | None]]:
    """``[n]``: the plan (and Codex's explanation) after the first ``n`` lines."""
    oracle = ORACLES[kind]()
    out = [(oracle.todos(), oracle.explanation)]
    for raw in lines:
        oracle.feed(raw)
        out.append((oracle.todos(), oracle.explanation))
    return out
