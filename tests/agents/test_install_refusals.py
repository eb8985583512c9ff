"""Files pideck cannot merge into safely: a one-line error, exit 1, and no file written at all
(not even the agent's other file, which was fine)."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest
from install_helpers import PIDECK, snapshot


def _refused(where, pideck, *args: str) -> str:
    before = snapshot(where.home.parent)
    code, out, err = pideck("install", *args)
    assert (code, out) == (1, "")
    assert snapshot(where.home.parent) == before
    return err


@pytest.mark.parametrize("agent, name, content, why", [
    pytest.param("claude", ".mcp.json", '{\n  "mcpServers": {\n    "a": 1,\n  }\n}\n',
                 "is not valid JSON (line 4, column 3: Expecting property name enclosed in double quotes)",
                 id="malformed"),
    # duplicate keys would be dropped when the file is written back
    pytest.param("claude", ".mcp.json", '{"mcpServers": {"a": {}, "a": {}}}',
                 'has the key "a" twice in one object (writing it back would drop one)', id="duplicate-keys"),
    pytest.param("cursor", ".cursor/mcp.json", "[]\n", "does not hold a JSON object", id="not-an-object"),
])
def test_a_file_pideck_cannot_merge_stops_the_install(where, pideck, agent, name, content, why) -> None:
    path = where.project / name
    path.parent.mkdir(exist_ok=True)
    path.write_text(content)
    assert _refused(where, pideck, agent) == f"pideck install: {path} {why}; nothing was written.\n"


def test_json_with_comments_is_malformed_json(where, pideck) -> None:
    (where.project / ".gemini").mkdir()
    (where.project / ".gemini" / "settings.json").write_text('{\n  // mine\n  "theme": "x"\n}\n')
    assert "settings.json is not valid JSON (line 2, column 3:" in _refused(where, pideck, "gemini")


def test_malformed_json_in_the_second_file_keeps_the_first_unwritten(where, pideck) -> None:
    settings = where.project / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text("{,}")
    err = _refused(where, pideck, "claude")
    assert err.startswith(f"pideck install: {settings} is not valid JSON (line 1, column 2:")
    assert not (where.project / ".mcp.json").exists()




@pytest.mark.parametrize(("text", "message"), [
    ('{"mcpServers": []}', '"mcpServers" is not an object'),
    ('{"hooks": {"Stop": {}}}', '"hooks.Stop" is not a list'),
    ('{"hooks": "none"}', '"hooks" is not an object'),
])
def test_parts_pideck_must_change_have_the_wrong_shape(where, pideck, text, message) -> None:
    name = ".mcp.json" if "mcpServers" in text else ".claude/settings.json"
    path = where.project / name
    path.parent.mkdir(exist_ok=True)
    path.write_text(text)
    assert _refused(where, pideck, "claude") == f"pideck install: {path}: {message}; nothing was written.\n"


def test_malformed_toml(where, pideck) -> None:
    where.codex.mkdir()
    (where.codex / "config.toml").write_text('model = "o3"\nmodel = "o4"\n')
    assert _refused(where, pideck, "codex") == (
        f"pideck install: {where.codex}/config.toml is not valid TOML (Cannot overwrite a value (at "
        "line 2, column 13)); nothing was written.\n")


def test_toml_whose_mcp_servers_is_not_a_table(where, pideck) -> None:
    where.codex.mkdir()
    (where.codex / "config.toml").write_text('mcp_servers = "none"\n')
    assert _refused(where, pideck, "codex") == (
        f'pideck install: {where.codex}/config.toml: "mcp_servers" is not an object; nothing was '
        "written.\n")


def test_not_utf8(where, pideck) -> None:
    (where.project / ".mcp.json").write_bytes(b'{"a": "\xff"}')
    assert _refused(where, pideck, "claude") == (
        f"pideck install: {where.project}/.mcp.json is not UTF-8 text (invalid start byte at byte "
        "7); nothing was written.\n")


def test_a_folder_where_the_file_should_be(where, pideck) -> None:
    (where.project / ".mcp.json").mkdir()
    assert _refused(where, pideck, "claude") == (
        f"pideck install: {where.project}/.mcp.json is not a regular file; nothing was written.\n")


def test_a_file_that_cannot_be_read(where, pideck, monkeypatch) -> None:
    (where.project / ".mcp.json").write_text("{}")
    real = Path.read_bytes

    def denied(self):
        if self.name == ".mcp.json":
            raise PermissionError(13, "Permission denied")
        return real(self)

    monkeypatch.setattr(Path, "read_bytes", denied)
    assert _refused(where, pideck, "claude") == (
        f"pideck install: {where.project}/.mcp.json cannot be read (Permission denied); nothing was "
        "written.\n")


def test_a_symbolic_link_is_never_written_through(where, pideck, tmp_path) -> None:
    dotfiles = tmp_path / "dotfiles" / "settings.json"
    dotfiles.parent.mkdir()
    dotfiles.write_text("{}\n")
    link = where.home / ".claude" / "settings.json"
    link.parent.mkdir()
    link.symlink_to(dotfiles)
    assert _refused(where, pideck, "claude", "--scope", "user") == (
        f"pideck install: {link} is a symbolic link (to {dotfiles}); pideck does not write through "
        "links. Run with --dry-run to see the change and make it in the linked file yourself; "
        "nothing was written.\n")
    assert dotfiles.read_text() == "{}\n"
    assert link.is_symlink()


def test_a_dry_run_reads_through_a_symbolic_link_to_show_the_change(where, pideck, tmp_path) -> None:
    dotfiles = tmp_path / "dotfiles" / "mcp.json"
    dotfiles.parent.mkdir()
    dotfiles.write_text("{}\n")
    link = where.home / ".cursor" / "mcp.json"
    link.parent.mkdir()
    link.symlink_to(dotfiles)
    code, out, _ = pideck("install", "cursor", "--scope", "user", "--dry-run")
    assert code == 0
    assert out.startswith(f"""\
pideck install cursor, user scope: pideck runs as {PIDECK}
would update {link}
  MCP server "pideck" ({PIDECK} mcp): would be added
  note: a symbolic link; pideck does not write through it
--- {link}
+++ {link}
@@ -1 +1,10 @@
-{{}}
+{{
""")
    assert dotfiles.read_text() == "{}\n"


def test_a_write_that_fails_names_the_file_and_what_was_already_written(where, pideck,
                                                                       monkeypatch) -> None:
    from core.agents import install

    real = install.write_atomically

    def full_disk(path, text, private):
        if path.name == "settings.json":
            raise OSError(28, "No space left on device")
        real(path, text, private)

    monkeypatch.setattr(install, "write_atomically", full_disk)
    code, out, err = pideck("install", "claude")
    assert code == 1
    p = where.project
    assert err == (f"pideck install: could not write {p}/.claude/settings.json: [Errno 28] No space "
                   f"left on device\n  {p}/.mcp.json was written\n")
    assert out == f"pideck install claude, project scope: pideck runs as {PIDECK}\n" \
                  f"created {p}/.mcp.json\n  MCP server \"pideck\" ({PIDECK} mcp): added\n"


def test_the_command_line_names_every_agent_install_knows() -> None:
    from core.agents import NAMES
    from core.agents.targets import AGENTS

    assert NAMES == tuple(AGENTS)


@pytest.mark.parametrize("mode", [0o444, 0o400, 0o555])
def test_a_file_the_person_made_read_only_stops_the_install(where, pideck, mode) -> None:
    """A rename would replace it (and root writes any file): its mode is the person's answer."""
    settings = where.project / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text("{}\n")
    settings.chmod(mode)
    assert _refused(where, pideck, "claude") == (
        f"pideck install: {settings} is read-only (it has no write bits); pideck does not write a file "
        "made read-only. Give it write permission (chmod u+w) to install; nothing was written.\n")
    assert stat.S_IMODE(settings.stat().st_mode) == mode
    assert not (where.project / ".mcp.json").exists()


def test_nan_in_a_file_is_not_json(where, pideck) -> None:
    (where.project / ".mcp.json").write_text('{"a": NaN}')
    assert _refused(where, pideck, "claude") == (
        f"pideck install: {where.project}/.mcp.json is not valid JSON (NaN is not a JSON value); nothing was "
        "written.\n")


def test_a_killed_install_leaves_whole_files_and_a_second_run_mends_it(where, pideck, monkeypatch) -> None:
    """SIGKILL between the two files (stood in for by a write that never returns from its rename):
    .mcp.json is new, settings.json as it was, a temporary file beside it; the next run writes
    settings.json and removes the temporary file once it is a minute old."""
    from core.agents import files

    class Killed(BaseException):
        pass

    real_replace = os.replace

    def killed_before_rename(src, dst):
        if Path(dst).name == "settings.json":
            raise Killed
        return real_replace(src, dst)

    with monkeypatch.context() as killed:
        killed.setattr(files.os, "replace", killed_before_rename)
        killed.setattr(files.Path, "unlink", lambda *a, **k: None)  # (a killed process cleans nothing)
        with pytest.raises(Killed):
            pideck("install", "claude")
    claude = where.project / ".claude"
    assert (where.project / ".mcp.json").exists() and not (claude / "settings.json").exists()
    [temporary] = claude.glob(".settings.json.*.tmp")
    os.utime(temporary, (0, 0))  # an hour ago, and more
    code, out, _ = pideck("install", "claude")
    assert code == 0 and f"created {claude}/settings.json" in out and f"unchanged {where.project}/.mcp.json" in out
    assert list(claude.glob(".*.tmp")) == []
    json.loads((claude / "settings.json").read_text())
