"""The shape every agent reader has: lines in, events out, state kept as JSON
(docs/agent-conversations.md#how-pideck-reads-them).

A reader is fed one parsed line at a time, in file order, and answers with the events the line
adds to the conversation: a prompt, an answer, a change of the agent's plan, each a short JSON
list (``Event``). Those events are what pideck keeps of a conversation, in memory and in its cache
(``reading.py``); ``entry_of`` makes the pi-format entry of one when a view asks for it, so the
Deck reads a conversation as it reads a session without any pi-format copy being written or
parsed. The reader's whole state is plain JSON (``save``), so following a transcript can stop after
any line and go on later from exactly there. The agent's files are only ever read.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, cast

from core.clock import iso_ms
from core.sources.plan import NAME_LIMIT, describe_change, first_line, int_or_none, numbered, plan_item, text_of

if TYPE_CHECKING:  # (the type checker's alone: a TypedDict compiles its annotations as it is made)
    from typing import TypedDict

    from core.session.entry import Entry, Message, SubagentInfo, Tokens
    from core.session.index import Kind
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

        kind: str  # claude, codex, gemini, qwen or copilot
        sessionId: str
        cwd: str
        version: str
        model: str
        status: str  # working, waiting, ended (AGENT_...)
        lastMessage: str  # the first line of the agent's last answer
        tokens: Tokens  # the last turn's usage, with the context window and its share in use where known
        cost: float  # USD so far, as the agent's own store counts it (opencode's steps, Copilot's usage records)
        subagents: list[SubagentInfo]  # Claude Code's subagents, in the order they appeared

    class ReaderState(TypedDict):
        """A reader's saved state (``Reader.save``): what it needs to go on after the last line it
        was fed. A reader with more to keep saves a ``TypedDict`` of its own built on this one."""

        plan: list[PlanItem]
        info: AgentInfo
        last_ts: str | None  # the time of the last line that had one
        first_ts: str | None  # of the first
        name: str | None  # the first line of the first prompt (``NAME_LIMIT``): what the conversation is called

Event = list[object]
"""What a reader made of a line, as JSON (the cache keeps the list of them):

- ``["p", time, text]``: the person's prompt;
- ``["a", time, text, model, usage, ends_turn]``: the agent's answer (model and usage may be null);
- ``["t", time, call_id, text, items, agent_plan]``: the plan became ``items`` (``text`` says how);
- ``["s", time, text, agent_id, status]``: a subagent started or finished (``status`` running or
  finished);
- ``["u", time, provider, model, [input, output, cacheRead, cacheWrite], cost, window]``: one answer
  the agent paid for (each counted once; a subagent's too), with the cost in USD where the agent's
  own store says it and the context window where the log says it (else null);
- ``["c", time, tokens_before]``: the agent compacted its context (``tokens_before``: how many
  tokens were in it, or null).

A ``u`` event is what pideck counts of an answer's tokens (``core/usage``); an ``a`` event's usage
is null since format 6, so no answer is counted twice.
"""

SUBAGENT_ENTRY = "pideck/subagent"
"""The customType of the entry a subagent's start or end is (a ``custom_message`` the activity
reads; nothing of pideck's is written: the entry is made when a view asks, as every event's)."""

AGENT_WORKING, AGENT_WAITING, AGENT_ENDED = "working", "waiting", "ended"
SUBAGENT_RUNNING, SUBAGENT_FINISHED = "running", "finished"


class Reader:
    """Base of the readers. Subclasses set ``KIND`` and ``PROVIDER`` and write ``feed``."""

    KIND = ""
    PROVIDER: str | None = None
    """Whose models the agent calls, as the price table names the provider (None: any; the price
    table finds it by the model's name)."""

    def __init__(self, saved: ReaderState | None = None) -> None:
        self.plan: list[PlanItem] = list(saved["plan"]) if saved else []
        self.info: AgentInfo = saved["info"].copy() if saved else {"kind": self.KIND}
        self.last_ts: str | None = saved["last_ts"] if saved else None
        self.first_ts: str | None = saved["first_ts"] if saved else None
        self.name: str | None = saved["name"] if saved else None
        self.notes: list[str] = []
        """Warnings about the line just fed (``reading.py`` tells them with the line's number and
        clears them); never saved."""
        self.aside: list[Event] = []
        """Events made outside ``feed`` (a Claude subagent's meta.json read): ``reading.py`` keeps
        them after each sync."""
        self.speaker: str | None = None
        """Whose file the lines being fed come from: None for the conversation's own transcript, a
        subagent's id for its own (``reading.py`` sets it); never saved."""
        self.bills: list[Event] = []
        """The ``u`` and ``c`` events of the line just fed (``paid``, ``compacted``): ``reading.py``
        keeps them before the line's other events, as the answer was paid for before what it did."""

    def save(self) -> ReaderState:
        return {"plan": self.plan, "info": self.info, "last_ts": self.last_ts, "first_ts": self.first_ts,
                "name": self.name}

    def feed(self, line: object) -> list[Event]:
        """The events ``line`` (one parsed line of the transcript: any JSON) adds to the conversation."""
        raise NotImplementedError

    def settle(self) -> None:
        """The end of a sync: every line there was is read (a reader may have ``aside`` events to
        make only now)."""

    def subagent(self, agent_id: str, meta: object) -> None:
        """What a subagent's ``agent-<id>.meta.json`` holds now (``meta``: its JSON, None when there
        is none), told before its lines and whenever the file changed (only Claude Code has them)."""

    # -- what subclasses report -----------------------------------------------------------------

    def seen_at(self, value: object) -> None:
        """A line stamped ``value`` was read (any line: the last one's time is the conversation's
        last activity, ``Reading.last_activity_ms``)."""
        if value == self.last_ts and value is not None:  # (a line's time, told again by its events)
            return
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

    def user_prompt(self, text: str, timestamp: object) -> list[Event]:
        self._status(AGENT_WORKING)
        ts = self._moment(timestamp)
        if self.name is None:
            self.name = first_line(text, NAME_LIMIT) or None  # (a prompt with an empty first line names nothing)
        return [["p", ts, text]]

    def assistant_text(self, text: str, timestamp: object, model: str | None = None,
                       ends_turn: bool = True) -> list[Event]:
        if ends_turn:
            self._status(AGENT_WAITING)
        ts = self._moment(timestamp)
        self.info["lastMessage"] = first_line(text)
        return [["a", ts, text, model, None, ends_turn]]

    def new_plan(self, items: list[PlanItem], timestamp: object, tool: str, noun: str,
                 call_id: str, explanation: str | None = None, by: str | None = None) -> list[Event]:
        """The plan became ``items``: one plan event (``entry_of`` makes it the result of the
        ``todo`` tool that the todo fold, the strip and the time travel read), or nothing when it
        did not change. ``items`` is never changed afterwards: the event holds it as it is. ``by``:
        the subagent whose call it was (its description), which the activity names."""
        if items == self.plan and explanation is None:
            return []
        text = describe_change(self.plan, items, noun)
        self.plan = items
        ts = self._moment(timestamp)
        agent_plan: dict[str, str] = {"agent": self.KIND, "tool": tool, "noun": noun}
        if explanation is not None:
            agent_plan["explanation"] = explanation
        if by is not None:
            agent_plan["by"] = by
        return [["t", ts, call_id, text, items, agent_plan]]

    def spent(self, cost: object) -> None:
        """Add what the agent's store says a step or a model call cost (USD) to the conversation's
        cost so far; a value that is not a number of 0 or more is no cost."""
        if isinstance(cost, (int, float)) and not isinstance(cost, bool) and cost >= 0 and cost == cost:
            self.info["cost"] = round(self.info.get("cost", 0.0) + float(cost), 6)

    def tokens(self, input: object, output: object, cache_read: object = None, cache_write: object = None,
               window: object = None, context: object = None, *, timestamp: object = None,
               model: str | None = None, provider: str | None = None, cost: object = None, own: bool = True) -> Usage:
        """One answer the agent paid for: its ``u`` event (``bills``) and, for the conversation's
        own agent (``own``), the last turn's token use in the agent object; answered as pi writes
        an assistant message's ``usage``. ``input`` is the input not read from or written to the
        cache (pi's sense: a reader of a log that counts cached tokens in its input takes them off)."""
        # (one answer of thousands in a long transcript: the counts are checked inline, not by calls)
        fresh = input if type(input) is int and input >= 0 else 0
        out = output if type(output) is int and output >= 0 else 0
        read = cache_read if type(cache_read) is int and cache_read >= 0 else 0
        written = cache_write if type(cache_write) is int and cache_write >= 0 else 0
        used: Usage = {"input": fresh, "output": out, "cacheRead": read, "cacheWrite": written,
                       "totalTokens": fresh + out + read + written}
        size = window if type(window) is int and window > 0 else None
        spent = float(cost) if cost is not None and isinstance(cost, (int, float)) and not isinstance(cost, bool) \
            and 0 <= cost < 1e9 else None
        self.bills.append(["u", self._moment(timestamp), provider or self.PROVIDER, model or self.info.get("model"),
                           [fresh, out, read, written], spent, size])
        if not own:
            return used
        if size:
            in_context = int_or_none(context)
            if in_context is None:
                in_context = used["totalTokens"]
            self.info["tokens"] = {**used, "contextWindow": size, "contextShare": round(in_context / size, 4)}
        else:
            self.info["tokens"] = {**used}
        return used

    def compacted(self, timestamp: object, tokens_before: object = None) -> None:
        """The agent compacted its context (``tokens_before``: what the log says was in it, else
        the last answer's tokens): a ``c`` event (``bills``)."""
        before = int_or_none(tokens_before)
        if before is None and self.bills:
            before = sum(cast("list[int]", self.bills[-1][4]))
        if before is None and isinstance(last := self.info.get("tokens"), dict):
            before = last.get("totalTokens")
        self.bills.append(["c", self._moment(timestamp), before])


EVENT_KINDS: dict[str, Kind] = {
    "p": ("message", None, "user", None),
    "a": ("message", None, "assistant", None),
    "t": ("message", None, "toolResult", "todo"),
    "s": ("custom_message", SUBAGENT_ENTRY, None, None),
    "u": ("usage", None, None, None),
    "c": ("compaction", None, None, None),
}
"""What each kind of event is as an entry (type, customType, role, toolName): what the log's index
holds of it, so a fold that wants other entries never makes this one."""


def entry_id(number: int) -> str:
    """The id of the conversation's ``number``-th entry (from 1); its parent is the one before."""
    return f"{number:08x}"


def entry_of(event: Event, number: int) -> Entry:
    """The pi-format entry of the conversation's ``number``-th event (from 1): a message with the
    time of the transcript line it comes from, its parent the entry before (a conversation is one
    branch). Made when a view asks for it, never written anywhere."""
    kind, timestamp = event[0], cast(str, event[1])
    body: Message
    if kind == "p":
        body = {"role": "user", "content": [{"type": "text", "text": cast(str, event[2])}]}
    elif kind == "a":
        body = {"role": "assistant", "content": [{"type": "text", "text": cast(str, event[2])}]}
        if event[3] is not None:
            body["model"] = cast(str, event[3])
        if event[4] is not None:
            body["usage"] = cast("Usage", event[4])
        body["stopReason"] = "stop" if event[5] else "toolUse"
    elif kind == "u":
        return usage_entry(event, entry_id(number), entry_id(number - 1) if number > 1 else None)
    elif kind == "c":
        return {"type": "compaction", "id": entry_id(number), "parentId": entry_id(number - 1) if number > 1 else None,
                "timestamp": timestamp, "summary": "", "firstKeptEntryId": entry_id(number),
                "tokensBefore": event[2]}
    elif kind == "s":
        return {"type": "custom_message", "customType": SUBAGENT_ENTRY, "content": cast(str, event[2]),
                "display": False, "details": {"agentId": event[3], "status": event[4]},
                "id": entry_id(number), "parentId": entry_id(number - 1) if number > 1 else None, "timestamp": timestamp}
    else:
        details = {"todos": event[4], "plan": {}, "goals": [], "agentPlan": event[5]}
        body = {"role": "toolResult", "toolCallId": cast(str, event[2]), "toolName": "todo",
                "content": [{"type": "text", "text": cast(str, event[3])}], "details": details, "isError": False}
    body["timestamp"] = iso_ms(timestamp) or 0
    return {"type": "message", "id": entry_id(number), "parentId": entry_id(number - 1) if number > 1 else None,
            "timestamp": timestamp, "message": body}


def usage_entry(event: Event, id: str, parent: str | None) -> Entry:
    """A ``u`` event as pi writes a ``usage`` entry (kind ``answer``), with the answer's context
    window where the log said it (``contextWindow``, pideck's)."""
    fresh, out, read, written = cast("list[int]", event[4])
    usage: dict[str, object] = {"input": fresh, "output": out, "cacheRead": read, "cacheWrite": written,
                                "totalTokens": fresh + out + read + written}
    if event[5] is not None:
        usage["cost"] = {"total": event[5]}
    entry: Entry = {"type": "usage", "id": id, "parentId": parent, "timestamp": cast(str, event[1]), "kind": "answer",
                    "provider": event[2], "model": event[3], "usage": usage}
    if event[6] is not None:
        entry["contextWindow"] = event[6]
    return entry
