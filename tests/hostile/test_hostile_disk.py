"""The disk turning hostile under every writing command (issue 20): a full disk, a read-only
filesystem, an empty file. For each run: exit 0, 1 or 2, one line on stderr, no errno text, no
traceback, and the session file exactly as it was."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

import pytest
from disk_faults import disk_full, read_only_filesystem
from private_homes import use_private_homes

from core.session.writer import header_entry, serialise
from pideck_run import pideck  # noqa: F401  (the fixture)

COMMANDS = [
    ("run", "/agent-state add a b"),
    ("tool", "agent_progress_add_milestone", '{"milestone":"' + "m" * 20000 + '"}'),
    ("tool", "agent_state_get", "{}"),
    ("inspect",),
]


FAULTS: dict[str, Callable[[pytest.MonkeyPatch, Path], None]] = {
    "disk full": disk_full, "read-only filesystem": read_only_filesystem}


@pytest.mark.parametrize("fault", FAULTS)
@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c)[:40])
def test_a_hostile_disk_is_an_answer(tmp_path, monkeypatch, pideck, fault, command):
    use_private_homes(tmp_path, monkeypatch)
    path = tmp_path / "s.jsonl"
    path.write_bytes(serialise(header_entry("01a22cf2-253f-70fd-b26f-f043e48c877f", "2026-11-30T14:53:16.479Z",
                                            str(tmp_path))))
    before = path.read_bytes()
    FAULTS[fault](monkeypatch, path)
    code, out, err = pideck(command[0], "--session", str(path), *command[1:])
    assert code in (0, 1, 2)
    assert "Traceback" not in err and "Errno" not in err and len(err.strip().splitlines()) <= 1
    if code == 1 and command[0] == "run":
        assert ("the disk is full" if fault == "disk full" else "read-only filesystem") in err
    assert path.read_bytes() == before


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c)[:40])
def test_an_empty_file_is_an_answer(tmp_path, monkeypatch, pideck, command):
    use_private_homes(tmp_path, monkeypatch)
    path = tmp_path / "s.jsonl"
    path.write_bytes(b"")
    code, out, err = pideck(command[0], "--session", str(path), *command[1:])
    assert "Traceback" not in err and "Errno" not in err
    if command[0] == "inspect":  # a read creates nothing: the file is a session not written yet
        assert code == 1 and "empty" in err and path.read_bytes() == b""  # (as for a path with no file)
    else:  # a command that may create: the header first, then the command as on any new session
        assert code == 0 and path.read_bytes().startswith(b'{"type":"session","version":3,')
