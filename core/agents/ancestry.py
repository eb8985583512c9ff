"""Which agent conversation the process above this one is in (docs/mcp-and-hooks.md#which-session-a-call-goes-to).

An MCP server is started once per agent process, but the conversation it serves can change under
it (Claude Code's ``/clear``; ``--continue`` first shows a provisional id), so this is asked at
every tool call. What the agents leave to find it by (checked with Claude Code 2.1 and Codex 0.169):

- **Claude Code** writes ``<config>/sessions/<its pid>.json`` with the conversation's current
  ``sessionId``, its ``cwd`` and ``procStart`` (its start time as ``/proc/<pid>/stat`` counts it).
  The server is its direct child; hooks run under a shell, a level further down.
- **Codex** writes no such file, but keeps the thread's rollout
  ``.../rollout-<time>-<thread id>.jsonl`` open while the thread runs: ``/proc/<pid>/fd`` names it.
- Either agent's hooks record the conversation of their agent process under pideck's home
  (``core/sources/binding.py``), which is what is left where there is no ``/proc``.

A process's own environment is no help: the server's ``CLAUDE_CODE_SESSION_ID`` is the id at its
start (stale after ``/clear``), and Codex passes its servers no variable of its own.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from core.sources.binding import Conversation, noted_process, read_json


def proc_root() -> Path:
    """Where processes are looked at: ``$PIDECK_PROC`` (a test, or a container whose agents' /proc
    is mounted elsewhere), else ``/proc``. A folder that does not exist turns the lookup off but
    for the direct parent's files (the tests' default, so no agent the tests run under is found)."""
    return Path(os.environ.get("PIDECK_PROC") or "/proc")


LEVELS = 4
"""How many processes up to look: the agent itself, or a shell or launcher (``uv run``, ``sh -c``)
between it and pideck."""

_ROLLOUT = r"rollout-.+-([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})\.jsonl"
"""A Codex rollout's file name (a pattern: re compiles it at its first use and keeps it, so
``pideck tool`` pays nothing for it unless a Codex process is above it)."""


def _stat_fields(pid: int, proc: Path) -> list[str] | None:
    """The fields of ``/proc/<pid>/stat`` after the command name (which may hold spaces and
    parentheses), or None where there is no such file."""
    try:
        raw = (proc / str(pid) / "stat").read_bytes()
    except OSError:
        return None
    _, _, rest = raw.rpartition(b")")
    return rest.decode("ascii", "replace").split()


def parent_pid(pid: int, proc: Path) -> int | None:
    fields = _stat_fields(pid, proc)
    try:
        return int(fields[1]) if fields else None
    except (IndexError, ValueError):
        return None


def start_time(pid: int, proc: Path | None = None) -> str | None:
    """The process's start time in clock ticks after boot (field 22 of ``stat``), as Claude Code
    writes it in ``procStart``."""
    fields = _stat_fields(pid, proc if proc is not None else proc_root())
    return fields[19] if fields is not None and len(fields) > 19 else None


def ancestors(pid: int | None = None, proc: Path | None = None, levels: int = LEVELS) -> list[int]:
    """The pids above ``pid`` (default: this process), nearest first, up to ``levels`` of them; pid
    1 ends the walk (an agent run as a container's first process is pid 1)."""
    out: list[int] = []
    current = os.getpid() if pid is None else pid
    for _ in range(levels):
        parent = os.getppid() if current == os.getpid() else parent_pid(current, proc or proc_root())
        if parent is None or parent < 1 or parent in out:
            break
        out.append(parent)
        if parent == 1:
            break
        current = parent
    return out


def claude_conversation(pid: int, config_dir: Path, proc: Path | None = None) -> Conversation | None:
    """The conversation Claude Code process ``pid`` is in now, from its live-session file."""
    from core.sources.discovery import claude_folder_name

    path = config_dir / "sessions" / f"{pid}.json"
    record = read_json(path)
    if record is None:
        return None
    session_id, cwd = record.get("sessionId"), record.get("cwd")
    if not isinstance(session_id, str) or not session_id or not isinstance(cwd, str) or not os.path.isabs(cwd):
        return None
    if record.get("pid") not in (None, pid):
        return None
    started, running = record.get("procStart"), start_time(pid, proc)
    if isinstance(started, str) and running is not None and started != running:
        return None  # left behind by an earlier process that had this pid
    transcript = config_dir / "projects" / claude_folder_name(cwd) / f"{session_id}.jsonl"
    return Conversation("claude", session_id, cwd, str(transcript), f"{path}, the Claude Code process {pid}")


def codex_conversation(pid: int, proc: Path | None = None) -> Conversation | None:
    """The thread Codex process ``pid`` runs now: the rollout it holds open (the newest, should it
    hold several)."""
    from core.sources.discovery import read_head

    folder = (proc or proc_root()) / str(pid) / "fd"
    try:
        names = os.listdir(folder)
    except OSError:
        return None
    found: list[tuple[float, str, str]] = []
    for name in names:
        try:
            target = os.readlink(folder / name)
        except OSError:
            continue
        match = re.fullmatch(_ROLLOUT, os.path.basename(target))
        if match is not None and os.path.isabs(target):
            try:
                found.append((os.stat(target).st_mtime, target, match.group(1)))
            except OSError:
                continue
    if not found:
        return None
    _, transcript, thread = max(found)
    cwd = read_head(transcript).cwd
    if cwd is None or not os.path.isabs(cwd):
        cwd = os.getcwd()
    return Conversation("codex", thread, cwd, transcript, f"the rollout the Codex process {pid} holds open")


def find_conversation(pid: int | None = None, *, proc: Path | None = None, config_dir: Path | None = None
                      ) -> Conversation | None:
    """The conversation of the nearest agent process above ``pid`` (default: this process), or
    None when there is none to be found."""
    from core.sources.discovery import claude_config_dir

    config = config_dir if config_dir is not None else claude_config_dir()
    proc = proc or proc_root()
    for above in ancestors(pid, proc):
        found = claude_conversation(above, config, proc) or codex_conversation(above, proc)
        if found is not None:
            return found
        noted = noted_process(above, start_time(above, proc))
        if noted is not None:
            cwd = noted.get("cwd")
            transcript = noted.get("transcript")
            return Conversation(str(noted["agent"]), str(noted["agentSessionId"]),
                                cwd if isinstance(cwd, str) else os.getcwd(),
                                transcript if isinstance(transcript, str) else None,
                                f"the hooks of process {above}")
    return None
