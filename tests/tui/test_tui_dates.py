"""Times carry their date when a list's events span days: "14:55:13" alone would put yesterday's
change next to today's."""

from __future__ import annotations

from datetime import timedelta

from core.deck.deck import Deck
from core.session.log import SessionLog
from tui.text import clock_time, spans_days
from tui.widgets.events import EventList, event_line
from tui_fixtures import MOMENT, FIXED_MS, demo_deck, make_app, run, settled


def test_clock_time_with_and_without_the_date():
    assert clock_time("2026-11-30T14:55:13.000Z") == "14:55:13"
    assert clock_time("2026-11-30T14:55:13.000Z", dated=True) == "11-30 14:55:13"
    assert spans_days(["2026-11-30T23:59:59Z", "2026-12-01T00:00:00Z"])
    assert not spans_days(["2026-11-30T00:00:00Z", "2026-11-30T23:59:59Z", None, "not a time"])


def test_the_activity_dates_its_times_once_the_session_spans_days(tmp_path):
    deck = demo_deck(tmp_path)
    app = make_app(deck, follow=True, poll=0.02)

    async def scenario(pilot):
        await settled(pilot)
        await pilot.press("f3")
        events = app.deck_screen.query_one(EventList)
        assert not events.dated and event_line(events.selected).plain.startswith("14:55:13 ")
        tomorrow = Deck(SessionLog.open(deck.log.path, clock=lambda: MOMENT + timedelta(days=1)),
                        clock=lambda: FIXED_MS)
        tomorrow.apply("/agent-state add later Next day's work")
        for _ in range(100):
            await pilot.pause(0.02)
            if events.dated:
                break
        assert events.dated
        assert events.line(events.event_at(0)).plain.startswith("12-01 14:55:13 ")
        assert events.line(events.event_at(len(events.shown) - 1)).plain.startswith("11-30 14:55:13 ")

    run(app, scenario)


def test_a_detail_lists_the_newest_changes_and_counts_the_rest():
    """A work item of a long session changed thousands of times: its detail lists the newest
    ``HISTORY_SHOWN`` and says how many older ones the timeline has."""
    from core.views.activity import Event
    from tui.screens.detail import HISTORY_SHOWN, history_text

    events = [Event(f"{n:08x}", "2026-11-30T14:55:13.000Z", n, "state", None, f"change {n}")
              for n in range(HISTORY_SHOWN + 5)]
    lines = history_text(events).plain.splitlines()
    assert lines[1].endswith(f"change {HISTORY_SHOWN + 4}") and lines[HISTORY_SHOWN].endswith("change 5")
    assert lines[-1] == "  … 5 older changes: the timeline (f8) lists them all"
