"""What ``pideck --version`` and ``pideck gate`` load: a hook runs ``gate`` at the end of every
agent turn, so what a command imports without needing it is start-up time paid again and again
(the timings are in tests/benchmarks/test_open_benchmark.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from core.cli.demo import write_demo

HEAVY = ("pydantic", "msgspec", "platformdirs", "textual", "rich", "tomli_w", "mcp", "core.deck.registry",
         "core.agents.install", "core.agents.files")

LOADED = """
import json, sys
from tui.launcher import main
try:
    status = main(sys.argv[1:])
except SystemExit as exc:
    status = exc.code
print(json.dumps(sorted(sys.modules)), file=sys.stderr)
"""


def loaded(*argv: str) -> set[str]:
    done = subprocess.run([sys.executable, "-c", LOADED, *argv], capture_output=True, text=True,
                          cwd=Path(__file__).resolve().parents[2])
    return set(json.loads(done.stderr.strip().splitlines()[-1]))


def heavy(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if m.startswith(HEAVY))


def test_version_loads_no_session_code_and_no_library() -> None:
    modules = loaded("--version")
    assert heavy(modules) == []
    assert not {m for m in modules if m.startswith(("core.session.log", "core.deck.deck", "core.primitives.todo"))}


@pytest.mark.parametrize("command", [["gate"], ["inspect", "--json"], ["run", "/todos poke status"]])
def test_commands_on_a_small_session_load_no_library_they_do_not_use(tmp_path: Path, command: list[str]) -> None:
    session = write_demo(tmp_path / "demo.jsonl", answers=False).log.path  # (no answers: pricing one loads the price table once, docs/usage.md)
    modules = loaded(*command, "--session", str(session))
    assert "core.deck.deck" in modules  # (the command ran)
    assert heavy(modules) == []
