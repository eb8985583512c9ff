"""A second install changes no byte, makes no backup and says so."""

from __future__ import annotations

import json
import os

import pytest
from install_helpers import CODEX, PIDECK, hook_lines, hook_settings, snapshot

RUNS = [(agent, scope) for agent in ("claude", "codex", "gemini", "cursor") for scope in ("project", "user")]


@pytest.mark.parametrize(("agent", "scope"), RUNS, ids=[f"{a}-{s}" for a, s in RUNS])
def test_second_run_changes_nothing(where, pideck, agent, scope) -> None:
    assert pideck("install", agent, "--scope", scope)[0] == 0
    root = where.home.parent
    before = snapshot(root)
    times = {name: os.stat(root / name).st_mtime_ns for name in before}
    code, out, err = pideck("install", agent, "--scope", scope)
    assert (code, err) == (0, "")
    assert snapshot(root) == before  # same files (so no backup), same bytes, same modes
    assert {name: os.stat(root / name).st_mtime_ns for name in before} == times
    assert "Nothing changed: pideck is already set up for" in out


def test_second_run_report_claude(where, pideck) -> None:
    pideck("install", "claude")
    p = where.project
    assert pideck("install", "claude") == (0, f"""\
pideck install claude, project scope: pideck runs as {PIDECK}
unchanged {p}/.mcp.json
  MCP server "pideck" ({PIDECK} mcp): already there
unchanged {p}/.claude/settings.json
{hook_lines("claude", "already there")}
Nothing changed: pideck is already set up for Claude Code (project scope).
Watch the session live: run `pideck` in {p}, beside Claude Code.
""", "")


def test_second_run_report_codex_user(where, pideck) -> None:
    pideck("install", "codex")
    assert pideck("install", "codex") == (0, f"""\
pideck install codex, user scope: pideck runs as {PIDECK}
unchanged {where.codex}/config.toml
  MCP server "pideck" ({PIDECK} mcp): already there
{hook_lines("codex", "already there")}
Nothing changed: pideck is already set up for Codex (user scope).
Watch the session live: run `pideck` in your project's directory, beside Codex.
""", "")


def test_codex_trust_written_by_codex_after_the_install_is_left_alone(where, pideck) -> None:
    pideck("install", "codex")
    path = where.codex / "config.toml"
    with path.open("a") as f:  # what Codex writes when the user trusts the hook in /hooks
        f.write('\n[hooks.state."config.toml:stop:0:0"]\ntrusted_hash = "sha256:1"\n')
    text = path.read_text()
    code, out, _ = pideck("install", "codex")
    assert code == 0 and "Nothing changed" in out
    assert path.read_text() == text


def test_half_installed_adds_only_the_missing_part(where, pideck) -> None:
    pideck("install", "claude")
    (where.project / ".claude" / "settings.json").unlink()
    code, out, _ = pideck("install", "claude")
    assert code == 0
    assert f"unchanged {where.project}/.mcp.json\n" in out
    assert f"created {where.project}/.claude/settings.json\n" in out
    assert "Next:\n" in out


OLDER = [  # agent, the file where an older pideck install put its only hook, Stop
    ("claude", "project/.claude/settings.json"),
    ("codex", "home/.codex/config.toml"),
    ("codex", "home/.codex/hooks.json"),
]


@pytest.mark.parametrize(("agent", "name"), OLDER, ids=[f"{a}-{n.rsplit('/', 1)[1]}" for a, n in OLDER])
def test_an_older_install_with_only_the_stop_hook_gets_the_session_hooks(where, pideck, agent,
                                                                         name) -> None:
    path = where.home.parent / name
    if path.name == "hooks.json":  # the user keeps Codex's hooks there
        path.parent.mkdir()
        path.write_text("{}\n")
    pideck("install", agent)
    fresh = path.read_text()
    path.write_text(CODEX.split("\n[[hooks.SessionStart]]")[0] if path.suffix == ".toml"
                    else json.dumps(hook_settings(agent, ("Stop",)), indent=2) + "\n")
    code, out, _ = pideck("install", agent)
    assert code == 0
    assert f"""\
  Stop hook ({PIDECK} hook {agent}): already there
  SessionStart hook ({PIDECK} hook {agent}): added
  SessionEnd hook ({PIDECK} hook {agent}): added
""" in out
    assert f"updated {path} (backup: " in out and "note:" not in out  # TOML: appended, not rewritten
    assert path.read_text() == fresh
