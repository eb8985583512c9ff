"""Running ``pideck hook`` in-process as the agents do, and reading back what it recorded (the hook
tests: test_hooks.py, test_hook_plan.py)."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

from core.cli.main import main
from core.deck.deck import Deck
from core.session.log import SessionLog

SAMPLES = Path(__file__).parents[1] / "fixtures" / "agent-hooks"
CLAUDE = json.loads((SAMPLES / "claude-stop.json").read_text(encoding="utf-8"))
CODEX = json.loads((SAMPLES / "codex-stop.json").read_text(encoding="utf-8"))
SAMPLES_BY_AGENT = {"claude": CLAUDE, "codex": CODEX}


def hook(agent: str, stdin: bytes | str | dict[str, Any], *args: str) -> tuple[int, str, str]:
    """``pideck hook AGENT ARGS`` in-process with ``stdin`` as the agent writes it."""
    data = json.dumps(stdin) if isinstance(stdin, dict) else stdin
    raw = data.encode() if isinstance(data, str) else data
    return run_main(["hook", agent, *args], stdin=raw)


def run_main(argv: list[str], stdin: bytes = b"") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin, sys.stdout, sys.stderr
    sys.stdin, sys.stdout, sys.stderr = io.TextIOWrapper(io.BytesIO(stdin)), out, err
    try:
        code = main(argv)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 2
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved
    return code, out.getvalue(), err.getvalue()


def entries(deck: Deck, *types: str) -> list[tuple[str, Any]]:
    """(customType, data or details) of the session's custom entries of ``types``, in order."""
    log = SessionLog.open(deck.log.path)
    return [(r.custom_type, r["data"] if r.type == "custom" else r["details"])
            for r in log.records if r.custom_type in types]
