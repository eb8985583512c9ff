"""``pideck hook claude|codex`` fed the Stop input the real agents sent (tests/fixtures/agent-hooks),
with the exact stdout, stderr and exit code each agent reads."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from agent_homes import Homes
from hook_helpers import CLAUDE, CODEX, entries, hook
from hook_helpers import run_main as _main

from core.agents.hooks import STOP_ENTRY_TYPE
from core.deck.deck import READ_ONLY_HINT, Deck
from core.cli.demo import write_pi_example
from core.catalog.opening import open_deck
from core.sources.binding import Conversation, session_for
from core.config.places import pi_sessions_dir, pideck_sessions_dir

SAMPLE_CWD = "/home/user/proj"  # both captures ran there
BOTH = pytest.mark.parametrize("agent, sample", [("claude", CLAUDE), ("codex", CODEX)])

POKE = "You have 1 incomplete todo. Continue working, or update the todo tool."
BLOCK = ('{"decision":"block","reason":"You have 1 incomplete todo. Continue working, or update the todo '
         'tool.","systemMessage":"\\ud83d\\udc49 1 incomplete todo. We poked it for you. /todos poke off to '
         'stop."}\n')
SENT_BACK_IN_VAIN = ('{"systemMessage":"\\u26a0\\ufe0f The agent stopped again after a Stop hook sent it back, '
                     'without changing its todos. We stopped poking; review the remaining todos yourself. '
                     '/todos poke on to resume."}\n')
# Codex's Stop output schema allows these keys and no other (additionalProperties: false).
CODEX_STOP_KEYS = {"continue", "decision", "reason", "stopReason", "suppressOutput", "systemMessage"}
OPEN_TODO = {"todos": [{"id": "t1", "content": "Parse the config", "status": "in_progress", "priority": "high",
                        "confidence": 80}]}


def agent_session(agent: str) -> Deck:
    """The pideck session the MCP server made for the conversation of the agent's samples (its
    first call made it)."""
    sample = {"claude": CLAUDE, "codex": CODEX}[agent][0]
    conversation = Conversation(agent, sample["session_id"], sample["cwd"], sample["transcript_path"])
    return open_deck(session_for(conversation, create=True)).deck


@BOTH
def test_open_todos_block_once_and_a_stop_that_changed_nothing_ends_the_cycle(homes: Homes, agent, sample) -> None:
    deck = agent_session(agent)
    deck.call_tool("todo", OPEN_TODO)
    assert hook(agent, sample[0]) == (0, BLOCK, "")
    assert set(json.loads(BLOCK)) <= CODEX_STOP_KEYS
    assert hook(agent, sample[1]) == (0, SENT_BACK_IN_VAIN, "")
    assert hook(agent, sample[1]) == (0, "", "")  # the cycle is off until new work arms it
    stop = {"agent": agent, "event": "Stop", "agentSessionId": sample[0]["session_id"]}
    assert entries(deck, STOP_ENTRY_TYPE, "pi-jtodo/cycle", "pi-jtodo/followup") == [
        (STOP_ENTRY_TYPE, {**stop, "stopHookActive": False}),
        ("pi-jtodo/followup", {"kind": "poke", "ids": ["t1"]}),
        (STOP_ENTRY_TYPE, {**stop, "stopHookActive": True}),
        ("pi-jtodo/cycle", {"armed": False, "reason": "no_progress"}),
        (STOP_ENTRY_TYPE, {**stop, "stopHookActive": True}),
    ]


def test_the_reason_is_the_follow_up_exactly_as_pideck_gate_prints_it(homes: Homes) -> None:
    twins = [homes.root / "hook.jsonl", homes.root / "gate.jsonl"]
    for path in twins:
        open_deck(path).deck.call_tool("todo", OPEN_TODO)
    code, out, _ = hook("claude", CLAUDE[0], "--session", str(twins[0]))
    gate = _main(["gate", "--session", str(twins[1])])
    assert (gate[0], gate[1]) == (2, POKE + "\n")
    assert (code, json.loads(out)["reason"] + "\n") == (0, gate[1])


@BOTH
def test_a_sent_back_turn_that_moved_the_todos_is_poked_again(homes: Homes, agent, sample) -> None:
    deck = agent_session(agent)
    deck.call_tool("todo", OPEN_TODO)
    assert hook(agent, sample[0]) == (0, BLOCK, "")
    progressed = {"todos": [{**OPEN_TODO["todos"][0], "confidence": 85}]}
    assert deck.call_tool("todo", progressed).rejected is False
    assert hook(agent, sample[1]) == (0, BLOCK, "")
    assert hook(agent, sample[1]) == (0, SENT_BACK_IN_VAIN, "")


def test_a_configured_no_progress_limit_is_the_one_that_holds(homes: Homes) -> None:
    (homes.root / "config.toml").write_text("[todo]\nmax_consecutive_pokes_without_progress = 2\n")
    agent_session("codex").call_tool("todo", OPEN_TODO)
    assert hook("codex", CODEX[0]) == (0, BLOCK, "")
    assert hook("codex", CODEX[1]) == (0, BLOCK, "")
    assert hook("codex", CODEX[1]) == (0, (
        '{"systemMessage":"\\u26a0\\ufe0f The agent stopped 2 times in a row without changing its todos. We '
        'stopped poking; review the remaining todos yourself. /todos poke on to resume."}\n'), "")


def test_done_work_is_a_notice_for_the_person_only(homes: Homes) -> None:
    done = {"todos": [{"id": "t1", "content": "Parse", "status": "completed", "priority": "high",
                       "confidence": 80, "completion_confidence": 100}],
            "goals": [{"closed_feedback_loop": 100, "end_to_end_ownership": 100}]}
    assert agent_session("claude").call_tool("todo", done).rejected is False
    assert hook("claude", CLAUDE[0]) == (
        0, '{"systemMessage":"\\u2705 All todos done. Completion confidence: 100%."}\n', "")


def test_nothing_to_say_prints_nothing(homes: Homes) -> None:
    folder = pideck_sessions_dir(SAMPLE_CWD)
    assert hook("claude", CLAUDE[0]) == (0, "", "")  # no session for that conversation
    assert not folder.exists()  # and the hook made none
    deck = agent_session("codex")  # a session without todos
    assert hook("codex", CODEX[0]) == (0, "", "")
    assert entries(deck, "pi-jtodo/cycle") == [("pi-jtodo/cycle", {"armed": False, "reason": "no_todos"})]


@BOTH
def test_subagent_stop_settles_like_stop(homes: Homes, agent, sample) -> None:
    deck = agent_session(agent)
    deck.call_tool("todo", OPEN_TODO)
    assert hook(agent, {**sample[0], "hook_event_name": "SubagentStop"}) == (0, BLOCK, "")
    assert entries(deck, STOP_ENTRY_TYPE)[0][1]["event"] == "SubagentStop"


@pytest.mark.parametrize("event", ["PreToolUse", "UserPromptSubmit", "SessionStart", "Notification", "stop"])
def test_other_events_print_nothing_and_touch_nothing(homes: Homes, event: str) -> None:
    deck = agent_session("claude")
    deck.call_tool("todo", OPEN_TODO)
    before = deck.log.path.read_bytes()
    assert hook("claude", {**CLAUDE[0], "hook_event_name": event}) == (0, "", "")
    assert deck.log.path.read_bytes() == before


MALFORMED = [
    (b"", "the input is not JSON (Expecting value at line 1, column 1)"),
    (b'{"hook_event_name": "Stop",', "the input is not JSON (Expecting property name enclosed in double quotes "
                                    "at line 1, column 28)"),
    (b"\xff\xfe{}", "the input is not UTF-8 (invalid start byte at byte 0)"),
    (json.dumps(CLAUDE).encode(), "the input is JSON but not an object (an array)"),
    (b'"Stop"', "the input is JSON but not an object (a string)"),
    (b"{}", "the input has no hook_event_name"),
    (json.dumps({**CLAUDE[0], "hook_event_name": 1}).encode(), "the input has no hook_event_name"),
    (json.dumps({k: v for k, v in CLAUDE[0].items() if k != "cwd"}).encode(), "the Stop input has no absolute cwd"),
    (json.dumps({**CODEX[0], "cwd": "proj"}).encode(), "the Stop input has no absolute cwd"),
    (json.dumps({**CODEX[0], "stop_hook_active": "true"}).encode(), "stop_hook_active is a string, not true or false"),
    (b'{"hook_event_name": "Stop", "x": ' + b"[" * 5000 + b"]" * 5000 + b"}", "the input is nested too deep to read"),
    (json.dumps({**CLAUDE[0], "cwd": "/home/user/project/.."}).encode(),
     'the Stop input\'s cwd "/home/user/project/.." holds . or .. (the agents send a plain path)'),
    (json.dumps({**CODEX[0], "cwd": "/home/./user"}).encode(),
     'the Stop input\'s cwd "/home/./user" holds . or .. (the agents send a plain path)'),
]


@pytest.mark.parametrize("stdin, reason", MALFORMED)
@pytest.mark.parametrize("agent", ["claude", "codex"])
def test_malformed_input_is_one_line_on_stderr_and_exit_1(homes: Homes, agent: str, stdin: bytes, reason: str) -> None:
    agent_session(agent).call_tool("todo", OPEN_TODO)  # a block would be due, were the input readable
    assert hook(agent, stdin) == (1, "", f"pideck hook {agent}: malformed hook input: {reason}\n")


def test_a_read_only_session_is_a_notice_and_never_a_block(homes: Homes, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = pi_sessions_dir(SAMPLE_CWD)
    folder.mkdir(parents=True)
    pi_file = write_pi_example(folder, SAMPLE_CWD)
    monkeypatch.setenv("PIDECK_SESSION", str(pi_file))
    before = pi_file.read_bytes()
    notice = json.dumps({"systemMessage": READ_ONLY_HINT}, separators=(",", ":"))
    assert hook("claude", CLAUDE[0]) == (0, notice + "\n", "")
    assert pi_file.read_bytes() == before


def test_the_session_flag_and_the_environment_win_over_the_conversations_session(homes: Homes, monkeypatch: pytest.MonkeyPatch) -> None:
    for_cwd = agent_session("codex")
    chosen, flagged = open_deck(homes.root / "env.jsonl").deck, open_deck(homes.root / "flag.jsonl").deck
    for deck in (for_cwd, chosen, flagged):
        deck.call_tool("todo", OPEN_TODO)
    monkeypatch.setenv("PIDECK_SESSION", str(chosen.log.path))
    assert hook("codex", CODEX[0]) == (0, BLOCK, "")
    assert hook("codex", CODEX[0], "--session", str(flagged.log.path)) == (0, BLOCK, "")
    assert [len(entries(d, STOP_ENTRY_TYPE)) for d in (for_cwd, chosen, flagged)] == [0, 1, 1]


def test_a_mistyped_hook_command_exits_1_never_2(homes: Homes) -> None:
    """Exit 2 from a hook tells both agents to keep going with stderr as the reason."""
    code, out, err = _main(["hook"], stdin=json.dumps(CLAUDE[0]).encode())
    assert (code, out) == (1, "") and err.endswith("error: the following arguments are required: AGENT\n")
    assert hook("gemini", CLAUDE[0]) == (1, "", "pideck hook: unknown agent 'gemini' (expected claude, codex, qwen or copilot)\n")


@BOTH
def test_through_a_shell_pipe_as_the_agents_run_it(homes: Homes, agent, sample) -> None:
    agent_session(agent).call_tool("todo", OPEN_TODO)
    answers = []
    for i, event in enumerate(sample):
        (homes.root / f"stop{i}.json").write_text(json.dumps(event, indent=1))
        command = f"cat stop{i}.json | {sys.executable} -m core.cli.main hook {agent}"
        done = subprocess.run(["sh", "-c", command], cwd=homes.root, capture_output=True, text=True, timeout=60)
        answers.append((done.returncode, done.stdout, done.stderr))
    assert answers == [(0, BLOCK, ""), (0, SENT_BACK_IN_VAIN, "")]
