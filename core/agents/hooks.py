"""``pideck hook claude|codex``: the agents' hooks. A Stop is answered with one settle of the todo
gates on the pideck session of the conversation that stopped; SessionStart and SessionEnd record
which conversation the agent process is in (``core/sources/binding.py``).

The agent writes one JSON object on stdin; pideck answers a Stop in the contract both agents read
(docs/mcp-and-hooks.md): a follow-up for the agent is a block on stdout with exit 0, a notice for
the person is ``systemMessage``, and nothing to say is no output at all. When pideck's own todo
list is empty, the agent's own plan (read from the input's ``transcript_path``) is gated instead
(``plan_gate.py``). SessionStart and SessionEnd print nothing (Claude Code would hand a
SessionStart's output to the model). Input pideck cannot read is one line on stderr and exit 1, which both agents
report without keeping the agent going (exit 2 would mean "block, the reason is on stderr").
Start-up matters here: this runs at every turn's end, so it imports no more than a settle needs.
"""

# (No ``from __future__ import annotations``: ``HookEvent`` is a NamedTuple, not a frozen dataclass,
# which would load dataclasses (some 5 ms), and typing would compile a NamedTuple's string
# annotations: core/slotted.py.)

import json
import os
from typing import Any, NamedTuple, NotRequired, TextIO, TypedDict

from core.sources.binding import Conversation

AGENTS = {"claude": "Claude Code", "codex": "Codex", "qwen": "Qwen Code", "copilot": "GitHub Copilot CLI"}
"""The agents whose hooks pideck answers (docs/mcp-and-hooks.md#which-agents-stops-pideck-answers).
Qwen Code's hooks, and GitHub Copilot CLI's ``Stop`` hook, take Claude Code's input and answer.
Qwen 0.15.10 sends ``stop_hook_active`` true at every Stop, which only makes the gate stop poking
sooner (a poke that left the plan as it was ends the pokes)."""
QUIET_AGENTS = ("copilot",)
"""Agents whose answer holds no ``systemMessage``: pideck has not seen what Copilot does with one,
and a key it rejects would lose the block (the notice still goes to stderr)."""
SETTLING_EVENTS = ("Stop", "SubagentStop")
RECORDING_EVENTS = ("SessionStart", "SessionEnd", "Notification", "PermissionRequest", "UserPromptSubmit")
"""Events pideck only records (which conversation the process is in, what the agent asked for:
core/catalog/attention.py), answering nothing: a PermissionRequest is never decided by pideck."""
STOP_ENTRY_TYPE = "pideck/stop"
"""The custom entry a hook appends before it settles: which agent stopped, how, and whether a
Stop hook had sent it back into that turn."""

EXIT_OK, EXIT_FAILED = 0, 1


class HookInputError(ValueError):
    """Hook input pideck cannot read: not JSON, not an object, or an event without its fields."""


class StopRecord(TypedDict):
    """The ``data`` of a ``pideck/stop`` entry (``STOP_ENTRY_TYPE``)."""

    agent: str  # claude or codex
    event: str  # Stop or SubagentStop
    stopHookActive: bool
    agentSessionId: NotRequired[str]  # the agent's conversation, when the input names one


class HookEvent(NamedTuple):
    """The fields of a hook input that pideck uses (a Stop, SubagentStop, SessionStart or
    SessionEnd; ``stop_hook_active`` is False but on a Stop)."""

    event: str
    cwd: str
    stop_hook_active: bool
    session_id: str | None
    transcript_path: str | None = None
    """The agent's own transcript, where its own plan is read (only a string is taken; a missing
    or odd value is no transcript, never an input error)."""
    detail: Any = None
    """The whole input (what an ask says: ``message``, ``notification_type``, ``tool_name``)."""

    def conversation(self, agent: str) -> Conversation | None:
        """The conversation the input is about (None: the input names none)."""
        from core.jsutil import has_surrogates

        if not self.session_id:
            return None
        transcript = self.transcript_path
        if transcript is not None and (not os.path.isabs(transcript) or has_surrogates(transcript) or "\0" in transcript):
            transcript = None  # (no path a reader could open: the session names none)
        return Conversation(agent, self.session_id, self.cwd, transcript, "the hook input")

    def record(self, agent: str) -> StopRecord:
        data: StopRecord = {"agent": agent, "event": self.event, "stopHookActive": self.stop_hook_active}
        if self.session_id is not None:
            data["agentSessionId"] = self.session_id
        return data


def read_event(raw: bytes | str) -> HookEvent | None:
    """The event in one hook input, or None for an event pideck does nothing with."""
    try:
        text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
        value = json.loads(text)
    except UnicodeDecodeError as exc:
        raise HookInputError(f"the input is not UTF-8 ({exc.reason} at byte {exc.start})") from None
    except json.JSONDecodeError as exc:
        raise HookInputError(f"the input is not JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})") from None
    except RecursionError:
        raise HookInputError("the input is nested too deep to read") from None
    if not isinstance(value, dict):
        raise HookInputError(f"the input is JSON but not an object ({_kind(value)})")
    event = value.get("hook_event_name")
    if not isinstance(event, str):
        raise HookInputError("the input has no hook_event_name")
    if event not in SETTLING_EVENTS + RECORDING_EVENTS:
        return None
    cwd = value.get("cwd")
    if not isinstance(cwd, str) or not os.path.isabs(cwd):
        raise HookInputError(f"the {event} input has no absolute cwd")
    if any(part in (".", "..") for part in cwd.split(os.sep)):
        # (``..`` after a symbolic link is not the folder the text names: no guess is filed)
        raise HookInputError(f"the {event} input's cwd {json.dumps(cwd)} holds . or .. (the agents send a plain path)")
    active = value.get("stop_hook_active", False)
    if not isinstance(active, bool):
        raise HookInputError(f"stop_hook_active is {_kind(active)}, not true or false")
    session_id = value.get("session_id")
    transcript = value.get("transcript_path")
    return HookEvent(event, cwd, active, session_id if isinstance(session_id, str) else None,
                     transcript if isinstance(transcript, str) and transcript else None, value)


def _kind(value: object) -> str:
    names = {dict: "an object", list: "an array", str: "a string", bool: "a boolean", type(None): "null"}
    return names.get(type(value), "a number")


def answer(followup: str | None, notice: str | None) -> dict[str, str] | None:
    """The hook's stdout object, or None for no output. Both agents take ``decision``, ``reason``
    and ``systemMessage`` on a Stop; Codex rejects any key its schema does not name, so these
    three are all pideck ever prints."""
    out: dict[str, str] = {}
    if followup is not None:
        out.update(decision="block", reason=followup)
    if notice is not None:
        out["systemMessage"] = notice
    return out or None


def settle(event: HookEvent, agent: str, session: str | None, write: bool,
           err: TextIO) -> tuple[str | None, str | None]:
    """One settle on the session of the conversation that stopped (``session_for``): ``--session``
    or ``$PIDECK_SESSION`` when given, else the conversation's own pideck session, else (an input
    that names no conversation) the newest pideck session for the cwd that belongs to none. A conversation without a
    session of its own has nothing of pideck's to settle: another conversation's todos never block
    it. Its session is made only when the gate on the agent's own plan has something to remember.
    When pideck's settle has nothing to say, its todo list is empty and the event is a ``Stop``,
    the agent's own plan is settled (``plan_gate``). Returns (follow-up, notice)."""
    from core.catalog.opening import open_deck

    conversation = event.conversation(agent)
    chosen = session or os.environ.get("PIDECK_SESSION") or None
    if chosen is None and conversation is not None:
        from core.sources.binding import session_for

        found = session_for(conversation, create=False)
        if found is None and _plan_needs_session(event):
            found = session_for(conversation, create=True)
        if found is None:
            return None, None
        chosen = str(found)
    elif chosen is None:
        print(f"pideck hook {agent}: the input names no conversation (no session_id): settling the newest "
              f"pideck session for {event.cwd} that belongs to no conversation", file=err)
    try:
        opened = open_deck(chosen, write=write, cwd=event.cwd, create=False, pideck_only=True)
    except FileNotFoundError:
        return None, None
    for warning in opened.warnings:
        print(f"pideck hook {agent}: {warning}", file=err)
    followup, notice = opened.deck.settle(continued=event.stop_hook_active,
                                          record=(STOP_ENTRY_TYPE, event.record(agent)))
    if followup is None and notice is None and event.event == "Stop" and event.transcript_path is not None:
        from core.agents.plan_gate import PlanUnreadable, settle_plan

        try:
            return settle_plan(opened.deck, agent, event.transcript_path, event.session_id, event.stop_hook_active)
        except PlanUnreadable as exc:
            print(f"pideck hook {agent}: the agent's plan cannot be read, ignored ({exc})", file=err)
            return None, None
    return followup, notice.message if notice is not None else None


def _plan_needs_session(event: HookEvent) -> bool:
    """A Stop whose agent's own plan has items open, where the gate on it is on: its pokes are
    counted in the conversation's session, so the session is made now."""
    from core.agents.plan_gate import read_plan
    from core.config.settings import load_config

    if event.event != "Stop" or event.transcript_path is None or not os.path.isabs(event.transcript_path):
        return False
    config = load_config()[0]
    if not (config.enabled and config.auto_poke and config.agent_plan_poke):
        return False
    try:
        plan = read_plan(event.transcript_path)
    except Exception:  # (the gate reports an unreadable plan itself, on the settle that follows)
        return False
    return plan is not None and bool(plan.open_ids)


def record_process(event: HookEvent, agent: str, named: bool = False) -> None:
    """Keep the time of the event, with what an ask says (core/catalog/attention.py); and, unless a session
    is ``named`` for the hooks (then the process needs no conversation found), the record of which
    conversation the agent process is in: set at SessionStart (and at each Stop, for an install that
    predates the SessionStart hook), dropped at SessionEnd."""
    import time

    from core.agents.ancestry import start_time
    from core.catalog.attention import RECORDED_EVENTS, record_event
    from core.sources.binding import forget_process, note_process

    conversation = event.conversation(agent)
    if conversation is None:
        return
    if event.event in RECORDED_EVENTS:
        record_event(agent, conversation.id, event.event, int(time.time() * 1000),
                     event.detail if isinstance(event.detail, dict) else {})
    pid = agent_pid(agent)
    if named or pid is None or event.event not in ("SessionStart", "SessionEnd", "Stop"):
        return
    if event.event == "SessionEnd":
        forget_process(pid, conversation.id)
    else:
        note_process(pid, conversation, start_time(pid))


def agent_pid(agent: str) -> int | None:
    """The agent process this hook runs for: Claude Code says it (``$CLAUDE_PID``; its hooks run
    under a shell); Codex runs its hooks as its own children; Qwen Code and GitHub Copilot CLI run
    them under a shell and say nothing (None: no process is recorded)."""
    if agent in ("qwen", "copilot"):
        return None
    if agent == "claude":
        try:
            pid = int(os.environ.get("CLAUDE_PID", ""))
        except ValueError:
            return None
        return pid if pid >= 1 else None
    parent = os.getppid()
    return parent if parent >= 1 else None


def run_hook(agent: str, raw: bytes | str, *, session: str | None, write: bool, out: TextIO, err: TextIO) -> int:
    prefix = f"pideck hook {agent}"
    if agent not in AGENTS:
        *others, last = AGENTS
        print(f"pideck hook: unknown agent {agent!r} (expected {', '.join(others)} or {last})", file=err)
        return EXIT_FAILED
    try:
        event = read_event(raw)
        if event is None:
            return EXIT_OK
        try:
            record_process(event, agent, named=session is not None or bool(os.environ.get("PIDECK_SESSION")))
        except OSError as exc:  # (a home pideck cannot write: the settle still runs, and says so)
            print(f"{prefix}: could not record the conversation of the agent process: {exc}", file=err)
        if event.event in RECORDING_EVENTS:
            return EXIT_OK
        followup, notice = settle(event, agent, session, write, err)
    except HookInputError as exc:
        print(f"{prefix}: malformed hook input: {exc}", file=err)
        return EXIT_FAILED
    except Exception as exc:  # a failed settle must fail open: one line, never exit 2 (a block)
        print(f"{prefix}: {' '.join(str(exc).split()) or type(exc).__name__}", file=err)
        return EXIT_FAILED
    if agent in QUIET_AGENTS and notice is not None:
        print(f"{prefix}: {notice}", file=err)
        notice = None
    reply = answer(followup, notice)
    if reply is not None:
        # ASCII escapes: any locale can print it, and the agent's JSON parser gets the text exactly
        print(json.dumps(reply, separators=(",", ":")), file=out)
    return EXIT_OK
