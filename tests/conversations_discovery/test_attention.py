"""Who needs the person (docs/attention.md): the state of each conversation and session, from the
real transcripts (tests/fixtures/agent-transcripts) and the real hook inputs
(tests/fixtures/agent-hooks), as `pideck overview --json` and `pideck status` say it."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from discovery_helpers import BETWEEN_TURNS, CLAUDE_TASKS, CODEX, SESSION_IDS, sample_input

from core.session.log import SessionLog
from core.deck.deck import Deck

OPEN_TODO = {"todos": [{"id": "t1", "content": "Parse", "status": "in_progress", "priority": "high", "confidence": 80}]}


def read_line(stream, seconds: float = 30) -> str:
    """The next line of a child's output, or a failure after ``seconds`` (never a hang)."""
    import select

    ready, _, _ = select.select([stream], [], [], seconds)
    assert ready, f"no line within {seconds} s"
    return stream.readline()


def attention(pideck, kind: str) -> dict:
    code, out, _ = pideck("overview", "--json")
    assert code == 0
    (row,) = [r for r in json.loads(out) if r["kind"] == kind]
    return row["attention"]


def now_stamp(path: Path, seconds: float = 0) -> None:
    stamp = time.time() + seconds
    os.utime(path, (stamp, stamp))


@pytest.mark.parametrize("live, state, evidence", [
    ("busy", "working", "a turn is in progress"),
    ("idle", "stopped with open work", "its turn ended with 3 open"),
    ("gone", "ended", "the agent's process is gone"),
])
def test_a_claude_conversation_between_its_turns(homes, pideck, live, state, evidence) -> None:
    homes.install(CLAUDE_TASKS, lines=BETWEEN_TURNS[CLAUDE_TASKS])
    if live == "gone":  # Claude keeps live-session files, and none is of this conversation
        (homes.claude / "sessions").mkdir(parents=True)
    else:
        homes.claude_live(os.getpid(), SESSION_IDS[CLAUDE_TASKS], live)
    got = attention(pideck, "claude")
    assert (got["state"], got["evidence"]) == (state, evidence)


@pytest.mark.parametrize("hook, evidence", [
    ("claude-notification.json", "Claude needs your permission to use Bash (Notification hook, permission_prompt)"),
    ("claude-permission-request.json", "asks to use Bash (PermissionRequest hook)"),
])
def test_an_ask_needs_you_until_the_agent_goes_on(homes, pideck, hook, evidence) -> None:
    path = homes.install(CLAUDE_TASKS, lines=BETWEEN_TURNS[CLAUDE_TASKS])
    homes.claude_live(os.getpid(), SESSION_IDS[CLAUDE_TASKS], "busy")
    now_stamp(path, -5)
    stdin = json.dumps(sample_input(hook, homes, CLAUDE_TASKS))
    assert pideck("hook", "claude", stdin=stdin) == (0, "", "")  # recorded, never decided
    got = attention(pideck, "claude")
    assert (got["state"], got["evidence"]) == ("needs you", evidence)
    assert pideck("status") == (0, "1 needs you\n", "")
    now_stamp(path, 5)  # touched, not grown: no answer yet
    assert attention(pideck, "claude")["state"] == "needs you"
    with open(path, "a", encoding="utf-8") as f:  # the transcript grew after the ask: it was answered
        f.write('{"type":"user","message":{"role":"user","content":[{"type":"tool_result"}]}}\n')
    assert attention(pideck, "claude")["state"] == "working"


def test_a_later_hook_event_ends_the_ask(homes, pideck) -> None:
    homes.install(CLAUDE_TASKS, lines=BETWEEN_TURNS[CLAUDE_TASKS])
    homes.claude_live(os.getpid(), SESSION_IDS[CLAUDE_TASKS], "idle")
    for name in ("claude-notification.json", "claude-user-prompt-submit.json"):
        pideck("hook", "claude", stdin=json.dumps(sample_input(name, homes, CLAUDE_TASKS)))
    assert attention(pideck, "claude")["state"] == "stopped with open work"


def test_a_codex_permission_request_needs_you(homes, pideck) -> None:
    homes.install(CODEX, lines=BETWEEN_TURNS[CODEX])
    stdin = json.dumps(sample_input("codex-permission-request.json", homes, CODEX))
    assert pideck("hook", "codex", stdin=stdin) == (0, "", "")
    got = attention(pideck, "codex")
    assert got["state"] == "needs you" and got["evidence"].startswith("asks to use ")


def test_a_pideck_session_works_while_entries_land_then_stops_with_open_work(homes, pideck) -> None:
    deck = Deck(SessionLog.create_for_cwd(homes.cwd))
    deck.call_tool("todo", OPEN_TODO)
    got = attention(pideck, "pideck")
    assert (got["state"], got["evidence"]) == ("working", "entries are landing")
    (homes.cwd.parent / "config.toml").write_text("[todo]\nwatchdog_idle_ms = 1\n")
    time.sleep(0.01)
    got = attention(pideck, "pideck")
    assert (got["state"], got["evidence"]) == ("stopped with open work", "quiet with 1 open")
    deck.call_tool("todo", {"todos": [{**OPEN_TODO["todos"][0], "status": "cancelled"}]})
    time.sleep(0.01)
    assert attention(pideck, "pideck")["state"] == "waiting"


def test_status_counts_every_state_who_needs_you_first(homes, pideck) -> None:
    homes.install(CLAUDE_TASKS, lines=BETWEEN_TURNS[CLAUDE_TASKS])
    homes.claude_live(os.getpid(), SESSION_IDS[CLAUDE_TASKS], "idle")
    homes.install(CODEX, lines=BETWEEN_TURNS[CODEX])
    Deck(SessionLog.create_for_cwd(homes.cwd)).call_tool("todo", OPEN_TODO)
    assert pideck("status") == (0, "2 stopped with open work · 1 working\n", "")
    assert pideck("status", "--all")[0] == 0


def test_watch_prints_every_state_then_each_change_until_interrupted(homes) -> None:
    import signal
    import subprocess
    import sys

    path = homes.install(CLAUDE_TASKS, lines=BETWEEN_TURNS[CLAUDE_TASKS])
    homes.claude_live(os.getpid(), SESSION_IDS[CLAUDE_TASKS], "busy")
    now_stamp(path, -5)
    watch = subprocess.Popen([sys.executable, "-m", "core.cli.main", "watch", "--json", "--interval", "0.05"],
                             cwd=homes.cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        first = json.loads(read_line(watch.stdout))
        assert (first["kind"], first["conversation"], first["state"], first["previous"], first["todos"]) == (
            "claude", SESSION_IDS[CLAUDE_TASKS], "working", None, {"settled": 1, "total": 4})
        hook = subprocess.run([sys.executable, "-m", "core.cli.main", "hook", "claude"], cwd=homes.cwd, text=True,
                              input=json.dumps(sample_input("claude-notification.json", homes, CLAUDE_TASKS)),
                              capture_output=True, timeout=60)
        assert (hook.returncode, hook.stdout) == (0, "")
        change = json.loads(read_line(watch.stdout))
        assert (change["state"], change["previous"], change["evidence"]) == (
            "needs you", "working", "Claude needs your permission to use Bash (Notification hook, permission_prompt)")
    finally:
        watch.send_signal(signal.SIGINT)
        out, err = watch.communicate(timeout=30)
    assert (watch.returncode, out, err) == (0, "", "")


def test_status_keeps_its_line_while_nothing_it_depends_on_changed(homes, pideck) -> None:
    from core.cli.status import kept_path

    path = homes.install(CLAUDE_TASKS, lines=BETWEEN_TURNS[CLAUDE_TASKS])
    homes.claude_live(os.getpid(), SESSION_IDS[CLAUDE_TASKS], "idle")
    assert pideck("status") == (0, "1 stopped with open work\n", "")
    kept = kept_path(str(homes.cwd))
    record = json.loads(kept.read_text())
    kept.write_text(json.dumps({**record, "line": "the kept line"}))
    assert pideck("status") == (0, "the kept line\n", "")  # nothing changed: not worked out again
    homes.claude_live(os.getpid(), SESSION_IDS[CLAUDE_TASKS], "busy")  # Claude's live-session file changed
    assert pideck("status") == (0, "1 working\n", "")
    kept.write_text(json.dumps({**json.loads(kept.read_text()), "line": "the kept line", "until": 0}))
    assert pideck("status") == (0, "1 working\n", "")  # past its time: worked out again


def test_an_ask_answered_at_once_is_over_at_once(homes, pideck) -> None:
    """A permission granted (or decided by the agent) within a second of the ask: the transcript
    grew past its length at the ask, so nobody is waited for."""
    path = homes.install(CLAUDE_TASKS, lines=BETWEEN_TURNS[CLAUDE_TASKS])
    homes.claude_live(os.getpid(), SESSION_IDS[CLAUDE_TASKS], "busy")
    pideck("hook", "claude", stdin=json.dumps(sample_input("claude-permission-request.json", homes, CLAUDE_TASKS)))
    assert attention(pideck, "claude")["state"] == "needs you"
    with open(path, "a", encoding="utf-8") as f:
        f.write('{"type":"user","message":{"role":"user","content":[{"type":"tool_result"}]}}\n')
    assert attention(pideck, "claude")["state"] == "working"


def test_an_ask_is_recorded_when_the_hooks_are_given_a_session(homes, pideck, monkeypatch) -> None:
    homes.install(CLAUDE_TASKS, lines=BETWEEN_TURNS[CLAUDE_TASKS])
    homes.claude_live(os.getpid(), SESSION_IDS[CLAUDE_TASKS], "busy")
    monkeypatch.setenv("PIDECK_SESSION", str(homes.cwd.parent / "named.jsonl"))
    pideck("hook", "claude", stdin=json.dumps(sample_input("claude-notification.json", homes, CLAUDE_TASKS)))
    assert attention(pideck, "claude")["state"] == "needs you"


@pytest.mark.parametrize("lines, state, evidence", [
    (BETWEEN_TURNS[CODEX], "stopped with open work", "its turn ended with 3 open"),
    (None, "waiting", "its turn ended, nothing is open"),
], ids=["between its turns", "at the end"])
def test_a_codex_thread_by_its_rollout(homes, pideck, lines, state, evidence) -> None:
    homes.install(CODEX, lines=lines)
    got = attention(pideck, "codex")
    assert (got["state"], got["evidence"]) == (state, evidence)


def test_a_pi_session_and_a_session_whose_gates_gave_up(homes, pideck) -> None:
    from core.cli.demo import write_pi_example
    from core.config.places import pi_sessions_dir

    folder = pi_sessions_dir(homes.cwd)
    folder.mkdir(parents=True)
    write_pi_example(folder, str(homes.cwd))
    got = attention(pideck, "pi")
    assert (got["state"], got["evidence"]) == ("waiting", "quiet, nothing is open")
    deck = Deck(SessionLog.create_for_cwd(homes.cwd))
    deck.call_tool("todo", OPEN_TODO)
    deck.log.append_custom("pi-jtodo/cycle", {"armed": False, "reason": "no_progress"})  # the gates stopped
    (homes.cwd.parent / "config.toml").write_text("[todo]\nwatchdog_idle_ms = 1\n")
    time.sleep(0.01)
    got = attention(pideck, "pideck")
    assert (got["state"], got["evidence"]) == ("stopped with open work", "the todo gates gave up")
