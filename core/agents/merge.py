"""Put pideck's MCP server and hooks into an agent's parsed config, keeping everything else.

Each function changes the document in place and says what it did: "added", "updated" or
"unchanged". Only what pideck owns is touched: its own server entry (the keys pideck writes; the
variables of an ``env`` or ``env_vars`` the user added stay) and its own hook handlers
(recognised by the command they run).
"""

from __future__ import annotations

from typing import Any, Literal

from core.agents.command import runs_pideck

Outcome = Literal["added", "updated", "unchanged"]

SERVER_NAME = "pideck"


class ConfigShapeError(ValueError):
    """A config whose parts pideck must change are not shaped as the agent reads them."""


def _child(parent: dict[str, Any], key: str, kind: type, where: str) -> Any:
    value = parent.setdefault(key, kind())
    if not isinstance(value, kind):
        noun = "an object" if kind is dict else "a list"
        raise ConfigShapeError(f'"{where}{key}" is not {noun}')
    return value


def put_server(doc: dict[str, Any], servers_key: str, entry: dict[str, Any]) -> Outcome:
    """``doc[servers_key]["pideck"]`` holds ``entry``'s keys; other servers are left alone."""
    servers = _child(doc, servers_key, dict, "")
    current = servers.get(SERVER_NAME)
    if not isinstance(current, dict):
        servers[SERVER_NAME] = dict(entry)
        return "added" if current is None else "updated"
    merged = {**current, **entry}
    # the user's own variables stay beside pideck's; every other key (args too) is pideck's whole
    for key in ("env", "env_vars"):
        mine, value = current.get(key), entry.get(key)
        if isinstance(value, dict) and isinstance(mine, dict):
            merged[key] = {**mine, **value}
        elif isinstance(value, list) and isinstance(mine, list):
            merged[key] = mine + [name for name in value if name not in mine]
    if merged == current:
        return "unchanged"
    servers[SERVER_NAME] = merged
    return "updated"


def put_hook(doc: dict[str, Any], event: str, handler: dict[str, Any], agent: str) -> Outcome:
    """``doc["hooks"][event]`` holds a group with ``handler`` (``{"hooks": [handler]}``, the shape
    Claude Code and Codex share). A handler that already runs ``pideck hook <agent>`` there is
    updated in place; the user's other hooks are left alone."""
    groups = _child(_child(doc, "hooks", dict, ""), event, list, "hooks.")
    for group in groups:
        handlers = group.get("hooks") if isinstance(group, dict) else None
        if not isinstance(handlers, list):
            continue
        for index, current in enumerate(handlers):
            if isinstance(current, dict) and runs_pideck(current.get("command"), "hook", agent):
                merged = {**current, **handler}
                if merged == current:
                    return "unchanged"
                handlers[index] = merged
                return "updated"
    groups.append({"hooks": [dict(handler)]})
    return "added"
