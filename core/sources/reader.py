"""The shape every agent reader has: lines in, mirror entries out, state kept as JSON
(docs/agent-conversations.md#how-pideck-reads-them).

A reader is fed one parsed line at a time, in file order, and answers with the entries the line
adds to the conversation's mirror (a pi-format log pideck keeps under its own home; the agent's
files are only ever read). Its whole state is plain JSON (``save``), so following a transcript can
stop after any line and go on later from exactly there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from core.clock import iso_ms
from core.sources.plan import describe_change, first_line, int_or_none, numbered, plan_item, text_of

if TYPE_CHECKING:  # (the type checker's alone: a TypedDict compiles its annotations as it is made)
    from typing import TypedDict

    from core.session.entry import Entry, Message, Tokens
    from core.sources.plan import PlanItem

    class Usage(TypedDict):
        """A turn's token use as pi writes an assistant message's ``usage``."""

        input: int
        output: int
        cacheRead: int
        cacheWrite: int
        totalTokens: int

    class AgentInfo(TypedDict, total=False):
        """The agent object as a reader has it so far (docs/agent-conversations.md#the-agent-object);
        a key is there once a line said it."""

        kind: str  # claude, codex or gemini
        sessionId: str
        cwd: str
        version: str
        model: str
        status: str  # working, waiting (AGENT_...)
        lastMessage: str  # the first line of the agent's last answer
        tokens: Tokens  # the last turn's usage, with the context window and its share in use where known

    class ReaderState(TypedDict):
        """A reader's saved state (``Reader.save``): what it needs to go on after the last line it
        was fed. A reader with more to keep saves a ``TypedDict`` of its own built on this one."""

        plan: list[PlanItem]
        info: AgentInfo
        last_ts: str | None  # the time of the last line that had one
        first_ts: str | None  # of the first

AGENT_WORKING, AGENT_WAITING, AGENT_ENDED = "working", "waiting", "ended"


class Reader:
    """Base of the three readers. Subclasses set ``KIND`` and write ``feed``."""

    KIND = ""

    def __init__(self, saved: ReaderState | None = None) -> None:
        self.plan: list[PlanItem] = list(saved["plan"]) if saved else []
        self.info: AgentInfo = saved["info"].copy() if saved else {"kind": self.KIND}
        self.last_ts: str | None = saved["last_ts"] if saved else None
        self.first_ts: str | None = saved["first_ts"] if saved else None
        self.notes: list[str] = []
        """Warnings about the line just fed (the mirror tells them with the line's number and
        clears them); never saved."""

    def save(self) -> ReaderState:
        return {"plan": self.plan, "info": self.info, "last_ts": self.last_ts, "first_ts": self.first_ts}

    def feed(self, line: object) -> list[Entry]:
        """The entries ``line`` (one parsed line of the transcript: any JSON) adds to the mirror."""
        raise NotImplementedError

    # -- what subclasses report -----------------------------------------------------------------

    def seen_at(self, value: object) -> None:
        """A line stamped ``value`` was read (any line: the last one's time is the conversation's
        last activity, ``Mirror.last_activity_ms``)."""
        if isinstance(value, str) and iso_ms(value) is not None:
            self.last_ts = value
            self.first_ts = self.first_ts or value

    def _moment(self, value: object) -> str:
        """The entry time: the line's own when it is a valid time, else the last one seen."""
        self.seen_at(value)
        return self.last_ts or "1970-01-01T00:00:00.000Z"

    def _set(self, key: Literal["sessionId", "cwd", "version", "model"], value: str | None) -> None:
        if value is not None:
            self.info[key] = value

    def _status(self, status: str) -> None:
        self.info["status"] = status

    def warn(self, text: str) -> None:
        """Something in the line being fed that the reader could not use (said once per line)."""
        if text not in self.notes:
            self.notes.append(text)

    def objects(self, values: list[object], tool: str, noun: str) -> list[dict[str, object]]:
        """The objects among a plan tool's list items; a warning when some are not objects."""
        kept = [v for v in values if isinstance(v, dict)]
        if len(kept) < len(values):
            left = len(values) - len(kept)
            self.warn(f"{tool}: {left} {noun}{'' if left == 1 else 's'} that {'is' if left == 1 else 'are'} "
                      "not an object left out")
        return kept

    def text(self, holder: dict[str, object], key: str, tool: str, default: str) -> str:
        """``holder[key]`` when it is a string, else ``default``, with a warning when the field is
        there but holds something else (a number, a list, null)."""
        value = holder.get(key, default)
        if isinstance(value, str):
            return value
        self.warn(f"{tool}: {key} is not text (taken as {default!r})")
        return default

    def whole_list(self, values: list[object], text_key: str, tool: str, noun: str) -> list[PlanItem]:
        """The items of a tool that sends its whole list each call (TodoWrite, update_plan,
        write_todos): each one's text under ``text_key``, its status, an ``activeForm`` where it
        has one, and its place in the list as its id."""
        return numbered(plan_item("", self.text(v, text_key, tool, ""), self.text(v, "status", tool, "pending"),
                                  activeForm=text_of(v.get("activeForm")))
                        for v in self.objects(values, tool, noun))

    def user_prompt(self, text: str, timestamp: object) -> list[Entry]:
        self._status(AGENT_WORKING)
        ts = self._moment(timestamp)
        return [_message(ts, {"role": "user", "content": [{"type": "text", "text": text}]})]

    def assistant_text(self, text: str, timestamp: object, usage: Usage | None = None,
                       model: str | None = None, ends_turn: bool = True) -> list[Entry]:
        if ends_turn:
            self._status(AGENT_WAITING)
        ts = self._moment(timestamp)
        self.info["lastMessage"] = first_line(text)
        body: Message = {"role": "assistant", "content": [{"type": "text", "text": text}]}
        if model is not None:
            body["model"] = model
        if usage is not None:
            body["usage"] = usage
        body["stopReason"] = "stop" if ends_turn else "toolUse"
        return [_message(ts, body)]

    def new_plan(self, items: list[PlanItem], timestamp: object, tool: str, noun: str,
                 call_id: str, explanation: str | None = None) -> list[Entry]:
        """The plan became ``items``: one tool result of the ``todo`` tool holding it (what the todo
        fold, the strip and the time travel read), or nothing when it did not change."""
        if items == self.plan and explanation is None:
            return []
        text = describe_change(self.plan, items, noun)
        self.plan = items
        ts = self._moment(timestamp)
        agent_plan: dict[str, str] = {"agent": self.KIND, "tool": tool, "noun": noun}
        if explanation is not None:
            agent_plan["explanation"] = explanation
        details = {"todos": items, "plan": {}, "goals": [], "agentPlan": agent_plan}
        body: Message = {"role": "toolResult", "toolCallId": call_id, "toolName": "todo",
                         "content": [{"type": "text", "text": text}], "details": details, "isError": False}
        return [_message(ts, body)]

    def tokens(self, input: object, output: object, cache_read: object = None, cache_write: object = None,
               window: object = None, context: object = None) -> Usage:
        """Record the last turn's token use (in the agent object) and answer it as pi writes an
        assistant message's ``usage``."""
        fresh, out, read, written = (int_or_none(n) or 0 for n in (input, output, cache_read, cache_write))
        used: Usage = {"input": fresh, "output": out, "cacheRead": read, "cacheWrite": written,
                       "totalTokens": fresh + out + read + written}
        size = int_or_none(window)
        if size:
            in_context = int_or_none(context)
            if in_context is None:
                in_context = used["totalTokens"]
            self.info["tokens"] = {**used, "contextWindow": size, "contextShare": round(in_context / size, 4)}
        else:
            self.info["tokens"] = {**used}
        return used


def _message(timestamp: str, body: Message) -> Entry:
    ms = iso_ms(timestamp)
    return {"type": "message", "timestamp": timestamp, "message": {**body, "timestamp": ms or 0}}
