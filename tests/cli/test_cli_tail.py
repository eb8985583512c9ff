"""``pideck tail PATH --from N``: the remote side of a mirrored deck (core/cli/tail.py). It writes
the bytes exactly (any bytes), follows what is appended, ends when the file is replaced or cut, and
never changes the file it reads."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

PIDECK = str(Path(sys.executable).parent / "pideck")
WAIT_S = 20  # (a bound on a blocking read, not a measured time)


def start(*words: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen([PIDECK, "tail", *words], stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def read_exactly(process: subprocess.Popen[bytes], count: int) -> bytes:
    assert process.stdout is not None
    got = b""
    while len(got) < count:
        chunk = os.read(process.stdout.fileno(), count - len(got))
        assert chunk, f"the output ended after {got!r}"
        got += chunk
    return got


def test_it_writes_the_bytes_from_the_offset_then_what_is_appended(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(b"first\n\x00\xff\x1b[31m binary\n")
    before = path.stat()
    process = start(str(path), "--from", "6")
    try:
        assert read_exactly(process, 15) == b"\x00\xff\x1b[31m binary\n"
        assert process.stderr is not None
        assert process.stderr.readline() == b"pideck tail: following at 21\n"
        with path.open("ab") as fh:
            fh.write(b"more\n")
        assert read_exactly(process, 5) == b"more\n"
        path.write_bytes(b"x")  # (cut shorter than what was sent)
        assert process.wait(WAIT_S) == 3
        assert process.stderr.read() == f"pideck tail: {path} was truncated (1 bytes, 26 were read)\n".encode()
    finally:
        process.kill()
        process.wait()
    assert before.st_ino == path.stat().st_ino


def test_a_replaced_file_ends_it_with_its_own_status(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(b"one\n")
    process = start(str(path))
    try:
        assert read_exactly(process, 4) == b"one\n"
        other = tmp_path / "other"
        other.write_bytes(b"one\ntwo\n")
        os.replace(other, path)
        assert process.wait(WAIT_S) == 3
        assert process.stderr is not None
        assert process.stderr.read() == (b"pideck tail: following at 4\n"
                                          + f"pideck tail: {path} was replaced by another file\n".encode())
    finally:
        process.kill()
        process.wait()


def test_it_ends_when_the_reader_goes_away(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(b"one\n")
    process = start(str(path))
    assert read_exactly(process, 4) == b"one\n"
    assert process.stdout is not None
    process.stdout.close()
    assert process.wait(WAIT_S) == 0


@pytest.mark.parametrize("what", ["folder", "fifo", "missing"])
def test_it_refuses_what_is_no_regular_file(tmp_path: Path, what: str, pideck) -> None:
    path = tmp_path / what
    if what == "folder":
        path.mkdir()
    elif what == "fifo":
        os.mkfifo(path)
    code, out, err = pideck("tail", str(path))
    assert code == 1 and out == ""
    assert err == {"folder": f"pideck tail: {path} is not a regular file\n",
                   "fifo": f"pideck tail: {path} is not a regular file\n",
                   "missing": f"pideck tail: cannot read {path}: No such file or directory\n"}[what]
