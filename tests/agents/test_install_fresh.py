"""A first install on a home and project with no agent config: the exact files and the exact report."""

from __future__ import annotations

import json
import os
import stat

import pytest
from install_helpers import CODEX, hook_lines, hook_settings, snapshot

CLAUDE_SERVER = """\
{
  "mcpServers": {
    "pideck": {
      "type": "stdio",
      "command": "/opt/pideck/bin/pideck",
      "args": [
        "mcp"
      ]
    }
  }
}
"""

CLAUDE_HOOK = json.dumps(hook_settings("claude"), indent=2) + "\n"

PLAIN_SERVER = """\
{
  "mcpServers": {
    "pideck": {
      "command": "/opt/pideck/bin/pideck",
      "args": [
        "mcp"
      ]
    }
  }
}
"""

QWEN_SETTINGS = json.dumps({**json.loads(PLAIN_SERVER), **hook_settings("qwen")}, indent=2) + "\n"

CASES = [  # agent, scope, files written (relative to home or project)
    ("claude", "project", {"project/.mcp.json": CLAUDE_SERVER, "project/.claude/settings.json": CLAUDE_HOOK}),
    ("claude", "user", {"home/.claude.json": CLAUDE_SERVER, "home/.claude/settings.json": CLAUDE_HOOK}),
    ("codex", "project", {"project/.codex/config.toml": CODEX}),
    ("codex", "user", {"home/.codex/config.toml": CODEX}),
    ("gemini", "project", {"project/.gemini/settings.json": PLAIN_SERVER}),
    ("gemini", "user", {"home/.gemini/settings.json": PLAIN_SERVER}),
    ("qwen", "project", {"project/.qwen/settings.json": QWEN_SETTINGS}),
    ("qwen", "user", {"home/.qwen/settings.json": QWEN_SETTINGS}),
    ("cursor", "project", {"project/.cursor/mcp.json": PLAIN_SERVER}),
    ("cursor", "user", {"home/.cursor/mcp.json": PLAIN_SERVER}),
]


@pytest.mark.parametrize(("agent", "scope", "files"), CASES, ids=[f"{a}-{s}" for a, s, _ in CASES])
def test_fresh_install_writes_exactly_these_files(where, pideck, agent, scope, files) -> None:
    code, _, err = pideck("install", agent, "--scope", scope)
    assert (code, err) == (0, "")
    root = where.home.parent
    assert {name: data.decode() for name, (data, _) in snapshot(root).items()} == files


@pytest.mark.parametrize(("agent", "scope", "files"), CASES, ids=[f"{a}-{s}" for a, s, _ in CASES])
def test_new_user_files_are_private_and_project_files_follow_the_umask(where, pideck, agent, scope,
                                                                       files) -> None:
    pideck("install", agent, "--scope", scope)
    for name in files:
        path = where.home.parent / name
        expected = 0o600 if scope == "user" else 0o666 & ~_umask()
        assert stat.S_IMODE(path.stat().st_mode) == expected, name
        if scope == "user" and path.parent != where.home:  # a folder the install created
            assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700, name


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_default_scopes_are_project_except_codex(where, pideck) -> None:
    for agent in ("claude", "gemini", "cursor"):
        assert pideck("install", agent)[0] == 0
    assert pideck("install", "codex")[0] == 0
    assert sorted(snapshot(where.home.parent)) == [
        "home/.codex/config.toml", "project/.claude/settings.json", "project/.cursor/mcp.json",
        "project/.gemini/settings.json", "project/.mcp.json",
    ]


def test_report_claude_project(where, pideck) -> None:
    p = where.project
    assert pideck("install", "claude") == (0, f"""\
pideck install claude, project scope: pideck runs as /opt/pideck/bin/pideck
created {p}/.mcp.json
  MCP server "pideck" (/opt/pideck/bin/pideck mcp): added
created {p}/.claude/settings.json
{hook_lines("claude", "added")}
Next:
  - Restart Claude Code in {p}. It asks once whether to use the MCP servers of .mcp.json: allow "pideck".
  - Watch the session live: run `pideck` in {p}, beside Claude Code.
""", "")


def test_report_claude_user(where, pideck) -> None:
    h = where.home
    assert pideck("install", "claude", "--scope", "user") == (0, f"""\
pideck install claude, user scope: pideck runs as /opt/pideck/bin/pideck
created {h}/.claude.json
  MCP server "pideck" (/opt/pideck/bin/pideck mcp): added
created {h}/.claude/settings.json
{hook_lines("claude", "added")}
Next:
  - Quit every running Claude Code (each one writes ~/.claude.json too) and start it again; `claude mcp list` shows pideck.
  - Watch the session live: run `pideck` in your project's directory, beside Claude Code.
""", "")


CODEX_STEPS = """\
  - required = true makes Codex wait for pideck's tools at its start (otherwise it starts MCP servers in the background and its first request can go without them); Codex does not start when `pideck mcp` cannot.
  - Codex runs a new or changed hook only once you trust it: start Codex, type /hooks and trust the hooks that run pideck (Stop, SessionStart, SessionEnd, UserPromptSubmit, PermissionRequest). Until then Codex skips them without a word, also in `codex exec`.
"""


def test_report_codex_user(where, pideck) -> None:
    assert pideck("install", "codex") == (0, f"""\
pideck install codex, user scope: pideck runs as /opt/pideck/bin/pideck
created {where.codex}/config.toml
  MCP server "pideck" (/opt/pideck/bin/pideck mcp): added
{hook_lines("codex", "added")}
Next:
{CODEX_STEPS}\
  - Watch the session live: run `pideck` in your project's directory, beside Codex.
""", "")


def test_report_codex_project_says_codex_must_trust_the_project(where, pideck) -> None:
    p = where.project
    assert pideck("install", "codex", "--scope", "project") == (0, f"""\
pideck install codex, project scope: pideck runs as /opt/pideck/bin/pideck
created {p}/.codex/config.toml
  MCP server "pideck" (/opt/pideck/bin/pideck mcp): added
{hook_lines("codex", "added")}
Next:
  - Codex reads {p}/.codex only in a project it trusts: say yes when Codex asks at its start in {p}.
{CODEX_STEPS}\
  - Watch the session live: run `pideck` in {p}, beside Codex.
""", "")


def test_codex_home_comes_from_the_environment(where, pideck, monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / "elsewhere"))
    code, out, _ = pideck("install", "codex")
    assert code == 0
    assert f"created {tmp_path}/elsewhere/config.toml\n" in out
    assert (tmp_path / "elsewhere" / "config.toml").read_text() == CODEX
    assert not where.codex.exists()


def test_report_gemini_user(where, pideck) -> None:
    assert pideck("install", "gemini", "--scope", "user") == (0, f"""\
pideck install gemini, user scope: pideck runs as /opt/pideck/bin/pideck
created {where.home}/.gemini/settings.json
  MCP server "pideck" (/opt/pideck/bin/pideck mcp): added

Next:
  - Restart Gemini CLI; /mcp lists pideck and its tools.
  - Watch the session live: run `pideck` in your project's directory, beside Gemini CLI.
""", "")


def test_report_cursor_project(where, pideck) -> None:
    p = where.project
    assert pideck("install", "cursor") == (0, f"""\
pideck install cursor, project scope: pideck runs as /opt/pideck/bin/pideck
created {p}/.cursor/mcp.json
  MCP server "pideck" (/opt/pideck/bin/pideck mcp): added

Next:
  - Restart Cursor (or reload its MCP servers in its settings) and check that pideck is enabled.
  - Watch the session live: run `pideck` in {p}, beside Cursor.
""", "")


def test_a_pideck_inside_a_virtual_environment_gets_the_uv_tool_hint(where, pideck, monkeypatch) -> None:
    venv_pideck = "/work/repo/.venv/bin/pideck"
    monkeypatch.setattr("core.agents.install.pideck_command", lambda: [venv_pideck])
    code, out, _ = pideck("install", "gemini")
    assert code == 0
    assert out.endswith(
        f"  - {venv_pideck} lies in a project's virtual environment: the agent cannot start pideck "
        "once it is gone. `uv tool install` installs pideck once for every project; then run this "
        "again.\n")


def test_a_path_with_spaces_is_quoted_for_the_hook_shell_and_kept_whole_for_the_server(
        where, pideck, monkeypatch) -> None:
    monkeypatch.setattr("core.agents.install.pideck_command", lambda: ["/opt/my tools/pideck"])
    pideck("install", "claude")
    assert '"command": "/opt/my tools/pideck",' in (where.project / ".mcp.json").read_text()
    hook = (where.project / ".claude" / "settings.json").read_text()
    assert "\"command\": \"'/opt/my tools/pideck' hook claude\"," in hook


def test_the_module_fallback_puts_its_arguments_before_mcp(where, pideck, monkeypatch) -> None:
    monkeypatch.setattr("core.agents.install.pideck_command",
                        lambda: ["/usr/bin/python3", "-m", "core.cli.main"])
    pideck("install", "codex")
    text = (where.codex / "config.toml").read_text()
    assert 'command = "/usr/bin/python3"\nargs = [\n    "-m",\n    "core.cli.main",\n    "mcp",\n]\n' in text
    assert 'command = "/usr/bin/python3 -m core.cli.main hook codex"' in text


def test_unknown_agent_is_a_usage_error(where, pideck) -> None:
    code, out, err = pideck("install", "vim")
    assert code == 2
    assert "invalid choice: 'vim' (choose from 'claude', 'codex', 'copilot', 'cursor', 'gemini', 'qwen')" in err
    assert snapshot(where.home.parent) == {}


def test_qwen_user_settings_follow_qwen_home(where, pideck, monkeypatch) -> None:
    """``$QWEN_HOME`` is Qwen Code's own folder: its settings.json is there, not under the home."""
    monkeypatch.setenv("QWEN_HOME", str(where.home / "qwen-elsewhere"))
    assert pideck("install", "qwen", "--scope", "user")[0] == 0
    assert sorted(snapshot(where.home.parent)) == ["home/qwen-elsewhere/settings.json"]


def test_report_qwen_project(where, pideck) -> None:
    p = where.project
    assert pideck("install", "qwen") == (0, f"""\
pideck install qwen, project scope: pideck runs as /opt/pideck/bin/pideck
created {p}/.qwen/settings.json
  MCP server "pideck" (/opt/pideck/bin/pideck mcp): added
{hook_lines("qwen", "added")}
Next:
  - Restart Qwen Code; /mcp lists pideck and its tools, /hooks the hooks that run pideck.
  - Qwen Code runs a project's hooks only in a folder it trusts: trust {p} when it asks (or install with --scope user).
  - Watch the session live: run `pideck` in {p}, beside Qwen Code.
""", "")
