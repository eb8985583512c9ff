"""A stand-in for the agent process above ``pideck mcp`` or ``pideck hook``: it leaves what the
real CLI leaves to be found by (tests/fixtures/agent-hooks/README.md, "Process ancestry"), then
runs its command as its child, on its own stdin and stdout.

    python agent_stand_in.py claude SESSIONS_JSON -- COMMAND...
        writes $CLAUDE_CONFIG_DIR/sessions/<its pid>.json: the JSON given, with its own pid and
        procStart, as Claude Code does
    python agent_stand_in.py codex ROLLOUT -- COMMAND...
        holds ROLLOUT open while the command runs, as Codex holds the thread's rollout
    python agent_stand_in.py none - -- COMMAND...
        leaves nothing (the command is the child of a process that is no agent)
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path


def main(argv: list[str]) -> int:
    kind, value, dash, *command = argv
    assert dash == "--" and command
    held = None
    if kind == "claude":
        record = json.loads(value)
        stat = Path(f"/proc/{os.getpid()}/stat").read_text()
        record.update(pid=os.getpid(), procStart=stat.rpartition(")")[2].split()[19])
        folder = Path(os.environ["CLAUDE_CONFIG_DIR"]) / "sessions"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{os.getpid()}.json").write_text(json.dumps(record))
    elif kind == "codex":
        held = open(value, "rb")
    try:
        return subprocess.call(command)
    finally:
        if held is not None:
            held.close()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
