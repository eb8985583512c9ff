"""The activity view (f3): the branch's events, newest first, live (``core/views/activity.py``).

A session can hold thousands of events and the newest go on top, which a ``DataTable`` could only do
by rebuilding every row. ``EventList`` draws only the lines on screen from the view's tuple of events
(the Line API), so taking in an append costs the new events, not the old ones.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.geometry import Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from core.views.activity import COMMAND, GATE, TOOL, Event
from tui.text import clean, clock_time, spans_days
from tui.widgets.keyed_table import FLASH

PART_STYLES = {"state": "cyan", "progress": "green", "handoff": "magenta", "todo": "yellow", "session": "blue"}
SOURCE_WORDS = {TOOL: "agent", COMMAND: "person", GATE: "gate", "": "unknown"}
"""Who wrote an event (``Event.source``); "" is an entry whose writer the log does not tell, said
as such rather than left blank (core/views/activity.py ``Activity._source_of``)."""


def source_word(event: Event) -> str:
    return SOURCE_WORDS.get(event.source or "", SOURCE_WORDS[""])


def event_line(event: Event, dated: bool = False) -> Text:
    """``14:55:13 agent   todo     todo #t3 completed``: the text last, so the ellipsis cuts it."""
    text = Text(no_wrap=True, overflow="ellipsis", end="")
    text.append(f"{clock_time(event.timestamp, dated)} ", "dim")
    text.append(f"{source_word(event):<8}", "dim")
    text.append(f"{event.part:<9}", PART_STYLES.get(event.part, ""))
    text.append(clean(event.text))
    return text


def event_matches(event: Event, words: Sequence[str]) -> bool:
    """Every word (lower case) is in the event's text, part or source."""
    haystack = f"{event.text} {event.part} {source_word(event)}".lower()
    return all(word in haystack for word in words)


class EventList(ScrollView, can_focus=True):
    """Events newest first, a cursor row, Enter posts ``Chosen``. Rows keep their place on screen
    when newer events arrive above them unless the list is scrolled to the top."""

    DEFAULT_CSS = "EventList { height: 1fr; overflow-x: hidden; padding: 0 1; }"
    BINDINGS = [
        Binding("up", "move(-1)", show=False),
        Binding("down", "move(1)", show=False),
        Binding("pageup", "move(-10)", show=False),
        Binding("pagedown", "move(10)", show=False),
        Binding("home", "move(-1000000000)", show=False),
        Binding("end", "move(1000000000)", show=False),
        Binding("enter", "choose", show=False),
    ]

    @dataclass
    class Chosen(Message):
        event: Event

    @dataclass
    class Highlighted(Message):
        """The cursor is on another event (or the events under it changed)."""

        event: Event | None

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.events: tuple[Event, ...] = ()
        self.epoch = -1
        self.shown: list[int] = []  # indexes into events that pass the filter, oldest first
        self.words: tuple[str, ...] = ()
        self.cursor = 0  # row on screen order: 0 is the newest shown
        self.flash: set[int] = set()  # indexes of events that just arrived
        self.flash_seconds = 0.0
        self.dated = False  # the events span days: their times carry the date
        self._lines: dict[int, Text] = {}

    # -- data ---------------------------------------------------------------------------------------

    def show(self, events: tuple[Event, ...], epoch: int, words: Sequence[str] = (), older: int = 0) -> None:
        """Move to ``events``; only the events after the ones shown are looked at, unless the
        epoch or the filter changed. ``older``: the first ``older`` events are new, older than
        those shown (they go below them: the rows on screen stay where they are)."""
        words = tuple(words)
        if epoch == self.epoch and words == self.words and events is self.events:
            return
        dated = bool(events) and spans_days((events[0].timestamp, events[-1].timestamp))
        if dated != self.dated:
            self.dated = dated
            self._lines.clear()
        if older and epoch == self.epoch and words == self.words and len(events) == len(self.events) + older:
            self.events = events
            below = [i for i in range(older) if not words or event_matches(events[i], words)]
            self.shown = below + [i + older for i in self.shown]
            self.flash = {i + older for i in self.flash}
            self._lines = {i + older: line for i, line in self._lines.items()}
            self._resize()
            return
        if epoch != self.epoch or words != self.words or len(events) < len(self.events):
            fresh = epoch == self.epoch and words == self.words
            self.events, self.epoch, self.words = events, epoch, words
            self.shown = [i for i, e in enumerate(events) if event_matches(e, words)] if words else list(range(len(events)))
            self._lines.clear()
            if not fresh:
                self.cursor = 0
            self.scroll_to(y=0, animate=False)
            self._resize()
            return
        added = [i for i in range(len(self.events), len(events)) if not words or event_matches(events[i], words)]
        self.events = events
        if not added:
            return
        self.shown.extend(added)
        if self.scroll_y > 0 or self.cursor > 0:  # reading further down: keep those rows in place
            self.cursor += len(added)
            self.scroll_to(y=self.scroll_y + len(added), animate=False)
        if self.flash_seconds:
            self.flash.update(added)
            self.set_timer(self.flash_seconds, lambda: self._unflash(added))
        self._resize()

    def _unflash(self, indexes: list[int]) -> None:
        self.flash.difference_update(indexes)
        self.refresh()

    def _resize(self) -> None:
        self.virtual_size = Size(self.size.width, len(self.shown))
        self.refresh()

    def on_resize(self) -> None:
        self._resize()

    def event_at(self, row: int) -> Event | None:
        if 0 <= row < len(self.shown):
            return self.events[self.shown[len(self.shown) - 1 - row]]
        return None

    @property
    def selected(self) -> Event | None:
        return self.event_at(self.cursor)

    # -- drawing ------------------------------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        row = round(self.scroll_y) + y
        width = self.scrollable_content_region.width
        event = self.event_at(row)
        if event is None:
            if row == 0 and not self.shown:
                empty = "no events match the filter" if self.words else "no events on this branch yet"
                return Strip(Text(empty, "dim italic", end="").render(self.app.console)).crop_extend(0, width, None)
            return Strip.blank(width, self.rich_style)
        index = self.shown[len(self.shown) - 1 - row]
        text = self._lines.get(index)
        if text is None:
            text = self._lines[index] = self.line(event)
        line = text.copy()
        line.truncate(width, overflow="ellipsis", pad=True)
        segments = list(line.render(self.app.console))
        style = self.rich_style
        if index in self.flash:
            style += FLASH
        if row == self.cursor and self.has_focus:
            style += Style(reverse=True)
        return Strip(Segment.apply_style(segments, style), width)

    def line(self, event: Event) -> Text:
        """One event's line (the timeline's list shows more columns)."""
        return event_line(event, self.dated)

    # -- keys ---------------------------------------------------------------------------------------

    def action_move(self, step: int) -> None:
        if not self.shown:
            return
        before = self.selected
        self.cursor = max(0, min(len(self.shown) - 1, self.cursor + step))
        if self.selected is not before:
            self.post_message(self.Highlighted(self.selected))
        height = self.scrollable_content_region.height
        if self.cursor < self.scroll_y:
            self.scroll_to(y=self.cursor, animate=False)
        elif self.cursor >= self.scroll_y + height:
            self.scroll_to(y=self.cursor - height + 1, animate=False)
        self.refresh()

    def action_choose(self) -> None:
        event = self.selected
        if event is not None:
            self.post_message(self.Chosen(event))

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()



class ActivityPanel(Vertical):
    """The activity view's frame: a border with the number of events shown."""

    ALLOW_MAXIMIZE = True

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.border_title = "Activity · newest first"

    def compose(self) -> ComposeResult:
        yield EventList(id="events")

    def show(self, events: tuple[Event, ...], epoch: int, words: Sequence[str] = ()) -> None:
        event_list = self.query_one(EventList)
        event_list.show(events, epoch, words)
        shown, total = len(event_list.shown), len(events)
        self.border_subtitle = (f"{shown} of {total} events" if words else
                                f"{total} {'event' if total == 1 else 'events'}") + " · enter opens"
