"""Example conversations for ``pideck demo``: one of each agent pideck follows, written where each
agent keeps its own (under the demo's temporary folder, never the person's), in the shapes the real
CLIs write (tests/fixtures/agent-transcripts/ holds those runs), so the inbox (f9), the session
picker (f6), the header's count of who needs you and a notification are there on a first run.

- Claude Code, TodoWrite: a plan of three, working; a few seconds into the demo, a Notification
  hook asks for a permission (needs you, and a notification);
- Codex, update_plan: a turn that ended with two steps of its plan open (stopped with open work);
- Gemini CLI, write_todos: a finished plan (waiting for the person's next prompt);
- Qwen Code, todo_write: a plan of three with one in progress, mid-turn (working);
- opencode, todowrite: a plan of four with its priorities, the second item in progress and a
  shell command still running (working), in a database of opencode's tables;
- GitHub Copilot CLI, its sql tool on the todos table: a plan with an item blocked by another, and
  the session shut down with it open (ended).
"""

from __future__ import annotations

import json
import os
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import Iterator

CLAUDE_ID = "5e1f0c2a-7d44-4a8e-9b61-0c3d2f8a9e17"
CODEX_ID = "019ad1c2-4b7e-7c31-a5d2-8e0f6b3c1d94"
GEMINI_ID = "7c9e2b14-3f5a-4d6e-8a1b-2c4d6e8f0a13"
QWEN_ID = "3b8d5f71-9c2e-4a6b-8d1f-5e7a9c0b2d46"
OPENCODE_ID = "ses_2b7f0d41effeQm3VcX9aLrT1sK"
COPILOT_ID = "8d2c4e6f-1a3b-4c5d-9e7f-0a1b2c3d4e5f"
HOMES = {"PIDECK_HOME": "pideck-home", "CLAUDE_CONFIG_DIR": "claude", "CODEX_HOME": "codex",
         "GEMINI_CLI_HOME": "gemini", "QWEN_HOME": "qwen", "OPENCODE_DB": "opencode/opencode.db",
         "COPILOT_HOME": "copilot", "PI_CODING_AGENT_DIR": "pi-agent"}
"""Where pideck and each agent keep their files during the demo, under its folder."""


@contextmanager
def demo_homes(folder: Path) -> Iterator[str]:
    """pideck's and the agents' homes under ``folder`` while the demo runs (the person's own are
    left alone, and nothing of theirs shows up in it); yields the demo's project directory."""
    cleared = ("PI_CODING_AGENT_SESSION_DIR", "PIDECK_SESSION", "QWEN_RUNTIME_DIR")  # (each would move a home)
    before = {name: os.environ.get(name) for name in (*HOMES, *cleared)}
    project = folder / "project"
    project.mkdir(parents=True, exist_ok=True)
    try:
        for name, sub in HOMES.items():
            os.environ[name] = str(folder / sub)
        for name in cleared:
            os.environ.pop(name, None)
        yield str(project)
    finally:
        for name, value in before.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def _iso(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def _write(path: Path, lines: list[dict[str, object]]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(line, separators=(",", ":")) + "\n" for line in lines), encoding="utf-8")
    return path


def write_example_conversations(project: str, now_ms: int) -> list[Path]:
    """Write the six examples for ``project`` (with ``demo_homes`` in place), their lines a few
    minutes old; answers their transcripts."""
    from core.sources.discovery import AgentFolders, claude_projects_dir, codex_sessions_dir, qwen_chats_dirs

    claude = _write(claude_projects_dir() / _claude_folder(project) / f"{CLAUDE_ID}.jsonl",
                    _claude_lines(project, now_ms - 4 * 60_000))
    day = datetime.fromtimestamp(now_ms / 1000, timezone.utc)
    codex = _write(codex_sessions_dir() / day.strftime("%Y/%m/%d") / f"rollout-{day.strftime('%Y-%m-%dT%H-%M-%S')}-{CODEX_ID}.jsonl",
                   _codex_lines(project, now_ms - 9 * 60_000))
    chats = AgentFolders().gemini(project)[0].folder
    (chats.parent / ".project_root").parent.mkdir(parents=True, exist_ok=True)
    (chats.parent / ".project_root").write_text(project, encoding="utf-8")  # (as Gemini CLI keeps it)
    gemini = _write(chats / f"session-{day.strftime('%Y-%m-%dT%H-%M')}-{GEMINI_ID[:8]}.jsonl",
                    _gemini_lines(now_ms - 15 * 60_000))
    qwen = _write(qwen_chats_dirs(project)[0] / f"{QWEN_ID}.jsonl", _qwen_lines(project, now_ms - 2 * 60_000))
    opencode = _write_opencode(Path(os.environ["OPENCODE_DB"]), project, now_ms - 60_000)
    copilot = _write_copilot(project, now_ms - 25 * 60_000)
    return [claude, codex, gemini, qwen, opencode, copilot]


class LaterAsk:
    """Claude Code's Notification hook asking for a permission, recorded ``after_s`` seconds into
    the demo (as ``pideck hook claude`` records it): a change of state the app notifies of, as it
    would of a real one. ``cancel`` before the demo's homes go: an ask not made by then never is."""

    def __init__(self, transcript: Path, after_s: float = 3.0) -> None:
        import threading

        self._transcript = transcript
        self._lock = threading.Lock()
        self._cancelled = threading.Event()
        threading.Thread(target=self._ask, args=(after_s,), name="pideck-demo-ask", daemon=True).start()

    def _ask(self, after_s: float) -> None:
        from core.catalog.attention import record_event
        from core.clock import wall_clock_ms

        if self._cancelled.wait(after_s):
            return
        with self._lock:
            if not self._cancelled.is_set():
                record_event("claude", CLAUDE_ID, "Notification", wall_clock_ms(), {
                    "message": "Claude needs your permission to use Bash", "notification_type": "permission_prompt",
                    "transcript_path": str(self._transcript)})

    def cancel(self) -> None:
        with self._lock:
            self._cancelled.set()


def _claude_folder(project: str) -> str:
    from core.sources.discovery import claude_folder_name

    return claude_folder_name(project)


def _claude_lines(project: str, start_ms: int) -> list[dict[str, object]]:
    todos = [{"content": "Read the config loader", "status": "completed", "activeForm": "Reading the config loader"},
             {"content": "Add the --follow flag", "status": "in_progress", "activeForm": "Adding the --follow flag"},
             {"content": "Run the tests", "status": "pending", "activeForm": "Running the tests"}]
    common = {"sessionId": CLAUDE_ID, "cwd": project, "version": "2.1.328", "userType": "external",
              "isSidechain": False, "gitBranch": "main"}
    usage = {"input_tokens": 6, "output_tokens": 212, "cache_read_input_tokens": 18_304,
             "cache_creation_input_tokens": 1_024}
    return [
        {**common, "type": "user", "uuid": "c1", "parentUuid": None, "timestamp": _iso(start_ms),
         "message": {"role": "user", "content": "Add a --follow flag to the CLI, then run the tests"}},
        {**common, "type": "assistant", "uuid": "c2", "parentUuid": "c1", "timestamp": _iso(start_ms + 4_000),
         "message": {"id": "msg_demo_1", "role": "assistant", "model": "claude-sonnet-4-5", "stop_reason": "tool_use",
                     "content": [{"type": "tool_use", "id": "toolu_demo_1", "name": "TodoWrite", "input": {"todos": todos}}],
                     "usage": usage}},
        {**common, "type": "user", "uuid": "c3", "parentUuid": "c2", "timestamp": _iso(start_ms + 4_200),
         "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_demo_1",
                                                  "content": "Todos have been modified successfully."}]},
         "toolUseResult": {"oldTodos": [], "newTodos": todos}},
        {**common, "type": "assistant", "uuid": "c4", "parentUuid": "c3", "timestamp": _iso(start_ms + 9_000),
         "message": {"id": "msg_demo_2", "role": "assistant", "model": "claude-sonnet-4-5", "stop_reason": "tool_use",
                     "content": [{"type": "text", "text": "The flag is wired; I need to run the tests next."}],
                     "usage": usage}},
    ]


def _codex_lines(project: str, start_ms: int) -> list[dict[str, object]]:
    plan = [{"step": "Find where sessions are read", "status": "completed"},
            {"step": "Stream the file instead of reading it whole", "status": "in_progress"},
            {"step": "Benchmark a 100 MB session", "status": "pending"}]

    def line(offset_ms: int, kind: str, payload: dict[str, object]) -> dict[str, object]:
        return {"timestamp": _iso(start_ms + offset_ms), "type": kind, "payload": payload}

    return [
        line(0, "session_meta", {"id": CODEX_ID, "timestamp": _iso(start_ms), "cwd": project, "originator": "codex_exec",
                                 "cli_version": "0.169.0", "source": "exec", "model_provider": "openai"}),
        line(10, "turn_context", {"cwd": project, "model": "gpt-5.1-codex"}),
        line(20, "event_msg", {"type": "task_started"}),
        line(30, "response_item", {"type": "message", "role": "user", "content": [
            {"type": "input_text", "text": "Make the session reader stream big files"}]}),
        line(3_000, "response_item", {"type": "function_call", "name": "update_plan", "call_id": "call_demo_1",
                                      "arguments": json.dumps({"plan": plan})}),
        line(3_100, "response_item", {"type": "function_call_output", "call_id": "call_demo_1",
                                      "output": "Plan updated"}),
        line(8_000, "event_msg", {"type": "token_count", "info": {
            "last_token_usage": {"input_tokens": 9_120, "cached_input_tokens": 7_040, "output_tokens": 388,
                                 "total_tokens": 9_508}, "model_context_window": 272_000}}),
        line(8_100, "event_msg", {"type": "task_complete",
                                  "last_agent_message": "Streaming works; the benchmark is still to do."}),
    ]


def _gemini_lines(start_ms: int) -> list[dict[str, object]]:
    todos = [{"description": "List the commands", "status": "completed"},
             {"description": "Write the help text", "status": "completed"}]
    return [
        {"sessionId": GEMINI_ID, "projectHash": "demo", "startTime": _iso(start_ms), "lastUpdated": _iso(start_ms),
         "kind": "main"},
        {"id": "g1", "timestamp": _iso(start_ms + 1_000), "type": "user",
         "content": [{"text": "Write help text for every command"}]},
        {"id": "g2", "timestamp": _iso(start_ms + 6_000), "type": "gemini", "content": "", "model": "gemini-2.5-pro",
         "toolCalls": [{"id": "write_todos_demo_1", "name": "write_todos", "args": {"todos": todos},
                        "status": "success"}],
         "tokens": {"input": 5_210, "output": 140, "cached": 0}},
        {"id": "g3", "timestamp": _iso(start_ms + 12_000), "type": "gemini", "model": "gemini-2.5-pro",
         "content": "Every command has its help text now.",
         "tokens": {"input": 5_600, "output": 96, "cached": 4_096}},
    ]


def _qwen_lines(project: str, start_ms: int) -> list[dict[str, object]]:
    todos = [{"id": "1", "content": "Find the slow query", "status": "completed"},
             {"id": "2", "content": "Add an index on sessions.cwd", "status": "in_progress"},
             {"id": "3", "content": "Measure the overview again", "status": "pending"}]
    common = {"sessionId": QWEN_ID, "cwd": project, "version": "0.15.10"}

    def record(n: int, offset_ms: int, kind: str, **fields: object) -> dict[str, object]:
        return {"uuid": f"q{n}", "parentUuid": f"q{n - 1}" if n > 1 else None, **common,
                "timestamp": _iso(start_ms + offset_ms), "type": kind, **fields}

    return [
        record(1, 0, "user", message={"role": "user", "parts": [{"text": "The overview is slow on big folders: fix it"}]}),
        record(2, 3_000, "assistant", model="qwen3-coder-plus", message={"role": "model", "parts": [
            {"functionCall": {"id": "call_demo_q1", "name": "todo_write", "args": {"todos": todos}}}]},
            usageMetadata={"promptTokenCount": 8_200, "candidatesTokenCount": 160, "cachedContentTokenCount": 6_144,
                           "totalTokenCount": 8_360}),
        record(3, 3_100, "tool_result", message={"role": "user", "parts": [{"functionResponse": {
            "id": "call_demo_q1", "name": "todo_write", "response": {"output": "Todos have been modified successfully."}}}]},
            toolCallResult={"callId": "call_demo_q1", "status": "success",
                            "resultDisplay": {"type": "todo_list", "todos": todos}}),
    ]


OPENCODE_TABLES = (
    "CREATE TABLE session (id text PRIMARY KEY, project_id text NOT NULL, parent_id text, slug text NOT NULL, "
    "directory text NOT NULL, title text NOT NULL, version text NOT NULL, time_created integer NOT NULL, "
    "time_updated integer NOT NULL)",
    "CREATE TABLE message (id text PRIMARY KEY, session_id text NOT NULL, time_created integer NOT NULL, "
    "time_updated integer NOT NULL, data text NOT NULL)",
    "CREATE TABLE part (id text PRIMARY KEY, message_id text NOT NULL, session_id text NOT NULL, "
    "time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL)",
    "CREATE TABLE todo (session_id text NOT NULL, content text NOT NULL, status text NOT NULL, "
    "priority text NOT NULL, position integer NOT NULL, time_created integer NOT NULL, "
    "time_updated integer NOT NULL, PRIMARY KEY (session_id, position))",
)
"""The columns of opencode 1.18.33's tables that pideck reads (its own have more)."""


def _write_opencode(db: Path, project: str, start_ms: int) -> Path:
    """An opencode database with one conversation, as opencode writes one (rows of JSON ``data``);
    answers the conversation's name, ``<database>#<session id>``."""
    import sqlite3

    from core.sources.in_database import conversation_path

    todos = [{"content": "Reproduce the flaky upload test", "status": "completed", "priority": "high"},
             {"content": "Retry the upload on a reset connection", "status": "in_progress", "priority": "high"},
             {"content": "Log each retry", "status": "pending", "priority": "medium"},
             {"content": "Note the change in CHANGELOG.md", "status": "pending", "priority": "low"}]
    user, answer = "msg_demo0001", "msg_demo0002"
    tokens = {"total": 9_180, "input": 2_950, "output": 230, "reasoning": 0, "cache": {"write": 0, "read": 6_000}}
    parts: list[tuple[str, int, dict[str, object]]] = [
        (user, 0, {"type": "text", "text": "The upload test fails one run in ten: make it reliable"}),
        (answer, 2_000, {"type": "step-start"}),
        (answer, 2_100, {"type": "tool", "tool": "todowrite", "callID": "call_demo_o1", "state": {
            "status": "completed", "input": {"todos": [{**t, "status": "pending"} for t in todos]}}}),
        (answer, 2_200, {"type": "step-finish", "reason": "tool-calls", "tokens": tokens, "cost": 0}),
        (answer, 9_000, {"type": "step-start"}),
        (answer, 9_100, {"type": "tool", "tool": "todowrite", "callID": "call_demo_o2", "state": {
            "status": "completed", "input": {"todos": todos}}}),
        (answer, 9_300, {"type": "tool", "tool": "bash", "callID": "call_demo_o3", "state": {
            "status": "running", "input": {"command": "pytest tests/test_upload.py -x"}}}),
    ]
    db.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(db)
    try:
        for sql in OPENCODE_TABLES:
            conn.execute(sql)
        conn.execute("INSERT INTO session VALUES (?, 'global', NULL, 'quiet-harbor', ?, 'Upload test', '1.18.33', ?, ?)",
                     (OPENCODE_ID, project, start_ms, start_ms + 9_300))
        messages: list[tuple[str, int, dict[str, object]]] = [
            (user, 0, {"role": "user", "time": {"created": start_ms}}),
            (answer, 2_000, {"role": "assistant", "modelID": "qwen3-coder", "providerID": "demo", "path": {"cwd": project},
                             "tokens": tokens, "time": {"created": start_ms + 2_000}})]
        for message, offset, data in messages:
            conn.execute("INSERT INTO message VALUES (?, ?, ?, ?, ?)",
                         (message, OPENCODE_ID, start_ms + offset, start_ms + 9_300, json.dumps(data)))
        for n, (message, offset, data) in enumerate(parts, 1):
            conn.execute("INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)",
                         (f"prt_demo{n:04d}", message, OPENCODE_ID, start_ms + offset, start_ms + offset, json.dumps(data)))
        conn.executemany("INSERT INTO todo VALUES (?, ?, ?, ?, ?, ?, ?)",
                         [(OPENCODE_ID, t["content"], t["status"], t["priority"], n, start_ms + 9_100, start_ms + 9_100)
                          for n, t in enumerate(todos)])
        conn.commit()
    finally:
        conn.close()
    return conversation_path(db, OPENCODE_ID)


COPILOT_PLAN = (
    "INSERT INTO todos (id, title, description, status) VALUES "
    "('pin-versions', 'Pinning the tool versions', 'Pin every tool in uv.lock.', 'done'), "
    "('cache-wheels', 'Caching the wheels in CI', 'Keep uv''s cache between runs.', 'in_progress'), "
    "('drop-py39', 'Dropping Python 3.9', 'Needs the team''s yes first.', 'blocked'); "
    "INSERT INTO todo_deps (todo_id, depends_on) VALUES ('drop-py39', 'cache-wheels');")


def _write_copilot(project: str, start_ms: int) -> Path:
    """A GitHub Copilot CLI session: its events.jsonl, with the plan kept by one sql call on the
    built-in todos tables, and its session.db as that call left it; answers the log."""
    import sqlite3

    from core.sources.copilot_sql import SCHEMA
    from core.sources.discovery import copilot_sessions_dir

    folder = copilot_sessions_dir() / COPILOT_ID
    events: list[dict[str, object]] = []

    def event(offset_ms: int, kind: str, data: dict[str, object]) -> None:
        events.append({"type": kind, "data": data, "id": f"e{len(events) + 1}", "timestamp": _iso(start_ms + offset_ms),
                       "parentId": f"e{len(events)}" if events else None})

    event(0, "session.start", {"sessionId": COPILOT_ID, "copilotVersion": "1.0.102", "selectedModel": "gpt-4.1",
                               "startTime": _iso(start_ms), "context": {"cwd": project}})
    event(100, "user.message", {"content": "Make CI faster: it takes 14 minutes"})
    event(200, "assistant.turn_start", {"turnId": "0"})
    event(900, "session.usage_record", {"usage": {"model": "gpt-4.1", "inputTokens": 7_400, "outputTokens": 180,
                                                  "cacheReadTokens": 5_120, "cacheWriteTokens": 0}})
    event(1_000, "assistant.message", {"model": "gpt-4.1", "content": "", "toolRequests": [
        {"toolCallId": "call_demo_c1", "name": "sql", "arguments": {"description": "Plan", "query": COPILOT_PLAN}}]})
    event(1_050, "tool.execution_start", {"toolCallId": "call_demo_c1", "toolName": "sql",
                                          "arguments": {"description": "Plan", "query": COPILOT_PLAN}})
    event(1_100, "tool.execution_complete", {"toolCallId": "call_demo_c1", "success": True,
                                             "result": {"content": "4 row(s) inserted."}})
    event(1_150, "assistant.turn_end", {"turnId": "0"})
    event(1_200, "assistant.turn_start", {"turnId": "1"})
    event(1_900, "assistant.message", {"model": "gpt-4.1", "toolRequests": [],
                                       "content": "The versions are pinned; caching the wheels is next. Dropping 3.9 waits for you."})
    event(1_950, "assistant.turn_end", {"turnId": "1"})
    event(2_000, "session.shutdown", {})
    path = _write(folder / "events.jsonl", events)
    conn = sqlite3.connect(folder / "session.db")  # (a rollback journal, as Copilot keeps it)
    try:
        conn.executescript(SCHEMA + COPILOT_PLAN)
        conn.commit()
    finally:
        conn.close()
    return path
