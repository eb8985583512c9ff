"""Which files each agent reads pideck's MCP server and Stop hook from, in what shape, and what a
user does next. The shapes and places are the agents' documented ones (docs/agent-configs.md)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Literal

from core.agents.command import shell_line
from core.agents.merge import Outcome, put_server, put_stop_hook

Scope = Literal["project", "user"]

# Seconds an agent waits for `pideck hook`: far more than a settle takes, far less than the
# agents' default of ten minutes, so a hook stuck on a lock cannot freeze the agent for long.
HOOK_TIMEOUT = 60


@dataclass(frozen=True)
class Places:
    """Where the files are: the project (the current directory), the home folder, $CODEX_HOME."""

    cwd: Path
    home: Path
    codex_home: Path


@dataclass(frozen=True)
class Edit:
    label: str  # what it puts in the file, as the user reads it
    apply: Callable[[dict[str, Any]], Outcome]


@dataclass(frozen=True)
class ConfigFile:
    path: Path
    format: Literal["json", "toml"]
    edits: tuple[Edit, ...]
    private: bool  # a user-scope file: created 0600


@dataclass(frozen=True)
class Agent:
    name: str
    default_scope: Scope
    files: Callable[[Scope, Places, list[str]], list[ConfigFile]]
    next_steps: Callable[[Scope, Places], list[str]]


def _server(servers_key: str, entry: dict[str, Any], command: list[str]) -> Edit:
    shown = shell_line([*command, "mcp"])
    return Edit(f'MCP server "pideck" ({shown})', lambda doc: put_server(doc, servers_key, entry))


def _stop_hook(agent: str, command: list[str]) -> Edit:
    line = shell_line([*command, "hook", agent])
    handler = {"type": "command", "command": line, "timeout": HOOK_TIMEOUT}
    return Edit(f"Stop hook ({line})", lambda doc: put_stop_hook(doc, handler, agent))


def _stdio(command: list[str]) -> dict[str, Any]:
    return {"command": command[0], "args": [*command[1:], "mcp"]}


def _claude_files(scope: Scope, places: Places, command: list[str]) -> list[ConfigFile]:
    server = _server("mcpServers", {"type": "stdio", **_stdio(command)}, command)
    hook = _stop_hook("claude", command)
    if scope == "project":
        return [ConfigFile(places.cwd / ".mcp.json", "json", (server,), False),
                ConfigFile(places.cwd / ".claude" / "settings.json", "json", (hook,), False)]
    return [ConfigFile(places.home / ".claude.json", "json", (server,), True),
            ConfigFile(places.home / ".claude" / "settings.json", "json", (hook,), True)]


def _codex_files(scope: Scope, places: Places, command: list[str]) -> list[ConfigFile]:
    """One config.toml for both; the hook goes to hooks.json instead when the user keeps hooks
    there (Codex warns when one folder holds hooks in both files)."""
    folder = places.codex_home if scope == "user" else places.cwd / ".codex"
    private = scope == "user"
    server = _server("mcp_servers", {**_stdio(command), "required": True}, command)
    hook = _stop_hook("codex", command)
    if (folder / "hooks.json").exists():
        return [ConfigFile(folder / "config.toml", "toml", (server,), private),
                ConfigFile(folder / "hooks.json", "json", (hook,), private)]
    return [ConfigFile(folder / "config.toml", "toml", (server, hook), private)]


def _mcp_json_files(relative: str) -> Callable[[Scope, Places, list[str]], list[ConfigFile]]:
    def files(scope: Scope, places: Places, command: list[str]) -> list[ConfigFile]:
        base = places.cwd if scope == "project" else places.home
        server = _server("mcpServers", _stdio(command), command)
        return [ConfigFile(base / relative, "json", (server,), scope == "user")]
    return files


def _claude_steps(scope: Scope, places: Places) -> list[str]:
    if scope == "project":
        return [f"Restart Claude Code in {places.cwd}. It asks once whether to use the MCP servers "
                'of .mcp.json: allow "pideck".']
    return ["Quit every running Claude Code (each one writes ~/.claude.json too) and start it "
            "again; `claude mcp list` shows pideck."]


def _codex_steps(scope: Scope, places: Places) -> list[str]:
    steps = []
    if scope == "project":
        steps.append(f"Codex reads {places.cwd / '.codex'} only in a project it trusts: say yes "
                     f"when Codex asks at its start in {places.cwd}.")
    return steps + [
        "required = true makes Codex wait for pideck's tools at its start (otherwise it starts MCP "
        "servers in the background and its first request can go without them); Codex does not "
        "start when `pideck mcp` cannot.",
        "Codex runs a new or changed hook only once you trust it: start Codex, type /hooks and "
        "trust the Stop hook that runs pideck. Until then Codex skips it without a word, also in "
        "`codex exec`.",
    ]


def _gemini_steps(scope: Scope, places: Places) -> list[str]:
    return ["Restart Gemini CLI; /mcp lists pideck and its tools."]


def _cursor_steps(scope: Scope, places: Places) -> list[str]:
    return ["Restart Cursor (or reload its MCP servers in its settings) and check that pideck is "
            "enabled."]


AGENTS: dict[str, Agent] = {
    "claude": Agent("Claude Code", "project", _claude_files, _claude_steps),
    "codex": Agent("Codex", "user", _codex_files, _codex_steps),
    "gemini": Agent("Gemini CLI", "project", _mcp_json_files(".gemini/settings.json"), _gemini_steps),
    "cursor": Agent("Cursor", "project", _mcp_json_files(".cursor/mcp.json"), _cursor_steps),
}
