"""Where a remote file's copy lives (core/remote/mirror.py): under pideck's runtime folder, named by
safe characters alone whatever the remote path holds, one folder per remote path."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.config.settings import HostConfig
from core.remote.mirror import mirror_path, safe_name


@pytest.mark.parametrize(("remote", "name"), [
    ("/home/me/.pi/sessions/2026_abc.jsonl", "2026_abc.jsonl"),
    ("/x/a session;$(rm -rf ~)\x1b[2J.jsonl", "a_session___rm_-rf_____2J.jsonl"),
    ("/x/..", "session.jsonl"),
    ("/x/", "x"),
    ("", "session.jsonl"),
    ("/x/" + "é" * 300, "_" * 100),
])
def test_the_copys_name_is_made_of_safe_characters(remote: str, name: str) -> None:
    assert safe_name(remote) == name


def test_each_remote_path_has_a_folder_of_its_own(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    box = HostConfig("box", "me@box")
    one, other = mirror_path(box, "/a/s.jsonl"), mirror_path(box, "/b/s.jsonl")
    assert one.parent.parent == tmp_path / "pideck" / "hosts" / "box"
    assert one.name == other.name == "s.jsonl" and one.parent != other.parent
    assert mirror_path(box, "/a/s.jsonl") == one


def test_stderr_is_read_in_lines_of_bounded_length() -> None:
    """A remote writing without a newline costs no more than the line's kept end."""
    import os

    from core.remote.mirror import KEPT_ERRORS, bounded_lines

    read, write = os.pipe()
    os.write(write, b"first\n" + b"x" * (3 * KEPT_ERRORS) + b"\nssh: the reason")
    os.close(write)
    lines = list(bounded_lines(read))
    os.close(read)
    assert lines[0] == b"first" and lines[-1] == b"ssh: the reason"
    assert len(lines[1]) <= KEPT_ERRORS + (1 << 16)
