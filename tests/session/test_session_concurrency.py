"""8 processes appending 100 entries each to one file at once: one chain, no torn line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from session_helpers import reference_read

from core.session.log import SessionLog

ROOT = Path(__file__).resolve().parents[2]
WRITER = """
import sys
from core.session.log import SessionLog
log = SessionLog.open(sys.argv[1])
for i in range(100):
    if i % 2:
        log.append_custom("agent-progress-state", {"writer": int(sys.argv[2]), "i": i, "pad": "x" * (i * 37)})
    else:
        log.append_custom_message("note", f"w{sys.argv[2]} {i}", False, {"i": i})
"""


def test_eight_concurrent_writers(tmp_path):
    path = tmp_path / "s.jsonl"
    SessionLog.create(path, tmp_path)
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, str(path), str(n)], cwd=ROOT) for n in range(8)]
    assert [p.wait(timeout=120) for p in procs] == [0] * 8
    raw = path.read_bytes()
    lines = raw.split(b"\n")
    assert raw.endswith(b"\n") and len(lines) == 802  # header + 800 entries + final ""
    values = [json.loads(x) for x in lines[1:-1]]  # no torn line: every line parses
    ids = [v["id"] for v in values]
    assert len(set(ids)) == 800
    assert [v["parentId"] for v in values] == [None] + ids[:-1]  # one chain, in file order
    log = SessionLog.open(path)
    assert log.warnings == [] and [r.id for r in log.branch()] == ids == reference_read(raw)[1]
    assert sorted((v.get("data") or v["details"])["i"] for v in values) == sorted(list(range(100)) * 8)
