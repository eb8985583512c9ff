"""The README's install table names every hook ``pideck install`` registers, for each agent (it once
named three of Claude Code's six)."""

from __future__ import annotations

from pathlib import Path

from core.agents.targets import HOOK_EVENTS

README = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")


def test_the_install_table_names_every_hook_registered() -> None:
    rows = {agent: next(line for line in README.splitlines() if line.startswith(f"| {name} | `pideck install {agent}`"))
            for agent, name in (("claude", "Claude Code"), ("codex", "Codex"), ("qwen", "Qwen Code"),
                                                 ("copilot", "GitHub Copilot CLI"))}
    for agent, events in HOOK_EVENTS.items():
        assert [event for event in events if event not in rows[agent]] == [], agent
