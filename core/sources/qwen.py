"""Qwen Code's chat file (``<qwen home>/projects/<cwd slug>/chats/<session id>.jsonl``)
(docs/agent-conversations.md#qwen-code).

One record a line, appended, chained by ``uuid``/``parentUuid``: ``user`` (the person's prompt in
``message.parts[].text``), ``assistant`` (the model's text and ``functionCall`` parts, its ``model``
and ``usageMetadata``), ``tool_result`` (a tool's answer; ``toolCallResult.resultDisplay`` is
``{"type": "todo_list", "todos": [...]}`` after a ``todo_write``: the whole list as Qwen kept it,
with its own ids), ``system`` (telemetry, attribution snapshots: only their time is read). A
``todo_write`` changes the plan when its result arrives, so a call that failed changes nothing.

The chain holds the plan's whole history, so Qwen's ``todos/<session id>.json`` (the latest list
alone, rewritten in place) is never read. A record whose parent is an earlier record than the last
one read starts a branch (a rewind): the plan goes back to what it was at that parent.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.sources.plan import plan_item, text_of
from core.sources.reader import AGENT_WORKING, Reader

TOOL = "todo_write"
SETUP_PROMPT = "We are setting up the context for our chat."
"""In the first message Qwen Code (like Gemini CLI) sends the model before the person's prompt."""
SETUP_ANSWER = "Got it. Thanks for the context!"
"""The canned answer to it."""

if TYPE_CHECKING:  # (the type checker's alone: a TypedDict compiles its annotations as it is made)
    from core.sources.plan import PlanItem
    from core.sources.reader import Event, ReaderState

    class QwenState(ReaderState):
        """What a Qwen Code reader saves: besides the plan, where each record left it."""

        last: str | None  # the uuid of the last record read
        plans: list[list[PlanItem]]  # every plan the conversation had, oldest first
        at: dict[str, int]  # by record uuid: how many of ``plans`` there were after it
        setup: bool  # the setup context was just sent: its canned answer is no answer


class QwenReader(Reader):
    KIND = "qwen"

    def __init__(self, saved: QwenState | None = None) -> None:
        super().__init__(saved)
        self.last: str | None = saved["last"] if saved else None
        self.plans: list[list[PlanItem]] = list(saved["plans"]) if saved else []
        self.at: dict[str, int] = dict(saved["at"]) if saved else {}
        self.setup: bool = saved["setup"] if saved else False

    def save(self) -> QwenState:
        return {**super().save(), "last": self.last, "plans": self.plans, "at": self.at, "setup": self.setup}

    def feed(self, line: object) -> list[Event]:
        if not isinstance(line, dict):
            return []
        kind = line.get("type")
        if kind not in ("user", "assistant", "tool_result", "system"):
            return []
        self._set("sessionId", text_of(line.get("sessionId")))
        self._set("cwd", text_of(line.get("cwd")))
        self._set("version", text_of(line.get("version")))
        timestamp = line.get("timestamp")
        self.seen_at(timestamp)
        out = self._branch(line)
        if kind == "user":
            out += self._user(line.get("message"), timestamp)
        elif kind == "assistant":
            out += self._assistant(line, timestamp)
        elif kind == "tool_result":
            self._status(AGENT_WORKING)  # a tool's answer going back to the model
            out += self._result(line, timestamp)
        uuid = text_of(line.get("uuid"))
        if uuid:
            self.last = uuid
            self.at[uuid] = len(self.plans)
        return out

    def _branch(self, line: dict[str, object]) -> list[Event]:
        """A record that follows another than the last one read: the plan as that one left it."""
        parent = text_of(line.get("parentUuid"))
        if parent is None or parent == self.last or parent not in self.at:
            return []
        kept = self.at[parent]
        if kept == len(self.plans):
            return []
        del self.plans[kept:]
        return self.new_plan(self.plans[-1] if self.plans else [], line.get("timestamp"), TOOL, "todo",
                             f"branch:{parent}")

    def _user(self, message: object, timestamp: object) -> list[Event]:
        texts = _texts(message)
        if texts is None:
            self.warn("a user record without message parts (ignored)")
            return []
        if not texts:
            self._status(AGENT_WORKING)
            return []
        text = "\n".join(texts)
        if SETUP_PROMPT in text.split("\n", 1)[0]:
            self.setup = True  # what Qwen tells the model about the machine, not the person's prompt
            return []
        self.setup = False
        return self.user_prompt(text, timestamp)

    def _assistant(self, line: dict[str, object], timestamp: object) -> list[Event]:
        model = text_of(line.get("model"))
        self._set("model", model)
        usage = line.get("usageMetadata")
        used = None
        if isinstance(usage, dict):
            prompt, cached = usage.get("promptTokenCount"), usage.get("cachedContentTokenCount")
            fresh = prompt - cached if type(prompt) is int and type(cached) is int and prompt >= cached else prompt
            output, thoughts = usage.get("candidatesTokenCount"), usage.get("thoughtsTokenCount")
            if type(output) is int and type(thoughts) is int:
                output = output + thoughts
            self.tokens(fresh, output, cached, timestamp=timestamp, model=model)
        message = line.get("message")
        texts = _texts(message, answers=True)
        if texts is None:
            self.warn("an assistant record without message parts (ignored)")
            return []
        parts = message.get("parts") if isinstance(message, dict) else None
        calls = isinstance(parts, list) and any(isinstance(p, dict) and "functionCall" in p for p in parts)
        text = "\n".join(texts)
        if self.setup and text.strip() == SETUP_ANSWER:
            self.setup = False
            return []
        if calls:
            self._status(AGENT_WORKING)
        if not text.strip():
            return []
        return self.assistant_text(text, timestamp, model, ends_turn=not calls)

    def _result(self, line: dict[str, object], timestamp: object) -> list[Event]:
        result = line.get("toolCallResult")
        if not isinstance(result, dict):
            return []
        shown = result.get("resultDisplay")
        if not isinstance(shown, dict) or shown.get("type") != "todo_list":
            return []
        if result.get("status") not in (None, "success"):
            return []  # a call that failed changed nothing
        todos = shown.get("todos")
        if not isinstance(todos, list):
            self.warn(f"{TOOL}: a todo_list without a list of todos (ignored)")
            return []
        items = self._items(todos)
        call_id = text_of(result.get("callId")) or text_of(line.get("uuid")) or ""
        entries = self.new_plan(items, timestamp, TOOL, "todo", call_id)
        if entries:
            self.plans.append(self.plan)
        return entries

    def _items(self, todos: list[object]) -> list[PlanItem]:
        """Qwen's todos with their own ids (its place in the list for one without an id)."""
        items: list[PlanItem] = []
        for n, todo in enumerate(self.objects(todos, TOOL, "todo"), 1):
            item_id = todo.get("id")
            if type(item_id) is int:
                item_id = str(item_id)
            if not isinstance(item_id, str) or not item_id:
                self.warn(f"{TOOL}: a todo without an id (numbered by its place)")
                item_id = str(n)
            items.append(plan_item(item_id, self.text(todo, "content", TOOL, ""),
                                   self.text(todo, "status", TOOL, "pending")))
        return items


def _texts(message: object, answers: bool = False) -> list[str] | None:
    """The text parts of a record's message (None: it has no list of parts); of the model's,
    its thoughts are left out."""
    parts = message.get("parts") if isinstance(message, dict) else None
    if not isinstance(parts, list):
        return None
    return [p["text"] for p in parts if isinstance(p, dict) and isinstance(p.get("text"), str)
            and not (answers and p.get("thought") is True)]
