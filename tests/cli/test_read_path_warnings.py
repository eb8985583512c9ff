"""Every read path reports the same warnings for the same file: `inspect --at` and `diff` dropped
the parentId cycle warning that `inspect` gives (issue 20, item 8)."""

from __future__ import annotations

import json
from pathlib import Path

CYCLE = "parentId cycle at entry aaaaaaa2: the branch stops there"


def cycle_session(folder: Path) -> str:
    state = {"schemaVersion": 1, "workItems": [], "decisions": []}
    lines = [{"type": "session", "version": 3, "id": "s1", "timestamp": "2026-11-30T10:00:00.000Z", "cwd": str(folder)},
             {"type": "custom", "customType": "agent-state-state", "data": state, "id": "aaaaaaa1",
              "parentId": "aaaaaaa2", "timestamp": "2026-11-30T10:00:01.000Z"},
             {"type": "custom", "customType": "agent-state-state", "data": state, "id": "aaaaaaa2",
              "parentId": "aaaaaaa1", "timestamp": "2026-11-30T10:00:02.000Z"}]
    path = folder / "cycle.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return str(path)


def test_every_read_path_says_the_cycle(pideck, tmp_path):
    s = cycle_session(tmp_path)
    for argv in (["inspect", "--session", s], ["inspect", "--session", s, "--at", "leaf"],
                 ["inspect", "--session", s, "--at", "aaaaaaa1"], ["diff", "--session", s, "aaaaaaa1", "leaf"]):
        code, out, _ = pideck(*argv)
        assert code == 0 and f"- {CYCLE}" in out.splitlines(), argv
    for argv in (["inspect", "--session", s, "--json"], ["inspect", "--session", s, "--json", "--at", "leaf"],
                 ["diff", "--session", s, "--json", "aaaaaaa1", "leaf"]):
        code, out, _ = pideck(*argv)
        assert code == 0 and CYCLE in json.loads(out)["warnings"], argv
