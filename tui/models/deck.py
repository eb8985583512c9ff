"""The deck screen's model: every Deck operation, in order, on the screen's thread.

The screen hands over jobs (a command line, a tool call, a reload, the follow flag); between jobs the thread has it take in what the files gained while the screen follows. After
each job or change it builds the new ``DeckView`` and posts it (``DeckUpdated``), so the UI thread
never waits on the disk or the log's lock and never touches the Deck.
"""

from __future__ import annotations

import dataclasses
import sys
from typing import TYPE_CHECKING, Any, Callable

from core.catalog.opening import FILE_PROBLEMS, SessionDeck, gets_a_session, open_bound_session
from core.deck.deck import ALL_PARTS, TODO, DeckChange
from core.deck.entries import PIDECKS_OWN
from core.views.activity import Activity
from core.views.view import DeckView, build_view, with_session
from tui.messages import DeckUpdated
from tui.models.thread import FileWatch, Model, file_problem

if TYPE_CHECKING:  # (the looks beyond the file start after the first view: their modules are imported then)
    from core.catalog.elsewhere import WriteWatch

Job = Callable[[SessionDeck], Any]

PIECE = 4_000
"""Entries of the branch one piece of the activity's first walk takes in (about a quarter of a
second on a long session's biggest entries)."""
FOLD_LATER = 10_000
"""From this many entries on, the first view is posted without the todo fold, which follows right
after (``finish_opening``): on a long session the fold costs more than the rest of the first view."""

LOOK_S = 0.5
"""How often (seconds) the worker looks for a conversation's pideck session and for writes that
go to another session of the directory (between polls of the file, which run far more often)."""


class DeckModel(Model):
    """Follows one Deck, and for a followed Claude Code or Codex conversation also its pideck
    session (``bound``, from the moment it exists).

    Jobs (``run``) get the Deck the screen writes to: the conversation's pideck session when there
    is one, else the screen's own Deck (docs/tui.md#one-screen-per-conversation)."""

    look_s = LOOK_S

    def __init__(self, deck: SessionDeck) -> None:
        super().__init__()
        self.name = f"deck {deck.log.path.name}"
        self.deck = deck
        self.own: DeckView  # the view of ``deck`` alone, from ``open`` on
        self._opened = False
        self.bound: SessionDeck | None = None
        self.bound_view: DeckView | None = None
        log = deck.log
        # (an agent's conversation is a ConversationLog, whose module is loaded once there is one)
        conversations = sys.modules.get("core.sources.log")
        kind = log.kind if conversations is not None and isinstance(log, conversations.ConversationLog) else None
        # (a conversation on another machine: its pideck session is there, not in this one's folders)
        self._agent = kind if gets_a_session(kind) and deck.host is None else None
        self._idle_ms = deck.todo.config.watchdog_idle_ms
        self._files = FileWatch()
        self._todo_later = False
        self._walk_wanted = False  # the activity's first walk waits for the first view, or failed
        self._activity: Activity | None = None  # the first walk may take a while: after the first view
        self._walking = False  # the first walk is under way
        self._bound_activity: Activity | None = None
        self._counted = 0  # entries whose writer is known (the agent's time looks at the rest)
        self._writes: WriteWatch | None = None

    @property
    def walked(self) -> Activity | None:
        """The activity of the deck's own log once its first walk is whole (None before): the
        timeline of the same file carries it on instead of walking it again (``Activity.fork``)."""
        return self._activity

    @property
    def walking(self) -> bool:
        """The first walk of the activity is under way (``walked`` is there once it is over)."""
        return self._walking

    @property
    def view(self) -> DeckView:
        """What the screen shows: a followed conversation joined with its pideck session."""
        if self.own.agent is None:
            return self.own
        return with_session(self.own, self.bound_view, self._idle_ms)

    # -- jobs (the screen hands them over in this order at the start: open, finish_opening, start_activity)

    def open(self) -> None:
        """The first view; on a long session without the todo fold (``FOLD_LATER``), which the
        next job adds, and with when the agent last wrote once the activity is walked. When it
        fails (the file went away, an error), the screen says so and ``idle`` tries again."""
        keys = self._files.keys(self._watched())  # (before reading: an append meanwhile is news)
        # What other writers appended since the log was read (while the app started) is in the
        # first view too; a file problem is said, and the view shows what was read.
        taken = self._refresh_own()
        long = len(self.deck.log.records) >= FOLD_LATER
        self._todo_later = long
        self.own = build_view(self.deck, todo=not long, usage=False)  # (``finish_opening`` adds them)
        if not long:
            self._note_writers()
        self._bind()  # a conversation whose pideck session exists already: in the first view
        self._files.take(keys)
        self._opened = True
        self.post(DeckUpdated(self.view, DeckChange(ALL_PARTS, followups=taken.followups if taken is not None else ())))

    def finish_opening(self) -> None:
        """The parts the first view left out (the todo fold and its warnings, drawn as a change of
        the todo part; the usage)."""
        if self._opened and (self._todo_later or self.own.usage is None):
            parts = frozenset({TODO}) if self._todo_later else frozenset()
            self._todo_later = False
            before, self.own = self.own, build_view(self.deck, self.own, parts)
            if parts or self.own.usage is not before.usage:
                self.post(DeckUpdated(self.view, DeckChange(parts)))

    def start_activity(self) -> None:
        """The branch's events so far for the activity view, walked in pieces (``PIECE``) queued
        behind the screen's jobs, so a command typed while a long session's first walk goes on
        waits for one piece at most; then when the agent last wrote, if that is not known yet."""
        if not self._opened:
            self._walk_wanted = True  # (once the first view is there)
            return
        self._walking = True
        self._walk(Activity(self.deck.log))

    def _walk(self, activity: Activity) -> None:
        try:
            pending = activity.update(PIECE).pending
        except Exception:
            self._walk_wanted = True  # (``idle`` starts the walk again)
            self._walking = False
            raise
        if pending:
            self.later(lambda: self._walk(activity))
            return
        self._activity = activity
        self._walking = False  # (after ``_activity``: a reader that sees it False finds the walk there)
        if not self._counted:
            self._note_writers()
        self.own = build_view(self.deck, self.own, frozenset(), activity=self._activity)
        if self.bound is not None:
            self._bound_activity = Activity(self.bound.log)
            self.bound_view = build_view(self.bound, self.bound_view, frozenset(), activity=self._bound_activity)
        self.post(DeckUpdated(self.view, DeckChange(frozenset())))

    def run(self, job: Job) -> Any:
        """A job of the screen's (a command line, a tool call): what others appended before it is
        theirs, what it appends is the app's. The new view is posted before the job's answer."""
        self._opening_first()
        keys = self._files.keys(self._watched())
        try:
            self.deck.log.refresh()
            self._note_writers()
        except OSError:
            pass  # the job's own refresh reports it
        try:
            return job(self.bound or self.deck)
        finally:
            change = self._refresh()
            self._files.take(keys)  # (the app's own append then reads as news: an empty take-in)
            self._counted = len(self.deck.log.records)  # the app's own appends are not the agent's
            if change is not None:
                self.post(DeckUpdated(self.view, change))

    def reload(self) -> None:
        """Every Deck of the screen read again from disk."""
        self._opening_first()
        keys = self._files.keys(self._watched())
        self.deck.refresh()
        self.deck.reload()
        self.own = build_view(self.deck, self.own, ALL_PARTS, activity=self._activity)
        if self.bound is not None:
            self.bound.refresh()
            self.bound.reload()
            self.bound_view = build_view(self.bound, self.bound_view, ALL_PARTS, activity=self._bound_activity)
        self._files.take(keys)
        self.post(DeckUpdated(self.view, DeckChange(ALL_PARTS)))

    def close(self) -> None:
        """The screen went away: what its Decks hold beyond their logs is let go."""
        self.deck.close()
        if self.bound is not None:
            self.bound.close()

    # -- between jobs -----------------------------------------------------------------------------

    def _opening_first(self) -> None:
        """A job that needs the first view: open now if the first try failed."""
        if not self._opened:
            self.open()

    def idle(self, look: bool) -> None:
        if not self._opened:
            if look:  # the first try failed: again, at the pace of the looks
                self.open()
            return
        if self._walk_wanted and look:
            self._walk_wanted = False
            self.start_activity()
        bound = moved = False
        if look:
            bound, moved = self._bind(), self._look_elsewhere()
            if self.deck.host is not None:  # (a remote deck's host may go away while its copy stays still)
                self.trouble(file_problem(self.deck.log.shown_path) or self.deck.problem())
        if self._files.changed(self._watched()) or bound or moved:
            self._take_in(ALL_PARTS if bound else frozenset(), bound or moved)

    def _watched(self) -> list[Any]:
        """Every file the screen's news can come from (``SessionLog.watched``)."""
        return [*self.deck.log.watched(), *(self.bound.log.watched() if self.bound is not None else ())]

    def _bind(self) -> bool:
        """Open the followed conversation's pideck session once it exists (the agent's first
        pideck tool call or Stop hook makes it). True when it was opened now."""
        if self._agent is None or self.bound is not None:
            return False
        deck = open_bound_session(self._agent, self.deck.log.session_id, self.deck)
        if deck is None:
            return False  # looked at again in a moment
        self.bound = deck
        self._bound_activity = Activity(deck.log) if self._activity is not None else None
        self.bound_view = build_view(deck, activity=self._bound_activity)
        return True

    def _look_elsewhere(self) -> bool:
        """Whether another session of the directory is being written changed (the header says so)."""
        cwd = self.deck.log.cwd if self.deck.host is None else None  # (a remote deck's directory is not here)
        if self._writes is None and cwd:
            from core.catalog.elsewhere import WriteWatch

            self._writes = WriteWatch(cwd)
        if self._writes is None:
            return False
        here = [self.deck.log.path, *([self.bound.log.path] if self.bound is not None else [])]
        ended = (self.own.agent or {}).get("status") == "ended"
        found = self._writes.look(here, conversations=self._agent is None or ended)
        if found == self.own.elsewhere:
            return False
        self.own = dataclasses.replace(self.own, elsewhere=found)
        return True

    def _note_writers(self) -> None:
        """When another writer last appended (the agent): the newest entry appended since the last
        look, leaving out the todo gates' and pideck's verdict entries."""
        records = self.deck.log.records
        for record in reversed(records[max(self._counted, len(records) - 20):]):
            if record.custom_type not in PIDECKS_OWN:
                stamp = record.get("timestamp")
                if isinstance(stamp, str):
                    self.own = dataclasses.replace(self.own, agent_at=stamp)
                break
        self._counted = len(records)

    def _take_in(self, parts: frozenset[str] = frozenset(), news: bool = False) -> None:
        """Post what changed; ``parts`` must be drawn again in any case (a pideck session just
        found), ``news``: the view changed even if no file did."""
        change = self._refresh()
        if change is None and (news or self.own.agent is not None):
            change = DeckChange(parts)
        elif change is not None and parts:
            change = change.replace(parts=change.parts | parts)
        if change is not None:
            if change.reset:
                self._counted = 0
            self._note_writers()
            self.post(DeckUpdated(self.view, change))

    def _refresh(self) -> DeckChange | None:
        """Both Decks take in what was appended, and their views are built again where it changed.
        The own file's trouble becomes a FileTrouble message (gone, unreadable, no longer a
        session); a conversation's pideck session that cannot be read keeps what it showed."""
        own = self._refresh_own()
        writable = self.own.writable != self.deck.writable
        if own is not None or writable or self.own.agent is not None:  # (an agent's status changes without a line)
            self.own = build_view(self.deck, self.own, own.parts if own is not None else frozenset(),
                                  activity=self._activity)
        side: DeckChange | None = None
        if self.bound is not None:
            try:
                side = self.bound.refresh()
            except FILE_PROBLEMS:
                side = None
            if side is not None:
                self.bound_view = build_view(self.bound, self.bound_view, side.parts, activity=self._bound_activity)
        if own is None and side is None:
            return DeckChange(frozenset()) if writable else None
        if own is None or side is None:
            return own or side
        return DeckChange(own.parts | side.parts, own.new_entries + side.new_entries, own.reset,
                          own.branch_switched or side.branch_switched, own.followups + side.followups)

    def _refresh_own(self) -> DeckChange | None:
        try:
            change = self.deck.refresh()
        except FILE_PROBLEMS as exc:
            self.trouble(file_problem(self.deck.log.shown_path) or f"the session file cannot be read ({exc})")
            return None
        self.trouble(file_problem(self.deck.log.shown_path) or self.deck.problem())
        return change
