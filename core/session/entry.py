"""The keys of a session log's lines (docs/session-format.md): the header, an entry, a message; and
the two objects a log answers about itself, a turn's token use and a followed agent.

A line is JSON read from a file someone else may have written, so a value is whatever the line
held: these types name the keys pi writes (and say which are pideck's reading of them), and every
value is still checked where it is used. ``parse.is_entry`` is the one place a parsed line is
taken as one.

Modules import these for the type checker alone (``if TYPE_CHECKING``): making a TypedDict whose
annotations are strings compiles each of them, a cost no headless command pays
(tests/cli/test_command_imports.py, ``core/slotted.py``).
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict


class Message(TypedDict, total=False):
    """A ``message`` entry's message: a prompt, an answer, a tool's result."""

    role: str  # system, user, assistant, toolResult, bashExecution, custom
    content: Any  # text, or a list of blocks
    timestamp: Any  # Unix milliseconds
    toolCallId: str
    toolName: str
    details: Any
    isError: bool
    model: str
    usage: Any
    stopReason: str
    customType: str


class Entry(TypedDict, total=False):
    """One line of a session log after the header, as pi writes it (the header's keys too: a line
    is read before it is known to be one)."""

    type: Any  # a string as pi writes it (None in the stand-in for a body that cannot be read back)
    id: Any  # 8 hex characters as pi writes it; checked where the tree is built
    parentId: Any
    timestamp: Any  # ISO 8601, milliseconds, Z
    message: Message
    customType: Any
    data: Any
    content: Any
    display: Any
    details: Any
    summary: Any
    name: Any  # session_info
    label: Any
    targetId: Any
    # a ``usage`` entry's (pi 0.86+), a ``compaction``'s
    kind: Any
    provider: Any
    model: Any
    usage: Any
    contextWindow: Any  # pideck's, on a followed conversation's usage entry: the window the log said
    firstKeptEntryId: Any
    tokensBefore: Any
    # the header's
    version: Any
    cwd: Any
    parentSession: Any
    # who had pideck write it (writer.WRITER_KEY)
    pideckBy: Any


Header = Entry
"""The first line of a session log: ``{"type": "session", "version": 3, "id", "timestamp", "cwd"}``."""


class Tokens(TypedDict, total=False):
    """A turn's token use: pi's ``usage`` counts of an assistant message, each a whole number of 0
    or more (a count the log does not hold is left out); a followed agent's also says its model's
    context window and the share of it the turn used (docs/agent-conversations.md#the-agent-object)."""

    input: int
    output: int
    cacheRead: int
    cacheWrite: int
    totalTokens: int
    contextWindow: int
    contextShare: float


class SubagentInfo(TypedDict):
    """A subagent of a Claude Code conversation (its Agent tool), as the agent object lists it
    (docs/agent-conversations.md#subagents)."""

    id: str  # the agent id (its transcript is ``agent-<id>.jsonl``)
    description: str | None  # what the parent called it (the Agent call's ``description``)
    type: str | None  # the subagent type (``general-purpose``...)
    status: str  # running or finished
    started: str | None  # the time of its first line
    finished: str | None  # of its last line, once it finished


class AgentObject(TypedDict):
    """What a followed conversation's agent was last seen doing: ``inspect --json``'s ``agent``
    (docs/agent-conversations.md#the-agent-object). A value the agent's log does not hold is None;
    the values read from the log are checked by whoever shows them."""

    kind: str  # an agent kind (core/config/places.py AGENT_KINDS)
    name: str
    sessionId: Any
    cwd: str | None
    version: Any
    model: Any
    status: str | None  # None in the past (``cut.py``): only now is known
    lastActivity: str | None
    lastActivityOf: str | None  # line or file
    lastMessage: Any
    tokens: Tokens | None
    transcript: str
    pideckSession: str | None
    subagents: NotRequired[list[SubagentInfo] | None]  # Claude Code's, once it had one (None in the past)
    cost: NotRequired[float | None]  # USD so far, as the agent's own store counts it (opencode, Copilot; None in the past)
    host: NotRequired[str]  # a remote deck's: the ``[[hosts]]`` machine the transcript is on (docs/hosts.md)
