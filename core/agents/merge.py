"""Put pideck's MCP server and hooks into an agent's parsed config, keeping everything else.

Each function changes the document in place and says what it did: "added", "updated" or
"unchanged". Only what pideck owns is touched: its own server entry (the keys pideck writes; the
variables of an ``env`` or ``env_vars`` the user added stay) and its own hook handlers
(recognised by the command they run).
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict, TypeVar

from core.agents.command import runs_pideck

Outcome = Literal["added", "updated", "unchanged"]

SERVER_NAME = "pideck"

T = TypeVar("T", dict, list)  # what a part of a config file must be: an object or an array


class ServerEntry(TypedDict):
    """pideck's entry among an agent's MCP servers (docs/agent-configs.md)."""

    type: NotRequired[str]  # "stdio": Claude Code's
    command: str
    args: list[str]
    env: NotRequired[dict[str, str]]  # variables set for the server
    required: NotRequired[bool]  # Codex: it waits for the server at its start
    env_vars: NotRequired[list[str]]  # Codex: variables passed on from its own environment


class HookHandler(TypedDict):
    """pideck's handler of one hook event, as Claude Code and Codex read it."""

    type: str  # "command"
    command: str  # a shell line that runs ``pideck hook <agent>``
    timeout: int  # seconds (Qwen Code's: milliseconds)


class FlatHookHandler(TypedDict):
    """pideck's handler of one hook event, as GitHub Copilot CLI reads it (``.github/hooks/*.json``)."""

    type: str  # "command"
    bash: str  # a shell line that runs ``pideck hook <agent>``
    timeoutSec: int


class ConfigShapeError(ValueError):
    """A config whose parts pideck must change are not shaped as the agent reads them."""


def _child(parent: dict[str, object], key: str, kind: type[T], where: str) -> T:
    """``parent[key]``, made an empty ``kind`` when missing; a value of another type is refused."""
    value = parent.setdefault(key, kind())
    if not isinstance(value, kind):
        noun = "an object" if kind is dict else "a list"
        raise ConfigShapeError(f'"{where}{key}" is not {noun}')
    return value


def put_server(doc: dict[str, object], servers_key: str, entry: ServerEntry, owned: tuple[str, ...] = ()) -> Outcome:
    """``doc[servers_key]["pideck"]`` holds ``entry``'s keys; other servers are left alone. The
    variables named in ``owned`` are pideck's in the entry's ``env`` and ``env_vars``: set as
    ``entry`` has them, gone when it has none; the user's others stay."""
    servers = _child(doc, servers_key, dict, "")
    current = servers.get(SERVER_NAME)
    if not isinstance(current, dict):
        servers[SERVER_NAME] = dict(entry)
        return "added" if current is None else "updated"
    merged = {**current, **entry}
    # the user's own variables stay beside pideck's; every other key (args too) is pideck's whole
    for key, empty in (("env", {}), ("env_vars", [])):
        mine, value = current.get(key), entry.get(key, empty)
        if isinstance(mine, dict) and isinstance(value, dict):
            merged[key] = {**{k: v for k, v in mine.items() if k not in owned}, **value}
        elif isinstance(mine, list) and isinstance(value, list):
            merged[key] = [n for n in mine if n not in owned and n not in value] + value
        if key in merged and not merged[key] and key not in entry:
            del merged[key]  # (only pideck's variables were in it, and none is set now)
    if merged == current:
        return "unchanged"
    servers[SERVER_NAME] = merged
    return "updated"


def put_hook(doc: dict[str, object], event: str, handler: HookHandler, agent: str) -> Outcome:
    """``doc["hooks"][event]`` holds a group with ``handler`` (``{"hooks": [handler]}``, the shape
    Claude Code and Codex share). A handler that already runs ``pideck hook <agent>`` there is
    updated in place; the user's other hooks are left alone."""
    groups = _child(_child(doc, "hooks", dict, ""), event, list, "hooks.")
    for group in groups:
        handlers = group.get("hooks") if isinstance(group, dict) else None
        if isinstance(handlers, list) and (done := _put_in(handlers, dict(handler), "command", agent)) is not None:
            return done
    groups.append({"hooks": [dict(handler)]})
    return "added"


def _put_in(handlers: list[object], handler: dict[str, object], command_key: str, agent: str) -> Outcome | None:
    """``handler`` over the one among ``handlers`` that runs ``pideck hook <agent>`` (its line under
    ``command_key``), keeping the user's keys beside pideck's; None when none does."""
    for index, current in enumerate(handlers):
        if isinstance(current, dict) and runs_pideck(current.get(command_key), "hook", agent):
            merged = {**current, **handler}
            if merged == current:
                return "unchanged"
            handlers[index] = merged
            return "updated"
    return None


def put_flat_hook(doc: dict[str, object], event: str, handler: FlatHookHandler, agent: str) -> Outcome:
    """``doc["hooks"][event]`` holds ``handler`` among the handlers themselves (GitHub Copilot CLI's
    shape, ``{"version": 1, "hooks": {"Stop": [handler]}}``). A handler that already runs ``pideck
    hook <agent>`` there is updated in place; the user's other hooks are left alone."""
    version = doc.setdefault("version", 1)
    if version != 1:
        raise ConfigShapeError(f'"version" is {version!r}, not 1 (the hooks file format pideck knows)')
    handlers = _child(_child(doc, "hooks", dict, ""), event, list, "hooks.")
    done = _put_in(handlers, dict(handler), "bash", agent)
    if done is not None:
        return done
    handlers.append(dict(handler))
    return "added"
