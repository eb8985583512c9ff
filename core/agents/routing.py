"""Which pideck session a front end an agent drives (the MCP server, ``pideck tool``) writes to,
and why (docs/mcp-and-hooks.md#which-session-a-call-goes-to).

In order: ``--session``; ``$PIDECK_SESSION``; the pideck session of the agent conversation above
this process (``ancestry.py``), made at its first call; else the newest pideck session for the
directory that belongs to no conversation, or a new one. pi's sessions are never chosen by default: pi's files refuse writes.
"""

# (No ``from __future__ import annotations``: ``Route`` is a NamedTuple, not a frozen dataclass,
# which would load dataclasses (some 5 ms) for ``pideck tool``, and typing would compile a
# NamedTuple's string annotations: core/slotted.py.)

import os
from typing import Callable, NamedTuple

from core.agents.ancestry import find_conversation
from core.sources.binding import Conversation, session_for


class Route(NamedTuple):
    """Where calls go: a file (``path``), or None for the newest pideck session of the directory
    (a new one when it has none), and the reason in a person's words."""

    path: str | None
    why: str
    conversation: Conversation | None = None


def route(explicit: str | None, *, cwd: str | None = None,
          find: Callable[[], Conversation | None] = find_conversation) -> Route:
    """The route of one call (``find`` is asked each time: the conversation can change under a
    running server)."""
    if explicit is not None:
        return Route(explicit, "given with --session")
    chosen = os.environ.get("PIDECK_SESSION")
    if chosen:
        return Route(chosen, "given in $PIDECK_SESSION")
    conversation = find()
    if conversation is not None:
        path = session_for(conversation, create=True)
        return Route(str(path), f"the pideck session of {conversation.short}, found from {conversation.how}",
                     conversation)
    where = cwd if cwd is not None else os.getcwd()
    return Route(None, f"no agent conversation found above this process, so the newest pideck session for {where} "
                       "that belongs to no conversation")
