"""What the notification tests share: states as ``Catalog.look()`` gives them."""

from __future__ import annotations

from core.catalog.states import NEEDS_YOU, OPEN_WORK, WORKING
from core.catalog.attention import Attention
from core.catalog.catalog import Record

CLAUDE = "/p/.claude/projects/-p/2aa06482-0bcc-4c14-b872-0a0ab0bd714a.jsonl"
CODEX = "/p/.codex/sessions/rollout-2025-09-10T10-00-00-019a0b7e-3c51-7d42-9a1b-2f0e8c6d4a10.jsonl"
ASK = "Claude needs your permission to use Bash (Notification hook, permission_prompt)"
TOLD = "Claude Code conversation 2aa06482 needs you: Claude needs your permission to use Bash"


def seen(path: str = CLAUDE, state: str = NEEDS_YOU, previous: str | None = WORKING, evidence: str = ASK,
         name: str | None = None, kind: str = "claude") -> Record:
    return Record(path, kind, name if name is not None else path.rsplit("/", 1)[-1],
                Attention(state, 1_000, evidence), (0, 3), previous)


def working(path: str = CLAUDE, previous: str | None = None) -> Record:
    return seen(path, WORKING, previous, "a turn is in progress")


def open_work(path: str = CODEX, previous: str | None = WORKING) -> Record:
    return seen(path, OPEN_WORK, previous, "its turn ended with 3 open", kind="codex")
