"""The timeline of a long session shows its first rows at once and the rest as they are read
(issue: 8-12 s of an empty table on a 50k-entry session), with Home/End as in the activity view."""

from __future__ import annotations

import re
import time

import pytest

from history_fixtures import shown, timeline_app
from tui.models import timeline as timeline_model
from tui.models.deck import DeckModel
from tui.screens.timeline import TimelineEvents, TimelineScreen
from tui_fixtures import run, wait_for


@pytest.fixture(autouse=True)
def walked_by_the_timeline(request, monkeypatch):
    """The timeline walks its pieces itself here: the deck offers no walk of its own to carry on
    (as when F8 comes before the deck has started its walk); the last test gives it one."""
    if "decks_walk" not in request.node.name:
        monkeypatch.setattr(DeckModel, "walked", property(lambda model: None))
        monkeypatch.setattr(DeckModel, "walking", property(lambda model: False))


def test_the_events_come_in_pieces_with_reading_in_the_title(tmp_path, monkeypatch):
    monkeypatch.setattr(timeline_model, "FIRST_PIECE", 2)  # (the fixture is short: pieces of a few entries)
    monkeypatch.setattr(timeline_model, "PIECE", 3)
    seen: list[tuple[int, bool, str]] = []
    drawn = TimelineScreen._draw_title

    def draw_title(self):
        drawn(self)
        if self.changed is not None:
            seen.append((len(self.changed.events), self.changed.loading,
                         str(self.query_one("#timeline-title").render())))

    monkeypatch.setattr(TimelineScreen, "_draw_title", draw_title)
    app = timeline_app(tmp_path)

    async def scenario(pilot):
        await pilot.press("f8")
        screen = await shown(pilot)
        assert await wait_for(pilot, lambda: screen.changed is not None and not screen.changed.loading)
        first, *_, last = seen
        assert first[1] and first[0] < 32 and re.search(r"reading… \d+ entries so far", first[2].replace("\xa0", " "))
        assert last[:2] == (32, False) and "reading" not in last[2]
        assert [n for n, _, _ in seen] == sorted(n for n, _, _ in seen)  # each piece adds to the list
        events = screen.query_one(TimelineEvents)
        newest = events.selected
        await pilot.press("end")
        assert events.selected is screen.events[0]  # the oldest
        await shown(pilot)
        assert screen.shown.as_of.entry_id == screen.events[0].entry_id  # its preview follows
        await pilot.press("home")
        assert events.selected is newest

    run(app, scenario)


def test_a_long_walk_leaves_room_for_the_preview(tmp_path, monkeypatch):
    """A preview asked for during the walk is answered after the piece under way, not after the
    whole walk: each piece is a job of its own, queued behind what the person asked for."""
    monkeypatch.setattr(timeline_model, "FIRST_PIECE", 1)
    monkeypatch.setattr(timeline_model, "PIECE", 1)
    order: list[str] = []
    walk, point = timeline_model.TimelineModel._walk, timeline_model.TimelineModel.point
    monkeypatch.setattr(timeline_model.TimelineModel, "_walk", lambda self, *a, **k: (
        order.append("walk"), time.sleep(0.02), walk(self, *a, **k)))  # (a piece of a long session takes a while)
    monkeypatch.setattr(timeline_model.TimelineModel, "point", lambda self, *a: (order.append("point"),
                                                                                point(self, *a)))
    app = timeline_app(tmp_path)

    async def scenario(pilot):
        await pilot.press("f8")
        screen = await shown(pilot)
        assert await wait_for(pilot, lambda: screen.changed is not None and not screen.changed.loading)
        first_point = order.index("point")
        assert first_point < len(order) - 1 and "walk" in order[first_point + 1:]  # (answered mid-walk)

    run(app, scenario)


def test_the_newest_rows_come_first_and_stay_while_older_ones_fill_in(tmp_path, monkeypatch):
    """The first piece is the branch's end: its rows are the top of the list and stay there (the
    cursor on the newest, previewed once) while each older piece goes below them."""
    monkeypatch.setattr(timeline_model, "FIRST_PIECE", 2)
    monkeypatch.setattr(timeline_model, "PIECE", 3)
    tops: list[object] = []
    changed = TimelineScreen.on_timeline_changed
    monkeypatch.setattr(TimelineScreen, "on_timeline_changed", lambda self, message: (
        changed(self, message), tops.append(self.query_one(TimelineEvents).event_at(0))))
    asked: list[str] = []
    point = timeline_model.TimelineModel.point
    monkeypatch.setattr(timeline_model.TimelineModel, "point", lambda self, ticket, entry, open_deck: (
        asked.append(entry), point(self, ticket, entry, open_deck)))
    app = timeline_app(tmp_path)

    async def scenario(pilot):
        await pilot.press("f8")
        screen = await shown(pilot)
        assert await wait_for(pilot, lambda: screen.changed is not None and not screen.changed.loading)
        await shown(pilot)
        assert len(tops) > 2 and all(top is tops[0] for top in tops)  # (the newest event, from the first piece on)
        assert tops[0] is screen.events[-1] and screen.query_one(TimelineEvents).selected is tops[0]
        assert asked == [screen.events[-1].entry_id]

    run(app, scenario)


class DeckWalking:
    """The deck's walk as the timeline reads it (``DeckModel.walking``/``walked``), set by the test."""

    def __init__(self) -> None:
        self.walking, self.walked = True, None


def test_while_the_decks_walk_goes_on_the_timeline_waits_for_it_instead_of_walking_twice(tmp_path, monkeypatch):
    """F8 during the deck's first walk of the same file: the timeline walks its newest piece, then
    walks no older one but waits, and once the deck's walk is whole lists its events below the
    rows shown; a deck whose walk stopped without a result leaves the timeline to walk on."""
    from core.session.log import SessionLog
    from core.views.activity import Activity
    from history_fixtures import branched_copy

    monkeypatch.setattr(timeline_model, "FIRST_PIECE", 2)
    monkeypatch.setattr(timeline_model, "PIECE", 3)
    monkeypatch.setattr(timeline_model, "WAIT_S", 0)
    path = branched_copy(tmp_path)
    whole = Activity(SessionLog.open(path, writable=False))
    whole.update()
    for gives_up in (False, True):
        deck = DeckWalking()
        model = timeline_model.TimelineModel(path, None, deck)
        posted, jobs = [], []
        model.post, model.later = posted.append, jobs.append
        model.open()
        assert posted[-1].loading and len(posted[-1].events) < 32  # the newest piece
        newest = posted[-1].events
        for _ in range(3):  # (the deck still walking: waited for, nothing walked)
            jobs.pop(0)()
            assert len(posted) == 1 and len(jobs) == 1
        if gives_up:
            deck.walking = False
            while jobs:
                jobs.pop(0)()
            assert len(posted) > 2  # (the older pieces walked here)
            assert not any(a is b for a, b in zip(posted[-1].events, whole.events))
        else:
            deck.walked, deck.walking = whole, False
            jobs.pop(0)()
            assert not jobs and len(posted) == 2
            last = posted[-1]
            assert not last.loading and not last.reset and last.older == 32 - len(newest)
            assert all(a is b for a, b in zip(last.events, whole.events[:last.older]))
        assert posted[-1].events == tuple(whole.events) and not posted[-1].loading
