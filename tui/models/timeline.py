"""The timeline screen's model: one read-only log of the session, its branch's events, pi's tree of
branches and the deck as of any point, on the screen's thread.

Everything the screen asks for comes as a job with its arguments (which branch, which entry, which
preview ticket): the model never reads the screen, and the screen never touches the log.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Protocol

from core.catalog.opening import open_log
from core.config.settings import TodoConfig
from core.views.activity import Activity
from core.views.costs import UsageJson, usage_of
from core.views.diff import diff_points
from core.views.points import point_of
from core.views.timetravel import TimeMachine
from core.views.tree import SessionTree, read_tree
from core.views.view import build_view
from tui.messages import DiffShown, PointShown, TimelineChanged
from tui.models.thread import FileWatch, Model, file_problem

FIRST_PIECE = 500
"""Entries at the end of the branch the first view of the events walks (a few hundredths of a
second on a long session, more rows than a screen holds there), so the newest rows show at once;
the older ones follow in ``PIECE``s, each added below those shown and queued behind what the
person asked for meanwhile (a preview waits for one piece at most)."""
PIECE = 4_000
WAIT_S = 0.05
"""How long the walk waits at a time for the deck's walk of the same file to be whole (its
older pieces are not walked twice meanwhile); a job the person asks for waits that long at most."""


class DeckWalk(Protocol):
    """The deck's own walk of its activity (``DeckModel``), read from the timeline's thread."""

    @property
    def walking(self) -> bool: ...

    @property
    def walked(self) -> Activity | None: ...


class TimelineModel(Model):
    name = "timeline"
    look_s = 0.5  # (how often a failed first read is tried again)

    def __init__(self, path: Path, todo_config: TodoConfig | None, deck: DeckWalk | None = None) -> None:
        super().__init__()
        self.path = path
        self._deck = deck  # the deck's walk of the same file, until this walk is whole
        self._todo_config = todo_config
        self._log: Any = None  # (the log ``open_log`` opened, once it is open)
        self._machine: TimeMachine | None = None
        self._activity: Activity | None = None
        self._branch: str | None = None  # the leaf of the branch shown, None: the current one
        self._files = FileWatch()
        self._loading = False  # the walk of the events has more to read
        self._read_of: tuple[int, int] | None = None  # (generation, entries) of the log ``_read`` holds
        self._read: tuple[SessionTree, UsageJson | None] | None = None

    def open(self) -> None:
        """The log, then the first piece of its events; when it fails, ``idle`` tries again."""
        keys = self._files.keys([self.path])  # (before reading: an append meanwhile is news)
        log = open_log(self.path, writable=False)  # (an agent's transcript too)
        self._machine = TimeMachine(log, todo_config=self._todo_config)
        # (the deck's walk of this file, once whole, carried on over this log: not walked again)
        whole = self._deck.walked if self._deck is not None else None
        forked = whole.fork(log) if whole is not None else None
        if whole is not None:
            self._deck = None  # (tried: a walk that could not be carried on is walked here)
        self._activity = forked or Activity(log)
        self._log = log
        self._files.take(keys)
        self._walk(self._activity, FIRST_PIECE, reset=True)

    def _walk(self, activity: Activity, limit: int, reset: bool) -> None:
        """One piece of ``activity``'s walk; the next is queued while the walk has more."""
        if activity is not self._activity:
            return  # (another branch was chosen meanwhile: its own walk goes on)
        if not reset and self._carried_on(activity):
            return
        try:
            update = activity.update(limit, newest_first=True)
        except Exception:
            self._loading = False  # (``idle`` takes in the rest: the walk goes on where it stopped)
            raise
        self._loading = update.pending
        self._post_timeline(reset=reset or update.reset, older=len(update.new) if update.older else 0)
        if update.pending:
            self.later(lambda: self._walk(activity, PIECE, False))

    def _carried_on(self, activity: Activity) -> bool:
        """Instead of the walk's next older piece: the deck's walk of the file, when it is under
        way (wait for it) or whole (carry it on over this log: the rows shown stay, the older
        ones come below them at once). False when there is none to wait for: this walk goes on."""
        deck = self._deck
        if deck is None or self._branch is not None:
            return False
        walking = deck.walking  # (read first: the deck sets ``walked`` before it stops walking)
        whole = deck.walked
        if whole is None and walking:
            time.sleep(WAIT_S)
            self.later(lambda: self._walk(activity, PIECE, False))
            return True
        self._deck = None  # (whole or given up: not asked again)
        forked = whole.fork(self._log) if whole is not None else None
        if forked is None:
            return False
        newest = len(activity.events)
        self._activity, self._loading = forked, False
        if forked.events[len(forked.events) - newest:] == activity.events:
            self._post_timeline(reset=False, older=len(forked.events) - newest)
        else:  # (the deck's walk is of another state of the file: its events replace these)
            self._post_timeline(reset=True)
        return True

    def idle(self, look: bool) -> None:
        """Take in what the session gained, when the current branch is shown and read to its end;
        the file's trouble goes to the title."""
        if self._log is None:
            if look:  # the first try failed: again, at the pace of the looks
                self.open()
            return
        if self._activity is None or self._branch is not None or self._loading:
            return
        if not self._files.changed(self._log.watched()):
            return
        self.trouble(file_problem(self._log.shown_path))
        update = self._activity.update()
        if update.new or update.reset:
            self._post_timeline(reset=update.reset)

    def show_branch(self, leaf: str) -> None:
        assert self._log is not None and self._machine is not None
        current = leaf == self._log.leaf_id
        self._branch = None if current else leaf
        self._activity = Activity(self._log if current else self._machine.log_at(leaf))
        self._walk(self._activity, FIRST_PIECE, reset=True)

    def point(self, ticket: int, entry: str, open_deck: bool) -> None:
        """The deck as of ``entry``: a preview (the screen names it ``latest``, so one the cursor
        moved past is skipped) or, with ``open_deck``, the whole deck to show."""
        assert self._machine is not None
        try:
            view = build_view(self._machine.deck_at(entry))
        except LookupError:
            return  # the entry is gone (the file was rewritten): the events that follow say so
        self.post(PointShown(ticket, self._machine.as_of(entry), view, open_deck))

    def diff(self, a: str, b: str) -> None:
        machine = self._machine
        assert machine is not None
        changes = diff_points(point_of(machine.deck_at(a)), point_of(machine.deck_at(b)))
        self.post(DiffShown(machine.as_of(a), machine.as_of(b), tuple(changes)))

    def _post_timeline(self, reset: bool = True, older: int = 0) -> None:
        assert self._log is not None and self._activity is not None
        tree, usage = self._whole_log()
        self.post(TimelineChanged(tuple(self._activity.events), tree,
                                  self._log.name or self._log.shown_path.name, len(self._log.records), self._branch,
                                  reset, self._loading, self._activity.walked, usage, older))

    def _whole_log(self) -> tuple[SessionTree, UsageJson | None]:
        """The tree and the usage, which read the whole log, not the walk: read again only when
        the log changed (not at each piece of a walk)."""
        log = self._log
        assert log is not None
        read_of = (getattr(log, "generation", 0), len(log.records))
        if self._read is None or self._read_of != read_of:
            self._read, self._read_of = (read_tree(log), usage_of(log)), read_of
        return self._read
