"""`pideck demo`: a session with every pane populated, written through the Deck like a user would."""

from __future__ import annotations

import argparse
import itertools
import json
import os
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Callable, cast

from core.deck.deck import Deck
from core.session.log import SessionLog
from core.session.writer import utc_now

if TYPE_CHECKING:
    from core.cli.common import OpenTui

STATE_LINES = (
    "/agent-state objective Ship the streaming JSONL parser behind a --follow flag",
    "/agent-state add parse Write the streaming parser",
    "/agent-state add flag Wire the --follow CLI flag",
    "/agent-state add bench Benchmark 100 MB session files",
    "/agent-state add docs Document the flag in the README",
    "/agent-state set parse in_progress",
    "/agent-state set bench blocked",
    "/agent-state set docs done",
    "/agent-state decide poll Poll the file every 100 ms instead of using inotify",
    "/agent-state decide lazy Keep message bodies on disk and index them by offset",
)

PROGRESS_LINES = (
    "/agent-progress add header-parsed",
    "/agent-progress add entries-indexed",
    "/agent-progress judge",  # sets the baseline
    "/agent-progress add tail-follows-appends",
    "/agent-progress withdraw header-parsed",
    "/agent-progress judge",  # progress: one new, one withdrawn
    "/agent-progress add truncation-detected",  # declared after the verdict: not judged yet
)

PACKETS = (
    {"schemaVersion": 1, "id": "review-parser", "source": "builder", "destination": "reviewer",
     "goal": "Review the streaming parser for partial-line handling",
     "constraints": ["Do not change the on-disk format", "Keep the parser free of UI code"],
     "openItems": ["CRLF line endings", "a 2 GB line"], "evidenceReferences": ["tests/session/test_tail.py"]},
    {"schemaVersion": 1, "id": "bench-handover", "source": "builder",
     "goal": "Finish the 100 MB benchmark once the CI runner has more disk",
     "openItems": ["runner disk quota"]},
)

TODO_ITEMS = [
    {"id": "parse", "content": "Write the streaming parser", "status": "in_progress",
     "priority": "high", "confidence": 80, "group": "parser"},
    {"id": "lex", "content": "Split lines on bytes, keep the partial tail", "status": "completed",
     "priority": "high", "confidence": 90, "completion_confidence": 97, "group": "parser"},
    {"id": "crlf", "content": "Handle CRLF endings", "status": "pending", "priority": "medium",
     "confidence": 55, "group": "parser"},
    {"id": "flag", "content": "Wire the --follow CLI flag", "status": "pending", "priority": "medium",
     "confidence": 70, "group": "cli"},
    {"id": "color", "content": "Colour the output", "status": "cancelled", "priority": "low",
     "confidence": 40, "group": "cli"},
    {"id": "readme", "content": "Document the flag", "status": "pending", "priority": "low",
     "confidence": 92},
]
TODOS = {
    "plan": {"user_intention": "Follow a pi session live without re-reading the whole file",
             "understands_user_intent": 88},
    "todos": TODO_ITEMS,
    "goals": [
        {"group": "parser", "closed_feedback_loop": 90,
         "feedback_loop": "pytest tests/session: partial lines, truncation, replacement, CRLF"},
        {"group": "cli", "closed_feedback_loop": 45, "feedback_loop": "run pideck --follow on a growing file"},
    ],
}


def write_demo(
    path: Path,
    cwd: str | None = None,
    clock: Callable | None = None,
    ids: Callable | None = None,
    todo_clock: Callable[[], int] | None = None,
    answers: bool = True,
) -> Deck:
    """Create ``path`` and fill it; returns the writable Deck (it holds the last progress verdict).
    ``answers``: the agent's answers and a compaction too (``ANSWERS``)."""
    if clock is None and todo_clock is None:
        # (the demo is written as if it began DEMO_AGO seconds ago, so the agent's answers, which
        # came over ANSWERS' minute and a half, are all in the past when the app opens)
        clock = lambda: utc_now() - timedelta(seconds=DEMO_AGO)  # noqa: E731
        todo_clock = lambda: int(clock().timestamp() * 1000)  # noqa: E731
    log = SessionLog.create(path, cwd=cwd or os.getcwd(), clock=clock, id_factory=ids)  # (None: the log's own)
    deck = Deck(log, clock=todo_clock)
    for line in STATE_LINES + PROGRESS_LINES:
        deck.apply(line)
    for packet in PACKETS:
        deck.call_tool("agent_handoff_create", packet)
    deck.call_tool("todo", TODOS)
    deck.apply("/todos poke trigger")  # a follow-up naming the open items: the 👉 targets
    if answers:
        append_answers(log, (clock or utc_now)(), ids)
    deck.refresh()
    return deck


MODEL, PROVIDER = "claude-sonnet-4-5", "anthropic"
DEMO_AGO = 100
"""How long before now the demo's first entry is dated (its last answer comes 95 seconds in)."""
RATES = {"input": 3.0, "output": 15.0, "cacheRead": 0.3, "cacheWrite": 3.75}
"""The model's dollars per million tokens (Anthropic's list price), so the demo's own costs add up."""

ANSWERS: tuple[tuple[int, str, object], ...] = (
    (5, "user", "Write the streaming parser; keep the partial tail of a line for the next read"),
    (12, "assistant", (3_210, 1_204, 118_000, 9_500)),  # (input, output, cache read, cache write)
    (31, "assistant", (1_020, 2_310, 170_400, 8_270)),
    (44, "compaction", 182_000),
    (50, "user", "Now handle CRLF endings"),
    (58, "assistant", (2_050, 960, 30_400, 6_800)),
    (95, "assistant", (1_480, 3_120, 71_900, 7_600)),
)
"""What the agent was asked and answered while ``parse`` was in progress (seconds after the demo's
start): its answers' usage as pi writes it, with their cost, and one compaction of its context,
so the header shows the cost, the context bar and the compaction mark, and the todo its cost."""


def answer_usage(counts: tuple[int, int, int, int]) -> dict[str, object]:
    """pi's assistant ``usage``: the tokens and their cost in dollars."""
    tokens = dict(zip(("input", "output", "cacheRead", "cacheWrite"), counts))
    cost = {k: round(n * RATES[k] / 1_000_000, 6) for k, n in tokens.items()}
    return {**tokens, "totalTokens": sum(counts), "cost": {**cost, "total": round(sum(cost.values()), 6)}}


def append_answers(log: SessionLog, start: datetime, ids: Callable[[], str] | None) -> None:
    """Write ``ANSWERS`` as pi does (a demo stands in for the agent; pideck itself never writes a
    message), each a child of the one before."""
    from core.session.entry import Entry
    from core.session.writer import iso_timestamp, serialise, short_id

    make_id = ids or short_id
    parent = log.leaf_id
    lines = []
    for seconds, kind, what in ANSWERS:
        entry_id, at = make_id(), iso_timestamp(start + timedelta(seconds=seconds))
        entry: dict[str, object] = {"type": "message" if kind != "compaction" else kind, "id": entry_id,
                                    "parentId": parent, "timestamp": at}
        if kind == "user":
            entry["message"] = {"role": "user", "content": [{"type": "text", "text": what}]}
        elif kind == "assistant":
            assert isinstance(what, tuple)
            entry["message"] = {"role": "assistant", "content": [{"type": "text", "text": "Done: the tests pass."}],
                                "provider": PROVIDER, "model": MODEL, "usage": answer_usage(what),
                                "stopReason": "stop"}
        else:
            entry.update(summary="The parser reads whole lines and keeps the partial tail.", firstKeptEntryId=parent,
                         tokensBefore=what)
        lines.append(serialise(cast(Entry, entry)))
        parent = entry_id
    with open(log.path, "ab") as out:
        out.write(b"".join(lines))


def demo_why(path: Path, keep: bool = False) -> str:
    """What the message log says of the demo session as the app starts: where it is, so another
    shell can drive it, and what becomes of it."""
    import shlex

    fate = "kept" if keep else "removed"
    return (f"a demo session at {path}, {fate} when the app ends; drive it from another shell with "
            f"`pideck tool --session {shlex.quote(str(path))} NAME [JSON]`")


def counter_ids() -> Callable[[], str]:
    """Deterministic 8-hex entry ids (tests and screenshots)."""
    numbers = itertools.count(1)
    return lambda: f"{next(numbers):08x}"


PI_SESSION_NAME = "2026-11-30T14-55-13-547Z_01a22cf3-ee8a-76c4-ac31-d27625d5469f.jsonl"


def write_pi_example(folder: Path, cwd: str) -> Path:
    """A small session as pi writes it, with an invalid Agent State entry (a restore warning),
    a packet whose goal has brackets, a session name and a torn last line (a skipped-line warning)."""
    entries = [
        {"type": "session", "version": 3, "id": "01a22cf3-ee8a-76c4-ac31-d27625d5469f",
         "timestamp": "2026-11-30T14:55:13.547Z", "cwd": cwd},
        {"type": "message", "id": "f09a4425", "parentId": None, "timestamp": "2026-11-30T14:55:13.754Z",
         "message": {"role": "user", "content": [{"type": "text", "text": "Ship the parser"}]}},
        {"type": "custom", "customType": "agent-state-state", "id": "4f566eac", "parentId": "f09a4425",
         "timestamp": "2026-11-30T14:55:13.758Z", "data": {"schemaVersion": 1, "state": {"turns": 1}}},
        {"type": "custom", "customType": "agent-handoff-state", "id": "5b0c1d2e", "parentId": "4f566eac",
         "timestamp": "2026-11-30T14:55:14.000Z", "data": {"schemaVersion": 1, "packets": [
             {"schemaVersion": 1, "id": "to-reviewer", "source": "pi",
              "goal": "Review the [parser] (literal brackets)"}]}},
        {"type": "session_info", "id": "6c1d2e3f", "parentId": "5b0c1d2e", "timestamp": "2026-11-30T14:55:15.000Z",
         "name": "parser work (pi)"},
    ]
    path = folder / PI_SESSION_NAME
    text = "".join(json.dumps(e) + "\n" for e in entries) + '{"type":"message","id":"torn"\n'
    path.write_text(text, encoding="utf-8")
    return path


def run(args: argparse.Namespace, tui: OpenTui) -> int:
    """``pideck demo``: write a session with every pane populated, and beside it one example
    conversation of each agent (``core/cli/demo_conversations.py``), in a temporary folder that
    stands in for pideck's and the agents' homes, and open the session; the message log says where
    it is (another shell can drive it) and that the conversations are examples. The folder is
    removed when the app ends (``--keep``: kept, and its path printed)."""
    import shutil
    import tempfile
    from contextlib import ExitStack
    from pathlib import Path

    from core.catalog.opening import Opened
    from core.cli.common import HeldInterrupts
    from core.cli.demo import demo_why, write_demo
    from core.cli.demo_conversations import LaterAsk, demo_homes, write_example_conversations
    from core.clock import wall_clock_ms
    from core.config.places import pideck_sessions_dir

    def remove() -> None:
        if args.keep:
            return
        while True:  # a second ctrl+c while the folder goes must not leave half of it behind
            try:
                shutil.rmtree(folder, ignore_errors=True)
                return
            except KeyboardInterrupt:
                continue

    with ExitStack() as leaving:  # (``cleanup``: also when a hung-up app has to be ended by force)
        # ctrl+c is held from making the folder until its removal is arranged: landing between the
        # two, it left the folder behind, or, on tempfile's first use, the probe file it writes
        with HeldInterrupts():
            folder = Path(tempfile.mkdtemp(prefix="pideck-demo-"))
            leaving.callback(remove)
        with demo_homes(folder) as project:
            path = pideck_sessions_dir(project) / "demo.jsonl"
            deck = write_demo(path, cwd=project)
            claude, *_ = write_example_conversations(project, wall_clock_ms())
            ask = LaterAsk(claude)
            try:
                status = tui(Opened(deck, why=demo_why(path, args.keep) + EXAMPLES), cleanup=remove)
            finally:
                ask.cancel()
    if args.keep:
        print(f"The demo session is kept at {path}")
    return status


EXAMPLES = (". Beside it, f9 and f6 list an example conversation of Claude Code, Codex, Gemini CLI, Qwen Code, "
            "opencode and GitHub Copilot CLI: "
            "examples the demo wrote, not your agents' (in a few seconds the Claude Code one asks for you)")
