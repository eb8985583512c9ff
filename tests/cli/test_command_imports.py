"""What each headless command imports (issue 21): ``pideck gate`` runs at the end of every agent
turn, and a hook or a script calls the others as often, so a module a command loads without using
it is start-up time paid again and again.

Each command runs in a fresh interpreter, as the console script runs it, on a small session (no
saved index, no msgspec: core/session/scan.py is for big files), and the modules it left loaded
are compared with the lists below: every module of pideck's own exactly, and which of the notable
libraries. A change in either fails here. Before adding a module to a list, see what it costs
(``python -X importtime .venv/bin/pideck gate --session FILE``) and whether the import belongs in
the function that needs it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

import pytest

from core.cli.demo import write_demo

RUN = """
import builtins, sys
out, argv = sys.argv[1], sys.argv[2:]
compiled, real_compile = [], builtins.compile
def compile(source, *args, **kwargs):
    if isinstance(source, str):  # (not bytes: the import system's, for a module whose bytecode is stale)
        compiled.append(source)
    return real_compile(source, *args, **kwargs)
builtins.compile = compile
from tui.launcher import main
try:
    status = main(argv)
except SystemExit as exc:
    status = exc.code
loaded = sorted(sys.modules)
import json  # (only now: the command may not load it)
with open(out, "w") as fh:
    json.dump({"status": status, "modules": loaded, "compiled": compiled}, fh)
"""
"""The console script's ``main``, then the names in ``sys.modules`` and the texts handed to
``compile()`` written to a file (stdout is the command's)."""

STARTS = {"core", "core.cli", "core.cli.common", "core.cli.main", "core.session", "core.session.errors", "tui", "tui.launcher"}
"""What every command loads: the console script and the command line (``pideck --version``)."""

SETTLES = STARTS | {
    "core.catalog", "core.config", "core.config.places", "core.deck", "core.session.naming",
    "core.catalog.opening", "core.deck.deck", "core.limits", "core.clock", "core.jsutil", "core.primitives.progress.verdicts",
    "core.slotted",  # (the todo model and the log's results are plain classes: no dataclasses)
    # the entry types of the three primitives (their adapters are made when asked for)
    "core.primitives", "core.primitives.handoff", "core.primitives.progress", "core.primitives.state",
    "core.primitives.host",
    # a path is told apart from an agent's transcript by its content, and from a conversation
    # inside an agent's database by its name (no SQLite loaded for that)
    "core.sources", "core.sources.detect", "core.sources.in_database",
    "core.session.access", "core.session.append", "core.session.bodies", "core.session.branch",
    "core.catalog.sessions", "core.collector", "core.files", "core.session.index", "core.session.indexing",
    "core.session.interface", "core.session.keeping", "core.session.log", "core.session.parse",
    "core.session.records", "core.session.sidecar", "core.session.split", "core.session.tail",
    "core.session.writer",
    # the todo fold and the turn-end machine: not the tool, `/todos`, or the views
    "core.primitives.todo", "core.primitives.todo.adapter", "core.config.settings", "core.primitives.todo.constants", "core.primitives.todo.followups",
    "core.primitives.todo.gate_checks", "core.primitives.todo.model", "core.primitives.todo.normalize", "core.primitives.todo.observations",
    "core.primitives.todo.ownership", "core.primitives.todo.replay", "core.primitives.todo.restore", "core.primitives.todo.tool_schema",
    "core.primitives.todo.turn_end",
}
"""``pideck gate``: a session opened, its Deck, one settle."""

PRIMITIVES = {
    f"core.primitives.{name}.{part}" for name in ("state", "progress", "handoff")
    for part in ("adapter", "commands", "format", "messages", "mutations", "persistence", "tools")
} | {"core.primitives.progress.controller", "core.primitives.progress.milestones",
     "core.primitives.controller", "core.primitives.grammar", "core.primitives.parsing",
     "core.primitives.state.core", "core.primitives.progress.core", "core.primitives.handoff.core"}
"""The three primitives' adapters and cores, which inspect, run and tool ask for."""

DISPATCHES = {"core.primitives.base", "core.primitives.dispatch"}
"""Routing a command line or a tool call to its adapter (``run``, ``tool``)."""

HOOKS = {"core.cli.hook", "core.agents", "core.agents.hooks", "core.agents.ancestry", "core.catalog.attention", "core.catalog.states",
         "core.sources.binding"}
"""A Stop hook: its event recorded for the conversation, then one settle."""

NOTABLE = ("genai_prices", "textual", "rich", "pydantic", "msgspec", "mcp", "platformdirs", "tomli_w", "tomllib", "asyncio",
           "threading", "signal", "subprocess", "socket", "logging", "dataclasses", "inspect", "typing", "pathlib",
           "json", "datetime", "hashlib", "tempfile", "uuid", "secrets", "random", "shutil", "copy")
"""The libraries that cost a command's start: the front ends' (Textual, pydantic, the MCP SDK), the
big-file scanner's (msgspec), and the standard library's larger ones (shutil: argparse's help
formatter would load it, were it not given its width: core/cli/main.py ``_Parser``)."""

A_SESSION = {"typing", "pathlib", "json", "datetime"}
"""What a command that opens a session still loads of them: typing, pathlib (a session log's paths
are ``Path`` objects, and so are those of pideck's and pi's folders), the entries' timestamps, and
json to read the lines."""

COPY = {"copy"}
"""What the commands that ask for the primitives' adapters load besides: copy, for the states the
Agent Handoff adapter hands out (no command loads dataclasses: the controllers' outcomes, the
hooks' events and the tool's route are NamedTuples)."""

USAGE = {"core.usage", "core.usage.ledger", "core.usage.of_log", "core.usage.prices", "core.usage.rates"}
"""The usage object (``inspect --json``): the fold of the answers and the saved rates, not the price
table (``core.usage.table``, genai-prices), which only a model no earlier run priced loads."""

STOP = {"hook_event_name": "Stop", "session_id": "74028c64-c663-4fb7-b5b3-6adfbfcd3701", "stop_hook_active": False}


class Command(NamedTuple):
    argv: tuple[str, ...]  # {session} stands for the session's path
    status: int
    own: set[str]  # every module of pideck's it loads
    notable: set[str]  # which of NOTABLE it loads
    stdin: dict[str, object] | None = None  # a hook's input ({cwd} filled in)


COMMANDS = {
    "--version": Command(("--version",), 0, STARTS, set()),
    "gate": Command(("gate", "--session", "{session}"), 2, SETTLES | {"core.cli.gate"}, A_SESSION),
    "inspect --json": Command(("inspect", "--json", "--session", "{session}"), 0,
                              SETTLES | PRIMITIVES | USAGE | {"core.cli.inspect", "core.sources.binding"},
                              A_SESSION | COPY | {"threading"}),  # (the rates' lock: the catalog's threads price too)
    "run": Command(("run", "--session", "{session}", "/agent-state status"), 0, SETTLES | PRIMITIVES | DISPATCHES | {"core.cli.run", "core.deck.commands", "core.primitives.todo.commands"},
                   A_SESSION | COPY),
    "tool": Command(("tool", "--session", "{session}", "agent_state_get"), 0,
                    SETTLES | PRIMITIVES | DISPATCHES
                    | {"core.agents", "core.agents.routing", "core.agents.ancestry", "core.sources.binding", "core.cli.tool"},
                    A_SESSION | COPY),
    "hook claude": Command(("hook", "claude", "--session", "{session}"), 0, SETTLES | HOOKS, A_SESSION,
                           STOP),
    "hook codex": Command(("hook", "codex", "--session", "{session}"), 0, SETTLES | HOOKS, A_SESSION,
                          STOP),
    # --host NAME hands the command to the host before anything of it loads here (no host of that
    # name: the configured ones are read, and said)
    "status --host": Command(("status", "--host", "nowhere"), 2,
                             STARTS | {"core.cli.on_host", "core.config", "core.config.places", "core.config.settings",
                                       "core.files", "core.jsutil", "core.untrusted"}, {"typing", "pathlib", "json"}),
}


@pytest.fixture(autouse=True)
def both_open_paths() -> str:
    """(tests/cli/conftest.py runs every CLI test on a saved index too; a small session has none by
    default, and here the subprocess opens it as a person's would.)"""
    return "full read"


def loaded(command: Command, session: Path, folder: Path) -> tuple[int, set[str], list[str]]:
    """The command's exit status, the modules it left loaded and the sources it compiled."""
    out = folder / "modules.json"
    argv = [word.format(session=session) for word in command.argv]
    stdin = json.dumps({**command.stdin, "cwd": str(folder)}) if command.stdin is not None else ""
    env = {k: v for k, v in os.environ.items() if k not in ("PIDECK_INDEX", "PIDECK_SESSION")}
    done = subprocess.run([sys.executable, "-c", RUN, str(out), *argv], input=stdin, capture_output=True, text=True,
                          cwd=Path(__file__).resolve().parents[2], env=env, timeout=60)
    assert out.exists(), done.stderr
    result = json.loads(out.read_text(encoding="utf-8"))
    return result["status"], set(result["modules"]), result["compiled"]


@pytest.mark.parametrize("name", COMMANDS)
def test_what_a_command_loads(name: str, tmp_path: Path) -> None:
    command = COMMANDS[name]
    session = write_demo(tmp_path / "demo.jsonl", answers=False).log.path  # (no answers: pricing one loads the price table once, docs/usage.md)
    status, modules, compiled = loaded(command, session, tmp_path)
    assert status == command.status
    own = {m for m in modules if m.partition(".")[0] in ("core", "tui")}
    assert own == command.own, (f"pideck {name} loads, unlisted: {sorted(own - command.own)}; "
                                f"listed, not loaded: {sorted(command.own - own)}")
    notable = {m for m in NOTABLE if m in modules or any(n.startswith(f"{m}.") for n in modules)}
    assert notable == command.notable, (f"pideck {name} loads, unlisted: {sorted(notable - command.notable)}; "
                                        f"listed, not loaded: {sorted(command.notable - notable)}")
    # No command calls compile(): the first call costs a process some 1 ms, and typing makes one for
    # each string annotation of a NamedTuple (core/slotted.py).
    assert compiled == [], f"pideck {name} compiles {compiled[:5]} (a NamedTuple in a module whose annotations are strings?)"


def with_an_unpriced_answer(session: Path) -> Path:
    """``session`` with one more assistant message whose usage says no cost, of a model the price
    table knows: what only the price table can price."""
    last = json.loads(session.read_text(encoding="utf-8").splitlines()[-1])
    answer = {"type": "message", "id": "0a1b2c3d", "parentId": last["id"], "timestamp": "2026-12-01T10:00:00.000Z",
              "message": {"role": "assistant", "content": [{"type": "text", "text": "Done."}],
                          "provider": "anthropic", "model": "claude-sonnet-4-5", "stopReason": "stop",
                          "usage": {"input": 1000, "output": 100, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 1100},
                          "timestamp": 1796119200000}}
    with session.open("a", encoding="utf-8") as f:
        f.write(json.dumps(answer, separators=(",", ":")) + "\n")
    return session


@pytest.mark.parametrize("name", ["--version", "gate", "hook claude", "status", "inspect --json"])
def test_only_the_usage_object_loads_the_price_table(name: str, tmp_path: Path) -> None:
    """Loading genai-prices' table takes half a second: never at the end of a turn (``gate``, the
    hooks), in a shell prompt (``status``) or for ``--version``, even on a session whose answers
    only the table prices; ``inspect --json`` does, for its usage object (docs/usage.md)."""
    session = with_an_unpriced_answer(write_demo(tmp_path / "demo.jsonl").log.path)
    command = COMMANDS.get(name) or Command(("status",), 0, set(), set())
    status, modules, _ = loaded(command, session, tmp_path)
    assert status == command.status
    table = {m for m in ("genai_prices", "core.usage.table") if m in modules}
    assert table == ({"genai_prices", "core.usage.table"} if name == "inspect --json" else set())


def test_status_never_loads_the_price_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``pideck status`` runs in prompts: over a Claude Code conversation whose model no run priced
    yet, it reads the conversation's usage (the budgets: docs/attention.md#budgets) with the rates
    saved alone, and neither ``genai_prices`` nor core/usage/table.py, the one module that imports
    it, is loaded."""
    import shutil

    from private_homes import AGENT_VARIABLES

    home = tmp_path / "home"
    shutil.copytree(Path(__file__).parents[1] / "fixtures" / "agent-transcripts" / "claude-tasks" / "final", home)
    monkeypatch.setenv("HOME", str(home))
    for name in AGENT_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    status, modules, _ = loaded(Command(("status", "--all"), 0, set(), set()), tmp_path / "unused", tmp_path)
    assert status == 0
    assert {"core.usage.ledger", "core.usage.of_log", "core.usage.prices"} <= modules  # (its answers were read)
    assert not {m for m in modules if m.startswith("genai_prices") or m == "core.usage.table"}
