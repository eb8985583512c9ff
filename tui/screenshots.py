"""Regenerate ``screenshots/*.svg``: ``uv run python -m tui.screenshots``.

Fixed sessions, a fixed clock and follow mode off, so a rerun only changes a file when the UI did.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import tempfile
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Awaitable, Callable

from textual.command import CommandPalette
from textual.pilot import Pilot

from core.cli.demo import TODO_ITEMS, TODOS, counter_ids, write_demo, write_pi_example
from core.config.places import pi_sessions_dir, pideck_sessions_dir
from core.config.settings import TuiConfig
from core.deck.deck import Deck
from core.session.log import SessionLog
from tui.app import PideckApp
from tui.commands import SlashCommandProvider

OUT = Path(__file__).resolve().parent.parent / "screenshots"
CWD = "/home/user/project"
MOMENT = datetime(2026, 11, 30, 14, 55, 13, tzinfo=timezone.utc)
MS = int(MOMENT.timestamp() * 1000)

Step = Callable[[Pilot], Awaitable[None]]


def demo_deck(folder: Path) -> Deck:
    return write_demo(folder / "demo.jsonl", cwd=CWD, clock=lambda: MOMENT, ids=counter_ids(), todo_clock=lambda: MS)


def pi_deck(folder: Path) -> Deck:
    """The pi example session, opened read-only as pideck opens pi's own files."""
    log = SessionLog.open(write_pi_example(folder, CWD), writable=False)
    return Deck(log, clock=lambda: MS)


async def pause(pilot: Pilot) -> None:
    await pilot.pause()


def press(*keys: str) -> Step:
    async def step(pilot: Pilot) -> None:
        await pilot.press(*keys)
        await pilot.pause()
    return step


async def palette(pilot: Pilot) -> None:
    await pilot.app.push_screen(CommandPalette(providers=[SlashCommandProvider]))
    await pilot.app.screen.workers.wait_for_complete()
    await pilot.pause()


async def packet(pilot: Pilot) -> None:
    pilot.app.deck_screen.show_packet("review-parser")  # type: ignore[attr-defined]
    await pilot.pause()


async def settle(pilot: Pilot) -> None:
    """Until the deck screen's worker has drawn the branch's events."""
    await until(pilot, lambda: not pilot.app.deck_screen.busy)  # type: ignore[attr-defined]


def on_deck(*keys: str) -> Step:
    async def step(pilot: Pilot) -> None:
        await settle(pilot)
        await pilot.press(*keys)
        await pilot.pause()
    return step


async def work_item(pilot: Pilot) -> None:
    await settle(pilot)
    pilot.app.deck_screen.show_row("work item", "flag")  # type: ignore[attr-defined]
    await pilot.pause()


# -- the history screens: the timeline of pi's branched fixture, and the sessions overview -------------

BRANCHED = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "pi_sessionmanager_branched.jsonl"
TRANSCRIPTS = BRANCHED.parent / "agent-transcripts"
"""Real transcripts of Claude Code, Codex and Gemini CLI (its README says how they were made)."""


def conversation_copy(folder: Path, sample: str, lines: int, mtime_ms: int) -> Path:
    """The first ``lines`` lines of a sample's transcript, at its path under ``folder`` (the agent's
    home), last written at ``mtime_ms``: the conversation as it was while the agent worked."""
    final = TRANSCRIPTS / sample / "final"
    source = next(p for p in sorted(final.rglob("*.jsonl")))
    return head_copy(source, folder / source.relative_to(final), lines, mtime_ms)


def head_copy(source: Path, target: Path, lines: int, mtime_ms: int) -> Path:
    """The first ``lines`` lines of ``source`` at ``target`` (an agent only ever appends whole
    lines: the file as it was), last written at ``mtime_ms``."""
    target.parent.mkdir(parents=True, exist_ok=True)
    with source.open("rb") as src, target.open("wb") as out:
        for _, line in zip(range(lines), src):
            out.write(line)
    os.utime(target, ns=(mtime_ms * 1_000_000, mtime_ms * 1_000_000))
    return target


def opencode_copy(folder: Path, snapshot: int) -> tuple[Path, int]:
    """opencode's database as the sample run copied it at its ``snapshot``-th moment, where opencode
    keeps it under ``folder`` (the home); answers the conversation's name and the time of its last
    change."""
    import gzip

    from core.sources import opencode
    from core.sources.in_database import conversation_path

    moment = sorted((TRANSCRIPTS / "opencode-todowrite" / "snapshots").glob("t+*"))[snapshot]
    db = folder / ".local" / "share" / "opencode" / "opencode.db"
    db.parent.mkdir(parents=True, exist_ok=True)
    db.write_bytes(gzip.decompress((moment / "db.sqlite.gz").read_bytes()))
    (session,) = opencode.sessions(db).values()
    return conversation_path(db, session.id), session.updated_ms


SUBAGENT_MOMENT = {"main": 62, "subagent": 53}
"""The claude-subagent sample at its t+015.45s snapshot (its README): the parent waits at its Agent
call, the subagent has completed task #3 and works on #4."""


def subagent_copy(folder: Path, mtime_ms: int) -> Path:
    """The claude-subagent sample as it was mid-run: both transcripts cut (whole lines only ever
    appended) and the subagent's meta.json of the moment; answers the conversation's transcript."""
    sample = TRANSCRIPTS / "claude-subagent"
    final = sample / "final"
    main = next(final.glob(".claude/projects/*/*.jsonl"))
    side = main.with_suffix("") / "subagents"
    copies = [(main, SUBAGENT_MOMENT["main"]), (next(side.glob("agent-*.jsonl")), SUBAGENT_MOMENT["subagent"])]
    for source, lines in copies:
        head_copy(source, folder / source.relative_to(final), lines, mtime_ms)
    for meta in (sample / "snapshots" / "t+015.45s" / side.relative_to(sample / "final")).glob("*.meta.json"):
        (folder / side.relative_to(final) / meta.name).write_bytes(meta.read_bytes())
    return folder / main.relative_to(final)


def subagent_app(folder: Path) -> PideckApp:
    """The deck on a Claude Code conversation whose subagent runs (its tasks in the one plan)."""
    from core.sources.log import ConversationLog

    os.environ["PIDECK_HOME"], os.environ["HOME"] = str(folder / "pideck"), str(folder)
    log = ConversationLog.open_transcript(subagent_copy(folder, CONVERSATION_MS - 3000))
    return app_of(Deck(log, clock=lambda: CONVERSATION_MS), CONVERSATION_MS)


def conversation_app(sample: str, lines: int, bound: bool = False) -> Callable[[Path], PideckApp]:
    """The deck on a sample conversation cut after ``lines`` lines (of opencode's database, which
    of the run's snapshots), its last line 3 s old (the agent's home and pideck's are ``folder``:
    set here for the screenshots; tests set their own). ``bound``: the conversation has written to
    pideck (``bound_session``)."""
    def make(folder: Path) -> PideckApp:
        from core.sources.log import ConversationLog

        os.environ["PIDECK_HOME"], os.environ["HOME"] = str(folder / "pideck"), str(folder)
        if sample == "opencode-todowrite":
            path, last_ms = opencode_copy(folder, lines)
            now = last_ms + 3000
        else:
            path, now = conversation_copy(folder, sample, lines, CONVERSATION_MS - 3000), CONVERSATION_MS
        log = ConversationLog.open_transcript(path)
        if bound:
            bound_session(log.kind, str(log.session_id), log.reading.source)
        return app_of(Deck(log, clock=lambda: now), now)
    return make


BOUND_TODOS = {
    "plan": {"user_intention": "Let the CLI open a session file by path", "understands_user_intent": 90},
    "todos": [
        {"id": "flag", "content": "Parse --session PATH", "status": "in_progress", "priority": "high",
         "confidence": 85, "group": "cli"},
        {"id": "test", "content": "Test the flag end to end", "status": "pending", "priority": "medium",
         "confidence": 70, "group": "cli"},
    ],
    "goals": [{"group": "cli", "closed_feedback_loop": 80, "feedback_loop": "pytest tests/cli -k session"}],
}


def bound_session(agent: str, conversation_id: str, transcript: Path) -> Path:
    """A conversation's pideck session as its agent fills it through ``pideck mcp``: at a fixed
    path, every entry after the first from a fixed clock."""
    from core.sources import binding

    conversation = binding.Conversation(agent, conversation_id, CWD, str(transcript))
    path = pideck_sessions_dir(CWD) / f"2026-12-01T07-16-40-000Z_{conversation_id[:8]}.jsonl"
    binding.write_json(binding.binding_path(agent, conversation_id), {**conversation.entry(), "session": str(path)})
    made = binding.session_for(conversation, create=True)  # (made again at the bound path)
    assert made == path
    moment = datetime.fromtimestamp((CONVERSATION_MS - 5000) / 1000, timezone.utc)
    deck = Deck(SessionLog.open(path, clock=lambda: moment, id_factory=counter_ids()), clock=lambda: CONVERSATION_MS - 5000)
    for line in ("/agent-state objective Open a session file by path from the CLI",
                 "/agent-state add flag Parse --session PATH", "/agent-state set flag in_progress",
                 "/agent-state add docs Document the flag", "/agent-progress add flag-parsed"):
        deck.apply(line)
    deck.call_tool("agent_handoff_create", {"schemaVersion": 1, "id": "review-flag", "source": "claude",
                                            "goal": "Review the --session flag once it is tested"})
    deck.call_tool("todo", BOUND_TODOS)
    return path


CONVERSATION_MS = 1796109420000  # 2026-12-01T07:17:00Z, after the samples' runs
LATER_MS = 1796054400000  # 2026-11-30T16:00:00Z, after every entry of the overview's sessions


async def until(pilot: Pilot, condition: Callable[[], bool], timeout: float = 10.0) -> None:
    for _ in range(int(timeout / 0.02)):
        if condition():
            break
        await pilot.pause(0.02)
    await pilot.pause()


def timeline(downs: int, after: Step | None = None) -> Step:
    """Open the timeline (f8), move the cursor ``downs`` rows, wait for its preview; then ``after``."""
    async def step(pilot: Pilot) -> None:
        from tui.screens.timeline import TimelineScreen

        await pilot.press("f8")
        await until(pilot, lambda: isinstance(pilot.app.screen, TimelineScreen))
        screen = pilot.app.screen
        assert isinstance(screen, TimelineScreen)

        def shown() -> bool:
            event = screen.selected_event()
            return (not screen.busy and event is not None and screen.shown is not None
                    and screen.shown.as_of.entry_id == event.entry_id)

        await until(pilot, shown)
        for _ in range(downs):
            await pilot.press("down")
        await until(pilot, shown)
        if after is not None:
            await after(pilot)
    return step


async def past(pilot: Pilot) -> None:
    from tui.screens.past import PastScreen

    await pilot.press("enter")
    await until(pilot, lambda: isinstance(pilot.app.screen, PastScreen))


async def diff(pilot: Pilot) -> None:
    """Mark T7, move up to B4, show the diff."""
    from tui.screens.diff import DiffScreen

    await pilot.press("m")
    for _ in range(14):
        await pilot.press("up")
    await pilot.pause(0.3)
    await pilot.press("d")
    await until(pilot, lambda: isinstance(pilot.app.screen, DiffScreen))
    pilot.app.clear_notifications()
    await pilot.pause()


async def overview(pilot: Pilot) -> None:
    from tui.screens.overview import OverviewScreen

    await until(pilot, lambda: isinstance(pilot.app.screen, OverviewScreen) and len(pilot.app.screen.rows) == 2)


def branched_app(folder: Path) -> PideckApp:
    path = folder / BRANCHED.name
    shutil.copy(BRANCHED, path)
    return app_of(Deck(SessionLog.open(path, writable=False), clock=lambda: MS))


def overview_app(folder: Path) -> PideckApp:
    """pideck's demo session and pi's branched fixture for CWD, in a private pideck and pi home."""
    os.environ["PIDECK_HOME"], os.environ["PI_CODING_AGENT_DIR"] = str(folder / "pideck"), str(folder / "pi")
    mine = pideck_sessions_dir(CWD)
    mine.mkdir(parents=True)
    write_demo(mine / "2026-11-30T14-55-13-000Z_demo.jsonl", cwd=CWD, clock=lambda: MOMENT, ids=counter_ids(),
               todo_clock=lambda: MS)
    theirs = pi_sessions_dir(CWD)
    theirs.mkdir(parents=True)
    shutil.copy(BRANCHED, theirs / "2026-11-30T15-50-53-733Z_01a22d26.jsonl")
    return PideckApp(None, follow=False, clock=lambda: LATER_MS, cwd=CWD, overview_poll=0.05, settings=TuiConfig())


def inbox_app(folder: Path) -> PideckApp:
    """The overview of CWD with conversations of Claude Code (one asked for a permission: its
    Notification hook recorded by ``pideck hook claude``; one ended), Codex (stopped between its
    turns with its plan open), Gemini CLI (waiting), and pideck's demo session."""
    import io
    import json as _json

    from core.agents.hooks import run_hook

    os.environ["PIDECK_HOME"], os.environ["HOME"] = str(folder / "pideck"), str(folder)
    os.environ["PI_CODING_AGENT_DIR"] = str(folder / "pi")
    mine = pideck_sessions_dir(CWD)
    mine.mkdir(parents=True)
    write_demo(mine / "2026-11-30T14-55-13-000Z_demo.jsonl", cwd=CWD, clock=lambda: MOMENT, ids=counter_ids(),
               todo_clock=lambda: MS)
    claude = conversation_copy(folder, "claude-tasks", 67, CONVERSATION_MS - 95_000)
    conversation_copy(folder, "claude-todowrite", 10_000, CONVERSATION_MS - 600_000)
    conversation_copy(folder, "codex-update-plan", 39, CONVERSATION_MS - 200_000)
    conversation_copy(folder, "gemini-write-todos", 10_000, CONVERSATION_MS - 130_000)
    (folder / ".gemini" / "projects.json").write_text(_json.dumps({"projects": {CWD: "project"}}), encoding="utf-8")
    sessions = folder / ".claude" / "sessions"
    sessions.mkdir(parents=True, exist_ok=True)
    sid = claude.stem
    (sessions / "4242.json").write_text(_json.dumps({"pid": os.getpid(), "sessionId": sid, "cwd": CWD,
                                                      "status": "idle"}), encoding="utf-8")
    hook = _json.loads((TRANSCRIPTS.parent / "agent-hooks" / "claude-notification.json").read_text())[0]["stdin"]
    hook.update(session_id=sid, transcript_path=str(claude), cwd=CWD)
    run_hook("claude", _json.dumps(hook).encode(), session=None, write=False, out=io.StringIO(), err=io.StringIO())
    from core.sources import binding
    record = binding.read_json(Path(os.environ["PIDECK_HOME"]) / "attention" / "claude" / f"{sid}.json") or {}
    for key in ("ask", "last"):  # (recorded at the moment of the screenshot's clock)
        if isinstance(record.get(key), dict):
            record[key]["at"] = CONVERSATION_MS - 90_000
    binding.write_json(Path(os.environ["PIDECK_HOME"]) / "attention" / "claude" / f"{sid}.json", record)
    return PideckApp(None, follow=False, clock=lambda: CONVERSATION_MS, cwd=CWD, overview_poll=0.05,
                     settings=TuiConfig())


async def inbox(pilot: Pilot) -> None:
    from tui.screens.overview import OverviewScreen

    await until(pilot, lambda: isinstance(pilot.app.screen, OverviewScreen) and len(pilot.app.screen.rows) == 5
                and len(pilot.app.screen.attentions) == 5 and not pilot.app.screen.busy)


def app_of(deck: Deck, clock_ms: int = MS) -> PideckApp:
    """The app with default settings (never the developer's config) and no flashing rows."""
    return PideckApp(deck, follow=False, clock=lambda: clock_ms, settings=TuiConfig(), flash=0)


def demo_app(folder: Path) -> PideckApp:
    return app_of(demo_deck(folder))


def pi_app(folder: Path) -> PideckApp:
    return app_of(pi_deck(folder))


def busy_app(folder: Path) -> PideckApp:
    """The demo, then a few minutes of an agent at work: a todo done, a work item moved on, a judge
    that found nothing new."""
    later = MOMENT + timedelta(seconds=30)
    deck = Deck(SessionLog.open(demo_deck(folder).log.path, clock=lambda: later), clock=lambda: MS + 30_000)
    todos = [dict(todo, status="completed", completion_confidence=96) if todo["id"] == "crlf" else todo
             for todo in TODO_ITEMS]
    deck.call_tool("todo", {**TODOS, "todos": todos})
    deck.call_tool("agent_state_set_work_item_status", {"id": "flag", "status": "in_progress"})
    deck.call_tool("agent_progress_judge", {})
    deck.refresh()
    return app_of(deck, MS + 42_000)


def waiting_app(folder: Path) -> PideckApp:
    """``pideck`` where nothing has started yet; the folders it names are under a home that is the
    same on every machine (``main`` puts the environment back)."""
    from core.catalog.opening import Waiting

    os.environ.update(HOME="/home/user", PIDECK_HOME="/home/user/.local/state/pideck",
                      PI_CODING_AGENT_DIR="/home/user/.pi/agent")
    return PideckApp(None, waiting=Waiting("/home/user/project"), follow=False, clock=lambda: MS, flash=0)


SHOTS: list[tuple[str, Callable[[Path], PideckApp], tuple[int, int], Step]] = [
    ("main.svg", demo_app, (120, 40), pause),
    ("main-80x24.svg", demo_app, (80, 24), pause),
    ("palette.svg", demo_app, (120, 40), palette),
    ("todos-overlay.svg", demo_app, (120, 40), press("f2")),
    ("packet-detail.svg", demo_app, (120, 40), packet),
    ("pi-read-only.svg", pi_app, (120, 40), press("ctrl+l")),
    ("activity.svg", busy_app, (120, 40), on_deck("f3")),
    ("work-item-detail.svg", busy_app, (120, 40), work_item),
    ("narrow-80x24-activity.svg", busy_app, (80, 24), on_deck("f3", "ctrl+n")),
    ("overview.svg", overview_app, (120, 40), overview),
    ("inbox.svg", inbox_app, (120, 40), inbox),
    ("timeline.svg", branched_app, (120, 40), timeline(4)),
    ("past-point.svg", branched_app, (120, 40), timeline(10, past)),
    ("diff.svg", branched_app, (120, 40), timeline(24, diff)),
    ("claude-conversation.svg", conversation_app("claude-tasks", 67, bound=True), (120, 40), pause),
    ("codex-conversation.svg", conversation_app("codex-update-plan", 30), (120, 40), pause),
    ("opencode-conversation.svg", conversation_app("opencode-todowrite", 3), (120, 40), pause),
    ("subagent-conversation.svg", subagent_app, (120, 40), pause),
    ("waiting.svg", waiting_app, (100, 30), pause),
]


# -- `pideck usage`: a text report, recorded as an SVG ------------------------------------------------

USAGE_DAYS = {"claude-tasks": None, "codex-update-plan": "2026-11-29", "gemini-write-todos": "2026-11-30",
              "qwen-todo-write": None}
"""The samples ``pideck usage``'s picture and tests report on, and the day each is moved to (the
runs all happened within minutes on 2026-12-01; moving two of them gives the chart three days).
Qwen's model (qwen3-coder-plus) is one the price table has no price for."""
USAGE_MTIME_MS = CONVERSATION_MS - 60_000


def usage_copy(home: Path, cwd: str = CWD) -> dict[str, Path]:
    """The ``USAGE_DAYS`` samples' files (transcripts, plans, Gemini's project table) under
    ``home`` as each CLI keeps them for ``cwd`` (the samples' own project folder replaced by it,
    in the files and in the folders named after it), each moved to its day; answers each sample's
    transcript."""
    from core.sources.discovery import claude_folder_name, qwen_folder_name

    folder_names = {".claude": claude_folder_name(cwd), ".qwen": qwen_folder_name(cwd)}
    transcripts = {}
    for sample, day in USAGE_DAYS.items():
        final = TRANSCRIPTS / sample / "final"
        for source in sorted(final.rglob("*")):
            if not source.is_file():
                continue
            parts = source.relative_to(final).parts
            parts = tuple(folder_names.get(parts[0], p) if p == "-home-user-project" else p for p in parts)
            data = source.read_bytes().replace(b"/home/user/project", cwd.encode())
            if day is not None:
                data = data.replace(b'"2026-12-01T', f'"{day}T'.encode())
            target = home.joinpath(*parts)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
            os.utime(target, ns=(USAGE_MTIME_MS * 1_000_000,) * 2)
            if source.suffix == ".jsonl" and ".claude/tasks" not in source.as_posix():
                transcripts[sample] = target
    return transcripts


def usage_svg(folder: Path) -> str:
    """``pideck usage`` over the ``USAGE_DAYS`` samples in CWD, by day, as an 80-column terminal
    shows it (dates in UTC, so the picture is the same wherever it is made)."""
    import io
    import time

    from rich.console import Console
    from rich.text import Text

    from core.cli.usage import report_of
    from core.views.usage_report import usage_text

    os.environ["PIDECK_HOME"], os.environ["HOME"] = str(folder / "pideck"), str(folder)
    os.environ["PI_CODING_AGENT_DIR"] = str(folder / "pi")
    zone = {"TZ": os.environ.get("TZ")}
    os.environ["TZ"] = "UTC"
    time.tzset()
    try:
        usage_copy(folder)
        text = usage_text(report_of(CWD))
    finally:
        restore(zone)
        time.tzset()
    console = Console(record=True, width=80, file=io.StringIO())
    shown = Text(f"$ pideck usage\n{text}")
    shown.highlight_regex(r"[█▏▎▍▌▋▊▉]+", "cyan")  # (the bars; the text is the command's, as it prints it)
    shown.highlight_regex(r"^(DAY|TOTAL) .*$", "bold")
    console.print(shown)
    return console.export_svg(title="pideck usage")


async def shoot(name: str, app: PideckApp, size: tuple[int, int], step: Step) -> None:
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await step(pilot)
        app.save_screenshot(filename=name, path=str(OUT))


ENVIRON = ("PIDECK_HOME", "PI_CODING_AGENT_DIR", "HOME")
"""What a scene may point elsewhere; put back after each."""


def restore(saved: dict[str, str | None]) -> None:
    """The environment variables ``saved`` as they were (None: unset)."""
    for key, value in saved.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value


async def main() -> None:
    OUT.mkdir(exist_ok=True)
    saved = {k: os.environ.get(k) for k in ENVIRON}
    for name, make, size, step in SHOTS:
        with tempfile.TemporaryDirectory() as folder:
            try:
                await shoot(name, make(Path(folder)), size, step)
            finally:
                restore(saved)
        print(OUT / name)
    text_shots()


def text_shots() -> None:
    """The pictures of commands' text output (not of the app)."""
    saved = {k: os.environ.get(k) for k in ENVIRON}
    for name, make in TEXT_SHOTS:
        with tempfile.TemporaryDirectory() as folder:
            try:
                (OUT / name).write_text(make(Path(folder)), encoding="utf-8")
            finally:
                restore(saved)
        print(OUT / name)


TEXT_SHOTS: list[tuple[str, Callable[[Path], str]]] = [("usage.svg", usage_svg)]


if __name__ == "__main__":
    asyncio.run(main())
