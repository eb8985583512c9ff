"""Helpers shared by the install tests."""

from __future__ import annotations

from pathlib import Path
from typing import Any

PIDECK = "/opt/pideck/bin/pideck"
STAMP = "20261130T201600Z"  # the backups' suffix at the tests' fixed clock
EVENTS = {  # pideck's hooks per agent, in the order it writes them
    "claude": ("Stop", "SessionStart", "SessionEnd", "UserPromptSubmit", "Notification", "PermissionRequest"),
    "codex": ("Stop", "SessionStart", "SessionEnd", "UserPromptSubmit", "PermissionRequest"),
    "qwen": ("Stop", "SessionStart", "SessionEnd", "UserPromptSubmit", "Notification", "PermissionRequest"),
}

# config.toml of a fresh Codex install; appended as it is to a config that exists
CODEX = """\
[mcp_servers.pideck]
command = "/opt/pideck/bin/pideck"
args = [
    "mcp",
]
required = true
""" + "".join(f"""
[[hooks.{event}]]
hooks = [
    {{ type = "command", command = "/opt/pideck/bin/pideck hook codex", timeout = 60 }},
]
""" for event in EVENTS["codex"])


def handler(agent: str) -> dict[str, Any]:
    """pideck's hook handler, the same for every event (Qwen Code reads its timeout in milliseconds)."""
    return {"type": "command", "command": f"{PIDECK} hook {agent}", "timeout": 60_000 if agent == "qwen" else 60}


def hook_settings(agent: str, events: tuple[str, ...] | None = None) -> dict[str, Any]:
    """The hooks of a fresh install (Claude Code's settings.json, Codex's hooks.json)."""
    return {"hooks": {event: [{"hooks": [handler(agent)]}] for event in events or EVENTS[agent]}}


def hook_lines(agent: str, said: str) -> str:
    """The report's lines for pideck's hooks, each of which ``said`` ("added", "already there")."""
    return "".join(f"  {event} hook ({PIDECK} hook {agent}): {said}\n" for event in EVENTS[agent])


def snapshot(root: Path) -> dict[str, tuple[bytes, int]]:
    """Every file under ``root``: its bytes and mode (to show that a run changed nothing)."""
    return {str(p.relative_to(root)): (_read(p), p.stat().st_mode)
            for p in sorted(root.rglob("*")) if p.is_file()}


def _read(path: Path) -> bytes:
    with open(path, "rb") as f:  # not Path.read_bytes, which a test makes fail
        return f.read()
