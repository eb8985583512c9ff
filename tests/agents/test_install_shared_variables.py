"""PIDECK_HOME, PIDECK_CONFIG and PI_CODING_AGENT_DIR set where ``pideck install`` runs go to the MCP
server, so it writes where the TUI reads: as absolute paths in its ``env`` (Gemini CLI, Cursor), as
``${NAME:-path}`` in its ``env`` and in the hooks' commands (Claude Code: the server and the hooks
agree, on Claude's own value when it has one), by name in its ``env_vars`` (Codex, which passes them
on from the environment its hooks get too)."""

from __future__ import annotations

import json
import tomllib

import pytest
import tomli_w
from install_helpers import CODEX, EVENTS, PIDECK, snapshot

PASSES_ON = f'MCP server "pideck" ({PIDECK} mcp; passes on PIDECK_HOME, PIDECK_CONFIG, PI_CODING_AGENT_DIR)'

# config.toml of a fresh Codex install with the three variables set: their names, not their values
CODEX_SHARED = CODEX.replace("required = true\n", """\
required = true
env_vars = [
    "PIDECK_HOME",
    "PIDECK_CONFIG",
    "PI_CODING_AGENT_DIR",
]
""")

SERVERS = [  # agent, scope, the file that holds the server (below the home's and project's parent)
    ("claude", "project", "project/.mcp.json"),
    ("claude", "user", "home/.claude.json"),
    ("codex", "project", "project/.codex/config.toml"),
    ("codex", "user", "home/.codex/config.toml"),
    ("gemini", "project", "project/.gemini/settings.json"),
    ("gemini", "user", "home/.gemini/settings.json"),
    ("cursor", "project", "project/.cursor/mcp.json"),
    ("cursor", "user", "home/.cursor/mcp.json"),
]
IDS = [f"{a}-{s}" for a, s, _ in SERVERS]


@pytest.fixture
def shared(where, monkeypatch, tmp_path) -> dict[str, str]:
    """The three set: relative to the project, under ~, absolute; returns the values written."""
    monkeypatch.setenv("PIDECK_HOME", "state/pideck")
    monkeypatch.setenv("PIDECK_CONFIG", "~/conf/pideck.toml")
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(tmp_path / "pi"))
    return {"PIDECK_HOME": f"{where.project}/state/pideck",
            "PIDECK_CONFIG": f"{where.home}/conf/pideck.toml",
            "PI_CODING_AGENT_DIR": f"{tmp_path}/pi"}


def claude_defaults(env: dict[str, str]) -> dict[str, str]:
    return {name: "${%s:-%s}" % (name, value) for name, value in env.items()}


def _fresh(agent: str, env: dict[str, str]) -> str:
    if agent == "codex":
        return CODEX_SHARED
    typed = {"type": "stdio"} if agent == "claude" else {}
    server = {**typed, "command": PIDECK, "args": ["mcp"], "env": claude_defaults(env) if agent == "claude" else env}
    return json.dumps({"mcpServers": {"pideck": server}}, indent=2) + "\n"


@pytest.mark.parametrize("scope, settings", [("project", "project/.claude/settings.json"),
                                             ("user", "home/.claude/settings.json")])
def test_claude_s_hooks_get_the_variables_as_its_server_does(where, pideck, shared, scope, settings) -> None:
    """Else a server on the install's home and hooks on Claude's own would never meet."""
    pideck("install", "claude", "--scope", scope)
    hooks = json.loads((where.home.parent / settings).read_text())["hooks"]
    prefix = "".join(f'{name}="{value}" ' for name, value in claude_defaults(shared).items())
    assert {event: groups[0]["hooks"][0]["command"] for event, groups in hooks.items()} == {
        event: f"{prefix}{PIDECK} hook claude" for event in EVENTS["claude"]}
    again = pideck("install", "claude", "--scope", scope)[1]  # the prefixed command is still pideck's
    assert again.count("already there") == 1 + len(EVENTS["claude"])


def test_a_value_no_default_form_can_hold_is_given_as_it_is_to_server_and_hooks(where, pideck, monkeypatch) -> None:
    monkeypatch.setenv("PIDECK_HOME", "/srv/odd$home}")
    pideck("install", "claude")
    assert json.loads((where.project / ".mcp.json").read_text())["mcpServers"]["pideck"]["env"] == {
        "PIDECK_HOME": "/srv/odd$home}"}
    hooks = json.loads((where.project / ".claude" / "settings.json").read_text())["hooks"]
    assert hooks["Stop"][0]["hooks"][0]["command"] == f"PIDECK_HOME='/srv/odd$home}}' {PIDECK} hook claude"


@pytest.mark.parametrize("agent, name", [("claude", "project/.mcp.json"), ("gemini", "project/.gemini/settings.json")])
def test_an_install_without_the_variables_takes_pideck_s_away_and_keeps_the_user_s(where, pideck, monkeypatch,
                                                                                   agent, name) -> None:
    monkeypatch.setenv("PIDECK_HOME", "/tmp/tried-once")
    pideck("install", agent)
    path = where.home.parent / name
    doc = json.loads(path.read_text())
    doc["mcpServers"]["pideck"]["env"]["MY_TOKEN"] = "t"
    path.write_text(json.dumps(doc))
    monkeypatch.delenv("PIDECK_HOME")
    out = pideck("install", agent)[1]
    assert f'  MCP server "pideck" ({PIDECK} mcp): updated\n' in out
    assert json.loads(path.read_text())["mcpServers"]["pideck"]["env"] == {"MY_TOKEN": "t"}


@pytest.mark.parametrize(("agent", "scope", "name"), SERVERS, ids=IDS)
def test_a_fresh_install_hands_the_variables_to_the_server(where, pideck, shared, agent, scope,
                                                           name) -> None:
    code, out, err = pideck("install", agent, "--scope", scope)
    assert (code, err) == (0, "")
    assert f"  {PASSES_ON}: added\n" in out
    assert (where.home.parent / name).read_text() == _fresh(agent, shared)


@pytest.mark.parametrize(("agent", "scope", "name"), SERVERS, ids=IDS)
def test_a_second_run_with_the_variables_changes_nothing(where, pideck, shared, agent, scope,
                                                         name) -> None:
    pideck("install", agent, "--scope", scope)
    before = snapshot(where.home.parent)
    code, out, _ = pideck("install", agent, "--scope", scope)
    assert code == 0
    assert f"  {PASSES_ON}: already there\n" in out
    assert "Nothing changed: pideck is already set up for" in out
    assert snapshot(where.home.parent) == before


def test_only_the_variables_set_are_passed_on(where, pideck, monkeypatch) -> None:
    monkeypatch.setenv("PIDECK_HOME", "/srv/pideck")
    monkeypatch.setenv("PIDECK_CONFIG", "")  # empty: as good as unset
    code, out, _ = pideck("install", "gemini")
    assert code == 0
    assert f'  MCP server "pideck" ({PIDECK} mcp; passes on PIDECK_HOME): added\n' in out
    assert (where.project / ".gemini" / "settings.json").read_text() == _fresh(
        "gemini", {"PIDECK_HOME": "/srv/pideck"})


OLDER = [  # agent, the file, where the user's variables are in it, the user's own ones
    ("claude", "project/.mcp.json", "env", {"MY_TOKEN": "t", "PIDECK_HOME": "/old/pideck"}),
    ("gemini", "project/.gemini/settings.json", "env", {"MY_TOKEN": "t"}),
    ("cursor", "project/.cursor/mcp.json", "env", {"MY_TOKEN": "t"}),
    ("codex", "home/.codex/config.toml", "env_vars", ["MY_TOKEN", "PIDECK_CONFIG"]),
]


@pytest.mark.parametrize(("agent", "name", "key", "mine"), OLDER, ids=[o[0] for o in OLDER])
def test_an_older_entry_gets_pideck_s_command_args_and_variables_beside_the_user_s(
        where, pideck, shared, agent, name, key, mine) -> None:
    toml = name.endswith(".toml")
    servers = "mcp_servers" if toml else "mcpServers"
    path = where.home.parent / name
    path.parent.mkdir(exist_ok=True)
    older = {"command": "/usr/bin/python3", "args": ["-m", "core.cli.main", "mcp"], key: mine}
    path.write_text((tomli_w.dumps if toml else json.dumps)({servers: {"pideck": older}}))
    code, out, _ = pideck("install", agent)
    assert code == 0
    assert f"  {PASSES_ON}: updated\n" in out
    server = (tomllib.loads if toml else json.loads)(path.read_text())[servers]["pideck"]
    ours = ["MY_TOKEN", "PIDECK_HOME", "PIDECK_CONFIG", "PI_CODING_AGENT_DIR"] if toml else {
        "MY_TOKEN": "t", **(claude_defaults(shared) if agent == "claude" else shared)}
    assert (server["command"], server["args"], server[key]) == (PIDECK, ["mcp"], ours)


def test_a_project_install_says_its_files_now_hold_this_machine_s_paths(where, pideck, shared) -> None:
    out = pideck("install", "cursor")[1]
    assert out.endswith("  - The project's files now name PIDECK_HOME, PIDECK_CONFIG, PI_CODING_AGENT_DIR as set "
                        "here: paths of this machine. Keep them out of version control, or install with --scope "
                        "user.\n")
    assert "paths of this machine" not in pideck("install", "cursor", "--scope", "user")[1]
