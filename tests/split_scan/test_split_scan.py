"""The split scan (core/session/split.py): a read whose far part another process decoded gives
exactly the index, branch and warnings of a read in one piece, whatever the far part holds, and a
child that fails changes nothing but the time it took."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from core.session.log import SessionLog
from core.session import log as log_module
from core.session import split

HEADER = {"type": "session", "version": 3, "id": "01a22cf2-253f-70fd-b26f-f043e48c877f",
          "timestamp": "2026-11-30T14:53:16.479Z", "cwd": "/x"}


def line(value: object) -> bytes:
    return (json.dumps(value, separators=(",", ":"), ensure_ascii=False) + "\n").encode()


def message(i: int, parent: str | None, size: int = 300) -> dict:
    return {"type": "message", "id": f"{i:08x}", "parentId": parent, "timestamp": "t",
            "message": {"role": "assistant" if i % 2 else "toolResult", "toolName": "bash",
                        "content": [{"type": "text", "text": "é ✓ x" * size}]}}


def plain_session(count: int) -> list[bytes]:
    """A header and ``count`` entries on one chain, a state every 7th, a name every 50th."""
    out, parent = [line(HEADER)], None
    for i in range(count):
        if i % 7 == 3:
            entry = {"type": "custom", "customType": "agent-progress-state",
                     "data": {"schemaVersion": 1, "hasBaseline": True, "currentMilestones": [f"m{i}"],
                              "recordedMilestones": []}, "id": f"{i:08x}", "parentId": parent, "timestamp": "t"}
        elif i % 50 == 49:
            entry = {"type": "session_info", "id": f"{i:08x}", "parentId": parent, "timestamp": "t", "name": f"n{i}"}
        else:
            entry = message(i, parent)
        out.append(line(entry))
        parent = entry["id"]
    return out


HOSTILE = {
    "a duplicate of an id from the near part": lambda: line({**message(9000, "00000005"), "id": "00000004"}),
    "a duplicate id inside the far part": lambda: line({**message(9001, "00000100"), "id": f"{2400:08x}"}),
    "a parent further down the file": lambda: line(message(9002, "0000ffff")),
    "invalid JSON": lambda: b'{"type":"message","id":"00009003",\n',
    "a blank line": lambda: b"   \n",
    "bytes that are not UTF-8": lambda: line(message(9004, "00000010")).replace(b"x", b"\xff\xfe", 1),
    "a lone surrogate escape": lambda: line({**message(9005, "00000010"), "note": "\\ud800"}).replace(b"\\\\ud800", b"\\ud800"),
    "a second header": lambda: line(HEADER),
    "a state nested too deep": lambda: line({"type": "custom", "customType": "agent-state-state", "id": "00009007",
                                              "parentId": "00000010", "timestamp": "t", "data": [[[[[]]]]]}).replace(
        b"[[[[[]]]]]", b"[" * 300 + b"]" * 300),
    "an entry without an id": lambda: line({"type": "message", "parentId": None, "timestamp": "t"}),
    "a type that is not a string": lambda: line({**message(9009, "00000010"), "type": ["message"]}),
}
"""Lines put in the far part, each with the warning a read gives about it (None: read silently)."""

WARNED = {  # (the first duplicate's parent is its own later entry: a cycle too)
    "a duplicate of an id from the near part": ["line 2501: duplicate id 00000004 (also on line 6)",
                                                "parentId cycle at entry 00000005: the branch stops there"],
    "a duplicate id inside the far part": ["line 2501: duplicate id 00000960 (also on line 2402)"],
    "invalid JSON": ["line 2501: invalid JSON"],
    "a second header": ["line 2501: a second session header; ignored"],
    "a state nested too deep": ["line 2501: nested more than 256 levels deep; skipped"],
    "an entry without an id": ["line 2501: entry without a string id skipped"],
}


def write(path: Path, lines: list[bytes]) -> Path:
    path.write_bytes(b"".join(lines))
    return path


def opened(path: Path, how: str, monkeypatch: pytest.MonkeyPatch) -> dict:
    """What a log read ``how`` knows: every array of its index, its branch, warnings and name."""
    monkeypatch.setenv("PIDECK_SPLIT", how)
    monkeypatch.setattr(log_module, "SCAN_MIN_BYTES", 0)
    log = SessionLog.open(path, saved_index=False)
    index = log.index
    return {
        "ids": list(index.ids), "parents": list(index.parents), "offsets": list(index.offsets),
        "lengths": list(index.lengths), "line_nos": list(index.line_nos),
        "kinds": [index.kind(i) for i in range(len(index))], "pending": dict(index.pending),
        "branch": [r.id for r in log.branch()], "warnings": list(log.warnings), "name": log.name,
        "header": log.header,
    }


@pytest.fixture
def spawned(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The far parts started (their first byte), so a test knows the split really ran."""
    begun: list[int] = []
    real = split.FarPart.start.__func__  # type: ignore[attr-defined]

    def start(cls, path, offset, size, inode):
        far = real(cls, path, offset, size, inode)
        if far is not None:
            begun.append(far.begin)
        return far

    monkeypatch.setattr(split.FarPart, "start", classmethod(start))
    return begun


def test_a_plain_session_reads_the_same_split(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, spawned: list[int]) -> None:
    path = write(tmp_path / "s.jsonl", plain_session(3000))
    whole = opened(path, "off", monkeypatch)
    assert spawned == []
    halves = opened(path, "always", monkeypatch)
    assert len(spawned) == 1 and spawned[0] > os.path.getsize(path) // 2
    assert halves == whole
    assert len(whole["ids"]) == 3000 and whole["name"] == "n2949" and whole["warnings"] == []


@pytest.mark.parametrize("case", HOSTILE)
def test_a_hostile_line_in_the_far_part_is_decided_as_in_one_read(
        case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, spawned: list[int]) -> None:
    lines = plain_session(3000)
    lines.insert(2500, HOSTILE[case]())  # (well inside the far part)
    path = write(tmp_path / "s.jsonl", lines)
    whole = opened(path, "off", monkeypatch)
    halves = opened(path, "always", monkeypatch)
    assert spawned and spawned[0] < sum(map(len, lines[:2500]))
    assert halves == whole
    expected = WARNED.get(case, [])
    assert [w[:len(e)] for w, e in zip(whole["warnings"], expected)] == expected
    assert len(whole["warnings"]) == len(expected)


def test_a_torn_last_line_is_held_back_the_same(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, spawned: list[int]) -> None:
    lines = plain_session(2000)
    path = write(tmp_path / "s.jsonl", [*lines, line(message(5000, "000007cf"))[:-40]])
    whole = opened(path, "off", monkeypatch)
    halves = opened(path, "always", monkeypatch)
    assert spawned and halves == whole
    assert whole["warnings"][-1].startswith("the last line (line 2002) is incomplete")


@pytest.mark.parametrize("failure", ["no interpreter", "a child that fails", "output that is not its own"])
def test_a_failed_child_changes_nothing(failure: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write(tmp_path / "s.jsonl", plain_session(2000))
    whole = opened(path, "off", monkeypatch)
    if failure == "no interpreter":
        monkeypatch.setattr(sys, "executable", str(tmp_path / "missing-python"))
    elif failure == "a child that fails":
        monkeypatch.setattr(split, "_CHILD", "import sys; sys.exit(3)")
    else:
        monkeypatch.setattr(split, "_CHILD", "import sys; sys.stdout.buffer.write(b'not marshal')")
    assert opened(path, "always", monkeypatch) == whole


def test_the_far_part_of_what_was_appended_after_a_saved_index(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                               spawned: list[int]) -> None:
    """A re-open from the saved index that finds a big append splits the append."""
    lines = plain_session(3000)
    path = write(tmp_path / "s.jsonl", lines[:1000])
    monkeypatch.setenv("PIDECK_INDEX", "always")
    monkeypatch.setenv("PIDECK_SPLIT", "off")
    SessionLog.open(path)
    with path.open("ab") as fh:
        fh.write(b"".join(lines[1000:]))
    monkeypatch.setenv("PIDECK_SPLIT", "always")
    log = SessionLog.open(path)
    assert log.index_source == "saved index" and spawned and spawned[0] > sum(map(len, lines[:1000]))
    whole = opened(path, "off", monkeypatch)
    assert [r.id for r in log.branch()] == whole["branch"] and list(log.index.offsets) == whole["offsets"]
    assert list(log.warnings) == whole["warnings"]


def test_an_error_after_the_child_ended_is_the_error_the_reader_gets(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing after the child is reaped touches it again: the error raised is the one that
    happened, and the cycle collector is on again."""
    import gc

    from core.session.indexing import Indexer

    path = write(tmp_path / "s.jsonl", plain_session(2000))
    monkeypatch.setenv("PIDECK_SPLIT", "always")
    monkeypatch.setattr(log_module, "SCAN_MIN_BYTES", 0)

    def broken(self, batch, first_no):
        raise RuntimeError("applying failed")

    monkeypatch.setattr(Indexer, "apply_batch", broken)
    with pytest.raises(RuntimeError, match="applying failed"):
        SessionLog.open(path, saved_index=False)
    assert gc.isenabled()


def test_a_split_read_with_sigchld_ignored(tmp_path: Path) -> None:
    """A harness may start pideck with SIGCHLD ignored (the system then reaps the child itself)."""
    import subprocess

    path = write(tmp_path / "s.jsonl", plain_session(2000))
    script = (
        "import signal, sys, json; signal.signal(signal.SIGCHLD, signal.SIG_IGN)\n"
        "from core.session.log import SessionLog; from core.session import log\n"
        "log.SCAN_MIN_BYTES = 0\n"
        "read = SessionLog.open(sys.argv[1], saved_index=False)\n"
        "print(json.dumps([list(read.index.ids), [r.id for r in read.branch()], read.warnings]))\n"
    )
    out = {}
    for how in ("off", "always"):
        done = subprocess.run([sys.executable, "-c", script, str(path)], capture_output=True, text=True,
                              env={**os.environ, "PIDECK_SPLIT": how, "PIDECK_INDEX": "off"})
        assert done.returncode == 0, done.stderr
        out[how] = done.stdout
    assert out["always"] == out["off"]


CRAFTED = {
    "an empty batch": "(END, LINES, [('batch', [], None, b'', [], [], b'', b'', b'')])",
    "ids that are not strings": "(END, LINES, [('batch', [1], [None], None, None, [('message', None, 'assistant', None)], "
                                "b'\\x00\\x00\\x00\\x00', BEGIN.to_bytes(8, 'little'), (10).to_bytes(8, 'little'))])",
    "an end that is not a number": "('x', LINES, [])",
    "segments that do not reach the end": "(END, LINES, [])",
    "lines where there are none": "(END, LINES, [('lines', BEGIN + 1, END, LINES)])",
}


@pytest.mark.parametrize("case", CRAFTED)
def test_output_that_is_not_the_childs_own_is_ignored(case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write(tmp_path / "s.jsonl", plain_session(2000))
    whole = opened(path, "off", monkeypatch)
    # the stand-in child sends the crafted value, with the numbers of the real far part filled in
    body = "BEGIN, SIZE = int(sys.argv[-2]), int(sys.argv[-1]); END = SIZE; LINES = 1; " \
           f"sys.stdout.buffer.write(marshal.dumps({CRAFTED[case]}))"
    monkeypatch.setattr(split, "_CHILD", "import marshal, sys; " + body)
    assert opened(path, "always", monkeypatch) == whole


def test_an_integer_too_long_for_python_is_read_as_javascript_reads_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """JSON.parse reads any number (a float, Infinity when too big); so do the scanner and the full
    parse, so a read gives the same entries whichever of them reads the line."""
    lines = plain_session(2000)
    lines.insert(1500, line({**message(9100, f"{1498:08x}"), "n": 0}).replace(b'"n":0', b'"n":' + b"7" * 5000))
    path = write(tmp_path / "s.jsonl", lines)
    whole = opened(path, "off", monkeypatch)
    assert f"{9100:08x}" in whole["ids"] and whole["warnings"] == []
    assert opened(path, "always", monkeypatch) == whole
    parsed = SessionLog.open(path, saved_index=False, scan=False)
    assert list(parsed.index.ids) == whole["ids"] and parsed.warnings == []
