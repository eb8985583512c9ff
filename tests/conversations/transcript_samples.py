"""The sample conversations written by the real CLIs (tests/fixtures/agent-transcripts/, read its
README.md and each folder's) and what the tests need of them."""

from __future__ import annotations

import gzip
import json
import shutil
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "agent-transcripts"


@dataclass(frozen=True)
class Sample:
    name: str
    kind: str  # claude, codex, gemini, qwen, copilot
    folder: Path  # the fixture folder of the run
    home: Path  # the CLI's home as the run left it (holds .claude/, .codex/, .gemini/, .qwen/ or .copilot/)
    transcript: str  # the transcript, relative to ``home``
    session_id: str
    version: str | None  # as the CLI wrote it into the transcript (Gemini's chat file has none)
    tool: str  # agentPlan.tool
    noun: str  # agentPlan.noun

    @property
    def path(self) -> Path:
        return self.home / self.transcript

    @cached_property
    def lines(self) -> list[bytes]:
        """The final transcript's lines, each with its newline."""
        data = self.path.read_bytes()
        assert data.endswith(b"\n")
        return data.splitlines(keepends=True)

    def head(self, n: int) -> bytes:
        """The transcript as it was when it had ``n`` lines (``head -n N``: it only ever grew by
        whole lines, README.md)."""
        return b"".join(self.lines[:n])

    def copy_home(self, into: Path) -> Path:
        """A copy of the CLI's home under ``into``; answers the transcript's path in it."""
        shutil.copytree(self.home, into, dirs_exist_ok=True, symlinks=True)
        return into / self.transcript

    @cached_property
    def snapshots(self) -> list[dict[str, Any]]:
        """``snapshots/index.json`` (none for the Gemini variant)."""
        index = self.folder / "snapshots" / "index.json"
        return json.loads(index.read_text()) if index.is_file() and self.home.parent == self.folder else []

    def snapshot_lines(self, moment: dict[str, Any]) -> int:
        return int(moment["files"][self.transcript]["lines"])

    def snapshot_copy(self, moment: dict[str, Any]) -> bytes | None:
        """The transcript's real copy at a moment, when the run kept one (``.jsonl.gz`` for Claude's)."""
        copy = moment["files"][self.transcript]["copy"]
        if copy.startswith("head -n"):
            return None
        data = (self.folder / copy).read_bytes()
        return gzip.decompress(data) if copy.endswith(".gz") else data

    @cached_property
    def growth(self) -> list[dict[str, Any]]:
        return [json.loads(line) for line in (self.folder / "growth.jsonl").read_text().splitlines()]


def _version(folder: Path) -> str:
    text = (folder / "version.txt").read_text()
    if "copilot" in folder.name:  # "GitHub Copilot CLI 1.0.102.\nRun 'copilot update' ..."
        return text.split()[3].rstrip(".")
    return text.split()[-1] if "codex" in folder.name else text.split()[0]


CLAUDE_TASKS = FIXTURES / "claude-tasks"
CLAUDE_TODOWRITE = FIXTURES / "claude-todowrite"
CODEX = FIXTURES / "codex-update-plan"
GEMINI = FIXTURES / "gemini-write-todos"
GEMINI_VARIANT = GEMINI / "variant-resume-next-minute"
GEMINI_CHATS = ".gemini/tmp/project/chats"
QWEN = FIXTURES / "qwen-todo-write"
QWEN_CHATS = ".qwen/projects/-home-user-project/chats"
COPILOT = FIXTURES / "copilot-sql-todos"
COPILOT_SESSION = ".copilot/session-state/6380de6d-a46c-4052-87be-b060133f199b"

SAMPLES = [
    Sample("claude-tasks", "claude", CLAUDE_TASKS, CLAUDE_TASKS / "final",
           ".claude/projects/-home-user-project/2aa06482-0bcc-4c14-b872-0a0ab0bd714a.jsonl",
           "2aa06482-0bcc-4c14-b872-0a0ab0bd714a", _version(CLAUDE_TASKS), "TaskCreate/TaskUpdate", "task"),
    Sample("claude-todowrite", "claude", CLAUDE_TODOWRITE, CLAUDE_TODOWRITE / "final",
           ".claude/projects/-home-user-project/0003e261-2ec0-4813-8981-2ec5b27758cf.jsonl",
           "0003e261-2ec0-4813-8981-2ec5b27758cf", _version(CLAUDE_TODOWRITE), "TodoWrite", "todo"),
    Sample("codex-update-plan", "codex", CODEX, CODEX / "final",
           ".codex/sessions/2026/12/01/rollout-2026-12-01T07-16-36-01a23076-6999-7572-89ca-024fd74a9a5d.jsonl",
           "01a23076-6999-7572-89ca-024fd74a9a5d", _version(CODEX), "update_plan", "step"),
    Sample("gemini-write-todos", "gemini", GEMINI, GEMINI / "final",
           f"{GEMINI_CHATS}/session-2026-12-01T07-17-ea096d15.jsonl",
           "ea096d15-7861-4d81-82b5-b4c58fefda8a", None, "write_todos", "todo"),
    Sample("gemini-resume-next-minute", "gemini", GEMINI, GEMINI_VARIANT / "final",
           f"{GEMINI_CHATS}/session-2026-12-01T07-18-50a2a7df.jsonl",
           "50a2a7df-1517-44a6-8b29-22535a2f407d", None, "write_todos", "todo"),
    Sample("qwen-todo-write", "qwen", QWEN, QWEN / "final", f"{QWEN_CHATS}/96f46329-7639-4329-ac27-affb7ceaca91.jsonl",
           "96f46329-7639-4329-ac27-affb7ceaca91", _version(QWEN), "todo_write", "todo"),
    Sample("copilot-sql-todos", "copilot", COPILOT, COPILOT / "final", f"{COPILOT_SESSION}/events.jsonl",
           "6380de6d-a46c-4052-87be-b060133f199b", _version(COPILOT), "sql", "todo"),
]
BY_NAME = {s.name: s for s in SAMPLES}
GEMINI_STUB = f"{GEMINI_CHATS}/session-2026-12-01T07-19-50a2a7df.jsonl"
"""The 2-line file the resumed Gemini left in the variant (header and one ``$set``, no records)."""


def task_folder(sample: Sample) -> str:
    """Where Claude's Task tools keep the session's task files, relative to its home."""
    return f".claude/tasks/{sample.session_id}"
