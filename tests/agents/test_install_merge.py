"""Installing into configs the user already has: their servers, hooks, keys, comments and layout
stay; only pideck's own entries are added or brought up to date."""

from __future__ import annotations

import json
import stat
import tomllib

from install_helpers import CODEX, EVENTS, PIDECK, STAMP, handler, hook_lines, hook_settings, snapshot

OUR_CLAUDE_HOOK = handler("claude")


def test_claude_project_keeps_other_servers_and_keys_byte_for_byte(where, pideck) -> None:
    before = {"mcpServers": {"github": {"command": "npx", "args": ["-y", "gh-mcp"], "env": {"T": "x"}}},
              "zeta": [1, 2.5, None, "ü"]}
    original = json.dumps(before, indent=2, ensure_ascii=False) + "\n"
    (where.project / ".mcp.json").write_text(original)
    assert pideck("install", "claude")[0] == 0
    after = (where.project / ".mcp.json").read_text()
    expected = {"mcpServers": {**before["mcpServers"],
                               "pideck": {"type": "stdio", "command": PIDECK, "args": ["mcp"]}},
                "zeta": before["zeta"]}
    assert after == json.dumps(expected, indent=2, ensure_ascii=False) + "\n"
    # every line of the user's github server is still there, in place
    assert after.splitlines()[:11] == original.splitlines()[:11]


def test_claude_settings_keep_other_hooks_and_settings(where, pideck) -> None:
    settings = {
        "permissions": {"allow": ["Bash(ls:*)"]},
        "hooks": {
            "Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}],
            "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "guard"}]}],
        },
    }
    path = where.project / ".claude" / "settings.json"
    path.parent.mkdir()
    path.write_text(json.dumps(settings, indent=2))
    code, out, _ = pideck("install", "claude")
    assert code == 0
    assert f"updated {path} (backup: {path}.pideck-backup-{STAMP})\n" in out
    settings["hooks"]["Stop"].append({"hooks": [OUR_CLAUDE_HOOK]})
    settings["hooks"].update(hook_settings("claude", EVENTS["claude"][1:])["hooks"])  # after the user's hooks
    assert path.read_text() == json.dumps(settings, indent=2)  # no final newline, as before


def test_four_space_indentation_is_kept(where, pideck) -> None:
    path = where.project / ".gemini" / "settings.json"
    path.parent.mkdir()
    path.write_text('{\n    "theme": "GitHub",\n    "mcpServers": {}\n}\n')
    pideck("install", "gemini")
    assert path.read_text() == (
        '{\n    "theme": "GitHub",\n    "mcpServers": {\n        "pideck": {\n'
        f'            "command": "{PIDECK}",\n            "args": [\n                "mcp"\n'
        "            ]\n        }\n    }\n}\n")


def test_tab_indentation_and_crlf_line_endings_are_kept(where, pideck) -> None:
    path = where.project / ".cursor" / "mcp.json"
    path.parent.mkdir()
    path.write_bytes(b'{\r\n\t"mcpServers": {\r\n\t\t"x": {\r\n\t\t\t"url": "http://h/mcp"\r\n\t\t}\r\n\t}\r\n}\r\n')
    pideck("install", "cursor")
    assert path.read_bytes() == (
        b'{\r\n\t"mcpServers": {\r\n\t\t"x": {\r\n\t\t\t"url": "http://h/mcp"\r\n\t\t},\r\n'
        b'\t\t"pideck": {\r\n\t\t\t"command": "/opt/pideck/bin/pideck",\r\n\t\t\t"args": [\r\n'
        b'\t\t\t\t"mcp"\r\n\t\t\t]\r\n\t\t}\r\n\t}\r\n}\r\n')


def test_claude_user_config_keeps_its_many_keys_and_its_mode(where, pideck) -> None:
    path = where.home / ".claude.json"
    state = {"numStartups": 12, "oauthAccount": {"emailAddress": "a@b.c"},
             "projects": {"/p": {"mcpServers": {"local": {"command": "l"}}}}}
    path.write_text(json.dumps(state, indent=2))
    path.chmod(0o600)
    assert pideck("install", "claude", "--scope", "user")[0] == 0
    state["mcpServers"] = {"pideck": {"type": "stdio", "command": PIDECK, "args": ["mcp"]}}
    assert path.read_text() == json.dumps(state, indent=2)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    saved = path.with_name(f".claude.json.pideck-backup-{STAMP}")
    assert stat.S_IMODE(saved.stat().st_mode) == 0o600


def test_an_existing_pideck_server_is_updated_and_keeps_the_users_env(where, pideck) -> None:
    path = where.project / ".mcp.json"
    path.write_text(json.dumps({"mcpServers": {"pideck": {
        "type": "stdio", "command": "/old/place/pideck", "args": ["mcp"],
        "env": {"PIDECK_SESSION": "/s.jsonl"}}}}, indent=2) + "\n")
    code, out, _ = pideck("install", "claude")
    assert code == 0
    assert f'updated {path} (backup: {path}.pideck-backup-{STAMP})\n  MCP server "pideck" ' \
           f"({PIDECK} mcp): updated\n" in out
    assert json.loads(path.read_text()) == {"mcpServers": {"pideck": {
        "type": "stdio", "command": PIDECK, "args": ["mcp"], "env": {"PIDECK_SESSION": "/s.jsonl"}}}}


def test_a_hook_of_pideck_at_an_older_path_is_replaced_not_doubled(where, pideck) -> None:
    path = where.home / ".claude" / "settings.json"
    path.parent.mkdir()
    path.write_text(json.dumps({"hooks": {"Stop": [
        {"hooks": [{"type": "command", "command": "other"},
                   {"type": "command", "command": "'/old dir/pideck' hook claude"}]}]}}))
    code, out, _ = pideck("install", "claude", "--scope", "user")
    assert code == 0
    assert f"  Stop hook ({PIDECK} hook claude): updated\n" in out
    assert json.loads(path.read_text())["hooks"]["Stop"] == [
        {"hooks": [{"type": "command", "command": "other"}, OUR_CLAUDE_HOOK]}]


def test_a_codex_hook_is_not_taken_for_a_claude_hook(where, pideck) -> None:
    path = where.project / ".claude" / "settings.json"
    path.parent.mkdir()
    codex_one = {"hooks": [{"type": "command", "command": f"{PIDECK} hook codex"}]}
    path.write_text(json.dumps({"hooks": {"Stop": [codex_one]}}))
    pideck("install", "claude")
    assert json.loads(path.read_text())["hooks"]["Stop"] == [codex_one, {"hooks": [OUR_CLAUDE_HOOK]}]


CODEX_USER_CONFIG = """\
# my Codex settings
model = "gpt-5"   # the fast one

[mcp_servers.docs]
command = "npx"
args = ["-y", "docs-mcp"]  # keep

[[hooks.Stop]]
[[hooks.Stop.hooks]]
type = "command"
command = "say done"

[hooks.state."/home/u/.codex/config.toml:stop:0:0"]
trusted_hash = "sha256:abc"
"""

CODEX_APPENDED = "\n" + CODEX


def test_codex_keeps_the_users_text_byte_for_byte_and_appends_tables(where, pideck) -> None:
    where.codex.mkdir()
    path = where.codex / "config.toml"
    path.write_text(CODEX_USER_CONFIG)
    code, out, _ = pideck("install", "codex")
    assert code == 0
    assert "note:" not in out
    assert path.read_text() == CODEX_USER_CONFIG + CODEX_APPENDED
    doc = tomllib.loads(path.read_text())
    assert [g["hooks"][0]["command"] for g in doc["hooks"]["Stop"]] == [
        "say done", f"{PIDECK} hook codex"]
    assert doc["hooks"]["state"] == {"/home/u/.codex/config.toml:stop:0:0": {"trusted_hash": "sha256:abc"}}
    assert (where.codex / f"config.toml.pideck-backup-{STAMP}").read_text() == CODEX_USER_CONFIG


def test_codex_file_without_final_newline_gets_one_before_the_tables(where, pideck) -> None:
    where.codex.mkdir()
    path = where.codex / "config.toml"
    path.write_text('model = "gpt-5"')
    pideck("install", "codex")
    assert path.read_text() == 'model = "gpt-5"\n' + CODEX_APPENDED


def test_codex_changed_pideck_entry_rewrites_the_file_and_says_comments_are_gone(where, pideck) -> None:
    where.codex.mkdir()
    path = where.codex / "config.toml"
    original = ('# comment\n[mcp_servers.pideck]\ncommand = "/old/pideck"\nargs = ["mcp"]\n'
                'env = { PIDECK_SESSION = "/s.jsonl" }\n')
    path.write_text(original)
    code, out, _ = pideck("install", "codex")
    assert code == 0
    assert out.startswith(f"""\
pideck install codex, user scope: pideck runs as {PIDECK}
updated {path} (backup: {path}.pideck-backup-{STAMP})
  MCP server "pideck" ({PIDECK} mcp): updated
{hook_lines("codex", "added")}\
  note: an existing pideck entry changes, so tomli-w rewrote the whole file: its comments and layout are gone (the backup keeps them)
""")
    assert path.read_text() == CODEX.replace(  # the user's env table stays, after pideck's keys
        "required = true\n", 'required = true\n\n[mcp_servers.pideck.env]\nPIDECK_SESSION = "/s.jsonl"\n')
    assert path.with_name(f"config.toml.pideck-backup-{STAMP}").read_text() == original


def test_codex_inline_stop_array_cannot_take_a_table_so_the_file_is_rewritten(where, pideck) -> None:
    where.codex.mkdir()
    path = where.codex / "config.toml"
    path.write_text('[hooks]\nStop = [{ hooks = [{ type = "command", command = "say" }] }]\n')
    code, out, _ = pideck("install", "codex")
    assert code == 0
    assert ("  note: its tables cannot take pideck's as new ones, so tomli-w rewrote the whole file: "
            "its comments and layout are gone (the backup keeps them)\n") in out
    doc = tomllib.loads(path.read_text())
    assert [g["hooks"][0]["command"] for g in doc["hooks"]["Stop"]] == ["say", f"{PIDECK} hook codex"]


def test_codex_hook_goes_to_hooks_json_when_the_user_keeps_hooks_there(where, pideck) -> None:
    where.codex.mkdir()
    hooks = where.codex / "hooks.json"
    hooks.write_text('{\n  "hooks": {}\n}\n')
    code, out, _ = pideck("install", "codex")
    assert code == 0
    assert out.startswith(f"""\
pideck install codex, user scope: pideck runs as {PIDECK}
created {where.codex}/config.toml
  MCP server "pideck" ({PIDECK} mcp): added
updated {hooks} (backup: {hooks}.pideck-backup-{STAMP})
{hook_lines("codex", "added")}""")
    assert json.loads(hooks.read_text()) == hook_settings("codex")
    assert "hooks" not in tomllib.loads((where.codex / "config.toml").read_text())


def test_an_existing_file_keeps_its_mode(where, pideck) -> None:
    path = where.project / ".mcp.json"
    path.write_text("{}\n")
    path.chmod(0o640)
    pideck("install", "claude")
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert stat.S_IMODE(path.with_name(f".mcp.json.pideck-backup-{STAMP}").stat().st_mode) == 0o640


def test_an_empty_file_is_taken_as_an_empty_config(where, pideck) -> None:
    (where.project / ".mcp.json").write_text("")
    assert pideck("install", "claude")[0] == 0
    assert json.loads((where.project / ".mcp.json").read_text())["mcpServers"]["pideck"]["command"] == PIDECK


def test_a_second_backup_in_the_same_second_gets_its_own_name(where, pideck) -> None:
    path = where.project / ".mcp.json"
    path.write_text("{}\n")
    pideck("install", "claude")
    path.write_text('{"a": 1}\n')
    code, out, _ = pideck("install", "claude")
    assert f"updated {path} (backup: {path}.pideck-backup-{STAMP}-2)\n" in out
    assert path.with_name(f".mcp.json.pideck-backup-{STAMP}").read_text() == "{}\n"
    assert path.with_name(f".mcp.json.pideck-backup-{STAMP}-2").read_text() == '{"a": 1}\n'
    assert sorted(snapshot(where.project)) == [
        ".claude/settings.json", ".mcp.json", f".mcp.json.pideck-backup-{STAMP}",
        f".mcp.json.pideck-backup-{STAMP}-2"]


def test_every_number_is_written_back_as_it_was_written(where, pideck) -> None:
    """Python reads 1e400 as infinity and would write it as Infinity, which Claude Code's
    JSON.parse refuses (the whole file with it); 1.50, 1E5 and -0 would come back as 1.5,
    100000.0 and 0. Each is kept as the person wrote it."""
    numbers = '"huge": 1e400, "tiny": -1e-400, "price": 1.50, "big": 1E5, "zero": -0, "n": 12, "digits": ' + "9" * 5000
    path = where.project / ".claude" / "settings.json"
    path.parent.mkdir()
    path.write_text("{\n  " + numbers + "\n}\n")
    assert pideck("install", "claude")[0] == 0
    text = path.read_text()
    assert text.startswith('{\n  "huge": 1e400,\n  "tiny": -1e-400,\n  "price": 1.50,\n  "big": 1E5,\n  "zero": -0,\n'
                           '  "n": 12,\n  "digits": ' + "9" * 5000 + ',\n  "hooks": {\n')
    assert "Infinity" not in text
    json.loads(text, parse_int=str)  # and JSON all the same
    assert pideck("install", "claude")[2] == ""  # a second run reads its own file: nothing changes
    assert path.read_text() == text
