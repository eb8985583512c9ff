"""Helpers shared by the install tests."""

from __future__ import annotations

from pathlib import Path

PIDECK = "/opt/pideck/bin/pideck"
STAMP = "20261130T201600Z"  # the backups' suffix at the tests' fixed clock

# config.toml of a fresh Codex install; appended as it is to a config that exists
CODEX = """\
[mcp_servers.pideck]
command = "/opt/pideck/bin/pideck"
args = [
    "mcp",
]
required = true

[[hooks.Stop]]
hooks = [
    { type = "command", command = "/opt/pideck/bin/pideck hook codex", timeout = 60 },
]
"""


def snapshot(root: Path) -> dict[str, tuple[bytes, int]]:
    """Every file under ``root``: its bytes and mode (to show that a run changed nothing)."""
    return {str(p.relative_to(root)): (_read(p), p.stat().st_mode)
            for p in sorted(root.rglob("*")) if p.is_file()}


def _read(path: Path) -> bytes:
    with open(path, "rb") as f:  # not Path.read_bytes, which a test makes fail
        return f.read()
