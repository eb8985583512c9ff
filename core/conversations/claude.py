"""Claude Code's transcript (``<config>/projects/<cwd>/<session id>.jsonl``): prompts, answers and
the plan, from the Task tools or from TodoWrite (docs/agent-conversations.md#claude-code).

A tool call and its result reach the file together, after the tool ran, so a change to the plan
is taken from the result (a call that failed changes nothing): TaskCreate's result carries the new
task's id, TaskUpdate's says it succeeded (the call's input holds the change), TaskList's and
TaskGet's results restate tasks in full, TodoWrite's holds the whole new list. Sub-agents' lines
(``isSidechain``) are their own conversation and are left out.
"""

from __future__ import annotations

from typing import Any

from core.conversations.plan import numbered, plan_item, text_of, tidy
from core.conversations.reader import WAITING, WORKING, Reader

TASK_TOOLS = ("TaskCreate", "TaskUpdate", "TaskList", "TaskGet")
_INTERRUPTED = "[Request interrupted"


class ClaudeReader(Reader):
    KIND = "claude"

    def feed(self, line: Any) -> list[dict[str, Any]]:
        if not isinstance(line, dict) or line.get("isSidechain") is True:
            return []
        kind = line.get("type")
        if kind not in ("user", "assistant"):
            return []
        self._set("sessionId", text_of(line.get("sessionId")))
        self._set("cwd", text_of(line.get("cwd")))
        self._set("version", text_of(line.get("version")))
        message = line.get("message")
        if not isinstance(message, dict):
            return []
        content = message.get("content")
        timestamp = line.get("timestamp")
        if kind == "assistant":
            return self._assistant(message, content, timestamp)
        if line.get("isMeta") is True:
            return []
        if isinstance(content, str):
            return self._prompt(content, timestamp)
        if not isinstance(content, list):
            return []
        out: list[dict[str, Any]] = []
        texts = [b["text"] for b in content if isinstance(b, dict) and b.get("type") == "text" and isinstance(b.get("text"), str)]
        if texts:
            out += self._prompt("\n".join(texts), timestamp)
        for block in content:
            if isinstance(block, dict) and block.get("type") == "tool_result":
                out += self._result(block, line.get("toolUseResult"), timestamp)
        return out

    def _prompt(self, text: str, timestamp: Any) -> list[dict[str, Any]]:
        entries = self.user_prompt(text, timestamp)
        if text.startswith(_INTERRUPTED):  # the person stopped the turn: the agent waits for them
            self._status(WAITING)
        return entries

    def _assistant(self, message: dict[str, Any], content: Any, timestamp: Any) -> list[dict[str, Any]]:
        self._set("model", text_of(message.get("model")))
        usage = message.get("usage")
        used = None
        if isinstance(usage, dict):
            used = self.tokens(usage.get("input_tokens"), usage.get("output_tokens"),
                               usage.get("cache_read_input_tokens"), usage.get("cache_creation_input_tokens"))
        if not isinstance(content, list):
            return []
        out: list[dict[str, Any]] = []
        ends = message.get("stop_reason") == "end_turn"
        calls = self.extra.setdefault("calls", {})
        for block in content:
            if not isinstance(block, dict):
                continue
            if block.get("type") == "text" and isinstance(block.get("text"), str) and block["text"].strip():
                out += self.assistant_text(block["text"], timestamp, used, text_of(message.get("model")), ends)
            elif block.get("type") == "tool_use" and isinstance(block.get("id"), str):
                self._status(WORKING)
                name = block.get("name")
                if name in TASK_TOOLS or name == "TodoWrite":
                    calls[block["id"]] = {"name": name, "input": block.get("input")}
        return out

    def _result(self, block: dict[str, Any], result: Any, timestamp: Any) -> list[dict[str, Any]]:
        call = self.extra.get("calls", {}).pop(block.get("tool_use_id"), None)
        if call is None or block.get("is_error") is True:
            return []
        name, given = call["name"], call["input"] if isinstance(call["input"], dict) else {}
        result = result if isinstance(result, dict) else {}
        call_id = str(block.get("tool_use_id"))
        if name == "TodoWrite":
            todos = result.get("newTodos", given.get("todos"))
            if not isinstance(todos, list):
                return []
            items = [plan_item("", text_of(t.get("content")) or "", text_of(t.get("status")) or "pending",
                               activeForm=text_of(t.get("activeForm")))
                     for t in todos if isinstance(t, dict)]
            return self.new_plan(numbered(items), timestamp, "TodoWrite", "todo", call_id)
        tasks = self._tasks_after(name, given, result)
        if tasks is None:
            return []
        return self.new_plan([tidy(t) for t in tasks], timestamp, "TaskCreate/TaskUpdate", "task", call_id)

    def _tasks_after(self, name: str, given: dict[str, Any], result: dict[str, Any]) -> list[dict[str, Any]] | None:
        """The task list after one Task tool's successful result; None when it says nothing new."""
        tasks = [dict(t) for t in self.plan]
        by_id = {t["id"]: t for t in tasks}
        if name == "TaskCreate":
            task = result.get("task")
            if not isinstance(task, dict) or not isinstance(task.get("id"), str):
                return None
            tasks.append(plan_item(task["id"], text_of(task.get("subject")) or text_of(given.get("subject")) or "",
                                   "pending", activeForm=text_of(given.get("activeForm")),
                                   description=text_of(task.get("description")) or text_of(given.get("description")),
                                   blocks=[], blockedBy=[]))
            return tasks
        if name == "TaskUpdate":
            if result.get("success") is False:
                return None
            task = by_id.get(text_of(given.get("taskId")) or "")
            if task is None:
                return None
            if given.get("status") == "deleted":
                return [t for t in tasks if t is not task]
            _apply(task, given)
            for key, field in (("addBlocks", "blocks"), ("addBlockedBy", "blockedBy")):
                more = [v for v in given.get(key) or [] if isinstance(v, str)] if isinstance(given.get(key), list) else []
                if more:
                    task[field] = list(task.get(field) or []) + [v for v in more if v not in (task.get(field) or [])]
            return tasks
        if name == "TaskList":
            listed = result.get("tasks")
            if not isinstance(listed, list):
                return None
            out = []
            for each in listed:
                if isinstance(each, dict) and isinstance(each.get("id"), str):
                    task = dict(by_id.get(each["id"]) or plan_item(each["id"], "", "pending"))
                    out.append(_apply(task, each))
            return out
        if name == "TaskGet":
            each = result.get("task")
            if not isinstance(each, dict) or not isinstance(each.get("id"), str):
                return None
            if each["id"] in by_id:
                _apply(by_id[each["id"]], each)
            else:
                tasks.append(_apply(plan_item(each["id"], "", "pending"), each))
            return tasks
        return None


def _apply(task: dict[str, Any], fields: dict[str, Any]) -> dict[str, Any]:
    """A Task tool's fields (an update's input, or a task as TaskList/TaskGet restate it) over a
    plan item; fields of the wrong type are left out."""
    for key, target in (("subject", "content"), ("status", "status"), ("activeForm", "activeForm"),
                        ("description", "description")):
        value = text_of(fields.get(key))
        if value is not None:
            task[target] = value
    for key in ("blocks", "blockedBy"):
        value = fields.get(key)
        if isinstance(value, list):
            task[key] = [v for v in value if isinstance(v, str)]
    return task
