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

from typing import Any

from core.sources.plan import text_of
from core.sources.reader import AGENT_WAITING, AGENT_WORKING, Reader


class GeminiReader(Reader):
    KIND = "gemini"

    def feed(self, line: Any) -> list[dict[str, Any]]:
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
        seen = self.extra.setdefault("seen", {})  # record id -> [text said, tool call ids taken]
        said, taken = seen.get(record_id, [False, []])
        order: list[str] = self.extra.setdefault("order", [])
        if record_id not in seen:
            order.append(record_id)
        out: list[dict[str, Any]] = []
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
            used = self.tokens(tokens.get("input"), tokens.get("output"), tokens.get("cached")) \
                if isinstance(tokens, dict) else None
            given = line.get("toolCalls")
            calls: list[Any] = given if isinstance(given, list) else []
            for call in calls:
                if not isinstance(call, dict) or str(call.get("id")) in taken:
                    continue
                if call.get("status") not in (None, "success", "error", "cancelled"):
                    continue  # still running: a later copy of the record tells how it ended
                taken = taken + [str(call.get("id"))]
                out += self._call(call, timestamp, record_id)
            text = text_of(line.get("content"))
            if text and text.strip() and not said:
                out += self.assistant_text(text, timestamp, used, text_of(line.get("model")), ends_turn=not calls)
                said = True
            elif calls:
                self._status(AGENT_WORKING)
        seen[record_id] = [said, taken]
        return out

    def _call(self, call: dict[str, Any], timestamp: Any, record_id: str) -> list[dict[str, Any]]:
        args = call.get("args")
        if call.get("name") != "write_todos" or call.get("status") not in (None, "success"):
            return []
        if not isinstance(args, dict) or not isinstance(args.get("todos"), list):
            self.warn("write_todos without a list of todos (ignored)")
            return []
        items = self.whole_list(args["todos"], "description", "write_todos", "todo")
        entries = self.new_plan(items, timestamp, "write_todos", "todo", str(call.get("id")))
        self.extra.setdefault("plans", []).append([record_id, self.plan])
        return entries

    def _rewind(self, target: Any) -> list[dict[str, Any]]:
        order: list[str] = self.extra.get("order", [])
        if not isinstance(target, str) or target not in order:
            self.warn("$rewindTo names no record of this file (ignored)")
            return []
        kept = set(order[: order.index(target)])
        self.extra["order"] = order[: order.index(target)]
        self.extra["seen"] = {k: v for k, v in self.extra.get("seen", {}).items() if k in kept}
        plans = [p for p in self.extra.get("plans", []) if p[0] in kept]
        self.extra["plans"] = plans
        self._status(AGENT_WAITING)
        return self.new_plan(plans[-1][1] if plans else [], None, "write_todos", "todo", f"rewind:{target}")
