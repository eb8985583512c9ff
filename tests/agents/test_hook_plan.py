"""``pideck hook claude|codex`` on the agent's own plan (docs/mcp-and-hooks.md#the-agents-own-plan):
the real Stop inputs (tests/fixtures/agent-hooks) pointed at copies of the real transcripts
(tests/fixtures/agent-transcripts), grown line by line to the moments the snapshots were taken,
with the exact stdout each agent reads, the entries the gate keeps in pideck's session, and the
agent's files byte-identical after every call."""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from agent_homes import Homes
from hook_helpers import SAMPLES_BY_AGENT, entries, hook, run_main

from core.agents.hooks import STOP_ENTRY_TYPE
from core.agents.plan_gate import PLAN_POKE_ENTRY_TYPE, WORDINGS, poke_text
from core.deck.deck import READ_ONLY_HINT, Deck
from core.cli.demo import write_pi_example
from core.catalog.opening import open_deck
from core.session.log import SessionLog
from core.sources.binding import Conversation, bound_session, session_for
from core.config.places import pi_sessions_dir, pideck_home, pideck_sessions_dir

TRANSCRIPTS = Path(__file__).parents[1] / "fixtures" / "agent-transcripts"
CODEX_STOP_KEYS = {"continue", "decision", "reason", "stopReason", "suppressOutput", "systemMessage"}


@dataclass(frozen=True)
class Run:
    """One sample run: its transcript (relative to the CLI's home) and the snapshot moments used
    here: between the turns (items 2-4 open), mid turn 2, after the end (all done)."""

    folder: str
    agent: str  # the hook that answers it
    transcript: str
    between: str
    mid: str
    end: str


RUNS = {
    "claude-tasks": Run("claude-tasks", "claude",
                        ".claude/projects/-home-user-project/2aa06482-0bcc-4c14-b872-0a0ab0bd714a.jsonl",
                        "t+012.81s", "t+020.40s", "t+025.97s"),
    "claude-todowrite": Run("claude-todowrite", "claude",
                            ".claude/projects/-home-user-project/0003e261-2ec0-4813-8981-2ec5b27758cf.jsonl",
                            "t+010.04s", "t+014.59s", "t+016.61s"),
    "codex-update-plan": Run("codex-update-plan", "codex",
                             ".codex/sessions/2026/12/01/rollout-2026-12-01T07-16-36-01a23076-6999-7572-89ca-"
                             "024fd74a9a5d.jsonl", "t+008.34s", "t+013.41s", "t+015.42s"),
}
EACH_RUN = pytest.mark.parametrize("run", list(RUNS.values()), ids=list(RUNS))


def lines_at(run: Run, snapshot: str) -> int:
    """The transcript's complete lines at a snapshot moment (snapshots/index.json)."""
    index = json.loads((TRANSCRIPTS / run.folder / "snapshots" / "index.json").read_text())
    (moment,) = [m for m in index if m["snapshot"] == snapshot]
    return int(moment["files"][run.transcript]["lines"])


def final_lines(run: Run) -> list[bytes]:
    return (TRANSCRIPTS / run.folder / "final" / run.transcript).read_bytes().splitlines(keepends=True)


class AgentHome:
    """A copy of the CLI's home holding the run's transcript, grown by whole lines as the CLI
    wrote it (the file keeps its inode, as a real append does)."""

    def __init__(self, root: Path, run: Run) -> None:
        self.run = run
        self.home = root / f"{run.folder}-home"
        self.path = self.home / run.transcript
        self.path.parent.mkdir(parents=True)
        self.path.write_bytes(b"")
        self.lines = 0

    def grow_to(self, snapshot_or_lines: str | int) -> AgentHome:
        n = snapshot_or_lines if isinstance(snapshot_or_lines, int) else lines_at(self.run, snapshot_or_lines)
        with open(self.path, "ab") as f:
            f.write(b"".join(final_lines(self.run)[self.lines:n]))
        self.lines = n
        return self

    def files(self) -> dict[str, str]:
        """Every file and folder under the agent's home, with the sha256 of each file."""
        out = {}
        for folder, dirs, names in os.walk(self.home):
            for name in dirs:
                out[os.path.relpath(os.path.join(folder, name), self.home)] = "folder"
            for name in names:
                path = os.path.join(folder, name)
                out[os.path.relpath(path, self.home)] = hashlib.sha256(Path(path).read_bytes()).hexdigest()
        return out

    def stop(self, project: Path, sent_back: bool = False, **changes: Any) -> dict[str, Any]:
        """The agent's real Stop input (the first stop, or the one after a block), pointed here."""
        sample = SAMPLES_BY_AGENT[self.run.agent][1 if sent_back else 0]
        return {**sample, "cwd": str(project), "transcript_path": str(self.path), **changes}

    def hook(self, project: Path, sent_back: bool = False, **changes: Any) -> tuple[int, str, str]:
        """Run the agent's hook; the agent's files must be byte-identical after it."""
        before = self.files()
        answer = hook(self.run.agent, self.stop(project, sent_back, **changes))
        assert self.files() == before
        return answer


def pideck_session(homes: Homes, agent: str = "claude") -> Deck:
    """The pideck session of the conversation of the agent's Stop samples, as the MCP server made
    it at its first call (no todos)."""
    conversation = Conversation(agent, SAMPLES_BY_AGENT[agent][0]["session_id"], str(homes.project))
    return open_deck(session_for(conversation, create=True)).deck


def out(**answer: str) -> str:
    """The hook's stdout for ``answer``, as pideck prints it."""
    return json.dumps(answer, separators=(",", ":")) + "\n"


BLOCK_3 = {
    "claude-tasks": '{"decision":"block","reason":"You have 3 incomplete tasks. Continue working, or update them with '
                    'TaskUpdate.","systemMessage":"\\ud83d\\udc49 3 incomplete tasks in Claude Code\'s own plan. We '
                    'poked it for you. pideck config set agent_plan_poke false to stop."}\n',
    "claude-todowrite": '{"decision":"block","reason":"You have 3 incomplete todos. Continue working, or update them '
                        'with TodoWrite.","systemMessage":"\\ud83d\\udc49 3 incomplete todos in Claude Code\'s own plan. '
                        'We poked it for you. pideck config set agent_plan_poke false to stop."}\n',
    "codex-update-plan": '{"decision":"block","reason":"You have 3 incomplete plan steps. Continue working, or update '
                         'them with update_plan.","systemMessage":"\\ud83d\\udc49 3 incomplete plan steps in Codex\'s '
                         'own plan. We poked it for you. pideck config set agent_plan_poke false to stop."}\n',
}
NOUNS = {"claude-tasks": "tasks", "claude-todowrite": "todos", "codex-update-plan": "plan steps"}
WORDING_TOOL = {"claude-tasks": "TaskCreate/TaskUpdate", "claude-todowrite": "TodoWrite",
                "codex-update-plan": "update_plan"}


def sent_back_in_vain(run: Run) -> str:
    return ('{"systemMessage":"\\u26a0\\ufe0f The agent stopped again after a Stop hook sent it back, without '
            f'changing its own plan. We stopped poking; review the remaining {NOUNS[run.folder]} yourself. '
            '/todos poke on in the conversation\'s pideck session to resume."}\n')


def plan_pokes(deck: Deck) -> list[dict[str, Any]]:
    return [data for _, data in entries(deck, PLAN_POKE_ENTRY_TYPE)]


def stop_key(run: Run) -> dict[str, str]:
    return {"agent": run.agent, "agentSessionId": SAMPLES_BY_AGENT[run.agent][0]["session_id"]}


# -- the poke ---------------------------------------------------------------------------------


def test_the_poke_is_pi_jtodos_naming_the_agents_own_tool() -> None:
    assert {tool: (poke_text(tool, 1), poke_text(tool, 2)) for tool in WORDINGS} == {
        "TaskCreate/TaskUpdate": ("You have 1 incomplete task. Continue working, or update it with TaskUpdate.",
                                  "You have 2 incomplete tasks. Continue working, or update them with TaskUpdate."),
        "TodoWrite": ("You have 1 incomplete todo. Continue working, or update it with TodoWrite.",
                      "You have 2 incomplete todos. Continue working, or update them with TodoWrite."),
        "update_plan": ("You have 1 incomplete plan step. Continue working, or update it with update_plan.",
                        "You have 2 incomplete plan steps. Continue working, or update them with update_plan."),
        "write_todos": ("You have 1 incomplete todo. Continue working, or update it with write_todos.",
                        "You have 2 incomplete todos. Continue working, or update them with write_todos."),
        "todo_write": ("You have 1 incomplete todo. Continue working, or update it with todo_write.",
                       "You have 2 incomplete todos. Continue working, or update them with todo_write."),
        "todowrite": ("You have 1 incomplete todo. Continue working, or update it with todowrite.",
                      "You have 2 incomplete todos. Continue working, or update them with todowrite."),
        "sql": ("You have 1 incomplete todo. Continue working, or update it with your sql tool.",
                "You have 2 incomplete todos. Continue working, or update them with your sql tool."),
    }


@pytest.mark.parametrize("run", [RUNS["claude-tasks"], RUNS["codex-update-plan"]], ids=["claude", "codex"])
def test_the_between_turns_transcript_is_the_snapshot_copy(tmp_path: Path, run: Run) -> None:
    """head -n N of the final transcript is the file as it was at that moment (the index says so;
    these two moments have a real copy to hold it against)."""
    copy = TRANSCRIPTS / run.folder / "snapshots" / run.between / run.transcript
    kept = gzip.decompress(copy.with_name(copy.name + ".gz").read_bytes()) if run.agent == "claude" \
        else copy.read_bytes()
    assert AgentHome(tmp_path, run).grow_to(run.between).path.read_bytes() == kept


@EACH_RUN
def test_open_items_of_the_agents_plan_are_poked_in_its_own_words(homes: Homes, run: Run) -> None:
    deck = pideck_session(homes, run.agent)
    agent = AgentHome(homes.root, run).grow_to(run.between)
    code, stdout, stderr = agent.hook(homes.project)
    assert (code, stdout, stderr) == (0, BLOCK_3[run.folder], "")
    assert set(json.loads(stdout)) <= CODEX_STOP_KEYS
    digest = plan_pokes(deck)[0]["plan"]
    assert len(digest) == 64 and int(digest, 16) >= 0
    assert entries(deck, STOP_ENTRY_TYPE, "pi-jtodo/cycle", PLAN_POKE_ENTRY_TYPE) == [
        (STOP_ENTRY_TYPE, {**stop_key(run), "event": "Stop", "stopHookActive": False}),
        ("pi-jtodo/cycle", {"armed": False, "reason": "no_todos"}),  # pideck's own list is empty
        (PLAN_POKE_ENTRY_TYPE, {**stop_key(run), "kind": "poke", "tool": WORDING_TOOL[run.folder],
                                "ids": ["2", "3", "4"], "plan": digest}),
    ]


# -- the limits: a hook never loops ------------------------------------------------------------


@EACH_RUN
def test_a_sent_back_stop_at_an_unchanged_plan_is_not_blocked(homes: Homes, run: Run) -> None:
    deck = pideck_session(homes, run.agent)
    agent = AgentHome(homes.root, run).grow_to(run.between)
    assert agent.hook(homes.project) == (0, BLOCK_3[run.folder], "")
    assert agent.hook(homes.project, sent_back=True) == (0, sent_back_in_vain(run), "")
    assert agent.hook(homes.project, sent_back=True) == (0, "", "")  # stopped: quiet from now on
    assert agent.hook(homes.project) == (0, "", "")  # a person's next turn at that plan too
    pokes = plan_pokes(deck)
    assert [(p["kind"], p.get("reason")) for p in pokes] == [("poke", None), ("stop", "no_progress")]
    assert pokes[1] == {**pokes[0], "kind": "stop", "reason": "no_progress"}
    assert len(entries(deck, STOP_ENTRY_TYPE)) == 4


MID_BLOCK = {
    "claude-tasks": out(decision="block", reason="You have 2 incomplete tasks. Continue working, or update them with TaskUpdate.",
                        systemMessage="👉 2 incomplete tasks in Claude Code's own plan. We poked it for you. "
                                      "pideck config set agent_plan_poke false to stop."),
    "claude-todowrite": out(decision="block", reason="You have 1 incomplete todo. Continue working, or update it with TodoWrite.",
                            systemMessage="👉 1 incomplete todo in Claude Code's own plan. We poked it for you. "
                                          "pideck config set agent_plan_poke false to stop."),
    "codex-update-plan": out(decision="block",
                             reason="You have 1 incomplete plan step. Continue working, or update it with update_plan.",
                             systemMessage="👉 1 incomplete plan step in Codex's own plan. We poked it for you. "
                                           "pideck config set agent_plan_poke false to stop."),
}


@EACH_RUN
def test_a_sent_back_turn_that_moved_the_plan_is_poked_again_until_it_is_done(homes: Homes, run: Run) -> None:
    deck = pideck_session(homes, run.agent)
    agent = AgentHome(homes.root, run).grow_to(run.between)
    assert agent.hook(homes.project) == (0, BLOCK_3[run.folder], "")
    agent.grow_to(run.mid)  # the agent went on and completed an item or two
    assert agent.hook(homes.project, sent_back=True) == (0, MID_BLOCK[run.folder], "")
    agent.grow_to(run.end)  # every item completed
    assert agent.hook(homes.project, sent_back=True) == (0, "", "")
    assert [p["ids"] for p in plan_pokes(deck)] == [["2", "3", "4"], ["3", "4"] if run.folder == "claude-tasks"
                                                    else ["4"]]


def test_one_task_left_is_it(homes: Homes) -> None:
    pideck_session(homes)
    agent = AgentHome(homes.root, RUNS["claude-tasks"]).grow_to(136)  # task #4 in progress, 1-3 done
    assert agent.hook(homes.project) == (0, out(
        decision="block", reason="You have 1 incomplete task. Continue working, or update it with TaskUpdate.",
        systemMessage="👉 1 incomplete task in Claude Code's own plan. We poked it for you. pideck config set "
                      "agent_plan_poke false to stop."), "")


@pytest.mark.parametrize("sent_back", [True, False], ids=["stop_hook_active", "person_turns"])
def test_the_configured_budget_runs_out_whatever_stop_hook_active_says(homes: Homes, sent_back: bool) -> None:
    (homes.root / "config.toml").write_text("[todo]\nmax_consecutive_pokes_without_progress = 2\n")
    run = RUNS["codex-update-plan"]
    deck = pideck_session(homes, run.agent)
    agent = AgentHome(homes.root, run).grow_to(run.between)
    assert agent.hook(homes.project) == (0, BLOCK_3[run.folder], "")
    assert agent.hook(homes.project, sent_back) == (0, BLOCK_3[run.folder], "")
    assert agent.hook(homes.project, sent_back) == (0, out(systemMessage=(
        "⚠️ The agent stopped 2 times in a row without changing its own plan. We stopped poking; review the "
        "remaining plan steps yourself. /todos poke on in the conversation's pideck session to resume.")), "")
    assert agent.hook(homes.project, sent_back) == (0, "", "")
    assert [p["kind"] for p in plan_pokes(deck)] == ["poke", "poke", "stop"]


def test_with_the_budget_a_moving_plan_starts_the_count_again(homes: Homes) -> None:
    (homes.root / "config.toml").write_text("[todo]\nmax_consecutive_pokes_without_progress = 1\n")
    run = RUNS["claude-todowrite"]
    pideck_session(homes, run.agent)
    agent = AgentHome(homes.root, run).grow_to(run.between)
    assert agent.hook(homes.project) == (0, BLOCK_3[run.folder], "")
    agent.grow_to(77)  # #2 completed, #3 in progress
    assert json.loads(agent.hook(homes.project, sent_back=True)[1])["reason"] == (
        "You have 2 incomplete todos. Continue working, or update them with TodoWrite.")
    assert json.loads(agent.hook(homes.project, sent_back=True)[1]) == {"systemMessage": (
        "⚠️ The agent stopped 1 times in a row without changing its own plan. We stopped poking; review the "
        "remaining todos yourself. /todos poke on in the conversation's pideck session to resume.")}


def test_a_stopped_gate_starts_afresh_when_the_plan_changes(homes: Homes) -> None:
    run = RUNS["claude-tasks"]
    deck = pideck_session(homes, run.agent)
    agent = AgentHome(homes.root, run).grow_to(run.between)
    agent.hook(homes.project)
    assert agent.hook(homes.project, sent_back=True) == (0, sent_back_in_vain(run), "")
    agent.grow_to(run.mid)  # the person's next turn: the agent worked on, then stopped
    assert agent.hook(homes.project) == (0, MID_BLOCK[run.folder], "")
    assert agent.hook(homes.project, sent_back=True) == (0, sent_back_in_vain(run), "")
    assert [p["kind"] for p in plan_pokes(deck)] == ["poke", "stop", "poke", "stop"]


def test_todos_poke_on_starts_afresh_and_a_poke_off_it_records_silences_it(homes: Homes) -> None:
    run = RUNS["claude-tasks"]
    deck = pideck_session(homes, run.agent)
    agent = AgentHome(homes.root, run).grow_to(run.between)
    agent.hook(homes.project)
    agent.hook(homes.project, sent_back=True)
    assert agent.hook(homes.project, sent_back=True) == (0, "", "")
    deck.apply("/todos poke on")
    assert agent.hook(homes.project, sent_back=True) == (0, BLOCK_3[run.folder], "")
    # (the stop disarmed pideck's own cycle, no_todos: a poke off now records nothing)
    deck.apply("/todos poke on")
    deck.apply("/todos poke off")
    assert entries(deck, "pi-jtodo/cycle")[-1] == ("pi-jtodo/cycle", {"armed": False, "reason": "user"})
    count = len(plan_pokes(deck))
    agent.grow_to(run.mid)
    assert agent.hook(homes.project) == (0, "", "")
    assert agent.hook(homes.project, sent_back=True) == (0, "", "")
    assert len(plan_pokes(deck)) == count


def test_each_conversation_keeps_its_own_session_and_count(homes: Homes) -> None:
    """Claude Code and Codex in one directory, and a second Claude Code conversation there: each
    stop is counted in the session of its own conversation, which the first poke made."""
    claude = AgentHome(homes.root, RUNS["claude-tasks"]).grow_to(RUNS["claude-tasks"].between)
    codex = AgentHome(homes.root, RUNS["codex-update-plan"]).grow_to(RUNS["codex-update-plan"].between)
    assert claude.hook(homes.project) == (0, BLOCK_3["claude-tasks"], "")
    assert codex.hook(homes.project, sent_back=True) == (0, BLOCK_3["codex-update-plan"], "")
    assert claude.hook(homes.project, sent_back=True) == (0, sent_back_in_vain(RUNS["claude-tasks"]), "")
    assert codex.hook(homes.project, sent_back=True) == (0, sent_back_in_vain(RUNS["codex-update-plan"]), "")
    other = claude.hook(homes.project, session_id="another-claude-conversation")
    assert other == (0, BLOCK_3["claude-tasks"], "")
    sessions = {agent: pideck_session(homes, agent) for agent in ("claude", "codex")}
    sessions["other"] = open_deck(bound_session("claude", "another-claude-conversation")).deck
    assert {name: [p["kind"] for p in plan_pokes(deck)] for name, deck in sessions.items()} == {
        "claude": ["poke", "stop"], "codex": ["poke", "stop"], "other": ["poke"]}
    assert len({deck.log.path for deck in sessions.values()}) == 3
    assert sorted(os.listdir(pideck_sessions_dir(homes.project))) == sorted(d.log.path.name for d in sessions.values())


def test_an_input_without_a_session_id_is_told_by_its_transcript(homes: Homes) -> None:
    run = RUNS["codex-update-plan"]
    pideck_session(homes, run.agent)  # another conversation's: never the one an input without an id settles
    deck = open_deck(None, cwd=str(homes.project), pideck_only=True).deck  # a session of no conversation
    agent = AgentHome(homes.root, run).grow_to(run.between)
    stop = {k: v for k, v in agent.stop(homes.project).items() if k != "session_id"}
    said = ("pideck hook codex: the input names no conversation (no session_id): settling the newest pideck "
            f"session for {homes.project} that belongs to no conversation\n")
    assert hook("codex", stop) == (0, BLOCK_3[run.folder], said)
    assert hook("codex", {**stop, "stop_hook_active": True}) == (0, sent_back_in_vain(run), said)
    # the transcript's own id (Codex's thread id) names the conversation
    assert plan_pokes(deck)[0]["agentSessionId"] == "01a23076-6999-7572-89ca-024fd74a9a5d"


def test_malformed_gate_entries_in_the_session_are_skipped(homes: Homes) -> None:
    run = RUNS["claude-tasks"]
    deck = pideck_session(homes, run.agent)
    for data in ("poke", None, [1], {**stop_key(run), "kind": "poke"}, {**stop_key(run), "kind": "stop", "plan": 7}):
        deck.log.append_custom(PLAN_POKE_ENTRY_TYPE, data)
    agent = AgentHome(homes.root, run).grow_to(run.between)
    assert agent.hook(homes.project) == (0, BLOCK_3[run.folder], "")
    assert agent.hook(homes.project, sent_back=True) == (0, sent_back_in_vain(run), "")


# -- when the gate stays out of it -------------------------------------------------------------


def test_the_setting_turns_it_off(homes: Homes) -> None:
    run = RUNS["claude-tasks"]
    assert "agent_plan_poke = true\n" in run_main(["config", "show"])[1]
    assert run_main(["config", "set", "agent_plan_poke", "false"])[0] == 0
    assert "agent_plan_poke = false\n" in run_main(["config", "show"])[1]
    deck = pideck_session(homes, run.agent)
    agent = AgentHome(homes.root, run).grow_to(run.between)
    assert agent.hook(homes.project) == (0, "", "")
    assert agent.hook(homes.project, sent_back=True) == (0, "", "")
    assert plan_pokes(deck) == []
    assert not (pideck_home() / "conversations").exists()  # the transcript was not even read


@pytest.mark.parametrize("config", ["enabled = false", "auto_poke = false"])
def test_the_todo_tool_or_auto_poke_off_turns_it_off_too(homes: Homes, config: str) -> None:
    (homes.root / "config.toml").write_text(f"[todo]\n{config}\n")
    run = RUNS["codex-update-plan"]
    pideck_session(homes, run.agent)
    assert AgentHome(homes.root, run).grow_to(run.between).hook(homes.project) == (0, "", "")


def test_pidecks_own_open_todos_come_first(homes: Homes) -> None:
    deck = pideck_session(homes)
    deck.call_tool("todo", {"todos": [{"id": "t1", "content": "Parse", "status": "pending", "priority": "high",
                                       "confidence": 80}]})
    run = RUNS["claude-tasks"]
    agent = AgentHome(homes.root, run).grow_to(run.between)
    assert json.loads(agent.hook(homes.project)[1])["reason"] == (
        "You have 1 incomplete todo. Continue working, or update the todo tool.")
    assert plan_pokes(deck) == []


def test_a_plan_with_nothing_open_is_left_alone(homes: Homes) -> None:
    run = RUNS["claude-tasks"]
    deck = pideck_session(homes, run.agent)
    assert AgentHome(homes.root, run).grow_to(run.end).hook(homes.project) == (0, "", "")
    assert plan_pokes(deck) == []


def test_subagent_stop_never_pokes_on_the_agents_plan(homes: Homes) -> None:
    run = RUNS["claude-tasks"]
    deck = pideck_session(homes, run.agent)
    agent = AgentHome(homes.root, run).grow_to(run.between)
    assert agent.hook(homes.project, hook_event_name="SubagentStop") == (0, "", "")
    assert plan_pokes(deck) == [] and len(entries(deck, STOP_ENTRY_TYPE)) == 1


def test_a_conversation_without_a_session_gets_one_only_when_its_plan_has_open_items(homes: Homes) -> None:
    run = RUNS["claude-tasks"]
    agent = AgentHome(homes.root, run).grow_to(run.end)  # every task done: nothing to remember
    assert agent.hook(homes.project) == (0, "", "")
    assert not pideck_sessions_dir(str(homes.project)).exists()
    agent = AgentHome(homes.root / "second", run).grow_to(run.between)
    assert agent.hook(homes.project) == (0, BLOCK_3[run.folder], "")
    (made,) = os.listdir(pideck_sessions_dir(str(homes.project)))
    deck = pideck_session(homes)
    assert deck.log.path.name == made
    first = SessionLog.open(deck.log.path).records[0]
    assert (first.custom_type, first["data"]) == ("pideck/conversation", {
        "agent": "claude", "agentSessionId": SAMPLES_BY_AGENT["claude"][0]["session_id"], "cwd": str(homes.project),
        "transcript": str(agent.path)})
    assert [p["kind"] for p in plan_pokes(deck)] == ["poke"]


def test_a_read_only_session_is_a_notice_and_never_a_plan_poke(homes: Homes, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = pi_sessions_dir(str(homes.project))
    folder.mkdir(parents=True)
    pi_file = write_pi_example(folder, str(homes.project))
    monkeypatch.setenv("PIDECK_SESSION", str(pi_file))
    before = pi_file.read_bytes()
    run = RUNS["claude-tasks"]
    agent = AgentHome(homes.root, run).grow_to(run.between)
    assert agent.hook(homes.project) == (0, out(systemMessage=READ_ONLY_HINT), "")
    assert pi_file.read_bytes() == before


def _not_a_transcript(root: Path, homes: Homes) -> dict[str, Any]:
    """transcript_path values that name no transcript pideck can read, by case."""
    (root / "folder").mkdir()
    os.mkfifo(root / "fifo")
    (root / "text.txt").write_text("hello\nworld\n")
    (root / "empty.jsonl").write_bytes(b"")
    pi_folder = root / "pi"
    pi_folder.mkdir()
    pi_file = write_pi_example(pi_folder, str(homes.project))
    no_plan = AgentHome(root, RUNS["claude-tasks"]).grow_to(30)  # before the first TaskCreate
    return {
        "missing": str(root / "gone.jsonl"), "relative": RUNS["claude-tasks"].transcript, "number": 7,
        "null": None, "empty string": "", "folder": str(root / "folder"), "fifo": str(root / "fifo"),
        "text": str(root / "text.txt"), "empty": str(root / "empty.jsonl"), "pi session": str(pi_file),
        "no plan yet": str(no_plan.path), "NUL": str(root / "a\0b.jsonl"), "surrogate": str(root / "\ud800.jsonl"),
        "a list": [str(no_plan.path)],
    }


CASES = ["missing", "relative", "number", "null", "empty string", "folder", "fifo", "text", "empty", "pi session",
         "no plan yet", "NUL", "surrogate", "a list", "absent"]


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("agent", ["claude", "codex"])
def test_a_transcript_path_pideck_cannot_use_answers_as_without_it(homes: Homes, agent: str, case: str) -> None:
    deck = pideck_session(homes, agent)
    root = homes.root / "agent"
    root.mkdir()
    paths = _not_a_transcript(root, homes)
    stop = {**SAMPLES_BY_AGENT[agent][0], "cwd": str(homes.project)}
    if case == "absent":
        stop.pop("transcript_path")
    else:
        stop["transcript_path"] = paths[case]
    before = {p: Path(p).read_bytes() for p in paths.values() if isinstance(p, str) and os.path.isfile(p)}
    assert hook(agent, stop) == (0, "", "")
    assert hook(agent, {**stop, "stop_hook_active": True}) == (0, "", "")
    assert plan_pokes(deck) == []
    assert entries(deck, "pi-jtodo/cycle") == [("pi-jtodo/cycle", {"armed": False, "reason": "no_todos"})]
    assert {p: Path(p).read_bytes() for p in before} == before


def test_a_line_still_being_written_and_a_bad_line_are_what_the_reader_makes_of_them(homes: Homes) -> None:
    """Claude writes up to ~114 KB in one write: a hook can meet half a line. The reader holds it
    back (and skips a line that is not JSON), so the plan is the one the whole lines give."""
    run = RUNS["claude-tasks"]
    deck = pideck_session(homes, run.agent)
    agent = AgentHome(homes.root, run).grow_to(run.between)
    with open(agent.path, "ab") as f:
        f.write(b'{"type":"user","oops\n')  # a line that is not JSON
    agent.lines = lines_at(run, run.between)
    next_line = final_lines(run)[agent.lines]
    with open(agent.path, "ab") as f:
        f.write(next_line[: len(next_line) // 2])
    assert agent.hook(homes.project) == (0, BLOCK_3[run.folder], "")
    with open(agent.path, "ab") as f:
        f.write(next_line[len(next_line) // 2:])
    assert agent.hook(homes.project, sent_back=True) == (0, sent_back_in_vain(run), "")
    assert [p["kind"] for p in plan_pokes(deck)] == ["poke", "stop"]


def test_a_transcript_a_reader_fails_on_is_one_line_on_stderr(homes: Homes, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(path: str) -> None:
        raise RuntimeError("a reader\nfailed")

    monkeypatch.setattr("core.agents.plan_gate.read_plan", broken)
    run = RUNS["claude-tasks"]
    pideck_session(homes, run.agent)
    agent = AgentHome(homes.root, run).grow_to(run.between)
    assert agent.hook(homes.project) == (
        0, "", f"pideck hook claude: the agent's plan cannot be read, ignored ({agent.path}: a reader failed)\n")


def test_through_a_shell_pipe_as_claude_runs_it(homes: Homes) -> None:
    run = RUNS["claude-tasks"]
    pideck_session(homes, run.agent)
    agent = AgentHome(homes.root, run).grow_to(run.between)
    before = agent.files()
    answers = []
    for i, sent_back in enumerate((False, True)):
        (homes.root / f"stop{i}.json").write_text(json.dumps(agent.stop(homes.project, sent_back), indent=1))
        command = f"cat stop{i}.json | {sys.executable} -m core.cli.main hook claude"
        done = subprocess.run(["sh", "-c", command], cwd=homes.root, capture_output=True, text=True, timeout=60)
        answers.append((done.returncode, done.stdout, done.stderr))
    assert answers == [(0, BLOCK_3[run.folder], ""), (0, sent_back_in_vain(run), "")]
    assert agent.files() == before

