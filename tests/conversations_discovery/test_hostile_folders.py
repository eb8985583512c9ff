"""What a folder holds besides sessions costs only itself: a symbolic link in a loop named
``*.jsonl`` (``stat`` fails with ELOOP) in pideck's session folder or in Claude Code's project
folder leaves every other session and conversation listed in ``status``, ``overview``, ``watch``
(and so the inbox, which reads the same catalog) and ``sessions``."""

from __future__ import annotations

import json
from datetime import datetime, timezone

import pytest
from discovery_helpers import CLAUDE_TODOWRITE, CODEX

from core.config.places import pideck_sessions_dir
from core.deck.deck import Deck
from core.session.log import SessionLog


def _looks(pideck, monkeypatch: pytest.MonkeyPatch) -> dict[str, object]:
    def interrupted(seconds: float) -> None:
        raise KeyboardInterrupt  # (``watch`` runs until Ctrl+C: one look is enough here)

    looks: dict[str, object] = {}
    looks["overview"] = sorted((row["path"], row["attention"]["state"]) for row in json.loads(pideck("overview", "--json")[1]))
    with monkeypatch.context() as patch:
        patch.setattr("time.sleep", interrupted)
        looks["watch"] = sorted((line["path"], line["state"]) for line in map(json.loads, pideck("watch", "--json")[1].splitlines()))
    looks["status"] = pideck("status")[1]
    looks["sessions"] = sorted(line.split()[-1] for line in pideck("sessions")[1].splitlines()[1:] if line.startswith(("pideck", "claude", "codex")))
    return looks


def test_a_symbolic_link_loop_hides_no_session(homes, pideck, monkeypatch) -> None:
    claude = homes.install(CLAUDE_TODOWRITE)
    codex = homes.install(CODEX)
    log = SessionLog.create_for_cwd(str(homes.cwd), clock=lambda: datetime.now(timezone.utc))
    Deck(log).call_tool("todo", {"todos": [{"id": "t", "content": "Write it", "status": "pending", "priority": "high",
                                            "confidence": 80}]})
    before = _looks(pideck, monkeypatch)
    assert len(before["overview"]) == 3  # type: ignore[arg-type]
    for folder in (pideck_sessions_dir(homes.cwd), claude.parent, codex.parent):
        (folder / "loop.jsonl").symlink_to(folder / "loop.jsonl")
    after = _looks(pideck, monkeypatch)
    assert after == before
