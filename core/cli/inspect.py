"""``pideck inspect``: the Deck's derived state as one JSON object or as the adapters' texts."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any, TypeVar

from core.cli.common import EXIT_OK, EXIT_USAGE, emit, open_deck, open_time_machine, print_json
from core.deck.deck import Deck
from core.session.interface import SessionFile
from core.sources.binding import conversation_of
from core.usage.of_log import usage_of

if TYPE_CHECKING:
    from core.session.entry import AgentObject

F = TypeVar("F", bound=SessionFile)


def session_summary(deck: Deck[F]) -> dict[str, Any]:
    log = deck.log
    header = log.header or {}  # an open log always has its header
    return {
        "path": str(log.shown_path),
        "id": header.get("id"),
        "cwd": header.get("cwd"),
        "writable": log.writable,
        "entries": log.entry_count,  # (the count every view gives: a conversation's transcript lines read)
        "leaf": log.leaf_id,
        "branch_length": len(log.branch()),
        **({"tokens": tokens} if (tokens := log.last_turn_tokens()) is not None else {}),
        **({"conversation": bound} if (bound := conversation_of(log.records)) is not None else {}),
    }


def inspect_json(deck: Deck[F]) -> dict[str, Any]:
    return {
        "session": session_summary(deck),
        "state": deck.state.snapshot() if deck.restored[deck.state.ENTRY_TYPE] else None,
        "progress": deck.progress.state(),  # {hasBaseline, currentMilestones, recordedMilestones}
        "handoff": {"packets": deck.handoff.packets()},
        "todo": deck.todo.snapshot() if deck.has_todo_state() else None,
        "warnings": list(deck.warnings) + list(deck.log.warnings),
        **({"agent": agent} if (agent := deck.log.agent()) is not None else {}),
        "usage": usage_of(deck.log),  # (docs/usage.md#the-usage-object; None: no answer said its tokens)
    }


def agent_text(agent: AgentObject) -> str:
    """A followed conversation's agent in a few lines (docs/agent-conversations.md#the-agent-object)."""
    who = " ".join(str(v) for v in (agent.get("name"), agent.get("version")) if v)
    lines = [f"Agent: {who}" + (f", {agent['status']}" if agent.get("status") else "")
             + (f" (last {'change' if agent.get('lastActivityOf') == 'file' else 'line'} {agent['lastActivity']})"
                if agent.get("lastActivity") else "")]
    for label, value in (("Model", agent["model"]), ("Session", agent["sessionId"]), ("Folder", agent["cwd"]),
                         ("Last said", agent["lastMessage"])):
        if value:
            lines.append(f"{label}: {value}")
    tokens = agent.get("tokens")
    if isinstance(tokens, dict):
        from core.sources.plan import token_text

        lines.append(f"Last turn: {token_text(tokens)}")
    if isinstance(cost := agent.get("cost"), float):
        from core.sources.plan import cost_text

        lines.append(f"Cost so far: {cost_text(cost)} (as {agent.get('name')} counts it)")
    if agent.get("subagents"):
        from core.sources.plan import subagents_text

        lines.append(f"Subagents: {subagents_text(agent.get('subagents'))}")
    return "\n".join(lines)


def inspect_text(deck: Deck[F]) -> str:
    """The adapters' own status texts (read-only commands: nothing is appended)."""
    s = session_summary(deck)
    agent = deck.log.agent()
    parts = [
        f"Session: {s['path']} ({s['entries']} entries, {'writable' if s['writable'] else 'read-only'})",
        *([agent_text(agent)] if agent is not None else []),
        deck.state.call_tool("agent_state_get", {}).text,
        deck.progress.call_tool("agent_progress_get", {}).text,
        deck.handoff.call_tool("agent_handoff_get", {}).text,
        deck.todo.overlay_markdown(),
    ]
    warnings = list(deck.warnings) + list(deck.log.warnings)
    if warnings:
        parts.append("Warnings:\n" + "\n".join(f"- {w}" for w in warnings))
    return "\n\n".join(parts)


def run(args: argparse.Namespace) -> int:
    from core.cli.inspect import inspect_json, inspect_text

    if args.at is not None:
        return inspect_at(args)
    deck = open_deck(args, create=False).deck
    if args.json:
        print_json(inspect_json(deck))
    else:
        emit(inspect_text(deck))
    return EXIT_OK


def inspect_at(args: argparse.Namespace) -> int:
    """``inspect --at ENTRY``: the derived state as of that entry (``asOf`` says where it sits)."""
    from core.cli.inspect import inspect_json, inspect_text
    from core.views.timetravel import UnknownEntry

    machine = open_time_machine(args)
    try:
        as_of, deck = machine.as_of(args.at), machine.deck_at(args.at)
    except UnknownEntry as exc:
        print(f"pideck inspect: {exc}", file=sys.stderr)
        return EXIT_USAGE
    if args.json:
        print_json({**inspect_json(deck), "asOf": as_of.json()})
    else:
        emit(f"State of {as_of.entry_id}, {as_of.banner}.\n\n{inspect_text(deck)}")
    return EXIT_OK
