"""A whole turn-end cycle driven the way a harness drives it: ``pideck tool todo`` for the
agent's writes and ``pideck gate`` each time the agent stops; then the log is checked."""

from __future__ import annotations

import json

from cli_helpers import read_lines

from core.primitives.todo import constants as c

GOAL = {"group": None, "closed_feedback_loop": 97, "feedback_loop": "run it", "end_to_end_ownership": 97}


def todo(id: str, status: str, conf: int, **extra) -> dict:
    return {"content": f"Task {id}", "status": status, "priority": "high", "id": id, "confidence": conf, **extra}


def test_tool_and_gate_walk_poke_digest_completion_spike_pass(pideck, tmp_path):
    s = str(tmp_path / "s.jsonl")

    def tool(params: dict) -> str:
        code, out, err = pideck("tool", "--session", s, "todo", json.dumps(params))
        assert (code, err) == (0, "")
        return out

    def gate() -> tuple[int, str, str]:
        return pideck("gate", "--session", s)

    tool({"todos": [todo("a", "in_progress", 80), todo("b", "pending", 90)],
          "plan": {"user_intention": "x", "understands_user_intent": 80}, "goals": [GOAL]})
    followup = "You have 2 incomplete todos. Continue working, or update the todo tool.\n"
    # the follow-up goes to stdout and to stderr (harnesses read one or the other), after the notice
    assert gate() == (2, followup, "👉 2 incomplete todos. We poked it for you. /todos poke off to stop.\n" + followup)

    tool({"todos": [todo("a", "completed", 80, completion_confidence=100), todo("b", "completed", 90)],
          "goals": [GOAL]})
    code, out, err = gate()  # the deferred digest of this cycle's weak points comes first
    assert code == 2 and out.startswith(c.DIGEST_PREFIX) and err == c.NOTICE_DIGEST_QUEUED + "\n" + out

    code, out, err = gate()  # b was closed without a completion confidence
    assert code == 2 and out.startswith(c.COMPLETION_CONTINUATION) and "#b" in out
    assert err == c.NOTICE_COMPLETION_CHALLENGED + "\n" + out

    tool({"todos": [todo("a", "completed", 80), todo("b", "completed", 90, completion_confidence=97)]})
    code, out, err = gate()  # a jumped from 80 to 100 at completion
    assert code == 2 and out.startswith(c.SPIKE_CONTINUATION) and err == c.NOTICE_SPIKE_CHALLENGED + "\n" + out

    code, out, err = gate()  # everything is done and confident: pass, nothing for the agent
    assert (code, out) == (0, "") and err.startswith("✅ All todos done. Completion confidence: ")
    assert gate() == (0, "", "")  # disarmed: nothing to say

    trace = []
    for e in read_lines(tmp_path / "s.jsonl")[1:]:
        if e["type"] == "custom_message":
            assert e["customType"] == "pi-jtodo/followup" and e["display"] is True
            trace.append(e["details"]["kind"])
        elif e["customType"] == "pi-jtodo/cycle":
            trace.append(f"cycle:{e['data']['armed']}:{e['data']['reason']}")
        else:
            assert e["customType"] == "pi-jtodo/state" and list(e["data"]) == ["schemaVersion", "todos", "plan", "goals"]
            trace.append("state")
    assert trace == ["state", "poke", "state", "digest", "completion", "state", "spike", "cycle:False:passed"]

    code, out, _ = pideck("inspect", "--session", s, "--json")
    cycle = json.loads(out)["todo"]["cycle"]
    assert cycle["armed"] is False and cycle["last_disarm_reason"] == "passed"


def test_gate_on_a_fresh_session_disarms_quietly(pideck, tmp_path):
    s = str(tmp_path / "s.jsonl")
    pideck("run", "--session", s, "/agent-state status")  # creates the session (gate never does)
    assert pideck("gate", "--session", s) == (0, "", "")
    assert [e.get("data") for e in read_lines(tmp_path / "s.jsonl")[1:]] == [{"armed": False, "reason": "no_todos"}]


def test_todos_commands_run_through_pideck_run(pideck, tmp_path):
    s = str(tmp_path / "s.jsonl")
    pideck("tool", "--session", s, "todo", json.dumps({"todos": [todo("a", "pending", 70)]}))
    assert pideck("run", "--session", s, "/todos poke status") == (0, "Auto-poke: ON. 1 incomplete todo.\n", "")
    code, out, _ = pideck("run", "--session", s, "/todos clear")
    assert code == 1 and "--yes" in out
    code, out, _ = pideck("run", "--session", s, "/todos")
    assert code == 0 and out.startswith("# Todos")
    export = tmp_path / "t.json"
    assert pideck("run", "--session", s, f"/todos export json {export}")[0] == 0
    assert json.loads(export.read_text())["todos"][0]["id"] == "a"
