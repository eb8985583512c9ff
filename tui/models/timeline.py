"""The timeline screen's model: one read-only log of the session, its branch's events, pi's tree of
branches and the deck as of any point, on the screen's thread.

Everything the screen asks for comes as a job with its arguments (which branch, which entry, which
preview ticket): the model never reads the screen, and the screen never touches the log.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

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


class TimelineModel(Model):
    name = "timeline"
    look_s = 0.5  # (how often a failed first read is tried again)

    def __init__(self, path: Path, todo_config: TodoConfig | None, walked: Activity | None = None) -> None:
        super().__init__()
        self.path = path
        self._walked = walked  # the deck's own walk of the same file, when it has done it
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
        # (the deck's walk of this file, carried on over this log: its events are not walked again)
        forked = self._walked.fork(log) if self._walked is not None else None
        self._walked = None
        self._activity = forked or Activity(log)
        self._log = log
        self._files.take(keys)
        self._walk(self._activity, FIRST_PIECE, reset=True)

    def _walk(self, activity: Activity, limit: int, reset: bool) -> None:
        """One piece of ``activity``'s walk; the next is queued while the walk has more."""
        if activity is not self._activity:
            return  # (another branch was chosen meanwhile: its own walk goes on)
        try:
            update = activity.update(limit, newest_first=True)
        except Exception:
            self._loading = False  # (``idle`` takes in the rest: the walk goes on where it stopped)
            raise
        self._loading = update.pending
        self._post_timeline(reset=reset or update.reset, older=len(update.new) if update.older else 0)
        if update.pending:
            self.later(lambda: self._walk(activity, PIECE, False))

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
