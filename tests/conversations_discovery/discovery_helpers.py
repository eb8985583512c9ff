"""Copies of the real sample transcripts in each CLI's folder layout, for the listing tests.

Each copy has the samples' project folder (``/home/user/project``) replaced by the test's own
directory, and the path-derived names with it (Claude's project folder, Gemini's projects.json),
so a test can run ``pideck`` in that directory.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path

from core.sources.discovery import claude_folder_name

SAMPLES = Path(__file__).resolve().parent.parent / "fixtures" / "agent-transcripts"
SAMPLE_CWD = "/home/user/project"

CLAUDE_TASKS = "claude-tasks"
CLAUDE_TODOWRITE = "claude-todowrite"
CODEX = "codex"
GEMINI = "gemini"

SOURCES = {
    CLAUDE_TASKS: SAMPLES / "claude-tasks/final/.claude/projects/-home-user-project/2aa06482-0bcc-4c14-b872-0a0ab0bd714a.jsonl",
    CLAUDE_TODOWRITE: SAMPLES / "claude-todowrite/final/.claude/projects/-home-user-project/0003e261-2ec0-4813-8981-2ec5b27758cf.jsonl",
    CODEX: SAMPLES / "codex-update-plan/final/.codex/sessions/2026/12/01/rollout-2026-12-01T07-16-36-01a23076-6999-7572-89ca-024fd74a9a5d.jsonl",
    GEMINI: SAMPLES / "gemini-write-todos/final/.gemini/tmp/project/chats/session-2026-12-01T07-17-ea096d15.jsonl",
}
SESSION_IDS = {
    CLAUDE_TASKS: "2aa06482-0bcc-4c14-b872-0a0ab0bd714a",
    CLAUDE_TODOWRITE: "0003e261-2ec0-4813-8981-2ec5b27758cf",
    CODEX: "01a23076-6999-7572-89ca-024fd74a9a5d",
    GEMINI: "ea096d15-7861-4d81-82b5-b4c58fefda8a",
}
LINES = {CLAUDE_TASKS: 147, CLAUDE_TODOWRITE: 93, CODEX: 61, GEMINI: 59}
BETWEEN_TURNS = {CLAUDE_TASKS: 83, CLAUDE_TODOWRITE: 69, CODEX: 39, GEMINI: 36}
"""Lines of each sample at the snapshot between its two turns: item 1 done, item 2 in progress."""
MTIMES = {CLAUDE_TASKS: 1796109300, CLAUDE_TODOWRITE: 1796109360, CODEX: 1796109420, GEMINI: 1796109480}
"""Fixed modification times: Gemini's copy is the newest, then Codex's, TodoWrite's, Task tools'."""
FIRST_PROMPTS = {
    CLAUDE_TASKS: "Add a --session flag to the CLI. Plan it with your todo too…",
    CLAUDE_TODOWRITE: "Add a --session flag to the CLI. Plan it with your todo too…",
    CODEX: "Add a --session flag to the CLI. Plan it with your plan too…",
    GEMINI: "Add a --session flag to the CLI. Plan it with your todo too…",
}


@dataclass
class Homes:
    home: Path  # HOME
    cwd: Path  # the directory the tests run pideck in

    @property
    def claude(self) -> Path:
        return self.home / ".claude"

    @property
    def codex(self) -> Path:
        return self.home / ".codex"

    @property
    def gemini(self) -> Path:
        return self.home / ".gemini"

    def path_of(self, sample: str, cwd: str | Path | None = None, session_id: str | None = None) -> Path:
        """Where the CLI keeps ``sample``'s transcript for ``cwd`` (default: the test's)."""
        where = str(cwd or self.cwd)
        sid = session_id or SESSION_IDS[sample]
        if sample in (CLAUDE_TASKS, CLAUDE_TODOWRITE):
            return self.claude / "projects" / claude_folder_name(where) / f"{sid}.jsonl"
        if sample == CODEX:
            return self.codex / "sessions" / "2026" / "12" / "01" / f"rollout-2026-12-01T07-16-36-{sid}.jsonl"
        return self.gemini / "tmp" / "project" / "chats" / f"session-2026-12-01T07-17-{sid[:8]}.jsonl"

    def install(self, sample: str, *, lines: int | None = None, cwd: str | Path | None = None,
                session_id: str | None = None, mtime: float | None = None) -> Path:
        """A copy of ``sample`` (its first ``lines`` lines) as the CLI would keep it for ``cwd``."""
        where = str(cwd or self.cwd)
        text = SOURCES[sample].read_text(encoding="utf-8")
        if lines is not None:
            text = "".join(text.splitlines(keepends=True)[:lines])
        text = text.replace(SAMPLE_CWD, where)
        if session_id is not None:
            text = text.replace(SESSION_IDS[sample], session_id)
        path = self.path_of(sample, where, session_id)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        if sample == GEMINI:
            self.gemini_project(where, "project")
        stamp = MTIMES[sample] if mtime is None else mtime
        os.utime(path, (stamp, stamp))
        return path

    def install_all(self, **options) -> dict[str, Path]:
        return {sample: self.install(sample, **options) for sample in SOURCES}

    def gemini_project(self, cwd: str | Path, name: str) -> None:
        projects = self.gemini / "projects.json"
        table = json.loads(projects.read_text()) if projects.exists() else {"projects": {}}
        table["projects"][str(cwd)] = name
        projects.parent.mkdir(parents=True, exist_ok=True)
        projects.write_text(json.dumps(table, indent=2), encoding="utf-8")

    def gemini_resume_variant(self) -> tuple[Path, Path]:
        """The run whose second turn started in the next minute: the real chat file, and the
        two-line stub ``--resume`` left beside it (newer, same session id, no record)."""
        source = SAMPLES / "gemini-write-todos" / "variant-resume-next-minute" / "final" / ".gemini" / "tmp" / "project" / "chats"
        folder = self.gemini / "tmp" / "project" / "chats"
        folder.mkdir(parents=True, exist_ok=True)
        out = []
        for name, stamp in (("session-2026-12-01T07-18-50a2a7df.jsonl", 1796109600),
                            ("session-2026-12-01T07-19-50a2a7df.jsonl", 1796109700)):
            text = (source / name).read_text(encoding="utf-8").replace(SAMPLE_CWD, str(self.cwd))
            (folder / name).write_text(text, encoding="utf-8")
            os.utime(folder / name, (stamp, stamp))
            out.append(folder / name)
        self.gemini_project(self.cwd, "project")
        return out[0], out[1]

    def claude_live(self, pid: int, session_id: str, status: str) -> Path:
        """Claude Code's live-session file for a running session (``status`` busy or idle)."""
        folder = self.claude / "sessions"
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{pid}.json"
        path.write_text(json.dumps({"pid": pid, "sessionId": session_id, "cwd": str(self.cwd),
                                    "version": "2.1.328", "status": status}), encoding="utf-8")
        return path


HOOKS = SAMPLES.parent / "agent-hooks"


def sample_input(name: str, homes: Homes, sample: str) -> dict:
    """The first input of a real hook sample (tests/fixtures/agent-hooks), moved to this test's
    conversation of ``sample``."""
    value = json.loads((HOOKS / name).read_text())[0]["stdin"]
    return {**value, "cwd": str(homes.cwd), "session_id": SESSION_IDS[sample],
            "transcript_path": str(homes.path_of(sample))}


def digests(*roots: Path) -> dict[str, str]:
    """sha256 of every file under ``roots`` (and the folders, as ``dir``): what must not change."""
    out = {}
    for root in roots:
        for dirpath, dirnames, filenames in os.walk(root):
            for d in dirnames:
                out[os.path.join(dirpath, d)] = "dir"
            for f in filenames:
                p = os.path.join(dirpath, f)
                out[p] = hashlib.sha256(Path(p).read_bytes()).hexdigest()
    return out

