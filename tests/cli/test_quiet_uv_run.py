"""``uv run pideck ...``, the README's way, says nothing on stderr once the environment is in place:
no "Bytecode compiled 2188 files" at every run (uv's ``compile-bytecode`` did that, astral-sh/uv#12202,
so the project does not set it)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_a_second_uv_run_prints_nothing_on_stderr() -> None:
    uv = shutil.which("uv")
    assert uv is not None, "uv runs this suite (README): it is on PATH"
    command = [uv, "run", "--project", str(ROOT), "pideck", "--version"]
    subprocess.run(command, capture_output=True, check=True, timeout=300)
    second = subprocess.run(command, capture_output=True, text=True, check=True, timeout=300)
    assert (second.stdout.startswith("pideck "), second.stderr) == (True, "")
