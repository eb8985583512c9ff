"""Claude Code's transcript (``<config>/projects/<cwd>/<session id>.jsonl``): prompts, answers and
the plan, from the Task tools or from TodoWrite (docs/agent-conversations.md#claude-code).

A tool call and its result reach the file together, after the tool ran, so a change to the plan
is taken from the result (a call that failed changes nothing): TaskCreate's result carries the new
task's id, TaskUpdate's says it succeeded (the call's input holds the change), TaskList's and
TaskGet's results restate tasks in full, TodoWrite's holds the whole new list.

A subagent (the ``Agent`` tool, ``Task`` in older versions) writes a transcript of its own,
``<session id>/subagents/agent-<agent id>.jsonl``, which ``reading.py`` feeds to the same reader
with ``speaker`` set to the agent id (docs/agent-conversations.md#subagents). Its Task tools change
the conversation's one task list (Claude keeps one list for both), its TodoWrite keeps a list of
its own, shown under the parent's; the items it makes say so (``madeBy``: its description). Its
prompts, answers and turn ends are its own, not the conversation's. Sidechain lines in the
conversation's own transcript (``isSidechain``) are left out.
"""

from __future__ import annotations

import hashlib
import re
from typing import TYPE_CHECKING

from core.sources.plan import LINKS, plan_item, text_of, tidy
from core.sources.reader import AGENT_WAITING, AGENT_WORKING, SUBAGENT_FINISHED, SUBAGENT_RUNNING, Reader

TASK_TOOLS = ("TaskCreate", "TaskUpdate", "TaskList", "TaskGet")
AGENT_TOOLS = ("Agent", "Task")  # the subagent tool: ``Agent`` since 2.1, ``Task`` before
_INTERRUPTED = "[Request interrupted"
_CREATED = re.compile(r"Task #(\d+) created successfully")
"""A subagent's TaskCreate result has no ``toolUseResult``: the new id is only in its text."""

if TYPE_CHECKING:  # (the type checker's alone: a TypedDict compiles its annotations as it is made)
    from typing import NotRequired, TypedDict

    from core.session.entry import SubagentInfo
    from core.sources.reader import Event
    from core.sources.plan import Link, PlanItem
    from core.sources.reader import ReaderState

    class PlanCall(TypedDict):
        """A call of a plan tool waiting for its result."""

        name: str  # TodoWrite or one of TASK_TOOLS
        input: object  # as the model sent it (checked when the result comes)
        agent: NotRequired[str]  # the subagent that made the call (none: the conversation's own agent)

    class ClaudeState(ReaderState):
        """What a Claude Code reader saves: besides the plan, the calls still waiting for a result."""

        calls: dict[str, PlanCall]  # by the call's tool_use id
        spawns: dict[str, Spawn]  # the Agent calls, by tool_use id
        subs: dict[str, Sub]  # the subagents, by agent id, in the order they appeared
        lists: dict[str, list[PlanItem]]  # each agent's TodoWrite list ("": the conversation's own agent)
        billed: list[str]  # the newest answers counted, as "message id:request id" (BILLED_KEEP of them)

    class Spawn(TypedDict):
        """An Agent call of the conversation's own agent."""

        description: str | None
        prompt: str  # a digest of the prompt: a subagent's first line says it again
        answered: bool  # its result came

    class Sub(TypedDict):
        """What the reader knows of one subagent."""

        description: str | None
        type: str | None
        call: str | None  # the Agent call's tool_use id, once known (meta.json, the call's result, the prompt)
        meta: str | None  # what meta.json says: running, finished, or None (none seen)
        done: bool  # the Agent call's result says it completed
        started: str | None
        last: str | None  # the time of its last line
        told: NotRequired[str]  # the status the last ``s`` event said (running, finished)


BILLED_KEEP = 64
"""How many answers' (message id, request id) keys a Claude reader remembers to count each answer
once: the lines of one answer (one per content block) come together."""


class ClaudeReader(Reader):
    KIND = "claude"
    PROVIDER = "anthropic"

    def __init__(self, saved: ClaudeState | None = None) -> None:
        super().__init__(saved)
        self.calls: dict[str, PlanCall] = dict(saved["calls"]) if saved else {}
        """The plan tools' calls whose results have not been read yet."""
        self.spawns: dict[str, Spawn] = dict(saved["spawns"]) if saved else {}
        self.subs: dict[str, Sub] = dict(saved["subs"]) if saved else {}
        self.lists: dict[str, list[PlanItem]] = dict(saved["lists"]) if saved else {}
        self.billed: list[str] = list(saved["billed"]) if saved else []

    def save(self) -> ClaudeState:
        return {**super().save(), "calls": self.calls, "spawns": self.spawns, "subs": self.subs, "lists": self.lists,
                "billed": self.billed}

    def feed(self, line: object) -> list[Event]:
        out = self._line(line)
        if self.aside:  # (a subagent started or finished: told in the order it was seen)
            out, self.aside = out + self.aside, []
        return out

    def _line(self, line: object) -> list[Event]:
        if not isinstance(line, dict):
            return []
        if self.speaker is not None:
            return self._subagent_line(self.speaker, line)
        kind = line.get("type")
        if line.get("isSidechain") is True:  # (an older Claude's subagent, in the parent's file: its cost is the conversation's)
            if kind == "assistant" and isinstance(line.get("message"), dict):
                self._bill(line, line["message"], own=False)
            return []
        if kind == "system" and line.get("subtype") == "compact_boundary":
            metadata = line.get("compactMetadata")
            self.compacted(line.get("timestamp"), metadata.get("preTokens") if isinstance(metadata, dict) else None)
            return []
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
            return self._assistant(line, message, content, timestamp)
        if line.get("isMeta") is True:
            return []
        if isinstance(content, str):
            return self._prompt(content, timestamp)
        if not isinstance(content, list):
            return []
        out: list[Event] = []
        texts = [b["text"] for b in content if isinstance(b, dict) and b.get("type") == "text" and isinstance(b.get("text"), str)]
        if texts:
            out += self._prompt("\n".join(texts), timestamp)
        for block in content:
            if isinstance(block, dict) and block.get("type") == "tool_result":
                out += self._result(block, line.get("toolUseResult"), timestamp)
        return out

    # -- subagents --------------------------------------------------------------------------------

    def subagent(self, agent_id: str, meta: object) -> None:
        sub = self._sub(agent_id)
        if isinstance(meta, dict):
            sub["description"] = text_of(meta.get("description")) or sub["description"]
            sub["type"] = text_of(meta.get("agentType")) or sub["type"]
            call = text_of(meta.get("toolUseId"))
            if call is not None:
                sub["call"] = call
            sub["meta"] = SUBAGENT_FINISHED if meta.get("finished") is True else SUBAGENT_RUNNING
        self._publish()

    def _sub(self, agent_id: str) -> Sub:
        sub = self.subs.get(agent_id)
        if sub is None:
            sub = self.subs[agent_id] = {"description": None, "type": None, "call": None, "meta": None, "done": False,
                                         "started": None, "last": None}
        return sub

    def _subagent_line(self, agent_id: str, line: dict[str, object]) -> list[Event]:
        """A line of a subagent's own transcript: its plan tools change the conversation's plan;
        its prompt (the parent's Agent call) tells which call made it; nothing else of it is the
        conversation's (not its status, its last message or its tokens)."""
        kind = line.get("type")
        message = line.get("message")
        if kind not in ("user", "assistant") or not isinstance(message, dict):
            return []
        sub = self._sub(agent_id)
        timestamp = line.get("timestamp")
        if isinstance(timestamp, str):
            sub["started"] = sub["started"] or timestamp
            sub["last"] = timestamp
        content = message.get("content")
        out: list[Event] = []
        if kind == "assistant":
            self._bill(line, message, own=False)
            for block in content if isinstance(content, list) else []:
                if isinstance(block, dict) and block.get("type") == "tool_use" and isinstance(block.get("id"), str):
                    name = block.get("name")
                    if name in TASK_TOOLS or name == "TodoWrite":
                        self.calls[block["id"]] = {"name": name, "input": block.get("input"), "agent": agent_id}
        elif isinstance(content, str):
            self._link(sub, content)
        elif isinstance(content, list):
            for block in content:
                if isinstance(block, dict) and block.get("type") == "tool_result":
                    out += self._result(block, line.get("toolUseResult"), timestamp)
        self._publish()
        return out

    def _link(self, sub: Sub, prompt: str) -> None:
        """A subagent's first line is the prompt of the Agent call that made it: the call (and its
        description) where no meta.json said them."""
        if sub["call"] is not None:
            return
        digest = _digest(prompt)
        for call_id, spawn in self.spawns.items():
            if spawn["prompt"] == digest and not any(s["call"] == call_id for s in self.subs.values()):
                sub["call"] = call_id
                sub["description"] = sub["description"] or spawn["description"]
                return

    def _maker(self, agent_id: str | None) -> str | None:
        """What an item a subagent made is marked with: its description (its id while none is known)."""
        if agent_id is None:
            return None
        sub = self._sub(agent_id)
        spawn = self.spawns.get(sub["call"] or "")
        if sub["description"] is None and spawn is not None:
            sub["description"] = spawn["description"]
        return sub["description"] or f"subagent {agent_id}"

    def settle(self) -> None:
        """The end of a sync, every line read: a subagent whose meta.json says it finished, with
        no Agent result that says so (a background one), is told finished now, after its lines."""
        self._publish(final=True)

    def _publish(self, final: bool = False) -> None:
        """The agent object's ``subagents``: each one running while its meta.json says so, or,
        without one, while the Agent call that made it has no result."""
        if not self.subs:
            return
        shown: list[SubagentInfo] = []
        for agent_id, sub in self.subs.items():
            spawn = self.spawns.get(sub["call"] or "")
            if sub["meta"] is not None and not sub["done"]:
                running = sub["meta"] == SUBAGENT_RUNNING
            else:
                running = not sub["done"] and spawn is not None and not spawn["answered"]
            description = sub["description"] or (spawn["description"] if spawn else None)
            status = SUBAGENT_RUNNING if running else SUBAGENT_FINISHED
            shown.append({"id": agent_id, "description": description, "type": sub["type"], "status": status,
                          "started": sub["started"], "finished": None if running else sub["last"]})
            self._tell(agent_id, sub, description or f"subagent {agent_id}", status, final)
        self.info["subagents"] = shown

    def _tell(self, agent_id: str, sub: Sub, description: str, status: str, final: bool) -> None:
        """An ``s`` event at a subagent's first line (it started), and one when it finished: at the
        Agent call's result that says so, else (``final``: a sync's end) once meta.json says so.
        A meta.json read before the lines it speaks of says nothing yet: the events keep the
        order of the lines."""
        told = sub.get("told")
        if told is None and sub["started"] is not None:
            self.aside.append(["s", sub["started"], f"subagent started: {description}", agent_id, SUBAGENT_RUNNING])
            told = sub["told"] = SUBAGENT_RUNNING
        if told == SUBAGENT_RUNNING and status == SUBAGENT_FINISHED and (sub["done"] or final):
            self.aside.append(["s", sub["last"] or sub["started"], f"subagent finished: {description}", agent_id,
                               SUBAGENT_FINISHED])
            sub["told"] = SUBAGENT_FINISHED

    def _prompt(self, text: str, timestamp: object) -> list[Event]:
        entries = self.user_prompt(text, timestamp)
        if text.startswith(_INTERRUPTED):  # the person stopped the turn: the agent waits for them
            self._status(AGENT_WAITING)
        return entries

    def _bill(self, line: dict[str, object], message: dict[str, object], own: bool) -> None:
        """Count the answer a line is part of, once: Claude writes one line per content block of an
        answer, each with the answer's whole usage, so a line whose (message id, request id) was
        counted already adds nothing (a line without both is counted, as ccusage does)."""
        usage = message.get("usage")
        if not isinstance(usage, dict):
            return
        message_id, request_id = text_of(message.get("id")), text_of(line.get("requestId"))
        if message_id is not None and request_id is not None:
            key = f"{message_id}:{request_id}"
            if key in self.billed:
                return
            self.billed = [*self.billed[1 - BILLED_KEEP:], key]
        self.tokens(usage.get("input_tokens"), usage.get("output_tokens"), usage.get("cache_read_input_tokens"),
                    usage.get("cache_creation_input_tokens"), timestamp=line.get("timestamp"),
                    model=text_of(message.get("model")), own=own)

    def _assistant(self, line: dict[str, object], message: dict[str, object], content: object,
                   timestamp: object) -> list[Event]:
        self._set("model", text_of(message.get("model")))
        self._bill(line, message, own=True)
        if not isinstance(content, list):
            return []
        out: list[Event] = []
        ends = message.get("stop_reason") == "end_turn"
        for block in content:
            if not isinstance(block, dict):
                continue
            if block.get("type") == "text" and isinstance(block.get("text"), str) and block["text"].strip():
                out += self.assistant_text(block["text"], timestamp, text_of(message.get("model")), ends)
            elif block.get("type") == "tool_use" and isinstance(block.get("id"), str):
                self._status(AGENT_WORKING)
                name = block.get("name")
                if name in TASK_TOOLS or name == "TodoWrite":
                    self.calls[block["id"]] = {"name": name, "input": block.get("input")}
                elif name in AGENT_TOOLS and isinstance(block.get("input"), dict):
                    given = block["input"]
                    self.spawns[block["id"]] = {"description": text_of(given.get("description")),
                                                "prompt": _digest(text_of(given.get("prompt")) or ""), "answered": False}
        return out

    def _result(self, block: dict[str, object], result: object, timestamp: object) -> list[Event]:
        call_id = block.get("tool_use_id")
        if not isinstance(call_id, str):
            return []
        if call_id in self.spawns:
            self._answered(call_id, block, result)
            return []
        call = self.calls.pop(call_id, None)
        if call is None or block.get("is_error") is True:
            return []
        name, agent = call["name"], call.get("agent")
        given: dict[str, object] = call["input"] if isinstance(call["input"], dict) else {}
        said = isinstance(result, dict)  # (a subagent's results have no toolUseResult: only their text)
        got: dict[str, object] = result if isinstance(result, dict) else {}
        if name == "TodoWrite":
            # the result's list is what Claude kept; the call's is what the model sent
            todos = next((t for t in (got.get("newTodos"), given.get("todos")) if isinstance(t, list)), None)
            if todos is None:
                self.warn("TodoWrite without a list of todos (ignored)")
                return []
            return self.new_plan(self._lists_with(agent, self.whole_list(todos, "content", name, "todo")),
                                 timestamp, "TodoWrite", "todo", call_id, by=self._maker(agent))
        if name == "TaskCreate" and not said:
            created = _CREATED.search(_result_text(block.get("content")))
            if created is not None:
                got = {"task": {"id": created.group(1)}}
        elif name in ("TaskList", "TaskGet") and not said:
            return []  # (only its text restates the tasks: nothing new)
        tasks = self._tasks_after(name, given, got, self._maker(agent))
        if tasks is None:
            return []
        return self.new_plan([tidy(t) for t in tasks], timestamp, "TaskCreate/TaskUpdate", "task", call_id,
                             by=self._maker(agent))

    def _answered(self, call_id: str, block: dict[str, object], result: object) -> None:
        """The result of an Agent call: the subagent it names finished when the result says it
        completed (a background subagent's first result only says it started)."""
        self.spawns[call_id]["answered"] = True
        agent_id = text_of(result.get("agentId")) if isinstance(result, dict) else None
        if agent_id is not None:
            sub = self._sub(agent_id)
            sub["call"] = sub["call"] or call_id
            sub["description"] = sub["description"] or self.spawns[call_id]["description"]
            if block.get("is_error") is True or (isinstance(result, dict) and result.get("status") == "completed"):
                sub["done"] = True
        self._publish()

    def _lists_with(self, agent: str | None, items: list[PlanItem]) -> list[PlanItem]:
        """The conversation's TodoWrite plan once ``agent``'s list is ``items``: each agent keeps a
        list of its own; the conversation's own agent's comes first, then each subagent's, its items
        numbered ``s<n>.<place>`` (of the ``n``-th subagent) and marked with its description."""
        if agent is not None:
            n = list(self.subs).index(agent) + 1 if agent in self.subs else len(self.subs) + 1
            maker = self._maker(agent) or ""
            items = [tidy({**item, "id": f"s{n}.{item['id']}", "madeBy": maker}) for item in items]
        self.lists[agent or ""] = items
        order = [""] + [a for a in self.subs if a in self.lists]
        return [item for key in order if key in self.lists for item in self.lists[key]]

    def _tasks_after(self, name: str, given: dict[str, object], result: dict[str, object],
                     maker: str | None = None) -> list[PlanItem] | None:
        """The task list after one Task tool's successful result; None when it says nothing new.
        ``maker``: the subagent that made the call (a task it creates is marked with it)."""
        tasks = [t.copy() for t in self.plan]
        by_id = {t["id"]: t for t in tasks}
        if name == "TaskCreate":
            task = result.get("task")
            task_id = task_id_of(task.get("id")) if isinstance(task, dict) else None
            if not isinstance(task, dict) or task_id is None:
                self.warn("TaskCreate's result names no task id (the new task is not shown)")
                return None
            new = plan_item(task_id, text_of(task.get("subject")) or text_of(given.get("subject")) or "",
                            "pending", activeForm=text_of(given.get("activeForm")),
                            description=text_of(task.get("description")) or text_of(given.get("description")),
                            blocks=[], blockedBy=[], madeBy=maker)
            if task_id in by_id:  # Claude never reuses an id; the newer task replaces the older
                self.warn(f"TaskCreate's result names task #{task_id} again (the older one is replaced)")
                return [new if t["id"] == task_id else t for t in tasks]
            return tasks + [new]
        if name == "TaskUpdate":
            if result.get("success") is False:
                return None
            task_id = task_id_of(given.get("taskId"))
            task = by_id.get(task_id or "")
            if task is None:
                self.warn(f"TaskUpdate of {'task #' + task_id + ', which is not in the plan' if task_id else 'no task id'} "
                          "(ignored)")
                return None
            for key in ("subject", "status", "activeForm", "description"):
                if given.get(key) is not None and not isinstance(given.get(key), str):
                    self.warn(f"TaskUpdate: {key} is not text (ignored)")
            if given.get("status") == "deleted":  # gone, and from what the others block and wait for
                return [_without(t, task["id"]) for t in tasks if t is not task]
            _apply(task, given)
            # A dependency has two ends, and Claude records both: the task this one blocks waits
            # for it, the task it waits for blocks it.
            ends: tuple[tuple[str, Link, Link], ...] = (("addBlocks", "blocks", "blockedBy"),
                                                        ("addBlockedBy", "blockedBy", "blocks"))
            for key, field, other in ends:
                for other_id in _ids(given.get(key)):
                    _add(task, field, other_id)
                    if other_id in by_id:
                        _add(by_id[other_id], other, task["id"])
            return tasks
        if name == "TaskList":
            listed = result.get("tasks")
            if not isinstance(listed, list):
                self.warn("TaskList's result holds no list of tasks (ignored)")
                return None
            ids = [task_id_of(each.get("id")) if isinstance(each, dict) else None for each in listed]
            if None in ids:  # the whole list or nothing: a task left out would read as deleted
                self.warn("TaskList's result has tasks without an id (ignored)")
                return None
            out: dict[str, PlanItem] = {}
            for task_id, each in zip(ids, listed):
                if task_id is not None and isinstance(each, dict):  # (every one, as checked above)
                    known = out.get(task_id) or by_id.get(task_id) or plan_item(task_id, "", "pending")
                    out[task_id] = _apply(known.copy(), each)
            return list(out.values())
        if name == "TaskGet":
            each = result.get("task")
            got_id = task_id_of(each.get("id")) if isinstance(each, dict) else None
            if not isinstance(each, dict) or got_id is None:
                if each is not None:  # (a result without a task restates nothing)
                    self.warn("TaskGet's result names no task id (ignored)")
                return None
            if got_id in by_id:
                _apply(by_id[got_id], each)
            else:
                tasks.append(_apply(plan_item(got_id, "", "pending"), each))
            return tasks
        return None


def _apply(task: PlanItem, fields: dict[str, object]) -> PlanItem:
    """A Task tool's fields (an update's input, or a task as TaskList/TaskGet restate it) over a
    plan item; fields of the wrong type are left out."""
    if (subject := text_of(fields.get("subject"))) is not None:
        task["content"] = subject
    if (status := text_of(fields.get("status"))) is not None:
        task["status"] = status
    if (active := text_of(fields.get("activeForm"))) is not None:
        task["activeForm"] = active
    if (description := text_of(fields.get("description"))) is not None:
        task["description"] = description
    for key in LINKS:
        value = fields.get(key)
        if isinstance(value, list):
            task[key] = _ids(value)
    return task


def _add(task: PlanItem, field: Link, task_id: str) -> None:
    if task_id not in (task.get(field) or []):
        task[field] = [*(task.get(field) or []), task_id]


def _without(task: PlanItem, task_id: str) -> PlanItem:
    for field in LINKS:
        if task_id in (task.get(field) or []):
            task[field] = [i for i in task[field] if i != task_id]
    return task


def task_id_of(value: object) -> str | None:
    """A task id as Claude writes it (a string of digits), or a whole number taken as one; None for
    anything else, the empty string among them (an item must have an id)."""
    if isinstance(value, str):
        return value or None
    if type(value) is int:
        return str(value)
    return None


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def _result_text(content: object) -> str:
    """A tool result's text: a string, or the text of its text blocks."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(b["text"] for b in content if isinstance(b, dict) and isinstance(b.get("text"), str))
    return ""


def _ids(value: object) -> list[str]:
    """The task ids in a list of them (``blocks``, ``addBlockedBy``...); anything else is none."""
    if not isinstance(value, list):
        return []
    return [i for i in map(task_id_of, value) if i is not None]
