"""The worker side of a deck screen: every Deck operation, in order, on one thread.

The screen hands over jobs (a command line, a tool call, a watchdog tick, a reload); between jobs
the thread polls the file while the screen follows it. After each job or change it builds the new
``DeckView`` and posts it, so the UI thread never waits on the disk or the log's lock and never
touches the Deck.
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path
from typing import Any, Callable

from core.activity import Activity
from core.deck import TODO, Deck, DeckChange
from core.session.errors import SessionError
from core.session.log import SessionLog
from core.todo import constants as todo_constants
from core.verdicts import ENTRY_TYPE as VERDICT_TYPE
from core.view import DeckView, build_view
from tui.jobs import JobThread
from tui.messages import DeckUpdated, FileTrouble, JobDone, WorkerFailed

Job = Callable[[Deck[SessionLog]], Any]


FileKey = tuple[int, int, int, int]


def watch_key(log: SessionLog) -> tuple[FileKey | None, ...]:
    """The keys of every file the log's news can come from (``SessionLog.watched``)."""
    return tuple(file_key(path) for path in log.watched())


def file_key(path: Path) -> FileKey | None:
    """(inode, size, mtime_ns, mode): any append, truncation, replacement or change of permissions
    changes it; None when the file cannot be looked at."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_ino, st.st_size, st.st_mtime_ns, st.st_mode


def file_problem(path: Path) -> str | None:
    """What keeps pideck from reading the session file, in a person's words, or None."""
    if not path.exists():
        return "the session file is gone (deleted or moved)"
    if not os.access(path, os.R_OK):
        return "the session file is not readable"
    return None


class DeckWorker:
    """Runs jobs and follows the file for one Deck. ``post`` is thread-safe (Textual's
    ``post_message``); ``following`` is read before every poll."""

    def __init__(
        self,
        deck: Deck[SessionLog],
        view: DeckView,
        post: Callable[[Any], object],
        *,
        poll: float,
        following: Callable[[], bool],
        note_writers: bool = True,
    ) -> None:
        """``note_writers``: find when the agent last wrote right away, for the first view (a
        short session); else the worker does it with the activity."""
        self.deck = deck
        self.view = view
        self._post = post
        self._following = following
        # Jobs run in order on one thread; between them it polls the file (``_poll_file``).
        self._thread = JobThread(f"deck {deck.log.path.name}", poll, self._poll_file, self._failed)
        self._last: tuple[FileKey | None, ...] | None = None  # the files as last read
        self._problem: str | None = None
        self._activity: Activity | None = None  # made on the thread: the first walk may take a while
        self._counted = 0  # entries whose writer is known (the agent's time looks at the rest)
        if note_writers:
            self._note_writers()

    def start(self) -> None:
        self._last = watch_key(self.deck.log)
        self._thread.start()

    def submit(self, ticket: int, job: Job) -> None:
        self._thread.submit(lambda: self._run_job(ticket, job))

    def stop(self) -> None:
        self._thread.stop()

    def finish_opening(self, deck: Deck[SessionLog]) -> None:
        """A job: the parts the screen's first view left out (the todo fold and its warnings),
        drawn as a change of the todo part."""
        self.view = build_view(deck, self.view, frozenset({TODO}))
        self._post(DeckUpdated(self.view, DeckChange(frozenset({TODO}))))

    def start_activity(self, deck: Deck[SessionLog]) -> None:
        """A job: the branch's events so far for the activity view (their first walk may take a
        while on a long session), and when the agent last wrote if that is not known yet."""
        self._activity = Activity(deck.log)
        if not self._counted:
            self._note_writers()
        self.view = build_view(deck, self.view, frozenset(), activity=self._activity)
        self._post(DeckUpdated(self.view, DeckChange(frozenset())))

    def _failed(self, exc: Exception) -> None:
        """An error nothing here expects stops the thread and goes to the screen (``WorkerFailed``),
        which raises it there: the app stops with a non-zero exit status instead of going on with
        a dead worker."""
        self._thread.stop()
        self._post(WorkerFailed(exc))

    def _poll_file(self) -> None:
        if self._following():
            key = watch_key(self.deck.log)
            if key != self._last:
                self._last = key
                self._take_in()

    def _note_writers(self) -> None:
        """When another writer last appended (the agent): the newest entry appended since the last
        look, leaving out the todo gates' and pideck's verdict entries."""
        records = self.deck.log.records
        for record in reversed(records[max(self._counted, len(records) - 20):]):
            if record.custom_type not in (todo_constants.CYCLE_CUSTOM_TYPE, todo_constants.FOLLOWUP_CUSTOM_TYPE,
                                          VERDICT_TYPE):
                stamp = record.get("timestamp")
                if isinstance(stamp, str):
                    self.view = dataclasses.replace(self.view, agent_at=stamp)
                break
        self._counted = len(records)

    def _run_job(self, ticket: int, job: Job) -> None:
        try:  # what others appended before this job is theirs, what it appends is the app's
            self.deck.log.refresh()
            self._note_writers()
        except OSError:
            pass  # the job's own refresh reports it
        outcome: Any = None
        error: BaseException | None = None
        try:
            outcome = job(self.deck)
        except Exception as exc:  # an I/O error while appending: the screen says so, the loop goes on
            error = exc
        change = self._refresh()
        self._last = watch_key(self.deck.log)
        self._counted = len(self.deck.log.records)  # the app's own appends are not the agent's
        self._post(JobDone(ticket, outcome, error, self._view_after(change), change))

    def _take_in(self) -> None:
        change = self._refresh()
        if change is None and (self.view.writable != self.deck.log.writable or self.view.agent is not None):
            change = DeckChange(frozenset())  # nothing new to read, but the header must say it
        if change is not None:
            if change.reset:
                self._counted = 0
            self._note_writers()
            self._post(DeckUpdated(self._view_after(change), change))

    def _refresh(self) -> DeckChange | None:
        """The Deck's refresh, turned into a FileTrouble message when the file cannot be read
        (gone, unreadable, no longer a session)."""
        try:
            change = self.deck.refresh()
        except (OSError, SessionError) as exc:
            self._trouble(file_problem(self.deck.log.shown_path) or f"the session file cannot be read ({exc})")
            return None
        self._trouble(file_problem(self.deck.log.shown_path))
        return change

    def _trouble(self, problem: str | None) -> None:
        if problem != self._problem:
            self._problem = problem
            self._post(FileTrouble(problem))

    def _view_after(self, change: DeckChange | None) -> DeckView:
        if change is not None or self.view.writable != self.deck.log.writable:
            self.view = build_view(self.deck, self.view, change.parts if change is not None else frozenset(),
                                   activity=self._activity)
        return self.view
