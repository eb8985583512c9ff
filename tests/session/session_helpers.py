"""Shared helpers for the session-log tests: a reference implementation of pi's reading rules and
small file builders."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from core.jsutil import escape_lone_surrogates

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
HEADER = {"type": "session", "version": 3, "id": "01a22cf2-253f-70fd-b26f-f043e48c877f",
          "timestamp": "2026-11-30T14:53:16.479Z", "cwd": "/home/user/demo-project"}


def line(value: Any) -> bytes:
    """One line as pi writes it (a lone surrogate as its ``\\udxxx`` escape)."""
    return (escape_lone_surrogates(json.dumps(value, separators=(",", ":"), ensure_ascii=False)) + "\n").encode("utf-8")


def entry(id: str, parent: str | None, type: str = "custom", **fields: Any) -> dict[str, Any]:
    e = {"type": type, "id": id, "parentId": parent, "timestamp": "2026-11-30T14:53:16.480Z"}
    if type == "custom":
        e["customType"] = fields.pop("customType", "agent-state-state")
        e["data"] = fields.pop("data", {"schemaVersion": 1, "state": {}})
    e.update(fields)
    return e


def message(id: str, parent: str | None, role: str = "assistant", text: str = "hi", **fields: Any) -> dict[str, Any]:
    """A message entry in pi's key order."""
    msg: dict[str, Any] = {"role": role}
    if role == "toolResult":
        msg["toolCallId"] = "call_1"
        msg["toolName"] = fields.pop("toolName", "bash")
    msg["content"] = [{"type": "text", "text": text}]
    msg.update(fields)
    msg["timestamp"] = 1796050396480
    return {"type": "message", "id": id, "parentId": parent, "timestamp": "2026-11-30T14:53:16.480Z", "message": msg}


def session_bytes(*entries: dict[str, Any], header: dict[str, Any] = HEADER) -> bytes:
    return b"".join(line(e) for e in (header, *entries))


class NotSession(Exception):
    pass


def _reject(name: str) -> Any:
    raise ValueError(name)


MAX_DEPTH = 256  # pideck's documented limit (core/session/parse.py); the reference counts it its own way


def depth(value: Any) -> int:
    """Nesting depth of a decoded JSON value (an object or array is one level), counted without
    recursion."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        node, level = stack.pop()
        if isinstance(node, (dict, list)):
            deepest = max(deepest, level)
            stack.extend((child, level + 1) for child in (node.values() if isinstance(node, dict) else node))
    return deepest


def reference_read(data: bytes) -> tuple[list[dict[str, Any]], list[str]]:
    """pi's algorithm, written the straightforward way: JSON.parse every complete line, the first
    parsed line is the header, entries are objects with a string id, the id map is filled in file
    order (later duplicates win), the leaf is the last entry, the branch follows parentId until null,
    a missing id, or (pideck's guard) an id already visited. Returns (entries, branch ids).

    pideck's one extra rule: a line Python cannot parse for its depth is skipped, and so is an
    entry other than a message nested more than MAX_DEPTH levels deep."""
    header = None
    entries: list[dict[str, Any]] = []
    for raw in data.split(b"\n")[:-1]:
        if not raw.strip():
            continue
        try:
            value = json.loads(raw.decode("utf-8", "replace"), parse_constant=_reject)  # pi reads text
        except (ValueError, RecursionError):
            continue
        if header is None:
            if not (isinstance(value, dict) and value.get("type") == "session" and isinstance(value.get("id"), str)):
                raise NotSession
            header = value
            continue
        if isinstance(value, dict) and value.get("type") != "session" and isinstance(value.get("id"), str):
            if value.get("type") != "message" and depth(value) > MAX_DEPTH:
                continue
            entries.append(value)
    if header is None:
        raise NotSession
    by_id = {e["id"]: e for e in entries}
    path, seen = [], set()
    node = entries[-1] if entries else None
    while node is not None and node["id"] not in seen:
        seen.add(node["id"])
        path.append(node["id"])
        parent = node.get("parentId")
        node = by_id.get(parent) if isinstance(parent, str) else None
    return entries, path[::-1]


def identity(entry: dict[str, Any]) -> tuple[Any, ...]:
    """What the index holds of an entry, read from the parsed dict as JSON.parse gives it:
    (id, parentId, type, customType, role, toolName), strings or None."""
    def text(value: Any) -> str | None:
        return value if isinstance(value, str) else None

    message = entry.get("message") if entry.get("type") == "message" else None
    message = message if isinstance(message, dict) else {}
    return (entry["id"], text(entry.get("parentId")), text(entry.get("type")), text(entry.get("customType")),
            text(message.get("role")), text(message.get("toolName")))


def read_back(entry: dict[str, Any]) -> dict[str, Any]:
    """What ``dict(record)`` gives for an entry: the entry, or for a message nested deeper than
    MAX_DEPTH (indexed, as pi keeps it, but never decoded) the stub the log returns."""
    if depth(entry) > MAX_DEPTH:
        return {"type": entry.get("type") if isinstance(entry.get("type"), str) else None, "id": entry["id"],
                "parentId": entry.get("parentId") if isinstance(entry.get("parentId"), str) else None}
    return entry
