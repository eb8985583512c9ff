"""Which command the configs run: the pideck that ran the install, by an absolute path."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from core.agents.command import pideck_command, runs_pideck, shell_line


def _script(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\n")
    path.chmod(0o755)
    return path


def test_the_console_script_that_runs_is_used_as_an_absolute_unresolved_path(tmp_path, monkeypatch) -> None:
    real = _script(tmp_path / "tools" / "pideck" / "bin" / "pideck")
    link = tmp_path / "bin" / "pideck"
    link.parent.mkdir()
    link.symlink_to(real)
    monkeypatch.chdir(tmp_path)
    assert pideck_command("bin/pideck", "/usr/bin/python3") == [str(link)]


def test_the_script_beside_the_interpreter_when_run_as_a_module(tmp_path) -> None:
    script = _script(tmp_path / "venv" / "bin" / "pideck")
    python = tmp_path / "venv" / "bin" / "python"
    assert pideck_command("/src/core/cli/main.py", str(python)) == [str(script)]


def test_the_interpreter_runs_the_module_when_there_is_no_script(tmp_path) -> None:
    python = tmp_path / "bin" / "python3"
    assert pideck_command("/src/core/cli/main.py", str(python)) == [str(python), "-m", "core.cli.main"]


def test_a_pideck_that_is_not_executable_beside_the_interpreter_is_not_used(tmp_path) -> None:
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "pideck").write_text("not a script")
    python = tmp_path / "bin" / "python3"
    assert pideck_command("-c", str(python)) == [str(python), "-m", "core.cli.main"]


def test_the_module_fallback_runs_pideck_from_another_directory(tmp_path) -> None:
    argv = pideck_command("-c", str(tmp_path / "no-venv" / "python3"))
    assert argv[1:] == ["-m", "core.cli.main"]
    done = subprocess.run([sys.executable, *argv[1:], "--version"], cwd=tmp_path,
                          capture_output=True, text=True)
    assert (done.returncode, done.stdout) == (0, "pideck 0.1.0\n")


def test_the_installed_console_script_runs_from_another_directory(tmp_path) -> None:
    [script] = pideck_command("-c", sys.executable)[:1]
    if not script.endswith("pideck"):
        pytest.fail(f"this environment has no pideck console script beside {sys.executable}")
    done = subprocess.run([script, "--version"], cwd=tmp_path, capture_output=True, text=True,
                          env={**os.environ, "PATH": "/usr/bin:/bin"})
    assert (done.returncode, done.stdout) == (0, "pideck 0.1.0\n")


@pytest.mark.parametrize(("line", "ours"), [
    ("/opt/pideck/bin/pideck hook claude", True),
    ("'/my tools/pideck' hook claude", True),
    ("pideck hook claude", True),
    ("/usr/bin/python3 -m core.cli.main hook claude", True),
    ("/opt/pideck/bin/pideck hook codex", False),
    ("/opt/pideck/bin/pideck hook claude --session x", False),
    ("/opt/other/bin/tool hook claude", False),
    ("hook claude", False),
    ("'unbalanced hook claude", False),
    (None, False),
])
def test_which_hook_lines_are_pideck_s_own(line, ours) -> None:
    assert runs_pideck(line, "hook", "claude") is ours


def test_shell_line_quotes_what_a_shell_would_split() -> None:
    assert shell_line(["/a b/pideck", "hook", "claude"]) == "'/a b/pideck' hook claude"
    assert shell_line(["/opt/pideck", "hook", "codex"]) == "/opt/pideck hook codex"
