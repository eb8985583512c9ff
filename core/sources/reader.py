"""The shape every agent reader has: lines in, mirror entries out, state kept as JSON
(docs/agent-conversations.md#how-pideck-reads-them).

A reader is fed one parsed line at a time, in file order, and answers with the entries the line
adds to the conversation's mirror (a pi-format log pideck keeps under its own home; the agent's
files are only ever read). Its whole state is plain JSON (``save``), so following a transcript can
stop after any line and go on later from exactly there.
"""

from __future__ import annotations

from typing import Any

from core.clock import iso_ms
from core.sources.plan import describe_change, first_line, int_or_none, numbered, plan_item, text_of

AGENT_WORKING, AGENT_WAITING, AGENT_ENDED = "working", "waiting", "ended"


class Reader:
    """Base of the three readers. Subclasses set ``KIND`` and write ``feed``."""

    KIND = ""

    def __init__(self, saved: dict[str, Any] | None = None) -> None:
        saved = saved or {}
        self.plan: list[dict[str, Any]] = list(saved.get("plan", []))
        self.info: dict[str, Any] = dict(saved.get("info", {})) or {"kind": self.KIND}
        self.extra: dict[str, Any] = dict(saved.get("extra", {}))
        """What a reader needs across lines besides the plan (pending tool calls and the like)."""
        self.last_ts: str | None = saved.get("last_ts")
        self.first_ts: str | None = saved.get("first_ts")
        self.notes: list[str] = []
        """Warnings about the line just fed (the mirror tells them with the line's number and
        clears them); never saved."""

    def save(self) -> dict[str, Any]:
        return {"plan": self.plan, "info": self.info, "extra": self.extra, "last_ts": self.last_ts,
                "first_ts": self.first_ts}

    def feed(self, line: Any) -> list[dict[str, Any]]:
        raise NotImplementedError

    # -- what subclasses report -----------------------------------------------------------------

    def seen_at(self, value: Any) -> None:
        """A line stamped ``value`` was read (any line: the last one's time is the conversation's
        last activity, ``Mirror.last_activity_ms``)."""
        if iso_ms(value) is not None:
            self.last_ts = value
            self.first_ts = self.first_ts or value

    def _moment(self, value: Any) -> str:
        """The entry time: the line's own when it is a valid time, else the last one seen."""
        self.seen_at(value)
        return self.last_ts or "1970-01-01T00:00:00.000Z"

    def _set(self, key: str, value: Any) -> None:
        if value is not None:
            self.info[key] = value

    def _status(self, status: str) -> None:
        self.info["status"] = status

    def warn(self, text: str) -> None:
        """Something in the line being fed that the reader could not use (said once per line)."""
        if text not in self.notes:
            self.notes.append(text)

    def objects(self, values: list[Any], tool: str, noun: str) -> list[dict[str, Any]]:
        """The objects among a plan tool's list items; a warning when some are not objects."""
        kept = [v for v in values if isinstance(v, dict)]
        if len(kept) < len(values):
            left = len(values) - len(kept)
            self.warn(f"{tool}: {left} {noun}{'' if left == 1 else 's'} that {'is' if left == 1 else 'are'} "
                      "not an object left out")
        return kept

    def text(self, holder: dict[str, Any], key: str, tool: str, default: str) -> str:
        """``holder[key]`` when it is a string, else ``default``, with a warning when the field is
        there but holds something else (a number, a list, null)."""
        value = holder.get(key, default)
        if isinstance(value, str):
            return value
        self.warn(f"{tool}: {key} is not text (taken as {default!r})")
        return default

    def whole_list(self, values: list[Any], text_key: str, tool: str, noun: str) -> list[dict[str, Any]]:
        """The items of a tool that sends its whole list each call (TodoWrite, update_plan,
        write_todos): each one's text under ``text_key``, its status, an ``activeForm`` where it
        has one, and its place in the list as its id."""
        return numbered(plan_item("", self.text(v, text_key, tool, ""), self.text(v, "status", tool, "pending"),
                                  activeForm=text_of(v.get("activeForm")))
                        for v in self.objects(values, tool, noun))

    def user_prompt(self, text: str, timestamp: Any) -> list[dict[str, Any]]:
        self._status(AGENT_WORKING)
        ts = self._moment(timestamp)
        return [_message(ts, {"role": "user", "content": [{"type": "text", "text": text}]})]

    def assistant_text(self, text: str, timestamp: Any, usage: dict[str, int] | None = None,
                       model: str | None = None, ends_turn: bool = True) -> list[dict[str, Any]]:
        if ends_turn:
            self._status(AGENT_WAITING)
        ts = self._moment(timestamp)
        self.info["lastMessage"] = first_line(text)
        body: dict[str, Any] = {"role": "assistant", "content": [{"type": "text", "text": text}]}
        if model is not None:
            body["model"] = model
        if usage is not None:
            body["usage"] = usage
        body["stopReason"] = "stop" if ends_turn else "toolUse"
        return [_message(ts, body)]

    def new_plan(self, items: list[dict[str, Any]], timestamp: Any, tool: str, noun: str,
                 call_id: str, explanation: str | None = None) -> list[dict[str, Any]]:
        """The plan became ``items``: one tool result of the ``todo`` tool holding it (what the todo
        fold, the strip and the time travel read), or nothing when it did not change."""
        if items == self.plan and explanation is None:
            return []
        text = describe_change(self.plan, items, noun)
        self.plan = items
        ts = self._moment(timestamp)
        agent_plan: dict[str, Any] = {"agent": self.KIND, "tool": tool, "noun": noun}
        if explanation is not None:
            agent_plan["explanation"] = explanation
        details = {"todos": items, "plan": {}, "goals": [], "agentPlan": agent_plan}
        body = {"role": "toolResult", "toolCallId": call_id, "toolName": "todo",
                "content": [{"type": "text", "text": text}], "details": details, "isError": False}
        return [_message(ts, body)]

    def tokens(self, input: Any, output: Any, cache_read: Any = None, cache_write: Any = None,
               window: Any = None, context: Any = None) -> dict[str, int]:
        """Record the last turn's token use (in the agent object) and answer it as pi writes an
        assistant message's ``usage``."""
        used = {"input": int_or_none(input) or 0, "output": int_or_none(output) or 0,
                "cacheRead": int_or_none(cache_read) or 0, "cacheWrite": int_or_none(cache_write) or 0}
        used["totalTokens"] = sum(used.values())
        shown: dict[str, Any] = dict(used)
        window = int_or_none(window)
        if window:
            shown["contextWindow"] = window
            in_context = int_or_none(context)
            if in_context is None:
                in_context = used["totalTokens"]
            shown["contextShare"] = round(in_context / window, 4)
        self.info["tokens"] = shown
        return used


def _message(timestamp: str, body: dict[str, Any]) -> dict[str, Any]:
    ms = iso_ms(timestamp)
    return {"type": "message", "timestamp": timestamp, "message": {**body, "timestamp": ms or 0}}
