"""PIDECK_HOME, PIDECK_CONFIG and PI_CODING_AGENT_DIR set where ``pideck install`` runs go to the MCP
server, so it writes where the TUI reads: as absolute paths in its ``env`` (Claude Code, Gemini CLI,
Cursor), by name in its ``env_vars`` (Codex, which passes them on from its own environment)."""

from __future__ import annotations

import json
import tomllib

import pytest
import tomli_w
from install_helpers import CODEX, PIDECK, snapshot

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


def _fresh(agent: str, env: dict[str, str]) -> str:
    if agent == "codex":
        return CODEX_SHARED
    typed = {"type": "stdio"} if agent == "claude" else {}
    server = {**typed, "command": PIDECK, "args": ["mcp"], "env": env}
    return json.dumps({"mcpServers": {"pideck": server}}, indent=2) + "\n"


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
    older = {"command": "/usr/bin/python3", "args": ["-m", "core.cli", "mcp"], key: mine}
    path.write_text((tomli_w.dumps if toml else json.dumps)({servers: {"pideck": older}}))
    code, out, _ = pideck("install", agent)
    assert code == 0
    assert f"  {PASSES_ON}: updated\n" in out
    server = (tomllib.loads if toml else json.loads)(path.read_text())[servers]["pideck"]
    ours = ["MY_TOKEN", "PIDECK_CONFIG", "PIDECK_HOME", "PI_CODING_AGENT_DIR"] if toml else {
        "MY_TOKEN": "t", **shared}
    assert (server["command"], server["args"], server[key]) == (PIDECK, ["mcp"], ours)
