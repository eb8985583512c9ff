"""``pideck hook qwen`` and ``pideck hook copilot`` on the agent's own plan, fed the Stop inputs the
real CLIs sent (tests/fixtures/agent-hooks/qwen-stop.json from Qwen Code 0.15.10,
copilot-stop.json from GitHub Copilot CLI 1.0.102 under its ``Stop`` key) pointed at copies of the
real conversations (tests/fixtures/agent-transcripts), with the exact stdout each agent reads;
and ``pideck install copilot``."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from agent_homes import Homes
from hook_helpers import SAMPLES, hook
from install_helpers import PIDECK, snapshot

from core.sources.copilot_sql import SCHEMA

TRANSCRIPTS = Path(__file__).parents[1] / "fixtures" / "agent-transcripts"
QWEN_STOPS = json.loads((SAMPLES / "qwen-stop.json").read_text(encoding="utf-8"))
COPILOT_STOPS = json.loads((SAMPLES / "copilot-stop.json").read_text(encoding="utf-8"))
QWEN_CHAT = TRANSCRIPTS / "qwen-todo-write" / "snapshots" / "t+014.48s" / ".qwen" / "projects" / "-home-user-project" \
    / "chats" / "96f46329-7639-4329-ac27-affb7ceaca91.jsonl"
COPILOT_SESSION = next((TRANSCRIPTS / "copilot-sql-todos" / "final" / ".copilot" / "session-state").iterdir())


def files(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


def stop_of(sample: dict[str, Any], project: Path, transcript: Path) -> dict[str, Any]:
    return {**sample, "cwd": str(project), "transcript_path": str(transcript)}


# -- Qwen Code ------------------------------------------------------------------------------------


def test_qwen_is_poked_on_its_todo_write_list_and_the_poke_stops_when_it_is_ignored(homes: Homes) -> None:
    """The real Stop input (Qwen 0.15.10 sends stop_hook_active true from the first stop) with the
    chat as it was between the sample's turns: three todos open. The block is what Qwen read in the
    end-to-end run (it sent the reason back as the next user message); a stop that left the plan as
    it was ends the pokes."""
    chat = homes.root / "qwen-home" / "chat.jsonl"
    chat.parent.mkdir()
    shutil.copyfile(QWEN_CHAT, chat)
    before = files(chat.parent)
    assert hook("qwen", stop_of(QWEN_STOPS[0], homes.project, chat)) == (0, (
        '{"decision":"block","reason":"You have 3 incomplete todos. Continue working, or update them with '
        'todo_write.","systemMessage":"\\ud83d\\udc49 3 incomplete todos in Qwen Code\'s own plan. We poked it for '
        'you. pideck config set agent_plan_poke false to stop."}\n'), "")
    assert hook("qwen", stop_of(QWEN_STOPS[1], homes.project, chat)) == (0, (
        '{"systemMessage":"\\u26a0\\ufe0f The agent stopped again after a Stop hook sent it back, without changing '
        'its own plan. We stopped poking; review the remaining todos yourself. /todos poke on in the '
        'conversation\'s pideck session to resume."}\n'), "")
    assert files(chat.parent) == before


# -- GitHub Copilot CLI ---------------------------------------------------------------------------


def copilot_session_after(folder: Path, calls: int) -> Path:
    """The sample's session folder as it was after its first ``calls`` sql calls: events.jsonl cut
    after that call's result, session.db made by running those queries with plain sqlite3."""
    folder.mkdir(parents=True)
    kept, queries = [], []
    for raw in (COPILOT_SESSION / "events.jsonl").read_bytes().splitlines(keepends=True):
        event = json.loads(raw)
        kept.append(raw)
        data = event.get("data") or {}
        if event["type"] == "tool.execution_start" and data.get("toolName") == "sql":
            queries.append(data["arguments"]["query"])
        if event["type"] == "tool.execution_complete" and len(queries) == calls:
            break
    (folder / "events.jsonl").write_bytes(b"".join(kept))
    shutil.copyfile(COPILOT_SESSION / "workspace.yaml", folder / "workspace.yaml")
    conn = sqlite3.connect(folder / "session.db")
    conn.executescript(SCHEMA + ";".join(queries))
    conn.commit()
    conn.close()
    return folder / "events.jsonl"


def test_copilot_is_poked_on_its_todos_table_without_a_system_message(homes: Homes) -> None:
    """Copilot's Stop input (Claude Code's fields, its events.jsonl as the transcript) after the
    sample's third sql call: todo 1 done, the others open. The block holds only decision and
    reason (what Copilot was seen to act on); the notice goes to stderr."""
    events = copilot_session_after(homes.root / "copilot-home" / "session", 3)
    before = files(events.parent)
    plan = sqlite3.connect(events.parent / "session.db").execute("SELECT id, status FROM todos ORDER BY rowid").fetchall()
    assert plan == [("read-entry-point", "done"), ("add-session-flag", "pending"), ("test-flag", "pending")]
    code, out, err = hook("copilot", stop_of(COPILOT_STOPS[0], homes.project, events))
    assert (code, out) == (0, '{"decision":"block","reason":"You have 2 incomplete todos. Continue working, or '
                              'update them with your sql tool."}\n')
    assert err == ("pideck hook copilot: 👉 2 incomplete todos in GitHub Copilot CLI's own plan. We poked it for "
                   "you. pideck config set agent_plan_poke false to stop.\n")
    code, out, err = hook("copilot", stop_of(COPILOT_STOPS[1], homes.project, events))
    assert (code, out) == (0, "") and "We stopped poking" in err
    assert files(events.parent) == before


def test_copilot_with_its_plan_done_is_let_stop(homes: Homes) -> None:
    target = homes.root / "copilot-home" / "session"
    shutil.copytree(COPILOT_SESSION, target)
    assert hook("copilot", stop_of(COPILOT_STOPS[0], homes.project, target / "events.jsonl")) == (0, "", "")


# -- pideck install copilot -------------------------------------------------------------------------


COPILOT_HOOKS = json.dumps({"version": 1, "hooks": {"Stop": [
    {"type": "command", "bash": f"{PIDECK} hook copilot", "timeoutSec": 60}]}}, indent=2) + "\n"


@pytest.mark.parametrize(("scope", "name"), [("user", "home/.copilot/hooks/pideck.json"),
                                             ("project", "project/.github/hooks/pideck.json")])
def test_install_copilot_writes_its_stop_hook(where, pideck, scope: str, name: str) -> None:
    code, out, err = pideck("install", "copilot", "--scope", scope)
    assert (code, err) == (0, "")
    assert {n: data.decode() for n, (data, _) in snapshot(where.home.parent).items()} == {name: COPILOT_HOOKS}
    assert f"  Stop hook ({PIDECK} hook copilot): added\n" in out
    assert pideck("install", "copilot", "--scope", scope)[1].count("already there") == 1  # (a second run changes nothing)


def test_install_copilot_keeps_the_users_hooks_and_follows_copilot_home(where, pideck, monkeypatch) -> None:
    monkeypatch.setenv("COPILOT_HOME", str(where.home / "cp"))
    mine = where.home / "cp" / "hooks" / "pideck.json"
    mine.parent.mkdir(parents=True)
    mine.write_text(json.dumps({"version": 1, "hooks": {"Stop": [{"type": "command", "bash": "./lint.sh"}],
                                                        "sessionStart": [{"type": "command", "bash": "./hi.sh"}]}}))
    assert pideck("install", "copilot")[0] == 0
    assert json.loads(mine.read_text()) == {"version": 1, "hooks": {
        "Stop": [{"type": "command", "bash": "./lint.sh"},
                 {"type": "command", "bash": f"{PIDECK} hook copilot", "timeoutSec": 60}],
        "sessionStart": [{"type": "command", "bash": "./hi.sh"}]}}
    assert not os.path.exists(where.home / ".copilot")
