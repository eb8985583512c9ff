"""Hostile input on the command line (issue 9): parameters nested too deep, bytes that are not
UTF-8, lone surrogates in the log, hostile file names, a reader that stops early. Each is a clear
usage error or exact output, never a traceback, and nothing is appended by a refused call."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cli_helpers import read_lines
from core.session.log import SessionLog
from core.config.places import pideck_sessions_dir

ROOT = Path(__file__).resolve().parents[2]
DEEP = "[" * 5000 + "]" * 5000  # deeper than Python's parser goes
FAIRLY_DEEP = "[" * 300 + "]" * 300  # Python parses it; a session line may not hold it


def session(tmp_path: Path) -> Path:
    path = tmp_path / "s.jsonl"
    SessionLog.create(path, cwd=tmp_path)
    return path


def byte_stdin(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))


@pytest.mark.parametrize("nested", [DEEP, FAIRLY_DEEP], ids=["5000 levels", "300 levels"])
@pytest.mark.parametrize("via", ["argument", "stdin"])
def test_tool_parameters_nested_too_deep_are_a_usage_error(pideck, tmp_path, monkeypatch, nested, via):
    path = session(tmp_path)
    before = path.read_bytes()
    params = '{"milestone":' + nested + "}"
    if via == "stdin":
        byte_stdin(monkeypatch, params.encode())
    code, out, err = pideck("tool", "--session", str(path), "agent_progress_add_milestone",
                            "-" if via == "stdin" else params)
    assert (code, out, err) == (2, "", "pideck tool: the JSON parameters are nested more than 256 levels deep\n")
    assert path.read_bytes() == before


def test_parameters_within_the_depth_limit_still_reach_the_tool(pideck, tmp_path):
    path = session(tmp_path)
    nested = "[" * 200 + "]" * 200
    code, out, _ = pideck("tool", "--session", str(path), "agent_progress_add_milestone", '{"milestone":' + nested + "}")
    assert code == 0 and "milestone" in out  # the tool's own validation answers (a string is required)


def test_stdin_that_is_not_utf8_is_a_usage_error_and_appends_nothing(pideck, tmp_path, monkeypatch):
    path = session(tmp_path)
    before = path.read_bytes()
    byte_stdin(monkeypatch, b'{"milestone":"\xff"}')
    code, out, err = pideck("tool", "--session", str(path), "agent_progress_add_milestone", "-")
    assert (code, out) == (2, "")
    assert err == "pideck tool: stdin is not valid UTF-8 (byte 14: invalid start byte)\n"
    assert path.read_bytes() == before


def test_command_line_words_that_are_not_utf8_are_a_usage_error(pideck, tmp_path):
    path = session(tmp_path)
    before = path.read_bytes()
    undecodable = os.fsdecode(b"\xff")  # how Python hands over a byte that is not UTF-8
    code, out, err = pideck("tool", "--session", str(path), "agent_progress_add_milestone",
                            '{"milestone":"' + undecodable + '"}')
    assert (code, out, err) == (2, "", "pideck tool: the JSON argument is not valid UTF-8\n")
    code, out, err = pideck("run", "--session", str(path), "/agent-progress add " + undecodable)
    assert (code, out, err) == (2, "", "pideck: LINE is not valid UTF-8\n")
    assert path.read_bytes() == before


def test_a_lone_surrogate_is_stored_escaped_and_every_output_encodes_it(pideck, tmp_path):
    path = session(tmp_path)
    code, out, err = pideck("tool", "--session", str(path), "agent_progress_add_milestone",
                            '{"milestone":"a\\ud800b"}')
    assert (code, out, err) == (0, 'Agent Progress: added milestone "a\\ud800b".\n', "")
    assert b'"currentMilestones":["a\\ud800b"]' in path.read_bytes()  # as JSON.stringify writes it
    code, out, _ = pideck("tool", "--session", str(path), "agent_progress_get")
    assert code == 0 and "- a\\ud800b\n" in out
    code, out, _ = pideck("run", "--session", str(path), "/agent-progress status")
    assert code == 0 and "a\\ud800b" in out
    code, out, _ = pideck("inspect", "--session", str(path))
    assert code == 0 and "- a\\ud800b\n" in out
    code, out, _ = pideck("inspect", "--session", str(path), "--json")
    assert code == 0 and '"a\\ud800b"' in out  # the escape pi writes; the document is valid JSON
    assert json.loads(out)["progress"]["currentMilestones"] == ["a\ud800b"]


def test_a_surrogate_pair_split_over_two_escapes_prints_as_one_character(pideck, tmp_path):
    path = session(tmp_path)
    assert pideck("tool", "--session", str(path), "agent_progress_add_milestone",
                  '{"milestone":"\\ud83d\\ude00"}')[1] == 'Agent Progress: added milestone "\U0001f600".\n'


def test_sessions_never_prints_a_file_name_raw(pideck, tmp_path, isolated):
    folder = pideck_sessions_dir(isolated)
    folder.mkdir(parents=True)
    name = "x\x1b]0;pwned\x07\nline.jsonl"
    SessionLog.create(folder / name, cwd=isolated)
    code, out, err = pideck("sessions")
    assert (code, err) == (0, "")
    assert "\x1b" not in out and "\x07" not in out
    assert out.splitlines()[1].endswith("x␛]0;pwned␇␊line.jsonl")  # one line per session


def test_sessions_prints_a_file_name_that_is_not_utf8(pideck, tmp_path, isolated):
    folder = pideck_sessions_dir(isolated)
    folder.mkdir(parents=True)
    SessionLog.create(folder / os.fsdecode(b"bad\xff.jsonl"), cwd=isolated)
    code, out, err = pideck("sessions")
    assert (code, err) == (0, "")
    assert out.splitlines()[1].endswith("bad\\udcff.jsonl")


def big_session(tmp_path: Path) -> Path:
    path = session(tmp_path)
    log = SessionLog.open(path)
    items = [{"id": f"w{i}", "content": "c" * 80, "status": "open"} for i in range(3000)]
    log.append_custom("agent-state-state", {"schemaVersion": 1, "state": {
        "schemaVersion": 1, "objective": "o", "workItems": items, "decisions": []}})
    return path


@pytest.mark.parametrize("json_output", [False, True], ids=["text", "json"])
def test_a_reader_that_stops_early_ends_pideck_quietly(tmp_path, json_output):
    """``pideck inspect | head -1``: no "Broken pipe" message, exit 1."""
    path = big_session(tmp_path)
    argv = [sys.executable, "-m", "core.cli.main", "inspect", "--session", str(path)] + (["--json"] if json_output else [])
    env = dict(os.environ, PIDECK_HOME=str(tmp_path / "home"))
    proc = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.read(10)
    proc.stdout.close()
    err = proc.stderr.read()
    assert proc.wait(timeout=60) == 1
    assert err == b""


@pytest.mark.parametrize("kind", ["fifo", "device"])
def test_a_fifo_or_a_device_as_the_session_is_named_as_such_without_hanging(tmp_path, kind):
    if kind == "fifo":
        target = tmp_path / "pipe.jsonl"
        os.mkfifo(target)
        said = "is a FIFO (named pipe), not a session file"
    else:
        target, said = Path("/dev/zero"), "is a character device, not a session file"
    for command in (["inspect"], ["run", "/agent-state"], ["tool", "agent_state_get"], ["gate"]):
        argv = [sys.executable, "-m", "core.cli.main", command[0], "--session", str(target), *command[1:]]
        done = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=60,
                              env=dict(os.environ, PIDECK_HOME=str(tmp_path / "home")))
        assert done.returncode == 1
        assert done.stderr == f"pideck: {target} {said}\n" and done.stdout == ""


def test_tool_results_go_to_a_session_whose_lines_all_read_back(pideck, tmp_path):
    """What a tool appends is never a line the reader would then skip."""
    path = session(tmp_path)
    pideck("tool", "--session", str(path), "agent_state_add_work_item",
           json.dumps({"id": "a", "content": "\x00\x1b\ud800" + "x" * 10_000}))
    log = SessionLog.open(path)
    assert log.warnings == [] and len(read_lines(path)) == 2
