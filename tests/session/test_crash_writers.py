"""The crash test of issue 20: 16 writers append to one session while the test SIGKILLs them at
random (seeded) moments and restarts them, for a bounded time. Then:

- every acknowledged append is in the file: the entry a Deck writer named holds its milestone as
  the one it added, and every milestone a ``pideck tool`` writer saw acknowledged is in the file;
- the entries form one linear chain: each entry's parentId is the id of the entry before it in the
  file (a torn line is skipped, so the entry after it hangs off the last whole entry, as
  docs/session-format.md#repairing-a-partial-last-line says), and each entry's milestones are its
  parent's plus the one it added, so no update was lost;
- a torn (partial) line appears only where a writer was killed mid-write: each one lies between
  two entries whose timestamps enclose a kill, and no kill accounts for two torn lines; pideck's
  reader warns of exactly those lines;
- after it all the next append works and reads back.

``test_a_whole_entry_without_its_newline`` (in the default run) pins the one case the crash
test's writers avoid: a writer killed after writing all of its entry but the newline.

The writers (``crash_writer.py``): 8 that call the tool through one Deck each, 4 that do the same
with short writes and now and then kill themselves mid-write (so the file does get torn lines:
a random SIGKILL rarely lands inside a write of a few KiB), and 4 that run ``pideck tool`` once per
append. Marked ``crash``: not in the default run (it takes about 20 s), run by ``.ci/run``.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from session_helpers import reference_read

from core.catalog.opening import open_deck
from core.session.log import SessionLog
from core.session.writer import custom_entry, serialise

ROOT = Path(__file__).resolve().parents[2]
WRITER = Path(__file__).with_name("crash_writer.py")
PIDECK = str(Path(sys.executable).with_name("pideck"))
SEED = 20
MODES = ["deck"] * 8 + ["tear"] * 4 + ["cli"] * 4
KILLING_SECONDS = 8.0  # per open path (the suite runs it over two): about 16 s of kills in all
PAUSE = (0.03, 0.25)  # seconds between two kills
SLACK = 0.05  # seconds: clock steps between a kill and an entry's timestamp
PREFIX = b'{"type":"custom","customType":"agent-progress-state","data":{"schemaVersion":1,'


@dataclass
class Run:
    """One incarnation of a writer slot: its process and the files its stdout and stderr went to."""

    slot: int
    generation: int
    mode: str
    out: Path
    err: Path
    proc: subprocess.Popen[bytes]

    @property
    def prefix(self) -> str:
        return f"w{self.slot}g{self.generation}"


@dataclass
class Kill:
    before: float  # time.time() just before the SIGKILL was sent
    after: float  # and just after
    run: str


@dataclass
class Harness:
    path: Path
    stop: Path
    folder: Path
    rng: random.Random
    runs: list[Run] = field(default_factory=list)
    live: dict[int, Run] = field(default_factory=dict)
    kills: list[Kill] = field(default_factory=list)

    def start(self, slot: int) -> None:
        generation = sum(r.slot == slot for r in self.runs)
        mode = MODES[slot]
        out, err = self.folder / f"w{slot}g{generation}.out", self.folder / f"w{slot}g{generation}.err"
        args = [sys.executable, str(WRITER), mode, str(self.path), f"w{slot}g{generation}", str(self.stop)]
        if mode == "tear":
            args.append(f"{SEED}-{slot}-{generation}")
        with out.open("wb") as o, err.open("wb") as e:
            proc = subprocess.Popen(args, stdout=o, stderr=e, cwd=ROOT, start_new_session=True)
        run = Run(slot, generation, mode, out, err, proc)
        self.runs.append(run)
        self.live[slot] = run

    def check_alive(self) -> None:
        """A writer that ended on its own must have torn its own write (exit by SIGKILL, after its
        ``tear`` line); anything else fails the test. A torn-and-dead writer is restarted."""
        for slot, run in list(self.live.items()):
            if run.proc.poll() is not None:
                assert run.proc.returncode == -signal.SIGKILL and b"tear " in run.out.read_bytes(), \
                    f"{run.prefix} ({run.mode}) exited {run.proc.returncode}: {run.err.read_text()}"
                self.start(slot)

    def kill_one(self) -> None:
        # a third of the kills go to the writers whose writes come in parts, so that some of them
        # land mid-write; the rest to any writer
        tearing = [slot for slot, mode in enumerate(MODES) if mode == "tear"]
        run = self.live[self.rng.choice(tearing) if self.rng.random() < 1 / 3 else self.rng.randrange(len(MODES))]
        before = time.time()
        os.killpg(run.proc.pid, signal.SIGKILL)  # the writer and a ``pideck tool`` it is running
        after = time.time()
        run.proc.wait(timeout=30)
        self.kills.append(Kill(before, after, run.prefix))
        self.start(run.slot)

    def finish(self) -> None:
        self.stop.touch()
        deadline = time.monotonic() + 60
        for run in self.live.values():
            run.proc.wait(timeout=max(1.0, deadline - time.monotonic()))
        self.check_alive_at_end()

    def check_alive_at_end(self) -> None:
        for run in self.live.values():
            if run.proc.returncode == -signal.SIGKILL and b"tear " in run.out.read_bytes():
                continue
            assert run.proc.returncode == 0, f"{run.prefix} exited {run.proc.returncode}: {run.err.read_text()}"

    def cleanup(self) -> None:
        for run in self.live.values():
            if run.proc.poll() is None:
                os.killpg(run.proc.pid, signal.SIGKILL)
                run.proc.wait(timeout=30)


def ms(timestamp: str) -> float:
    return datetime.fromisoformat(timestamp.replace("Z", "+00:00")).timestamp()


def complete_lines(path: Path) -> list[str]:
    """The lines a writer wrote whole (a line without its newline was never acknowledged)."""
    text = path.read_text()
    return text.split("\n")[:-1]


@pytest.mark.crash
def test_sixteen_writers_under_sigkill(tmp_path, open_path):
    path = tmp_path / "s.jsonl"
    SessionLog.create(path, tmp_path)
    folder = tmp_path / "writers"
    folder.mkdir()
    harness = Harness(path, tmp_path / "stop", folder, random.Random(SEED))
    try:
        for slot in range(len(MODES)):
            harness.start(slot)
        end = time.monotonic() + KILLING_SECONDS
        while time.monotonic() < end:
            time.sleep(harness.rng.uniform(*PAUSE))
            harness.check_alive()
            harness.kill_one()
        harness.check_alive()
        harness.finish()
    finally:
        harness.cleanup()

    # the next append works (through the command line) and reads back
    done = subprocess.run([PIDECK, "tool", "--session", str(path), "agent_progress_add_milestone",
                           '{"milestone":"after the crashes"}'], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and 'added milestone "after the crashes"' in done.stdout, done

    raw = path.read_bytes()
    assert raw.endswith(b"\n")
    lines = raw.split(b"\n")[:-1]
    entries: list[dict[str, Any]] = []
    torn: list[tuple[int, int]] = []  # (line number, entries before it)
    for line_no, line in enumerate(lines[1:], start=2):
        try:
            value = json.loads(line)
        except ValueError:
            value = None
        if isinstance(value, dict) and isinstance(value.get("id"), str):
            entries.append(value)
            continue
        assert line and (line.startswith(PREFIX) or PREFIX.startswith(line)), \
            f"line {line_no} is not part of an entry pideck writes: {line[:200]!r}"
        torn.append((line_no, len(entries)))

    # one linear chain, each entry its parent's milestones plus one
    ids = [e["id"] for e in entries]
    assert len(set(ids)) == len(ids)
    assert [e["parentId"] for e in entries] == [None, *ids[:-1]]
    added: dict[str, int] = {}  # milestone -> position of the entry that added it
    before: list[str] = []
    for i, e in enumerate(entries):
        assert e["type"] == "custom" and e["customType"] == "agent-progress-state", e
        milestones = e["data"]["currentMilestones"]
        assert milestones[:-1] == before, f"entry {e['id']} does not extend its parent's milestones"
        assert milestones[-1] not in added
        added[milestones[-1]] = i
        before = milestones
    assert before[-1] == "after the crashes"

    # every acknowledged append is in the file, and a writer wrote only what it was asked to
    acknowledged = 0
    for run in harness.runs:
        lines_out = [x for x in complete_lines(run.out) if not x.startswith("tear ")]
        for n, ack in enumerate(lines_out):
            milestone, entry_id = ack.split(" ")
            assert milestone == f"{run.prefix}-{n}", (run.prefix, ack)
            assert milestone in added, f"acknowledged {milestone} is not in the file"
            if entry_id != "-":
                assert ids[added[milestone]] == entry_id, f"{milestone} was acknowledged as {entry_id}"
        acknowledged += len(lines_out)
        written = sorted(int(m.rsplit("-", 1)[1]) for m in added if m.startswith(run.prefix + "-"))
        assert written in (list(range(len(lines_out))), list(range(len(lines_out) + 1))), \
            f"{run.prefix} acknowledged {len(lines_out)} milestones but the file holds {written}"
        assert b"Traceback" not in run.err.read_bytes() and b"crash_writer:" not in run.err.read_bytes()

    # a torn line only where a kill was: between two entries whose times enclose a distinct kill
    tears = [float(x.split(" ")[1]) for run in harness.runs for x in complete_lines(run.out)
             if x.startswith("tear ")]
    points = sorted([(k.before, k.after) for k in harness.kills] + [(t, t) for t in tears])
    windows = []
    for line_no, k in torn:
        low = ms(entries[k - 1]["timestamp"]) if k else float("-inf")
        high = ms(entries[k]["timestamp"]) + 0.001  # (timestamps are cut to the millisecond)
        windows.append((high, low, line_no))
    used: set[int] = set()
    for high, low, line_no in sorted(windows):
        match = next((i for i, (sent, returned) in enumerate(points)
                      if i not in used and returned >= low - SLACK and sent <= high + SLACK), None)
        assert match is not None, f"torn line {line_no} has no kill of its own between the entries around it"
        used.add(match)

    # pideck's own reader: one warning per torn line and no other, every entry on the branch
    log = SessionLog.open(path)
    assert [w.split(":")[0] for w in log.warnings] == [f"line {n}" for n, _ in torn], log.warnings
    assert [r.id for r in log.branch()] == ids == reference_read(raw)[1]
    deck = open_deck(path, create=False).deck
    assert deck.progress.state()["currentMilestones"] == before

    print(f"\n{open_path}: {len(harness.kills)} kills, {len(tears)} self-kills mid-write, {len(torn)} torn lines, "
          f"{len(entries)} entries ({acknowledged} acknowledged), {len(raw):,} bytes")


def test_a_whole_entry_without_its_newline(tmp_path):
    """A writer killed after writing all of its entry but the ``\\n``: pideck's repair (one ``\\n``)
    makes it a whole entry, and the next append is parented to it, so the next append must build on
    it too: its milestones are the parent's plus its own. (Found by the crash test: the entry
    after the repaired one dropped the repaired one's milestone.)"""
    path = tmp_path / "s.jsonl"
    SessionLog.create(path, tmp_path)
    deck = open_deck(path, create=False).deck
    assert not deck.call_tool("agent_progress_add_milestone", {"milestone": "a"}).rejected
    killed = custom_entry("agent-progress-state", {"schemaVersion": 1, "hasBaseline": False,
                                                   "currentMilestones": ["a", "b"], "recordedMilestones": []},
                          "0badc0de", deck.log.leaf_id, "2026-12-01T14:46:51.892Z")
    with path.open("ab") as f:
        f.write(serialise(killed)[:-1])  # everything but the newline
    other = open_deck(path, create=False).deck  # another process, opened after the crash
    assert not other.call_tool("agent_progress_add_milestone", {"milestone": "c"}).rejected
    log = SessionLog.open(path)
    assert log.warnings == []
    leaf = log.leaf.load()
    assert leaf["parentId"] == "0badc0de"
    assert leaf["data"]["currentMilestones"] == ["a", "b", "c"]  # the parent's plus its own
