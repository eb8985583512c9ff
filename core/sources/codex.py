"""Codex's rollout (``$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<thread id>.jsonl``):
``{timestamp, type, payload}`` lines (docs/agent-conversations.md#codex).

The plan lives only in ``function_call`` lines named ``update_plan``, whose ``arguments`` is a
JSON string holding the whole plan (and maybe an ``explanation``); the line is written as soon as
the model asked, before the tool ran, and the tool only ever answers "Plan updated", so the call
is the change. A turn runs from ``task_started`` to ``task_complete`` (or ``turn_aborted``).
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING

from core.sources.plan import first_line, int_or_none, text_of
from core.sources.reader import AGENT_WAITING, AGENT_WORKING, Reader

if TYPE_CHECKING:
    from core.sources.reader import Event, ReaderState

    class CodexState(ReaderState):
        """What a Codex reader saves: besides the plan, the conversation's token total last counted."""

        counted: int | None
        compacting: bool  # a ``compacted`` line was read, its ``context_compacted`` event not yet

_CONTEXT_BLOCK = re.compile(r"\A\s*<([A-Za-z_][\w-]*)[^>]*>.*</\1>\s*\Z", re.DOTALL)
"""A user message that is one tagged block (``<environment_context>...``) is context Codex adds,
not something the person typed."""


class CodexReader(Reader):
    KIND = "codex"
    PROVIDER = "openai"

    def __init__(self, saved: CodexState | None = None) -> None:
        super().__init__(saved)
        self.counted: int | None = saved["counted"] if saved else None
        self.compacting: bool = saved.get("compacting", False) if saved else False

    def save(self) -> CodexState:
        return {**super().save(), "counted": self.counted, "compacting": self.compacting}

    def feed(self, line: object) -> list[Event]:
        if not isinstance(line, dict) or not isinstance(line.get("payload"), dict):
            return []
        kind, payload, timestamp = line.get("type"), line["payload"], line.get("timestamp")
        if kind == "session_meta":
            self._set("sessionId", text_of(payload.get("id")))
            self._set("cwd", text_of(payload.get("cwd")))
            self._set("version", text_of(payload.get("cli_version")))
            self._moment(timestamp)
            return []
        if kind == "turn_context":
            self._set("cwd", text_of(payload.get("cwd")))
            self._set("model", text_of(payload.get("model")))
            return []
        if kind == "event_msg":
            return self._event(payload, timestamp)
        if kind == "response_item":
            return self._item(payload, timestamp)
        if kind == "compacted":  # (the summary that replaced the context: docs/usage.md#context-and-compactions)
            self.compacted(timestamp)
            self.compacting = True
        return []

    def _event(self, payload: dict[str, object], timestamp: object) -> list[Event]:
        event, info = payload.get("type"), payload.get("info")
        if event == "task_started":
            self._status(AGENT_WORKING)
        elif event in ("task_complete", "turn_aborted"):
            self._status(AGENT_WAITING)
            self._moment(timestamp)
            if (last := text_of(payload.get("last_agent_message"))) is not None and last.strip():
                self.info["lastMessage"] = first_line(last)
        elif event == "context_compacted":
            # (Codex tells a compaction twice, its ``compacted`` line then this event: once is
            # counted; the event alone counts too, for a Codex that writes no such line)
            if not self.compacting:
                self.compacted(timestamp)
            self.compacting = False
        elif event == "token_count" and isinstance(info, dict):
            self.compacting = False
            last, total = info.get("last_token_usage"), info.get("total_token_usage")
            counted = int_or_none(total.get("total_tokens")) if isinstance(total, dict) else None
            # (Codex says the same totals again, when its rate limits change: an answer is counted
            # when the conversation's total grew)
            if counted is not None and counted == self.counted:
                return []
            self.counted = counted
            if isinstance(last, dict):
                total = last.get("input_tokens")
                cached = last.get("cached_input_tokens")
                fresh = total - cached if type(total) is int and type(cached) is int and total >= cached else total
                self.tokens(fresh, last.get("output_tokens"), cached, last.get("cache_write_input_tokens"),
                            info.get("model_context_window"), last.get("total_tokens"), timestamp=timestamp)
        return []

    def _item(self, payload: dict[str, object], timestamp: object) -> list[Event]:
        item = payload.get("type")
        if item == "message":
            blocks = payload.get("content")
            texts = [b["text"] for b in blocks if isinstance(b, dict) and b.get("type") in ("input_text", "output_text")
                     and isinstance(b.get("text"), str)] if isinstance(blocks, list) else []
            text = "\n".join(texts)
            if not text.strip():
                return []
            role = payload.get("role")
            if role == "user" and not _CONTEXT_BLOCK.match(text):
                return self.user_prompt(text, timestamp)
            if role == "assistant":
                return self.assistant_text(text, timestamp, model=self.info.get("model"), ends_turn=False)
            return []
        if item == "function_call":
            self._status(AGENT_WORKING)
            if payload.get("name") != "update_plan":
                return []
            arguments = payload.get("arguments")
            if isinstance(arguments, str):  # as 0.169 writes them (an object is taken as they are)
                try:
                    arguments = json.loads(arguments)
                except (ValueError, RecursionError):
                    self.warn("update_plan's arguments are not JSON (ignored)")
                    return []
            if not isinstance(arguments, dict) or not isinstance(arguments.get("plan"), list):
                self.warn("update_plan's arguments hold no plan list (ignored)")
                return []
            items = self.whole_list(arguments["plan"], "step", "update_plan", "step")
            return self.new_plan(items, timestamp, "update_plan", "step",
                                 str(payload.get("call_id") or ""), text_of(arguments.get("explanation")))
        return []
