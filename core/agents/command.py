"""The command an agent's config runs to start this pideck, from any directory."""

from __future__ import annotations

import os
import re
import shlex
import sys
from pathlib import Path


def pideck_command(argv0: str | None = None, executable: str | None = None) -> list[str]:
    """The absolute command of the pideck that is running now.

    The console script this process was started as comes first (``uv tool install`` puts a stable
    link in ~/.local/bin; its path is kept as it is, not resolved, so an upgrade that replaces the
    tool's environment keeps it valid). Else the ``pideck`` script beside this interpreter (a venv's
    bin/ folder, as with ``python -m core.cli.main``). Else the interpreter runs the module. Never the
    first ``pideck`` on PATH: that may be another install than the one writing the config.
    """
    argv0 = sys.argv[0] if argv0 is None else argv0
    executable = sys.executable if executable is None else executable
    script = Path(argv0)
    if script.name == "pideck" and script.is_file():
        return [os.path.abspath(script)]
    beside = Path(executable).parent / "pideck"
    if beside.is_file() and os.access(beside, os.X_OK):
        return [os.path.abspath(beside)]
    return [os.path.abspath(executable), "-m", "core.cli.main"]


def shell_line(argv: list[str]) -> str:
    """``argv`` as one POSIX shell command line (hooks are run by a shell)."""
    return shlex.join(argv)


def runs_pideck(line: object, *args: str) -> bool:
    """Whether a hook's shell line runs some pideck with ``args`` at its end (this install's or
    an older one at another path), so a reinstall replaces it instead of adding a second hook."""
    if not isinstance(line, str):
        return False
    try:
        words = shlex.split(line)
    except ValueError:
        return False
    while words and re.match(r"[A-Za-z_][A-Za-z0-9_]*=", words[0]):  # (variables set for it)
        words = words[1:]
    if len(words) < 1 + len(args) or words[len(words) - len(args):] != list(args):
        return False
    program = words[: len(words) - len(args)]
    return Path(program[0]).name == "pideck" or program[1:] == ["-m", "core.cli.main"]
