"""The worker side of a deck screen: every Deck operation, in order, on one thread.

The screen hands over jobs (a command line, a tool call, a reload); between jobs
the thread polls the file while the screen follows it. After each job or change it builds the new
``DeckView`` and posts it, so the UI thread never waits on the disk or the log's lock and never
touches the Deck.
"""

from __future__ import annotations

import dataclasses
import os
import time
from pathlib import Path
from typing import Any, Callable

from core.activity import Activity
from core.conversations import binding
from core.conversations.log import ConversationLog
from core.deck import ALL_PARTS, TODO, Deck, DeckChange
from core.attention import AttentionWatch
from core.overview import Overview, WriteWatch
from core.session.errors import SessionError
from core.session.log import SessionLog
from core.todo import constants as todo_constants
from core.verdicts import ENTRY_TYPE as VERDICT_TYPE
from core.view import DeckView, Inbox, build_view, with_session
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


LOOK_S = 0.5
"""How often (seconds) the worker looks for a conversation's pideck session and for writes that
go to another session of the directory (between polls of the file, which run far more often).
The inbox (who else needs the person) is looked at as often."""
INBOX_BUDGET_S = 0.05
"""Seconds of reading the directory's conversations per look of the inbox: a directory with
hundreds of them is read over a few looks, and the file's own polls are never held up long."""


class DeckWorker:
    """Runs jobs and follows the file for one Deck, and for a followed Claude Code or Codex
    conversation also its pideck session (``bound``, from the moment it exists). ``post`` is
    thread-safe (Textual's ``post_message``); ``following`` is read before every poll.

    Jobs get the Deck the screen writes to: the conversation's pideck session when there is one,
    else the screen's own Deck (docs/tui.md#one-screen-per-conversation)."""

    def __init__(
        self,
        deck: Deck[SessionLog],
        view: DeckView,
        post: Callable[[Any], object],
        *,
        poll: float,
        following: Callable[[], bool],
        note_writers: bool = True,
        inbox_all: Callable[[], bool] | None = None,
    ) -> None:
        """``note_writers``: find when the agent last wrote right away, for the first view (a
        short session); else the worker does it with the activity. ``inbox_all``: whether the
        header counts who needs the person among every session pideck knows (else among the
        directory's); None: no inbox."""
        self.deck = deck
        self.own = view  # the view of ``deck`` alone
        self.bound: Deck[SessionLog] | None = None
        self.bound_view: DeckView | None = None
        log = deck.log
        self._agent = log.kind if isinstance(log, ConversationLog) and log.kind in binding.AGENTS else None
        self._idle_ms = deck.todo.config.watchdog_idle_ms
        self._post = post
        self._following = following
        # Jobs run in order on one thread; between them it polls the file (``_poll_file``).
        self._thread = JobThread(f"deck {log.path.name}", poll, self._poll_file, self._failed)
        self._last: tuple[FileKey | None, ...] | None = None  # the files as last read
        self._problem: str | None = None
        self._activity: Activity | None = None  # made on the thread: the first walk may take a while
        self._bound_activity: Activity | None = None
        self._counted = 0  # entries whose writer is known (the agent's time looks at the rest)
        self._writes: WriteWatch | None = None
        self._looked = -1e18  # when the worker last looked for a binding and for writes elsewhere
        self._inbox_all = inbox_all
        self._inbox: AttentionWatch | None = None  # made on the thread, at the first look
        self._inbox_scope: bool | None = None  # the scope it was made for (True: every session)
        if note_writers:
            self._note_writers()
        self._bind()  # a conversation whose pideck session exists already: in the first view

    @property
    def view(self) -> DeckView:
        """What the screen shows: a followed conversation joined with its pideck session."""
        if self.own.agent is None:
            return self.own
        return with_session(self.own, self.bound_view, self._idle_ms)

    def start(self) -> None:
        self._last = self._keys()
        self._thread.start()

    def submit(self, ticket: int, job: Job) -> None:
        self._thread.submit(lambda: self._run_job(ticket, job))

    def stop(self) -> None:
        self._thread.stop()

    def finish_opening(self, _: Deck[SessionLog]) -> None:
        """A job: the parts the screen's first view left out (the todo fold and its warnings),
        drawn as a change of the todo part."""
        self.own = build_view(self.deck, self.own, frozenset({TODO}))
        self._post(DeckUpdated(self.view, DeckChange(frozenset({TODO}))))

    def start_activity(self, _: Deck[SessionLog]) -> None:
        """A job: the branch's events so far for the activity view (their first walk may take a
        while on a long session), and when the agent last wrote if that is not known yet."""
        self._activity = Activity(self.deck.log)
        if not self._counted:
            self._note_writers()
        self.own = build_view(self.deck, self.own, frozenset(), activity=self._activity)
        if self.bound is not None:
            self._bound_activity = Activity(self.bound.log)
            self.bound_view = build_view(self.bound, self.bound_view, frozenset(), activity=self._bound_activity)
        self._post(DeckUpdated(self.view, DeckChange(frozenset())))

    def reload(self, _: Deck[SessionLog]) -> None:
        """A job: every Deck of the screen read again from disk."""
        for deck in (self.deck, self.bound):
            if deck is not None:
                deck.refresh()
                deck.reload()

    def _failed(self, exc: Exception) -> None:
        """An error nothing here expects stops the thread and goes to the screen (``WorkerFailed``),
        which raises it there: the app stops with a non-zero exit status instead of going on with
        a dead worker."""
        self._thread.stop()
        self._post(WorkerFailed(exc))

    def _keys(self) -> tuple[FileKey | None, ...]:
        return watch_key(self.deck.log) + (watch_key(self.bound.log) if self.bound is not None else ())

    def _poll_file(self) -> None:
        if self._following():
            bound = moved = False
            if time.monotonic() - self._looked >= LOOK_S:
                self._looked = time.monotonic()
                bound, moved = self._bind(), self._look_elsewhere()
                moved = self._look_inbox() or moved
            key = self._keys()
            if key != self._last or bound or moved:
                self._last = key
                self._take_in(ALL_PARTS if bound else frozenset(), bound or moved)

    def _bind(self) -> bool:
        """Open the followed conversation's pideck session once it exists (the agent's first
        pideck tool call or Stop hook makes it). True when it was opened now."""
        session_id = self.deck.log.session_id if self._agent is not None and self.bound is None else None
        path = binding.bound_session(self._agent, session_id) if self._agent and session_id else None
        if path is None:
            return False
        try:
            deck = Deck(SessionLog.open(path), todo_config=self.deck.todo.config, clock=self.deck.todo.clock)
        except (OSError, SessionError, ValueError):
            return False  # looked at again in a moment
        self.bound = deck
        self._bound_activity = Activity(deck.log) if self._activity is not None else None
        self.bound_view = build_view(deck, activity=self._bound_activity)
        return True

    def _look_elsewhere(self) -> bool:
        """Whether another session of the directory is being written changed (the header says so)."""
        cwd = self.deck.log.cwd
        if self._writes is None and cwd:
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

    def _look_inbox(self) -> bool:
        """Whether who needs the person changed (the header counts them; ctrl+g goes to them):
        one ``AttentionWatch`` over the directory's sessions and conversations (every one pideck
        knows with ``inbox_all``), looked at on this thread, so a state keeps the time it was
        entered while it lasts."""
        if self._inbox_all is None:
            return False
        scope = self._inbox_all()
        cwd = None if scope else self.deck.log.cwd or os.getcwd()  # (a Gemini chat does not say its directory)
        if self._inbox is None or scope != self._inbox_scope:
            config = self.deck.todo.config
            self._inbox_scope = scope
            self._inbox = AttentionWatch(cwd, todo_config=config, now_ms=self.deck.todo.clock,
                                         overview=Overview(cwd, todo_config=config, budget_s=INBOX_BUDGET_S))
        self._inbox.look()
        inbox = Inbox.of(self._inbox.ranked())
        if inbox == self.own.inbox:
            return False
        self.own = dataclasses.replace(self.own, inbox=inbox)
        return True

    def _note_writers(self) -> None:
        """When another writer last appended (the agent): the newest entry appended since the last
        look, leaving out the todo gates' and pideck's verdict entries."""
        records = self.deck.log.records
        for record in reversed(records[max(self._counted, len(records) - 20):]):
            if record.custom_type not in (todo_constants.CYCLE_CUSTOM_TYPE, todo_constants.FOLLOWUP_CUSTOM_TYPE,
                                          VERDICT_TYPE):
                stamp = record.get("timestamp")
                if isinstance(stamp, str):
                    self.own = dataclasses.replace(self.own, agent_at=stamp)
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
            outcome = job(self.bound or self.deck)
        except Exception as exc:  # an I/O error while appending: the screen says so, the loop goes on
            error = exc
        change = self._refresh()
        self._last = self._keys()
        self._counted = len(self.deck.log.records)  # the app's own appends are not the agent's
        self._post(JobDone(ticket, outcome, error, self.view, change))

    def _take_in(self, parts: frozenset[str] = frozenset(), news: bool = False) -> None:
        """Post what changed; ``parts`` must be drawn again in any case (a pideck session just
        found), ``news``: the view changed even if no file did."""
        change = self._refresh()
        if change is None and (news or self.own.agent is not None):
            change = DeckChange(parts)
        elif change is not None and parts:
            change = dataclasses.replace(change, parts=change.parts | parts)
        if change is not None:
            if change.reset:
                self._counted = 0
            self._note_writers()
            self._post(DeckUpdated(self.view, change))

    def _refresh(self) -> DeckChange | None:
        """Both Decks take in what was appended, and their views are built again where it changed.
        The own file's trouble becomes a FileTrouble message (gone, unreadable, no longer a
        session); a conversation's pideck session that cannot be read keeps what it showed."""
        own = self._refresh_own()
        writable = self.own.writable != self.deck.log.writable
        if own is not None or writable or self.own.agent is not None:  # (an agent's status changes without a line)
            self.own = build_view(self.deck, self.own, own.parts if own is not None else frozenset(),
                                  activity=self._activity)
        side: DeckChange | None = None
        if self.bound is not None:
            try:
                side = self.bound.refresh()
            except (OSError, SessionError):
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
        except (OSError, SessionError) as exc:
            self._trouble(file_problem(self.deck.log.shown_path) or f"the session file cannot be read ({exc})")
            return None
        self._trouble(file_problem(self.deck.log.shown_path))
        return change

    def _trouble(self, problem: str | None) -> None:
        if problem != self._problem:
            self._problem = problem
            self._post(FileTrouble(problem))
