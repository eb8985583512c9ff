"""One picture: every view of a state says the same state and the same entry count at the same
moment (docs/architecture.md), because every one reads the catalog (core/catalog/catalog.py).

The directory holds one conversation in each state a conversation can be in and one pideck
session in each state a session can be in (a session has no process to end, and its agent asks
the person through its conversation, so "needs you" and "ended" are a conversation's alone). The
CLI's views (``overview --json``, ``watch --json``, ``status``) and the app's (each item's deck
header, the overview screen's rows, the header's count of who needs you) are read one after the
other, within seconds, on the wall clock.
"""

from __future__ import annotations

import json
import os
import time
from datetime import datetime, timedelta, timezone

from discovery_helpers import BETWEEN_TURNS, CLAUDE_TASKS, CLAUDE_TODOWRITE, CODEX, GEMINI, SESSION_IDS
from test_inbox_screens import codex_asks
from test_conversation_overview_screen import run, wait_for

from core.catalog.states import ENDED, NEEDS_YOU, OPEN_WORK, WAITING, WORKING
from core.catalog.attention import Attention, summary
from core.deck.deck import Deck
from core.catalog.opening import open_log
from core.session.log import SessionLog
from tui.app import PideckApp
from tui.screens.deck import DeckScreen
from tui.screens.overview import OverviewScreen
from tui.widgets.header import DeckHeader

ENDED_ID = "5b1f0c9e-1d2a-4c3b-9e8f-7a6b5c4d3e2f"


def session(homes, todos: str, age: timedelta) -> str:
    """A pideck session of the directory whose agent wrote one todo ``age`` ago."""
    log = SessionLog.create_for_cwd(str(homes.cwd), clock=lambda: datetime.now(timezone.utc) - age)
    done = todos == "completed"  # (a completed todo needs its goal's ownership, else the write is rejected)
    result = Deck(log).call_tool("todo", {"todos": [{"id": "t", "content": "Write it", "status": todos, "priority": "high",
                                                     "confidence": 80, **({"completion_confidence": 97} if done else {})}],
                                          **({"goals": [{"group": None, "end_to_end_ownership": 99}]} if done else {})})
    assert not result.rejected
    stamp = time.time() - age.total_seconds()
    os.utime(log.path, (stamp, stamp))
    return str(log.path)


def one_of_each(homes) -> dict[str, str]:
    """path -> the state it is in."""
    codex = homes.install(CODEX, lines=BETWEEN_TURNS[CODEX])
    codex_asks(codex)
    working = homes.install(CLAUDE_TASKS, lines=BETWEEN_TURNS[CLAUDE_TASKS])
    homes.claude_live(os.getpid(), SESSION_IDS[CLAUDE_TASKS], "busy")
    waiting = homes.install(CLAUDE_TODOWRITE)
    homes.claude_live(os.getppid(), SESSION_IDS[CLAUDE_TODOWRITE], "idle")
    return {
        str(codex): NEEDS_YOU,  # its PermissionRequest hook, nothing after it
        str(homes.install(GEMINI, lines=BETWEEN_TURNS[GEMINI])): OPEN_WORK,  # its turn ended, plan open
        str(working): WORKING,  # Claude Code says busy
        str(waiting): WAITING,  # Claude Code idle, every item done
        str(homes.install(CLAUDE_TASKS, session_id=ENDED_ID)): ENDED,  # no Claude Code runs it
        session(homes, "pending", timedelta(hours=2)): OPEN_WORK,
        session(homes, "completed", timedelta(hours=2)): WAITING,
        session(homes, "pending", timedelta(seconds=1)): WORKING,  # entries landing
    }


def test_every_view_says_the_same_state_and_entry_count(homes, pideck, monkeypatch) -> None:
    expected = one_of_each(homes)

    # -- the command line
    code, out, _ = pideck("overview", "--json")
    assert code == 0
    overview = {row["path"]: (row["attention"]["state"], row["entries"]) for row in json.loads(out)}
    assert {path: state for path, (state, _) in overview.items()} == expected

    def interrupted(seconds: float) -> None:
        raise KeyboardInterrupt  # (``watch`` runs until Ctrl+C: one look is enough here)

    with monkeypatch.context() as patch:
        patch.setattr("time.sleep", interrupted)
        code, out, _ = pideck("watch", "--json")
    assert code == 0
    watch = {line["path"]: (line["state"], line["entries"]) for line in map(json.loads, out.splitlines())}
    assert watch == overview

    for path, (_, entries) in overview.items():  # ``inspect`` gives each one the same count
        code, out, _ = pideck("inspect", "--json", "--session", path)
        assert code == 0 and json.loads(out)["session"]["entries"] == entries, path

    code, out, _ = pideck("status")
    assert (code, out) == (0, summary_line(expected) + "\n")
    assert out.strip() == "1 needs you · 2 stopped with open work · 2 working · 2 waiting · 1 ended"

    # -- the app, on the same files: each item's header, the overview's rows, who needs you
    first = next(path for path, state in expected.items() if state == NEEDS_YOU)
    app = PideckApp(Deck(open_log(first)), follow=True, poll=0.05, overview_poll=0.05, flash=0)
    shown: dict[str, tuple[str, int]] = {}

    async def scenario(pilot):
        assert await wait_for(pilot, lambda: app.catalog is not None and len(app.catalog.records) == len(expected),
                              timeout=20)
        for path in expected:
            app.open_in_worker(path)
            assert await wait_for(pilot, lambda: isinstance(app.screen, DeckScreen) and app.screen.opened
                                  and str(app.screen.view.path) == path
                                  and app.screen.query_one(DeckHeader).info.state != "", timeout=10)
            info = app.screen.query_one(DeckHeader).info
            shown[path] = (info.state.rsplit(" ", 1)[0], info.entries)
            # who else needs you: the one conversation that asks, unless it is this one
            assert info.inbox.startswith("1 needs you") == (expected[path] != NEEDS_YOU)
        app.action_overview()
        assert await wait_for(pilot, lambda: isinstance(app.screen, OverviewScreen)
                              and len(app.screen.attentions) == len(expected))
        screen = app.screen
        return {row.path: (screen.attentions[row.path].state, row.entries) for row in screen.rows}

    rows = run(app, scenario)
    assert shown == overview
    assert rows == overview


def summary_line(states: dict[str, str]) -> str:
    return summary([Attention(state, None, "") for state in states.values()])


def test_a_session_nobody_wrote_in_is_counted_nowhere_until_its_first_entry(homes, pideck, monkeypatch) -> None:
    """pideck started and quit (or is still looking): its session holds only a header. It is not
    "working" for the idle time and "waiting" for ever after: status, watch and overview leave it
    out until something is written in it."""
    log = SessionLog.create_for_cwd(str(homes.cwd))

    def interrupted(seconds: float) -> None:
        raise KeyboardInterrupt

    def looks() -> tuple[str, list[str], list[str]]:
        with monkeypatch.context() as patch:
            patch.setattr("time.sleep", interrupted)
            watched = [json.loads(line)["path"] for line in pideck("watch", "--json")[1].splitlines()]
        listed = [row["path"] for row in json.loads(pideck("overview", "--json")[1])]
        return pideck("status")[1], watched, listed

    assert looks() == ("nothing here\n", [], [])
    Deck(log).call_tool("todo", {"todos": [{"id": "t", "content": "Write it", "status": "pending", "priority": "high",
                                            "confidence": 80}]})
    assert looks() == ("1 working\n", [str(log.path)], [str(log.path)])
