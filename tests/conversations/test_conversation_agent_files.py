"""pideck never writes to an agent's folders: with each sample's home copied to ``$HOME`` (Claude's
task files and their ``.lock``, a live-session file, Codex's and Gemini's folders), every command
leaves every file there byte-identical (sha256) and adds nothing, reads answer, and every write is
refused saying the conversation is read-only. pideck's own cache of the conversation lives under ``PIDECK_HOME``."""

from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from transcript_samples import SAMPLES, Sample, task_folder

from core.cli.main import main
from core.sources.log import agent_read_only

REFUSED_WRITES = [
    ("run", "/agent-state add a Do it"),
    ("run", "--write", "/agent-state add a Do it"),
    ("run", "/agent-progress add m1"),
    ("run", "/agent-state objective Ship it"),
    ("tool", "agent_state_add_work_item", '{"id":"a","content":"Do it"}'),
    ("tool", "--write", "agent_state_add_work_item", '{"id":"a","content":"Do it"}'),
    ("tool", "todo", '{"todos":[{"id":"t1","content":"Mine","status":"pending","priority":"high","confidence":70}]}'),
]
READS = [
    ("inspect",),
    ("inspect", "--json"),
    ("inspect", "--at", "00000003"),
    ("inspect", "--at", "00000003", "--json"),
    ("inspect", "--at", "leaf", "--json"),
    ("diff", "00000001", "leaf"),
    ("diff", "00000002", "00000005", "--json"),
    ("run", "/todos"),
    ("run", "/agent-state status"),
    ("run", "/agent-handoff status"),
    ("tool", "agent_handoff_get"),
    ("tool", "agent_progress_get"),
]
GATES = [("gate",), ("gate", "--write")]  # a settle on a read-only log: told, and exit 0
LISTS = [("sessions",), ("overview",), ("overview", "--all"), ("overview", "--all", "--json")]


def fingerprint(home: Path) -> dict[str, str]:
    """sha256 of every file under ``home`` (and every folder, as such), by path."""
    found: dict[str, str] = {}
    for dirpath, dirnames, filenames in os.walk(home):
        for name in dirnames:
            found[os.path.relpath(os.path.join(dirpath, name), home)] = "folder"
        for name in filenames:
            path = os.path.join(dirpath, name)
            with open(path, "rb") as f:
                found[os.path.relpath(path, home)] = hashlib.sha256(f.read()).hexdigest()
    return found


def prepare(sample: Sample, home: Path) -> Path:
    """The sample's home as ``$HOME``; a Claude home also gets the live-session file the run had
    between its turns (Claude deletes it at exit)."""
    path = sample.copy_home(home)
    if sample.kind == "claude":
        live = sample.folder / "snapshots" / sample.snapshots[2]["snapshot"] / ".claude" / "sessions"
        shutil.copytree(live, home / ".claude" / "sessions")
    return path


def run(argv: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        stdin: str = "") -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    capsys.readouterr()
    try:
        code = main(argv, tui=lambda opened: (opened() if callable(opened) else None, 0)[1])  # (opened, as the app would)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 2
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("sample", SAMPLES, ids=[s.name for s in SAMPLES])
def test_every_command_leaves_the_agents_files_as_they_were(sample: Sample, home: Path, tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str],
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    path = str(prepare(sample, home))
    before = fingerprint(home)
    assert len(before) > 3
    problems: list[str] = []

    def check(argv: list[str], expected: int, stdin: str = "", err: str | None = None) -> tuple[int, str, str]:
        code, out, told = run(argv, capsys, monkeypatch, stdin)
        label = " ".join(a if len(a) < 40 else a[:37] + "..." for a in argv)
        if code != expected:
            problems.append(f"{label}: exit {code}, not {expected} ({told.strip()[:200]})")
        if err is not None and told != err:
            problems.append(f"{label}: said {told!r}")
        if "Traceback" in out + told:
            problems.append(f"{label}: printed a traceback")
        if fingerprint(home) != before:
            problems.append(f"{label}: changed the agent's folders")
        return code, out, told

    refusal = agent_read_only(sample.kind) + "\n"
    assert "read-only" in refusal
    for command, *rest in READS:
        check([command, "--session", path, *rest], 0)
    for command, *rest in REFUSED_WRITES:
        check([command, "--session", path, *rest], 1, err=refusal)
    for command, *rest in GATES:
        check([command, "--session", path, *rest], 0, err=refusal)
    for argv in LISTS:
        check(list(argv), 0)
    check([path], 0)  # the TUI's opening of the file (the app itself stands aside)
    if sample.kind in ("claude", "codex"):  # their Stop hook, with pideck's own session for the cwd
        assert run(["run", "/agent-state objective Ship it"], capsys, monkeypatch)[0] == 0
        event = {"session_id": sample.session_id, "cwd": os.getcwd(), "hook_event_name": "Stop",
                 "stop_hook_active": False, "transcript_path": path, "last_assistant_message": "Done."}
        check(["hook", sample.kind], 0, stdin=json.dumps(event))
    code, out, _ = run(["inspect", "--json", "--session", path], capsys, monkeypatch)
    assert code == 0 and json.loads(out)["todo"]["todos"]  # what was read is the plan
    assert problems == [], "\n".join(problems)
    assert fingerprint(home) == before
    kept = os.environ["PIDECK_HOME"]
    assert any(p.suffix == ".cache" for p in Path(kept, "conversations").iterdir())
    assert not Path(kept).resolve().is_relative_to(home.resolve())


def test_the_copied_homes_hold_the_agents_own_files(home: Path) -> None:
    """What the check above covers: Claude's task files and their lock, its live-session file."""
    sample = SAMPLES[0]
    prepare(sample, home)
    names = set(fingerprint(home))
    assert {task_folder(sample) + "/.lock", task_folder(sample) + "/4.json", ".claude/sessions/17941.json",
            sample.transcript} <= names
