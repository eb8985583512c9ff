"""Concurrent ``pideck tool`` writers on one file: no torn line, no fork, no lost update."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from cli_helpers import read_lines

from core.cli.main import main

PROCESSES, CALLS = 8, 100

WRITER = """
import sys
from core.cli.main import main
path, k, calls = sys.argv[1], sys.argv[2], int(sys.argv[3])
for i in range(calls):
    rc = main(["tool", "--session", path, "agent_progress_add_milestone", '{"milestone": "p%s-%03d"}' % (k, i)])
    assert rc == 0, rc
"""


@pytest.mark.slow
def test_eight_processes_of_100_tool_calls_each_land_on_one_chain(tmp_path: Path, capsys) -> None:
    session = tmp_path / "s.jsonl"
    assert main(["run", "--session", str(session), "/agent-progress status"]) == 0  # creates the file
    root = Path(__file__).resolve().parents[2]
    procs = [
        subprocess.Popen([sys.executable, "-c", WRITER, str(session), str(k), str(CALLS)], cwd=root,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        for k in range(PROCESSES)
    ]
    errors = [p.communicate(timeout=600)[1] for p in procs]
    assert [p.returncode for p in procs] == [0] * PROCESSES, errors

    raw = session.read_bytes()
    assert raw.endswith(b"\n")
    entries = read_lines(session)[1:]  # every line parses: no torn line
    assert len(entries) == PROCESSES * CALLS
    ids = [e["id"] for e in entries]
    assert len(set(ids)) == len(ids)
    assert entries[0]["parentId"] is None
    assert all(e["parentId"] == prev["id"] for prev, e in zip(entries, entries[1:]))  # one chain, no fork

    capsys.readouterr()
    assert main(["inspect", "--session", str(session), "--json"]) == 0
    state = json.loads(capsys.readouterr().out)
    declared = state["progress"]["currentMilestones"]
    assert sorted(declared) == sorted(f"p{k}-{i:03d}" for k in range(PROCESSES) for i in range(CALLS))
    assert state["session"]["branch_length"] == PROCESSES * CALLS
