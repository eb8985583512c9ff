"""Gemini CLI's chat file (``~/.gemini/tmp/<project>/chats/session-<time>-<id8>.jsonl``)
(docs/agent-conversations.md#gemini-cli).

A header line (``sessionId``, ``projectHash``, ``startTime``; written again by ``--resume``), then
message records and patch lines. A record is written again under the same ``id`` when it changes
(the model's answer first, the same answer with its ``toolCalls`` once the tools ran), so the last
copy wins: what a record said before is not said again. ``{"$set": ...}`` patches the header (its
``messages`` restate records already in the file); ``{"$rewindTo": id}`` drops that record and
everything after it, so the plan goes back to what it was before it. ``write_todos`` sends the
whole list each call.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.sources.plan import int_or_none, text_of
from core.sources.reader import AGENT_WAITING, AGENT_WORKING, Reader

if TYPE_CHECKING:  # (the type checker's alone: a TypedDict compiles its annotations as it is made)
    from typing import NotRequired, TypedDict

    from core.sources.reader import Event
    from core.sources.plan import PlanItem
    from core.sources.reader import ReaderState

    class Seen(TypedDict):
        """What the events already hold of a record: its text, and which of its tool calls."""

        said: bool
        taken: list[str]  # the ids of the tool calls read
        billed: NotRequired[bool]  # its tokens were counted (a record is written again as it grows)

    class PlanAt(TypedDict):
        """The plan as a record's ``write_todos`` call left it (a rewind goes back to it)."""

        record: str  # the record's id
        plan: list[PlanItem]

    class GeminiState(ReaderState):
        """What a Gemini CLI reader saves: besides the plan, what it made of each record so far."""

        seen: dict[str, Seen]  # by record id
        order: list[str]  # the record ids in the order of their first copy
        plans: list[PlanAt]  # oldest first


class GeminiReader(Reader):
    KIND = "gemini"

    def __init__(self, saved: GeminiState | None = None) -> None:
        super().__init__(saved)
        # (what a later copy of a record, or a ``$rewindTo``, needs to know about the earlier ones)
        self.seen: dict[str, Seen] = dict(saved["seen"]) if saved else {}
        self.order: list[str] = list(saved["order"]) if saved else []
        self.plans: list[PlanAt] = list(saved["plans"]) if saved else []

    def save(self) -> GeminiState:
        return {**super().save(), "seen": self.seen, "order": self.order, "plans": self.plans}

    def feed(self, line: object) -> list[Event]:
        if not isinstance(line, dict):
            return []
        if "$set" in line:
            patch = line["$set"]
            if isinstance(patch, dict):
                self._set("sessionId", text_of(patch.get("sessionId")))
            return []
        if "$rewindTo" in line:
            return self._rewind(line["$rewindTo"])
        record_id = text_of(line.get("id"))
        if record_id is None:
            if "projectHash" in line or "startTime" in line:  # a header
                self._set("sessionId", text_of(line.get("sessionId")))
                self._moment(line.get("startTime"))
            return []
        kind = line.get("type")
        seen = self.seen.get(record_id)
        said, taken = (seen["said"], seen["taken"]) if seen is not None else (False, [])
        billed = seen.get("billed", False) if seen is not None else False
        if seen is None:
            self.order.append(record_id)
        out: list[Event] = []
        timestamp = line.get("timestamp")
        if kind == "user":
            parts = line.get("content")
            texts = [p["text"] for p in parts if isinstance(p, dict) and isinstance(p.get("text"), str)] \
                if isinstance(parts, list) else [parts] if isinstance(parts, str) else []
            if texts and not said:
                out += self.user_prompt("\n".join(texts), timestamp)
                said = True
            elif not texts:
                self._status(AGENT_WORKING)  # a tool's answer going back to the model
        elif kind == "gemini":
            self._set("model", text_of(line.get("model")))
            tokens = line.get("tokens")
            if isinstance(tokens, dict) and not billed:
                # (Gemini's input counts the cached tokens too; its thoughts are paid as output)
                prompt, cached = int_or_none(tokens.get("input")), int_or_none(tokens.get("cached")) or 0
                output = (int_or_none(tokens.get("output")) or 0) + (int_or_none(tokens.get("thoughts")) or 0)
                self.tokens(max(prompt - cached, 0) if prompt is not None else None, output, cached,
                            timestamp=timestamp, model=text_of(line.get("model")))
                billed = True
            given = line.get("toolCalls")
            calls: list[object] = given if isinstance(given, list) else []
            for call in calls:
                if not isinstance(call, dict) or str(call.get("id")) in taken:
                    continue
                if call.get("status") not in (None, "success", "error", "cancelled"):
                    continue  # still running: a later copy of the record tells how it ended
                taken = taken + [str(call.get("id"))]
                out += self._call(call, timestamp, record_id)
            text = text_of(line.get("content"))
            if text and text.strip() and not said:
                out += self.assistant_text(text, timestamp, text_of(line.get("model")), ends_turn=not calls)
                said = True
            elif calls:
                self._status(AGENT_WORKING)
        self.seen[record_id] = {"said": said, "taken": taken, "billed": billed}
        return out

    def _call(self, call: dict[str, object], timestamp: object, record_id: str) -> list[Event]:
        args = call.get("args")
        if call.get("name") != "write_todos" or call.get("status") not in (None, "success"):
            return []
        if not isinstance(args, dict) or not isinstance(args.get("todos"), list):
            self.warn("write_todos without a list of todos (ignored)")
            return []
        items = self.whole_list(args["todos"], "description", "write_todos", "todo")
        entries = self.new_plan(items, timestamp, "write_todos", "todo", str(call.get("id")))
        self.plans.append({"record": record_id, "plan": self.plan})
        return entries

    def _rewind(self, target: object) -> list[Event]:
        if not isinstance(target, str) or target not in self.order:
            self.warn("$rewindTo names no record of this file (ignored)")
            return []
        self.order = self.order[: self.order.index(target)]
        kept = set(self.order)
        self.seen = {k: v for k, v in self.seen.items() if k in kept}
        self.plans = [p for p in self.plans if p["record"] in kept]
        self._status(AGENT_WAITING)
        return self.new_plan(self.plans[-1]["plan"] if self.plans else [], None, "write_todos", "todo", f"rewind:{target}")
