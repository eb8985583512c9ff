"""Which files each agent reads pideck's MCP server and hooks from, in what shape, and what a user
does next. The shapes and places are the agents' documented ones (docs/agent-configs.md)."""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Literal

from core.agents.command import shell_line
from core.agents.merge import FlatHookHandler, HookHandler, Outcome, ServerEntry, put_flat_hook, put_hook, put_server

Scope = Literal["project", "user"]

HOOK_EVENTS = {
    "claude": ("Stop", "SessionStart", "SessionEnd", "UserPromptSubmit", "Notification", "PermissionRequest"),
    "codex": ("Stop", "SessionStart", "SessionEnd", "UserPromptSubmit", "PermissionRequest"),
    "qwen": ("Stop", "SessionStart", "SessionEnd", "UserPromptSubmit", "Notification", "PermissionRequest"),
    "copilot": ("Stop",),
}
"""The hooks pideck answers, per agent: Stop settles the todo gates; SessionStart and SessionEnd
tell pideck which conversation the agent process is in
(docs/mcp-and-hooks.md#which-session-a-call-goes-to); the others are recorded for who needs the
person (core/catalog/attention.py) and never decided (Codex has no Notification hook). GitHub
Copilot CLI answers its ``Stop`` (under that name it sends Claude Code's input) and nothing else
pideck has seen it send in that form."""
SHARED_VARIABLES = ("PIDECK_HOME", "PIDECK_CONFIG", "PI_CODING_AGENT_DIR")
"""Where pideck and pi keep their files: set where ``pideck install`` runs, they go to the server
too, so the server writes where the TUI beside the agent reads."""

# Seconds an agent waits for `pideck hook`: far more than a settle takes, far less than the
# agents' default of ten minutes, so a hook stuck on a lock cannot freeze the agent for long.
HOOK_TIMEOUT = 60


@dataclass(frozen=True)
class Places:
    """Where the files are: the project (the current directory), the home folder, $CODEX_HOME;
    and the ``SHARED_VARIABLES`` that are set, as absolute paths."""

    cwd: Path
    home: Path
    codex_home: Path
    shared: tuple[tuple[str, str], ...] = ()
    qwen_home: Path | None = None  # $QWEN_HOME, else ~/.qwen (None: under ``home``)
    copilot_home: Path | None = None  # $COPILOT_HOME, else ~/.copilot (None: under ``home``)


@dataclass(frozen=True)
class Edit:
    label: str  # what it puts in the file, as the user reads it
    apply: Callable[[dict[str, object]], Outcome]  # changes the parsed file in place


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


def _server(servers_key: str, entry: ServerEntry, command: list[str]) -> Edit:
    shown = shell_line([*command, "mcp"])
    passed = entry.get("env") or entry.get("env_vars")
    label = f'MCP server "pideck" ({shown}' + (f"; passes on {', '.join(passed)})" if passed else ")")
    return Edit(label, lambda doc: put_server(doc, servers_key, entry, SHARED_VARIABLES))


def _hooks(agent: str, command: list[str], prefix: str = "", timeout: int = HOOK_TIMEOUT) -> tuple[Edit, ...]:
    line = prefix + shell_line([*command, "hook", agent])
    handler: HookHandler = {"type": "command", "command": line, "timeout": timeout}

    def edit(event: str) -> Edit:
        return Edit(f"{event} hook ({line})", lambda doc: put_hook(doc, event, handler, agent))
    return tuple(edit(event) for event in HOOK_EVENTS[agent])


def _stdio(command: list[str], env: dict[str, str] | None = None) -> ServerEntry:
    entry: ServerEntry = {"command": command[0], "args": [*command[1:], "mcp"]}
    if env:
        entry["env"] = env
    return entry


def _claude_variables(shared: tuple[tuple[str, str], ...]) -> tuple[dict[str, str], str]:
    """The server's ``env`` and the hooks' command prefix for the shared variables: ``${NAME:-value}``,
    the value Claude Code was started with, else the install's (Claude Code expands the form in an
    MCP server's ``env``, a POSIX shell in a hook's command). A value the form cannot hold is given
    as it is to both."""
    env: dict[str, str] = {}
    words: list[str] = []
    for name, value in shared:
        if re.search(r'["$\\`}]', value):
            env[name] = value
            words.append(f"{name}={shlex.quote(value)}")
        else:
            env[name] = f"${{{name}:-{value}}}"
            words.append(f'{name}="{env[name]}"')
    return env, "".join(f"{word} " for word in words)


def _claude_files(scope: Scope, places: Places, command: list[str]) -> list[ConfigFile]:
    """The server and the hooks get the shared variables the same way, so they always agree: the
    value Claude Code was started with, else the one set at the install."""
    env, prefix = _claude_variables(places.shared)
    server = _server("mcpServers", {"type": "stdio", **_stdio(command, env)}, command)
    hooks = _hooks("claude", command, prefix)
    if scope == "project":
        return [ConfigFile(places.cwd / ".mcp.json", "json", (server,), False),
                ConfigFile(places.cwd / ".claude" / "settings.json", "json", hooks, False)]
    return [ConfigFile(places.home / ".claude.json", "json", (server,), True),
            ConfigFile(places.home / ".claude" / "settings.json", "json", hooks, True)]


def _codex_files(scope: Scope, places: Places, command: list[str]) -> list[ConfigFile]:
    """One config.toml for all; the hooks go to hooks.json instead when the user keeps hooks there
    (Codex warns when one folder holds hooks in both files). Codex hands its MCP servers a
    stripped environment and its hooks its own, so the shared variables are named in
    ``env_vars``: Codex passes each on from that same environment."""
    folder = places.codex_home if scope == "user" else places.cwd / ".codex"
    private = scope == "user"
    entry: ServerEntry = {**_stdio(command), "required": True}
    if places.shared:
        entry["env_vars"] = [name for name, _ in places.shared]
    server = _server("mcp_servers", entry, command)
    hooks = _hooks("codex", command)
    if (folder / "hooks.json").exists():
        return [ConfigFile(folder / "config.toml", "toml", (server,), private),
                ConfigFile(folder / "hooks.json", "json", hooks, private)]
    return [ConfigFile(folder / "config.toml", "toml", (server, *hooks), private)]


def _mcp_json_files(relative: str) -> Callable[[Scope, Places, list[str]], list[ConfigFile]]:
    """Gemini CLI and Cursor: the shared variables as the install's values (no hook needs to
    agree with the server)."""
    def files(scope: Scope, places: Places, command: list[str]) -> list[ConfigFile]:
        base = places.cwd if scope == "project" else places.home
        server = _server("mcpServers", _stdio(command, dict(places.shared)), command)
        return [ConfigFile(base / relative, "json", (server,), scope == "user")]
    return files


def _qwen_files(scope: Scope, places: Places, command: list[str]) -> list[ConfigFile]:
    """One settings.json holds the MCP server (as Gemini CLI's) and the hooks (in Claude Code's
    shape). Qwen Code 0.15.10 hands a command hook's ``timeout`` to ``setTimeout`` as it is: in
    milliseconds, whatever its schema says."""
    folder = places.cwd / ".qwen" if scope == "project" else (places.qwen_home or places.home / ".qwen")
    server = _server("mcpServers", _stdio(command, dict(places.shared)), command)
    hooks = _hooks("qwen", command, timeout=HOOK_TIMEOUT * 1000)
    return [ConfigFile(folder / "settings.json", "json", (server, *hooks), scope == "user")]


def _qwen_steps(scope: Scope, places: Places) -> list[str]:
    steps = ["Restart Qwen Code; /mcp lists pideck and its tools, /hooks the hooks that run pideck."]
    if scope == "project":
        steps.append(f"Qwen Code runs a project's hooks only in a folder it trusts: trust {places.cwd} "
                     "when it asks (or install with --scope user).")
    return steps


def _copilot_files(scope: Scope, places: Places, command: list[str]) -> list[ConfigFile]:
    """A hooks file of pideck's own, in the folder GitHub Copilot CLI reads hooks from: the
    repository's ``.github/hooks``, or ``~/.copilot/hooks``. Only the Stop hook: Copilot hands a
    hook registered under ``Stop`` Claude Code's input, the transcript being its events.jsonl. (Its
    MCP server config is not written: pideck has not seen Copilot read one.)"""
    folder = places.cwd / ".github" / "hooks" if scope == "project" else \
        (places.copilot_home or places.home / ".copilot") / "hooks"
    line = shell_line([*command, "hook", "copilot"])
    handler: FlatHookHandler = {"type": "command", "bash": line, "timeoutSec": HOOK_TIMEOUT}

    def edit(event: str) -> Edit:
        return Edit(f"{event} hook ({line})", lambda doc: put_flat_hook(doc, event, handler, "copilot"))
    return [ConfigFile(folder / "pideck.json", "json", tuple(edit(e) for e in HOOK_EVENTS["copilot"]), scope == "user")]


def _copilot_steps(scope: Scope, places: Places) -> list[str]:
    if scope == "project":
        return [f"GitHub Copilot CLI runs a repository's hooks only in a folder it trusts: trust {places.cwd} "
                "when it asks (`copilot -p` needs --trust-folder), or install with --scope user."]
    return ["Start GitHub Copilot CLI again; it reads ~/.copilot/hooks at its start."]


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
        "trust the hooks that run pideck (Stop, SessionStart, SessionEnd, UserPromptSubmit, "
        "PermissionRequest). Until then Codex skips them without a word, also in `codex exec`.",
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
    "qwen": Agent("Qwen Code", "project", _qwen_files, _qwen_steps),
    "copilot": Agent("GitHub Copilot CLI", "user", _copilot_files, _copilot_steps),
    "cursor": Agent("Cursor", "project", _mcp_json_files(".cursor/mcp.json"), _cursor_steps),
}
