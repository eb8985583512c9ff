"""``pideck hook claude|codex``: the agents' Stop hooks, answered with one settle of the todo gates.

The agent writes one JSON object on stdin; pideck answers in the contract both agents read
(docs/mcp-and-hooks.md): a follow-up for the agent is a block on stdout with exit 0, a notice for
the person is ``systemMessage``, and nothing to say is no output at all. When pideck's own todo
list is empty, the agent's own plan (read from the input's ``transcript_path``) is gated instead
(``plan_gate.py``). Input pideck cannot read is one line on stderr and exit 1, which both agents
report without keeping the agent going (exit 2 would mean "block, the reason is on stderr").
Start-up matters here: this runs at every turn's end, so it imports no more than a settle needs.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Any, TextIO

AGENTS = {"claude": "Claude Code", "codex": "Codex"}
SETTLING_EVENTS = ("Stop", "SubagentStop")
STOP_ENTRY_TYPE = "pideck/stop"
"""The custom entry a hook appends before it settles: which agent stopped, how, and whether a
Stop hook had sent it back into that turn."""

EXIT_OK, EXIT_FAILED = 0, 1


class HookInputError(ValueError):
    """Hook input pideck cannot read: not JSON, not an object, or a Stop without its fields."""


@dataclass(frozen=True)
class StopEvent:
    """The fields of a Stop (or SubagentStop) hook input that pideck uses."""

    event: str
    cwd: str
    stop_hook_active: bool
    session_id: str | None
    transcript_path: str | None = None
    """The agent's own transcript, where its own plan is read (only a string is taken; a missing
    or odd value is no transcript, never an input error)."""

    def record(self, agent: str) -> dict[str, Any]:
        data: dict[str, Any] = {"agent": agent, "event": self.event, "stopHookActive": self.stop_hook_active}
        if self.session_id is not None:
            data["agentSessionId"] = self.session_id
        return data


def read_event(raw: bytes | str) -> StopEvent | None:
    """The Stop event in one hook input, or None for an event pideck does not answer."""
    try:
        text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
        value = json.loads(text)
    except UnicodeDecodeError as exc:
        raise HookInputError(f"the input is not UTF-8 ({exc.reason} at byte {exc.start})") from None
    except json.JSONDecodeError as exc:
        raise HookInputError(f"the input is not JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})") from None
    if not isinstance(value, dict):
        raise HookInputError(f"the input is JSON but not an object ({_kind(value)})")
    event = value.get("hook_event_name")
    if not isinstance(event, str):
        raise HookInputError("the input has no hook_event_name")
    if event not in SETTLING_EVENTS:
        return None
    cwd = value.get("cwd")
    if not isinstance(cwd, str) or not os.path.isabs(cwd):
        raise HookInputError(f"the {event} input has no absolute cwd")
    active = value.get("stop_hook_active", False)
    if not isinstance(active, bool):
        raise HookInputError(f"stop_hook_active is {_kind(active)}, not true or false")
    session_id = value.get("session_id")
    transcript = value.get("transcript_path")
    return StopEvent(event, cwd, active, session_id if isinstance(session_id, str) else None,
                     transcript if isinstance(transcript, str) and transcript else None)


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


def settle(event: StopEvent, agent: str, session: str | None, write: bool,
           err: TextIO) -> tuple[str | None, str | None]:
    """One settle on the session for the event's cwd: ``--session``, else ``$PIDECK_SESSION``, else
    the newest pideck session there. A hook never creates a session: with none there is nothing
    to settle. When pideck's settle has nothing to say, its todo list is empty and the event is a
    ``Stop``, the agent's own plan is settled (``plan_gate``). Returns (follow-up, notice)."""
    from core.opening import open_deck

    try:
        opened = open_deck(session, write=write, cwd=event.cwd, create=False, pideck_only=True)
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


def run_hook(agent: str, raw: bytes | str, *, session: str | None, write: bool, out: TextIO, err: TextIO) -> int:
    prefix = f"pideck hook {agent}"
    if agent not in AGENTS:
        print(f"pideck hook: unknown agent {agent!r} (expected {' or '.join(AGENTS)})", file=err)
        return EXIT_FAILED
    try:
        event = read_event(raw)
        if event is None:
            return EXIT_OK
        followup, notice = settle(event, agent, session, write, err)
    except HookInputError as exc:
        print(f"{prefix}: malformed hook input: {exc}", file=err)
        return EXIT_FAILED
    except Exception as exc:  # a failed settle must fail open: one line, never exit 2 (a block)
        print(f"{prefix}: {' '.join(str(exc).split()) or type(exc).__name__}", file=err)
        return EXIT_FAILED
    reply = answer(followup, notice)
    if reply is not None:
        # ASCII escapes: any locale can print it, and the agent's JSON parser gets the text exactly
        print(json.dumps(reply, separators=(",", ":")), file=out)
    return EXIT_OK
