"""A hostile or broken remote (docs/hosts.md#unreachable): a host whose ``pideck`` prints garbage,
escape sequences, a line of megabytes, another version's hello, or hangs after its hello, and one
whose rows carry shell metacharacters and escape sequences. Each is a clear row within bounded
time, with its control characters visible, and nothing it sent is ever run."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Iterator

import pytest

from private_homes import AGENT_VARIABLES
from remote.sshd import PIDECK

from core.catalog.catalog import Catalog

pytestmark = pytest.mark.ssh

HELLO = '{"type":"hello","version":"0.1.0"}'
ROW = {"path": "/p/$(touch pwned).jsonl", "name": "`touch pwned`; \x1b]0;title\x07\x1b[31mred", "cwd": "/p\nq",
       "kind": "claude", "readOnly": True, "entries": 3,
       "todos": {"settled": 0, "total": 1, "lowestConfidence": None},
       "workItems": {"open": 0, "in_progress": 0, "blocked": 0, "done": 0},
       "milestones": {"declared": 0, "recorded": 0}, "packets": 0, "lastActivity": "2026-12-01T10:00:00.000Z",
       "flag": None, "warnings": 0, "lastMessage": "$(touch pwned)", "tokens": None, "usage": None, "status": "waiting"}
RECORD = {"path": ROW["path"], "kind": "claude", "name": ROW["name"], "conversation": None, "state": "needs you",
          "since": "2026-12-01T10:00:00.000Z", "evidence": "\x1b[2J asks; rm -rf ~", "previous": None, "entries": 3,
          "todos": {"settled": 0, "total": 1}}
SCRIPTS = {
    "garbage": "echo 'Welcome to box!'; sleep 300",
    "escapes": "printf '\\033]0;pwned\\007\\033[2J{\\n'; sleep 300",
    "huge": "head -c 5000000 /dev/zero | tr '\\0' x; sleep 300",
    "other": "echo '{\"type\":\"hello\",\"version\":\"9.9.9\"}'; sleep 300",
    "hangs": f"echo '{HELLO}'; sleep 300",
    "nasty": f"echo '{HELLO}'; while true; do cat rows.json; echo '{{\"type\":\"tick\"}}'; sleep 0.3; done",
}
SAID = {
    "garbage": "not pideck's feed: not JSON: Welcome to box!",
    "escapes": "not pideck's feed: not JSON: ␛]0;pwned␇␛[2J{",
    "huge": "not pideck's feed: a line over 4 MB",
    "other": "pideck 9.9.9 there, 0.1.0 here",
    "hangs": "no answer for 4 s",
}


@pytest.fixture(autouse=True)
def this_machine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    for name in AGENT_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("PIDECK_CONFIG", str(tmp_path / "local-config.toml"))
    monkeypatch.chdir(tmp_path)
    run = tempfile.mkdtemp(prefix="pd")
    monkeypatch.setenv("XDG_RUNTIME_DIR", run)
    yield tmp_path
    shutil.rmtree(run, ignore_errors=True)


def test_hostile_remotes_are_clear_rows_and_nothing_runs(make_host, tmp_path: Path) -> None:
    import tomli_w

    box = make_host("box")
    folder = tmp_path / "scripts"
    folder.mkdir()
    (folder / "rows.json").write_text(json.dumps({"type": "record", "record": RECORD, "row": ROW}) + "\n")
    hosts = []
    for name, body in SCRIPTS.items():
        script = folder / name
        script.write_text(f"#!/bin/sh\ncd {folder}\n{body}\n")
        script.chmod(0o755)
        hosts.append(box.settings(name=name, pideck=str(script)))
    (tmp_path / "local-config.toml").write_text(tomli_w.dumps({"hosts": hosts}))
    catalog = Catalog(None)
    started = time.monotonic()
    try:
        def evidence() -> dict[str, str]:
            catalog.look()
            return {r.host or "": r.attention.evidence.partition(": ")[2] for r in catalog.records.values()
                    if r.attention.state == "unreachable"}

        while evidence() != SAID and time.monotonic() - started < 15:
            time.sleep(0.1)
        took = time.monotonic() - started
        assert evidence() == SAID
        (nasty,) = [r for r in catalog.records.values() if r.host == "nasty"]
        assert (nasty.path, nasty.name, nasty.attention.state, nasty.attention.evidence) == (
            "nasty:/p/$(touch pwned).jsonl", ROW["name"], "needs you", RECORD["evidence"])
        print(f"every hostile host a clear row after {took:.2f} s")
        assert took < 15
    finally:
        catalog.close()
    done = subprocess.run([PIDECK, "overview", "--all"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "\x1b" not in done.stdout and "\x07" not in done.stdout
    (line,) = [line for line in done.stdout.splitlines() if line.startswith("nasty")]
    assert "`touch pwned`; ␛]0;title␇␛[31mred" in line and "/p␊q" in line
    others = sorted(line.split()[:4] for line in done.stdout.splitlines()[1:] if not line.startswith("nasty"))
    assert others == sorted([name, "host", name, "unreachable"] for name in SAID)
    assert not list(tmp_path.rglob("pwned")) and not os.path.exists(os.path.join(folder, "pwned"))
