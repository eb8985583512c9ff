"""One pideck session per agent conversation (docs/mcp-and-hooks.md#which-session-a-call-goes-to),
with the hook inputs and live-session files the real CLIs wrote (tests/fixtures/agent-hooks):
another conversation's todos never block a new one, a resumed conversation finds its session,
``/clear`` starts a fresh one, and two MCP servers of two conversations in one directory keep
their own items."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import StdioServerParameters

from agent_homes import Homes
from hook_helpers import SAMPLES, entries, hook
from mcp_client import SERVER, client_session, server_env

from core.agents.ancestry import ancestors, claude_conversation, codex_conversation, find_conversation
from core.agents.hooks import STOP_ENTRY_TYPE
from core.agents.mcp_server import Sessions
from core.sources.discovery import claude_folder_name
from core.sources.binding import Conversation, binding_path, bound_session, noted_process, process_path, session_for
from core.catalog.opening import open_deck
from core.session.log import SessionLog
from core.config.places import pideck_sessions_dir

STAND_IN = [sys.executable, str(Path(__file__).with_name("agent_stand_in.py"))]
TRANSCRIPTS = Path(__file__).parents[1] / "fixtures" / "agent-transcripts"
ROLLOUT = (TRANSCRIPTS / "codex-update-plan" / "final" / ".codex" / "sessions" / "2026" / "12" / "01" /
           "rollout-2026-12-01T07-16-36-01a23076-6999-7572-89ca-024fd74a9a5d.jsonl")
CODEX_THREAD = "01a23076-6999-7572-89ca-024fd74a9a5d"
OPEN_TODO = {"todos": [{"id": "t1", "content": "Parse the config", "status": "in_progress", "priority": "high",
                        "confidence": 80}]}
BLOCK = ('{"decision":"block","reason":"You have 1 incomplete todo. Continue working, or update the todo '
         'tool.","systemMessage":"\\ud83d\\udc49 1 incomplete todo. We poked it for you. /todos poke off to '
         'stop."}\n')


def sequence(agent: str) -> list[dict[str, Any]]:
    """Every hook call the real CLI made, in order (``run``, ``event``, ``stdin``)."""
    lines = (SAMPLES / f"{agent}-hooks-sequence.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


def processes(agent: str) -> dict[str, Any]:
    return {run["run"]: run for run in json.loads((SAMPLES / f"{agent}-processes.json").read_text())["runs"]}


def event(agent: str, run: str, name: str, project: Path, nth: int = 0, **changes: Any) -> dict[str, Any]:
    """The ``nth`` input of hook ``name`` in ``run``, moved to ``project``."""
    found = [e["stdin"] for e in sequence(agent) if e["run"] == run and e["event"] == name]
    return {**found[nth], "cwd": str(project), **changes}


CLAUDE_FIRST = "0e768ad0-c364-47c7-b640-b439536657c8"  # sdk's first conversation; resume and continue go back to it
CLAUDE_AFTER_CLEAR = "1328cc60-7da1-4120-ad87-65a621444814"


def session_of(agent: str, conversation_id: str, project: Path) -> Any:
    """The Deck of the conversation's session, made as its first MCP call would make it."""
    return open_deck(session_for(Conversation(agent, conversation_id, str(project)), create=True)).deck


def stops(deck: Any) -> list[str]:
    return [data["agentSessionId"] for _, data in entries(deck, STOP_ENTRY_TYPE)]


# -- the hooks --------------------------------------------------------------------------------


@pytest.mark.parametrize("agent", ["claude", "codex"])
def test_a_new_conversation_is_never_blocked_by_another_conversations_todos(homes: Homes, agent: str) -> None:
    first = event(agent, "sdk" if agent == "claude" else "exec", "Stop", homes.project)
    session_of(agent, first["session_id"], homes.project).call_tool("todo", OPEN_TODO)
    brand_new = {**first, "session_id": "brand-new-conversation-0000", "last_assistant_message": "Hi! How can I help?"}
    assert hook(agent, brand_new) == (0, "", "")
    assert bound_session(agent, "brand-new-conversation-0000") is None  # nothing to remember: no session made
    assert hook(agent, first) == (0, BLOCK, "")  # the conversation that has the todos is still held to them


def test_resume_and_continue_find_the_conversations_session_and_clear_and_fork_start_fresh(homes: Homes) -> None:
    """The whole recorded sequence of Claude Code hooks: sdk (turn, /clear, turn), resume,
    continue, fork, print. Only the first conversation has todos; its stops block, the others' not."""
    deck = session_of("claude", CLAUDE_FIRST, homes.project)
    deck.call_tool("todo", OPEN_TODO)
    answers = []
    for call in sequence("claude"):
        code, out, err = hook("claude", {**call["stdin"], "cwd": str(homes.project)})
        assert (code, err) == (0, "")
        if call["event"] == "Stop":
            answers.append((call["run"], call["stdin"]["session_id"][:8], "block" if out else "quiet"))
    assert answers == [("sdk", "0e768ad0", "block"), ("sdk", "1328cc60", "quiet"), ("resume", "0e768ad0", "block"),
                       ("continue", "0e768ad0", "block"), ("fork", "11907c83", "quiet"), ("print", "90bae31f", "quiet")]
    assert stops(deck) == [CLAUDE_FIRST] * 3  # one session, found again on resume and continue
    assert os.listdir(pideck_sessions_dir(homes.project)) == [deck.log.path.name]  # no other was made


def test_codex_exec_resume_finds_the_threads_session(homes: Homes) -> None:
    exec_stop = event("codex", "exec", "Stop", homes.project)
    resumed_stop = event("codex", "resume", "Stop", homes.project)
    assert exec_stop["session_id"] == resumed_stop["session_id"]
    deck = session_of("codex", exec_stop["session_id"], homes.project)
    deck.call_tool("todo", OPEN_TODO)
    assert hook("codex", exec_stop) == (0, BLOCK, "")
    assert hook("codex", event("codex", "resume", "SessionStart", homes.project)) == (0, "", "")
    assert hook("codex", resumed_stop)[1] != ""
    assert stops(deck) == [exec_stop["session_id"]] * 2
    assert hook("codex", event("codex", "perm", "Stop", homes.project)) == (0, "", "")  # another thread


def test_session_start_and_end_keep_the_record_of_the_agent_process(homes: Homes,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Claude Code's hooks run under a shell and get ``$CLAUDE_PID``; /clear ends one conversation
    and starts the next in the same process."""
    monkeypatch.setenv("CLAUDE_PID", "24096")
    calls = [c for c in sequence("claude") if c["run"] == "sdk"]
    seen = []
    for call in calls:
        assert hook("claude", {**call["stdin"], "cwd": str(homes.project)})[0] == 0
        record = noted_process(24096, None)
        seen.append((call["event"], record["agentSessionId"][:8] if record else None))
    assert seen == [("SessionStart", "0e768ad0"), ("UserPromptSubmit", "0e768ad0"), ("PermissionRequest", "0e768ad0"),
                    ("Notification", "0e768ad0"), ("Stop", "0e768ad0"), ("SessionEnd", None),
                    ("SessionStart", "1328cc60"), ("UserPromptSubmit", "1328cc60"), ("PermissionRequest", "1328cc60"),
                    ("Stop", "1328cc60"), ("SessionEnd", None)]
    assert not process_path(24096).exists()
    assert bound_session("claude", CLAUDE_FIRST) is None  # the hooks alone make no session


def test_a_record_left_by_an_earlier_process_with_the_same_pid_is_not_taken(homes: Homes,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLAUDE_PID", str(os.getpid()))
    monkeypatch.setenv("PIDECK_PROC", "/proc")
    assert hook("claude", event("claude", "sdk", "SessionStart", homes.project))[0] == 0
    record = json.loads(process_path(os.getpid()).read_text())
    assert record["procStart"] == proc_start(os.getpid())
    assert noted_process(os.getpid(), record["procStart"])["agentSessionId"] == CLAUDE_FIRST
    assert noted_process(os.getpid(), "1") is None


# -- which conversation the MCP server is in --------------------------------------------------


def proc_start(pid: int) -> str:
    return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[19]


class FakeProc:
    """A /proc of a few processes: their stat lines and open files."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def process(self, pid: int, ppid: int, comm: str = "claude", start: str = "441313",
                open_files: tuple[Path, ...] = ()) -> None:
        folder = self.root / str(pid)
        (folder / "fd").mkdir(parents=True, exist_ok=True)
        fields = ["S", str(ppid)] + ["0"] * 17 + [start, "0"]
        (folder / "stat").write_text(f"{pid} ({comm}) {' '.join(fields)}\n")
        for n, path in enumerate(open_files, start=3):
            os.symlink(path, folder / "fd" / str(n))


def claude_sessions_file(config: Path, content: dict[str, Any]) -> Path:
    path = config / "sessions" / f"{content['pid']}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(content))
    return path


def test_the_mcp_server_follows_the_claude_process_through_clear_and_continue(homes: Homes) -> None:
    """The live-session file as it changed while the real server ran (sdk: /clear at 11.4 s;
    continue: a provisional id for 0.4 s), read at each call."""
    proc, config = FakeProc(homes.root / "proc"), homes.root / "claude-config"
    proc.process(24096, 24055, start="441313")
    proc.process(24105, 24096, comm="python3")
    sdk = processes("claude")["sdk"]["mcp_server"]["sessions_pid_json_seen_while_running"]
    sessions = Sessions(None, False, find=lambda: find_conversation(24105, proc=proc.root, config_dir=config))
    written = []
    for seen in (sdk[0], sdk[6]):  # before and after /clear
        claude_sessions_file(config, {**seen["content"], "cwd": str(homes.project)})
        deck = sessions.deck()
        deck.call_tool("agent_state_add_work_item", {"id": seen["content"]["sessionId"][:8], "content": "x"})
        written.append(deck.log.path)
    assert [p for p in written] == [bound_session("claude", CLAUDE_FIRST), bound_session("claude", CLAUDE_AFTER_CLEAR)]
    assert [open_deck(p).deck.state.snapshot()["workItems"][0]["id"] for p in written] == ["0e768ad0", "1328cc60"]
    first = SessionLog.open(written[0]).records[0]
    transcript = config / "projects" / claude_folder_name(homes.project) / f"{CLAUDE_FIRST}.jsonl"
    assert first["data"] == {"agent": "claude", "agentSessionId": CLAUDE_FIRST, "cwd": str(homes.project),
                             "transcript": str(transcript)}

    proc.process(24423, 24400, start="443033")  # continue: a new claude process
    proc.process(24430, 24423, comm="python3")
    provisional, resumed = processes("claude")["continue"]["mcp_server"]["sessions_pid_json_seen_while_running"][:2]
    assert provisional["content"]["sessionId"] != CLAUDE_FIRST == resumed["content"]["sessionId"]
    claude_sessions_file(config, {**resumed["content"], "cwd": str(homes.project)})
    found = find_conversation(24430, proc=proc.root, config_dir=config)
    assert found is not None and session_for(found, create=False) == written[0]  # found again
    assert found.how == f"{config / 'sessions' / '24423.json'}, the Claude Code process 24423"


def test_a_stale_live_session_file_is_not_taken(homes: Homes) -> None:
    """A file whose procStart is not the running process's (left by a crashed claude whose pid was
    reused), or that names another pid, or holds no id."""
    proc, config = FakeProc(homes.root / "proc"), homes.root / "claude-config"
    proc.process(24096, 1, start="999999")
    content = processes("claude")["sdk"]["mcp_server"]["sessions_pid_json_seen_while_running"][0]["content"]
    claude_sessions_file(config, content)
    assert claude_conversation(24096, config, proc.root) is None
    for changed in ({"procStart": "999999", "pid": 7}, {"procStart": "999999", "sessionId": ""},
                    {"procStart": "999999", "cwd": "relative"}):
        (config / "sessions" / "24096.json").write_text(json.dumps({**content, **changed}))
        assert claude_conversation(24096, config, proc.root) is None
    (config / "sessions" / "24096.json").write_text("{not json")
    assert claude_conversation(24096, config, proc.root) is None
    (config / "sessions" / "24096.json").write_text(json.dumps({**content, "procStart": "999999"}))
    assert claude_conversation(24096, config, proc.root).id == CLAUDE_FIRST


def test_the_codex_thread_is_the_rollout_its_process_holds_open(homes: Homes) -> None:
    proc = FakeProc(homes.root / "proc")
    other = homes.root / "notes.jsonl"
    other.write_text("{}\n")
    proc.process(21457, 21456, comm="codex", open_files=(other,))
    proc.process(21533, 21457, comm="python3")
    assert codex_conversation(21457, proc.root) is None  # before the thread starts (~1.2 s in)
    os.symlink(ROLLOUT, proc.root / "21457" / "fd" / "9")
    found = find_conversation(21533, proc=proc.root, config_dir=homes.root / "none")
    assert found == Conversation("codex", CODEX_THREAD, "/home/user/project", str(ROLLOUT),
                                 "the rollout the Codex process 21457 holds open")


def test_the_stat_line_is_read_past_a_command_name_with_spaces_and_parentheses(homes: Homes) -> None:
    proc = FakeProc(homes.root / "proc")
    proc.process(300, 200, comm="a) (b c")
    proc.process(200, 100, comm="sh")
    proc.process(100, 1, comm="claude")
    assert ancestors(300, proc.root) == [200, 100, 1]  # (pid 1 is looked at: a container's agent)
    assert ancestors(proc=Path("/proc"))[0] == os.getppid()


# -- real servers under real parents ----------------------------------------------------------


def stand_in(kind: str, value: str, project: Path, extra_env: dict[str, str] | None = None) -> StdioServerParameters:
    env = server_env(**(extra_env or {}))
    return StdioServerParameters(command=STAND_IN[0], args=[*STAND_IN[1:], kind, value, "--", *SERVER],
                                 cwd=str(project), env=env)


def run_interleaved(params: list[StdioServerParameters], errlogs: list[Path], rounds: int) -> list[list[str]]:
    """Each server adds one work item per round, the servers taking turns; then each lists them."""
    async def main() -> list[list[str]]:
        results: list[list[str]] = [[] for _ in params]
        turns = [anyio.Event() for _ in range(len(params) * rounds + 1)]
        turns[0].set()

        async def drive(i: int, session: Any) -> None:
            for r in range(rounds):
                await turns[r * len(params) + i].wait()
                await session.call_tool("agent_state_add_work_item", {"id": f"s{i}-{r}", "content": f"round {r}"})
                turns[r * len(params) + i + 1].set()
            await turns[-1].wait()
            got = await session.call_tool("agent_state_get", {})
            results[i] = [line.split(" ")[1] for line in got.content[0].text.splitlines() if line.startswith("- ")]

        with anyio.fail_after(90):
            async with anyio.create_task_group() as group:
                for i, p in enumerate(params):
                    group.start_soon(client_session, p, errlogs[i], lambda s, i=i: drive(i, s))
        return results

    return anyio.run(main)


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="finding a conversation by its process needs /proc")
def test_two_claude_conversations_in_one_directory_keep_their_own_items(homes: Homes) -> None:
    config = homes.root / "claude-config"
    live = processes("claude")["sdk"]["mcp_server"]["claude_sessions_files_now"]
    (content,) = live.values()
    ids = ["aaaaaaaa-0000-4000-8000-000000000001", "bbbbbbbb-0000-4000-8000-000000000002"]
    params = [stand_in("claude", json.dumps({**content, "sessionId": i, "cwd": str(homes.project)}), homes.project,
                       {"CLAUDE_CONFIG_DIR": str(config), "PIDECK_PROC": "/proc"}) for i in ids]
    errlogs = [homes.root / f"server-{n}.txt" for n in range(2)]
    assert run_interleaved(params, errlogs, rounds=3) == [["s0-0", "s0-1", "s0-2"], ["s1-0", "s1-1", "s1-2"]]
    paths = [bound_session("claude", i) for i in ids]
    assert None not in paths and paths[0] != paths[1]
    assert sorted(os.listdir(pideck_sessions_dir(homes.project))) == sorted(p.name for p in paths)
    for n, (i, path) in enumerate(zip(ids, paths)):
        log = errlogs[n].read_text().splitlines()
        assert log[1].startswith(f"pideck mcp: calls go to {path}: the pideck session of Claude Code conversation "
                                 f"{i[:8]}, found from {config / 'sessions'}/")
        assert len([line for line in log if "calls go to" in line]) == 1


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="finding a conversation by its process needs /proc")
def test_a_codex_server_with_a_stripped_environment_writes_to_its_threads_session(homes: Homes) -> None:
    rollout = homes.root / "codex-home" / "sessions" / ROLLOUT.name
    rollout.parent.mkdir(parents=True)
    shutil.copy(ROLLOUT, rollout)
    params = stand_in("codex", str(rollout), homes.project, {"PIDECK_PROC": "/proc"})
    (items,) = run_interleaved([params], [homes.root / "server.txt"], rounds=2)
    assert items == ["s0-0", "s0-1"]
    path = bound_session("codex", CODEX_THREAD)
    assert path is not None and path.parent == pideck_sessions_dir("/home/user/project")  # the thread's own cwd


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="the stand-in reads its start time from /proc")
def test_without_a_conversation_calls_go_to_the_newest_pideck_session_and_the_server_says_why(homes: Homes) -> None:
    older = SessionLog.create_for_cwd(homes.project).path
    session_of("claude", CLAUDE_FIRST, homes.project)  # newer, but a conversation's own: never taken
    params = stand_in("none", "-", homes.project)
    (items,) = run_interleaved([params], [homes.root / "server.txt"], rounds=1)
    assert items == ["s0-0"]
    assert (homes.root / "server.txt").read_text().splitlines()[:3] == [
        "pideck mcp: serving 12 tools; each call goes to the pideck session of the agent conversation it comes "
        f"from (made at its first call), else to the newest pideck session for {homes.project} of no conversation",
        f"pideck mcp: calls go to {older}: no agent conversation found above this process, so the newest pideck "
        f"session for {homes.project} that belongs to no conversation",
        "pideck mcp: stdin closed: exiting",
    ]


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="the hooks' record is checked against /proc")
def test_where_the_server_finds_nothing_the_hooks_record_names_the_conversation(homes: Homes) -> None:
    """Codex runs its hooks and its MCP server as children of one process: the SessionStart hook's
    record is what a server without /proc of its parent's files would go by."""
    start = homes.root / "start.json"
    start.write_text(json.dumps(event("codex", "perm", "SessionStart", homes.project)))
    hook_then_server = [sys.executable, "-c", (
        "import subprocess, sys; "
        f"subprocess.run([sys.executable, '-m', 'core.cli.main', 'hook', 'codex'], stdin=open({str(start)!r}), check=True); "
        "sys.exit(subprocess.call([sys.executable, '-m', 'core.cli.main', 'mcp']))")]
    params = StdioServerParameters(command=hook_then_server[0], args=hook_then_server[1:], cwd=str(homes.project),
                                   env=server_env(PIDECK_PROC="/proc"))
    (items,) = run_interleaved([params], [homes.root / "server.txt"], rounds=1)
    assert items == ["s0-0"]
    thread = "01a23093-2ee2-7660-b450-e3b59834625d"
    path = bound_session("codex", thread)
    assert path is not None and binding_path("codex", thread).is_file()
    assert "found from the hooks of process " in (homes.root / "server.txt").read_text()


# -- what the person's `pideck` opens ---------------------------------------------------------


def test_pideck_opens_the_claude_conversation_its_mcp_writes_belong_to_over_pis_newer_session(homes: Homes) -> None:
    """pi's session of the directory is newer than pideck's and than Claude Code's transcript;
    then the agent writes through `pideck mcp`: the conversation is what `pideck` opens."""
    from core.cli.demo import write_pi_example
    from core.catalog.opening import choose_session, default_choice
    from core.config.places import pi_sessions_dir

    cwd = "/home/user/project"  # where the sample ran (its transcript says so)
    source = TRANSCRIPTS / "claude-tasks" / "final" / ".claude" / "projects" / "-home-user-project"
    (name,) = [p.name for p in source.glob("*.jsonl")]
    transcript = Path(os.environ["CLAUDE_CONFIG_DIR"]) / "projects" / "-home-user-project" / name
    transcript.parent.mkdir(parents=True)
    shutil.copy(source / name, transcript)
    os.utime(transcript, (1_000_000, 1_000_000))
    folder = pi_sessions_dir(cwd)
    folder.mkdir(parents=True)
    pi_file = write_pi_example(folder, cwd)
    os.utime(pi_file, (2_000_000, 2_000_000))
    assert choose_session(None, cwd=cwd, agents=True).path == pi_file  # before the agent writes
    conversation = Conversation("claude", transcript.stem, cwd, str(transcript), "the test")
    written = open_deck(session_for(conversation, create=True)).deck
    written.call_tool("agent_state_add_work_item", {"id": "w1", "content": "Parse"})
    chosen = choose_session(None, cwd=cwd, agents=True)
    assert (chosen.shown_path, chosen.agent()["kind"]) == (transcript, "claude")
    assert default_choice(cwd, None)[1] == (  # what `pideck sessions` says at its end
        f"the newest: Claude Code conversation {transcript.stem[:8]}, with its pideck session {written.log.path.name}")


def test_pideck_sessions_names_each_sessions_conversation_and_what_pideck_opens(homes: Homes, pideck: Any) -> None:
    deck = session_of("claude", CLAUDE_FIRST, homes.project)
    code, out, err = pideck("sessions")
    assert (code, err) == (0, "")
    rows = out.splitlines()
    assert rows[1].endswith(f"{deck.log.path}  (of claude 0e768ad0)")
    assert rows[2] == f"`pideck` here opens {deck.log.path}: the newest of this directory"  # (no transcript here)


def test_inspect_goes_from_a_conversation_to_its_session_and_back(homes: Homes, pideck: Any) -> None:
    source = TRANSCRIPTS / "claude-tasks" / "final" / ".claude" / "projects" / "-home-user-project"
    (transcript,) = source.glob("*.jsonl")
    copy = homes.root / transcript.name
    shutil.copy(transcript, copy)
    agent = json.loads(pideck("inspect", "--json", "--session", str(copy))[1])["agent"]
    assert agent["pideckSession"] is None  # the agent has not written to pideck yet
    conversation = Conversation("claude", transcript.stem, "/home/user/project", str(copy))
    bound = session_for(conversation, create=True)
    agent = json.loads(pideck("inspect", "--json", "--session", str(copy))[1])["agent"]
    assert agent["pideckSession"] == str(bound)
    session = json.loads(pideck("inspect", "--json", "--session", str(bound))[1])["session"]
    assert session["conversation"] == {"agent": "claude", "agentSessionId": transcript.stem,
                                       "cwd": "/home/user/project", "transcript": str(copy)}


def test_a_home_the_hook_cannot_write_costs_the_record_not_the_settle(homes: Homes, monkeypatch: pytest.MonkeyPatch) -> None:
    deck = session_of("claude", CLAUDE_FIRST, homes.project)
    deck.call_tool("todo", OPEN_TODO)
    blocked = homes.root / "pideck-home" / "bindings" / "processes"
    blocked.parent.mkdir(parents=True, exist_ok=True)
    blocked.write_text("not a folder")
    monkeypatch.setenv("CLAUDE_PID", "24096")
    code, out, err = hook("claude", event("claude", "sdk", "Stop", homes.project))
    assert (code, out) == (0, BLOCK)
    assert err.startswith("pideck hook claude: could not record the conversation of the agent process: ")


def test_an_input_without_a_conversation_is_never_held_to_a_conversations_todos(homes: Homes) -> None:
    session_of("claude", CLAUDE_FIRST, homes.project).call_tool("todo", OPEN_TODO)
    stop = event("claude", "sdk", "Stop", homes.project)
    for odd in ({k: v for k, v in stop.items() if k != "session_id"}, {**stop, "session_id": 12}):
        code, out, err = hook("claude", odd)
        assert (code, out) == (0, "") and "names no conversation" in err
    assert hook("claude", stop) == (0, BLOCK, "")


def test_a_binding_that_names_a_path_elsewhere_never_makes_a_file_there(homes: Homes) -> None:
    conversation = Conversation("claude", CLAUDE_FIRST, str(homes.project))
    elsewhere = homes.root / "not-pideck" / "x.jsonl"
    binding_path("claude", CLAUDE_FIRST).parent.mkdir(parents=True)
    binding_path("claude", CLAUDE_FIRST).write_text(json.dumps({"session": str(elsewhere)}))
    made = session_for(conversation, create=True)
    assert not elsewhere.exists() and made is not None and made.parent == pideck_sessions_dir(homes.project)
    assert bound_session("claude", CLAUDE_FIRST) == made
