"""Which agent wrote a file, told from its content (the first line), never from its name or folder
(docs/agent-conversations.md#telling-the-formats-apart)."""

from __future__ import annotations

import os
import re
from typing import Any

from core.session.parse import loads_line
from core.sources.in_database import split

HEAD_BYTES = 1 << 18
"""Bytes read to tell the format. Codex's first line holds the agent's whole instructions (22 KB
in the samples); a first line longer than this is told by how it starts."""

# (any JSON writer's spacing: \s* wherever JSON allows whitespace)
_CODEX_START = re.compile(rb'\A\{\s*"timestamp"\s*:\s*"[^"]*"\s*,\s*("ordinal"\s*:\s*\d+\s*,\s*)?"type"\s*:\s*"')
_CLAUDE_START = re.compile(rb'\A\{\s*"(parentUuid|type|leafUuid|isSidechain)"\s*:')
_QWEN_START = re.compile(rb'\A\{\s*"uuid"\s*:\s*"[^"]*"\s*,\s*"parentUuid"\s*:')
_COPILOT_START = re.compile(rb'\A\{\s*"type"\s*:\s*"session\.(start|resume)"\s*,\s*"data"\s*:')
_PI_START = re.compile(rb'\A\{\s*"type"\s*:\s*"session"')  # a pi header torn before its newline: not Claude's

CLAUDE_METADATA = ("file-history-snapshot", "summary", "permission-mode", "queue-operation", "last-prompt")
"""Line types an interactive Claude Code writes before any conversation line (a snapshot of the
files it may edit, a session summary...): they name no session, but no other agent writes them."""


def detect_kind(path: str | os.PathLike[str]) -> str | None:
    """``claude``, ``codex``, ``gemini``, ``qwen`` or ``copilot`` for an agent's transcript, None for
    anything else (a pi session among them). Reads at most ``HEAD_BYTES``; raises OSError as ``open`` does.
    A conversation inside opencode's database is told by its name (``in_database.py``)."""
    if split(path) is not None:
        return "opencode"
    with open(path, "rb") as f:
        head = f.read(HEAD_BYTES)
    first, newline, _ = head.partition(b"\n")
    first = first.strip()
    if not first:
        return None
    try:
        value = loads_line(first)
    except (ValueError, RecursionError):
        if newline:
            return None  # a whole first line that is not JSON: not a transcript pideck knows
        if _CODEX_START.match(first):
            return "codex"
        if _QWEN_START.match(first):
            return "qwen"
        if _COPILOT_START.match(first):
            return "copilot"
        return "claude" if _CLAUDE_START.match(first) and not _PI_START.match(first) else None
    return kind_of_line(value)


def is_qwen_record(value: dict[str, Any]) -> bool:
    """A Qwen Code chat record rather than a Claude Code line: its message holds Gemini-style
    ``parts`` (Claude's holds ``content``), or it has what only Qwen writes (``systemPayload``,
    ``toolCallResult``, ``usageMetadata``)."""
    message = value.get("message")
    if isinstance(message, dict) and isinstance(message.get("parts"), list) and "content" not in message:
        return True
    return any(k in value for k in ("systemPayload", "toolCallResult", "usageMetadata"))


def is_copilot_event(value: dict[str, Any]) -> bool:
    """A GitHub Copilot CLI event (``events.jsonl``): a dotted string ``type`` (``session.start``),
    an object ``data``, and an ``id`` and a ``parentId`` (no other agent's lines have those two)."""
    kind = value.get("type")
    return isinstance(kind, str) and "." in kind and isinstance(value.get("data"), dict) \
        and "id" in value and "parentId" in value


def kind_of_line(value: Any) -> str | None:
    """The agent whose transcript starts with this (parsed) line."""
    if not isinstance(value, dict):
        return None
    if value.get("type") == "session" and "version" in value:
        return None  # pi's header (pideck's sessions too)
    if isinstance(value.get("payload"), dict) and isinstance(value.get("type"), str) and "timestamp" in value:
        return "codex"
    if "type" not in value and ("projectHash" in value or "$set" in value) and ("sessionId" in value or "$set" in value):
        return "gemini"
    if is_copilot_event(value):
        return "copilot"
    if isinstance(value.get("type"), str) and any(k in value for k in ("sessionId", "parentUuid", "leafUuid")):
        return "qwen" if is_qwen_record(value) else "claude"
    if value.get("type") in CLAUDE_METADATA:
        return "claude"
    return None
