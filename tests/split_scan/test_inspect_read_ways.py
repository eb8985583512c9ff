"""``pideck inspect --json`` prints the same bytes whichever way the session was read: in one
piece, split across two processes (core/session/split.py), or from the saved index
(core/session/sidecar.py), on the fixtures of real pi sessions and on a generated large one."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
PIDECK = str(Path(sys.executable).with_name("pideck"))
WAYS = {
    "in one piece": {"PIDECK_INDEX": "off", "PIDECK_SPLIT": "off"},
    "split": {"PIDECK_INDEX": "off", "PIDECK_SPLIT": "always"},
    "saved index": {"PIDECK_INDEX": "always", "PIDECK_SPLIT": "off"},
}


def inspect(session: Path, home: Path, way: str | dict[str, str]) -> bytes:
    env = {**os.environ, **(WAYS[way] if isinstance(way, str) else way), "PIDECK_HOME": str(home)}
    done = subprocess.run([PIDECK, "inspect", "--json", "--session", str(session)], env=env, capture_output=True)
    assert done.returncode == 0, done.stderr
    return done.stdout


def every_way(session: Path, tmp_path: Path) -> dict[str, bytes]:
    out = {}
    for way in WAYS:
        home = tmp_path / way
        shutil.rmtree(home, ignore_errors=True)
        out[way] = inspect(session, home, way)
        if way == "saved index":  # the first read saved it; this one starts from it
            assert list((home / "index").glob("*.idx")), "no saved index was written"
            out[way] = inspect(session, home, way)
    return out


@pytest.fixture(scope="module")
def large(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A generated session of 6,000 entries (16 MB): branch points, todo writes, gate cycles."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    from session_shape import generate

    path = tmp_path_factory.mktemp("large") / "large.jsonl"
    generate(path, 6000)
    return path


@pytest.mark.parametrize("name", sorted(p.name for p in FIXTURES.glob("*.jsonl") if p.read_bytes().startswith(b'{"type":"session"')))
def test_a_fixture_reads_the_same_every_way(name: str, tmp_path: Path) -> None:
    session = tmp_path / name
    shutil.copyfile(FIXTURES / name, session)  # (a saved index names the file it was made for)
    out = every_way(session, tmp_path)
    assert out["split"] == out["in one piece"] and out["saved index"] == out["in one piece"]
    assert b'"entries"' in out["in one piece"]


def test_a_large_session_reads_the_same_every_way(large: Path, tmp_path: Path) -> None:
    out = every_way(large, tmp_path)
    assert out["split"] == out["in one piece"] and out["saved index"] == out["in one piece"]
    assert b'"branch_length": 5' in out["in one piece"]


def test_appended_lines_read_the_same_every_way(large: Path, tmp_path: Path) -> None:
    """The saved index of the file before an append, then the append read split."""
    session = tmp_path / "grown.jsonl"
    lines = large.read_bytes().splitlines(keepends=True)
    session.write_bytes(b"".join(lines[:2000]))
    home = tmp_path / "grown-home"
    inspect(session, home, "saved index")
    with session.open("ab") as fh:
        fh.write(b"".join(lines[2000:]))
    grown = inspect(session, home, {"PIDECK_INDEX": "always", "PIDECK_SPLIT": "always"})
    assert grown == every_way(session, tmp_path)["in one piece"]
