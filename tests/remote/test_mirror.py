"""A remote pideck session mirrored here over a real sshd (core/remote/mirror.py): the copy holds
the same bytes, follows what is appended there, says when the host went away (ssh's reason), and
catches up once it is back, without being made again; commands sent there answer as locally."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Callable

import pytest

from core.config.settings import check_host
from core.remote.mirror import Mirror, run_remote

pytestmark = [pytest.mark.ssh, pytest.mark.usefixtures("runtime")]

BOUND_S = 20.0
"""The longest a test waits for the copy to follow (a bound, not a measured time)."""


def until(check: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + BOUND_S
    while not check():
        assert time.monotonic() < deadline, f"not within {BOUND_S} s: {what}"
        time.sleep(0.05)


def todo(box, session: Path, *contents: str) -> None:
    params = {"todos": [{"id": str(n), "content": c, "status": "pending", "priority": "high", "confidence": 80}
                        for n, c in enumerate(contents, 1)]}
    done = box.run("tool", "--session", str(session), "todo", json.dumps(params))
    assert (done.returncode, done.stderr) == (0, "")
    assert "\n\nChanges: " in done.stdout, done.stdout


def test_the_copy_follows_the_remote_session_across_the_host_going_away(make_host) -> None:
    box = make_host("box")
    host = check_host(box.settings())
    session = box.home / "work" / "a session.jsonl"  # (a space: the path reaches the remote shell quoted)
    session.parent.mkdir()
    todo(box, session, "Write the parser")
    mirror = Mirror(host, str(session), backoff=(0.2,)).start()
    try:
        state = mirror.wait_caught_up(BOUND_S)
        assert (state.live, state.caught_up, state.since_ms) == (True, True, None)
        assert mirror.path.read_bytes() == session.read_bytes()
        assert mirror.path.name == "a_session.jsonl"
        assert oct(mirror.path.stat().st_mode & 0o777) == "0o400"

        todo(box, session, "Write the parser", "Test it")
        until(lambda: mirror.path.read_bytes() == session.read_bytes(), "the append mirrored")

        box.kill()
        until(lambda: not mirror.state.live, "the host's going away seen")
        state = mirror.state
        assert state.since_ms is not None
        assert state.reason in ("ssh ended the connection (status 255)",
                                f"ssh: connect to host 127.0.0.1 port {box.port}: Connection refused")
        todo(box, session, "Write the parser", "Test it", "Ship it")  # (written while the host is away)
        size = mirror.size

        box.start()
        until(lambda: mirror.state.live, "the host back")
        until(lambda: mirror.path.read_bytes() == session.read_bytes(), "the copy caught up")
        assert mirror.size > size
    finally:
        mirror.close()


def tails_of(path: Path) -> list[str]:
    """The ``pideck tail`` processes of ``path`` running on this machine (the hosts' included)."""
    import subprocess

    listing = subprocess.run(["ps", "-ww", "-e", "-o", "args="], capture_output=True, text=True, check=True).stdout
    return [line for line in listing.splitlines()
            if "pideck tail " in line and str(path) in line and not line.startswith(("ssh ", "sh -c "))]


def test_closing_the_copy_ends_the_tail_there(make_host) -> None:
    """The shared connection holds the pipes of an ssh that was killed, so the tail there would run
    on, unseen, for as long as the connection does: closing the copy ends it."""
    box = make_host("box")
    session = box.home / "s.jsonl"
    todo(box, session, "Write the parser")
    mirror = Mirror(check_host(box.settings()), str(session)).start()
    try:
        assert mirror.wait_caught_up(BOUND_S).caught_up
        assert len(tails_of(session)) == 1
    finally:
        started = time.monotonic()
        mirror.close()
    assert time.monotonic() - started < 4  # (closed, not left to the join's timeout)
    until(lambda: tails_of(session) == [], "the tail there ended")


def test_a_file_replaced_there_is_copied_again(make_host) -> None:
    box = make_host("box")
    host = check_host(box.settings())
    session = box.home / "s.jsonl"
    todo(box, session, "One")
    mirror = Mirror(host, str(session)).start()
    try:
        assert mirror.wait_caught_up(BOUND_S).caught_up
        other = box.home / "other.jsonl"
        todo(box, other, "Another file", "with two todos")
        os.replace(other, session)
        until(lambda: mirror.path.read_bytes() == session.read_bytes(), "the replacement copied")
    finally:
        mirror.close()


def test_an_unreachable_host_says_sshs_reason(make_host) -> None:
    box = make_host("box", start=False)
    host = check_host(box.settings())
    mirror = Mirror(host, "/nowhere.jsonl").start()
    try:
        state = mirror.wait_caught_up(BOUND_S)
        assert (state.live, state.caught_up) == (False, False)
        assert state.reason == f"ssh: connect to host 127.0.0.1 port {box.port}: Connection refused"
    finally:
        mirror.close()


def test_a_missing_remote_file_says_tails_reason(make_host) -> None:
    box = make_host("box")
    host = check_host(box.settings())
    mirror = Mirror(host, str(box.home / "gone.jsonl")).start()
    try:
        state = mirror.wait_caught_up(BOUND_S)
        assert (state.live, state.reason) == (
            False, f"pideck tail: cannot read {box.home / 'gone.jsonl'}: No such file or directory")
    finally:
        mirror.close()


def test_a_command_runs_on_the_remote_session_and_answers(make_host) -> None:
    box = make_host("box")
    host = check_host(box.settings())
    session = box.home / "s.jsonl"
    todo(box, session, "One")
    answer = run_remote(host, ["run", "--session", str(session), "/agent-state add $(touch${IFS}x);\x1b[2J Decide"])
    assert answer.code == 0, answer
    assert answer.out == 'Agent State: added work item "$(touch${IFS}x);␛[2J".'
    assert not (box.home / "x").exists()
    refused = run_remote(host, ["run", "--session", str(session), "/agent-state frobnicate"])
    assert refused.code == 1
    box.kill()
    gone = run_remote(host, ["run", "--session", str(session), "/agent-state status"])
    assert gone == (255, "", f"ssh: connect to host 127.0.0.1 port {box.port}: Connection refused")


def test_a_file_there_larger_than_a_copy_keeps_stops_the_copy_and_says_so(make_host, monkeypatch) -> None:
    from core.remote import mirror as mirrors

    monkeypatch.setattr(mirrors, "MAX_COPY_BYTES", 4096)
    box = make_host("box")
    big = box.home / "big.jsonl"
    big.write_bytes(b'{"type":"x"}\n' * 1000)
    mirror = Mirror(check_host(box.settings()), str(big), backoff=(0.2,)).start()
    try:
        until(lambda: mirror.state.since_ms is not None, "the copy stopped")
        assert mirror.state.reason == "the file there passed 0 MB, more than a copy here keeps"
        assert mirror.size <= 4096
    finally:
        mirror.close()
    assert not mirror.path.parent.exists()  # (closed: the copy is gone)
