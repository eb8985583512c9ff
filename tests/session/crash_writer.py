"""One writer of the crash test (test_crash_writers.py): appends milestones to one session until a
stop file appears, and acknowledges each one on stdout only after its append returned.

    python crash_writer.py deck SESSION PREFIX STOPFILE   # one Deck, tool calls in a loop
    python crash_writer.py cli SESSION PREFIX STOPFILE    # one ``pideck tool`` process per append
    python crash_writer.py tear SESSION PREFIX STOPFILE SEED  # deck, with short writes and self-kills

Each acknowledged append is one line ``<milestone> <entry id>`` (``-`` for the id in ``cli`` mode,
where the tool's own process is gone when it answers), written with one flushed write. A line
without its ``\\n`` was never acknowledged. Anything unexpected (a refusal, a rejected call, an exit
status other than 0) ends the writer with status 3 and the reason on stderr: the test fails on it.

``tear`` makes the kernel's right to write less than asked visible: every write to the session
file (``core/session/writer.py``'s ``os.write``, as tests/disk_faults.py patches it) writes only a
random part of its bytes, with a pause of a millisecond (now and then ten) after it, so pideck's ``write_all`` goes round
several times while holding the lock, and a SIGKILL from the test can land between two parts.
Now and then (seeded) the writer SIGKILLs itself between two parts, after printing ``tear <unix
time>``: a kill mid-write at a known moment. No part ends just before the entry's newline (see
``tear_writes``).
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

TOOL = "agent_progress_add_milestone"


def acknowledge(milestone: str, entry_id: str) -> None:
    os.write(1, f"{milestone} {entry_id}\n".encode())  # one write: whole or absent


def fail(why: str) -> None:
    print(f"crash_writer: {why}", file=sys.stderr, flush=True)
    sys.exit(3)


def deck_loop(session: str, prefix: str, stop: Path) -> None:
    from core.catalog.opening import open_deck

    deck = open_deck(session, create=False).deck
    n = 0
    while not stop.exists():
        milestone = f"{prefix}-{n}"
        result = deck.call_tool(TOOL, {"milestone": milestone})
        if result.rejected or result.refused or milestone not in result.text:
            fail(f"{milestone}: {result.text!r}")
        leaf = deck.log.leaf  # the log read the file back, under the lock, right after the append
        data = leaf.load().get("data") if leaf is not None else None
        if not isinstance(data, dict) or data.get("currentMilestones", [None])[-1] != milestone:
            fail(f"{milestone}: the leaf after the append is not its entry: {leaf and leaf.load()!r}")
        acknowledge(milestone, leaf.id)
        n += 1


def tear_writes(session: str, seed: str) -> None:
    from core.session import writer

    rng = random.Random(seed)
    real, target = os.write, os.path.realpath(session)

    def write(fd: int, data: bytes) -> int:
        if os.readlink(f"/proc/self/fd/{fd}") != target or len(data) < 3:
            return real(fd, data)
        # Every part leaves at least two bytes unwritten: never a whole entry without its newline,
        # which pideck's repair would turn into an entry the next append does not build on
        # (test_crash_writers.py: test_a_whole_entry_without_its_newline).
        cut = rng.randrange(1, len(data) - 1)
        if rng.random() < 0.015:  # die mid-write, at a moment the test is told of
            real(fd, bytes(data[:cut]))
            os.write(1, f"tear {time.time():.6f}\n".encode())
            os.kill(os.getpid(), signal.SIGKILL)
        written = real(fd, bytes(data[:cut]))
        time.sleep(0.01 if rng.random() < 0.1 else 0.001)  # now and then a slow disk
        return written

    writer.os.write = write  # type: ignore[attr-defined]


def cli_loop(session: str, prefix: str, stop: Path) -> None:
    pideck = str(Path(sys.executable).with_name("pideck"))
    n = 0
    while not stop.exists():
        milestone = f"{prefix}-{n}"
        done = subprocess.run([pideck, "tool", "--session", session, TOOL, f'{{"milestone":"{milestone}"}}'],
                              capture_output=True, text=True, timeout=60)
        if done.returncode != 0 or f'added milestone "{milestone}"' not in done.stdout:
            fail(f"{milestone}: exit {done.returncode}, stdout {done.stdout!r}, stderr {done.stderr!r}")
        acknowledge(milestone, "-")
        n += 1


if __name__ == "__main__":
    mode, session, prefix, stop = sys.argv[1:5]
    if mode == "tear":
        tear_writes(session, sys.argv[5])
    (cli_loop if mode == "cli" else deck_loop)(session, prefix, Path(stop))
