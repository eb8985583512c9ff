"""--dry-run prints what would change as a unified diff and writes nothing."""

from __future__ import annotations

import json

from install_helpers import PIDECK, hook_lines, hook_settings, snapshot


def test_dry_run_on_nothing_prints_new_files_and_creates_none(where, pideck) -> None:
    p = where.project
    code, out, err = pideck("install", "gemini", "--dry-run")
    assert (code, err) == (0, "")
    assert out == f"""\
pideck install gemini, project scope: pideck runs as {PIDECK}
would create {p}/.gemini/settings.json
  MCP server "pideck" ({PIDECK} mcp): would be added
--- /dev/null
+++ {p}/.gemini/settings.json
@@ -0,0 +1,10 @@
+{{
+  "mcpServers": {{
+    "pideck": {{
+      "command": "{PIDECK}",
+      "args": [
+        "mcp"
+      ]
+    }}
+  }}
+}}

Dry run: nothing was written.
"""
    assert snapshot(where.home.parent) == {}
    assert not (p / ".gemini").exists()


def test_dry_run_on_an_existing_file_shows_the_diff_and_leaves_it(where, pideck) -> None:
    path = where.project / ".claude" / "settings.json"
    path.parent.mkdir()
    path.write_text('{\n  "model": "opus"\n}')
    before = snapshot(where.home.parent)
    code, out, _ = pideck("install", "claude", "--dry-run")
    assert code == 0
    settings = json.dumps({"model": "opus", **hook_settings("claude")}, indent=2)
    added = "".join(f"+{line}\n" for line in settings.splitlines()[1:-1])
    assert f"""\
would update {path}
{hook_lines("claude", "would be added")}\
--- {path}
+++ {path}
@@ -1,3 +1,{len(settings.splitlines())} @@
 {{
-  "model": "opus"
{added}\
 }}
\\ No newline at end of file

Dry run: nothing was written.
""" in out
    assert snapshot(where.home.parent) == before  # no backup either


def test_dry_run_of_a_codex_rewrite_says_it_would_rewrite(where, pideck) -> None:
    where.codex.mkdir()
    path = where.codex / "config.toml"
    path.write_text('# mine\n[mcp_servers.pideck]\ncommand = "/old/pideck"\nargs = ["mcp"]\n')
    before = snapshot(where.home.parent)
    code, out, _ = pideck("install", "codex", "--dry-run")
    assert code == 0
    assert ("  note: an existing pideck entry changes, so tomli-w would rewrite the whole file: "
            "its comments and layout are gone (the backup keeps them)\n") in out
    assert f"--- {path}\n+++ {path}\n@@ -1,4 +1,31 @@\n-# mine\n" in out
    assert snapshot(where.home.parent) == before


def test_dry_run_when_installed_shows_no_diff(where, pideck) -> None:
    pideck("install", "cursor")
    code, out, _ = pideck("install", "cursor", "--dry-run")
    assert code == 0
    assert out == f"""\
pideck install cursor, project scope: pideck runs as {PIDECK}
unchanged {where.project}/.cursor/mcp.json
  MCP server "pideck" ({PIDECK} mcp): already there

Dry run: nothing was written.
"""


def test_dry_run_then_install_writes_what_the_diff_showed(where, pideck) -> None:
    _, out, _ = pideck("install", "claude", "--dry-run")
    shown: dict[str, list[str]] = {}
    for line in out.splitlines():
        if line.startswith("+++ "):
            current = shown.setdefault(line[4:], [])
        elif line.startswith("+"):
            current.append(line[1:])
    assert sorted(shown) == [f"{where.project}/.claude/settings.json", f"{where.project}/.mcp.json"]
    pideck("install", "claude")
    for name, lines in shown.items():
        assert open(name).read().splitlines() == lines
