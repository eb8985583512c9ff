"""The one way a screen does log work: a ``Model`` that lives on a ``ModelThread``.

A screen never reads a file and never touches a log or a Deck: its ``Model`` owns all of that and
runs only on its own thread (a log is not thread-safe). The screen hands the thread jobs, with
everything a job needs as its arguments (the follow flag, the scope, a preview's ticket), and the
model answers with the typed messages of ``tui/messages.py``. Between jobs, while the screen
follows, the thread calls ``Model.idle``: the model compares its files with ``FileWatch`` (the
one polling loop of the app) and looks further afield every ``look_s`` seconds.

One error policy for every screen (docs/tui.md#one-thread-per-screen): a file problem (``OSError``,
``SessionError``) is a ``FileTrouble`` the screen shows in its header, and the screen goes on;
anything else is a ``ModelFailed`` the screen reports, with the traceback written to pideck's
error log, and the thread goes on with the next job. Each screen has its thread, so a long first
read on one (the timeline of a 100k-entry session) never holds another screen's keys.
"""

from __future__ import annotations

import itertools
import os
import queue
import threading
import time
import traceback
import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Generic, Iterable, TypeVar

from textual.message import Message

from core.catalog.opening import FILE_PROBLEMS, source_file  # (what a file can do to a model: shown, never an end)
from core.config.places import pideck_home
from tui.messages import FileTrouble, JobDone, ModelFailed

FileKey = tuple[int, int, int, int]


def file_key(path: Path) -> FileKey | None:
    """(inode, size, mtime_ns, mode): any append, truncation, replacement or change of permissions
    changes it; None when the file cannot be looked at."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_ino, st.st_size, st.st_mtime_ns, st.st_mode


def file_problem(path: Path) -> str | None:
    """What keeps pideck from reading a session file, in a person's words, or None."""
    path = source_file(path)
    if not path.exists():
        return "the session file is gone (deleted or moved)"
    if not os.access(path, os.R_OK):
        return "the session file is not readable"
    return None


class FileWatch:
    """The files a model follows, as it last read them: ``changed`` says whether any of them
    differs now (and takes the new keys as read: the model reads right after); a model that reads
    on its own (a job, its first view) takes the keys before it reads (``keys``, then ``take``)."""

    def __init__(self) -> None:
        self._keys: tuple[FileKey | None, ...] | None = None

    def changed(self, paths: Iterable[Path]) -> bool:
        keys = self.keys(paths)
        if keys == self._keys:
            return False
        self._keys = keys
        return True

    @staticmethod
    def keys(paths: Iterable[Path]) -> tuple[FileKey | None, ...]:
        """The files' keys now: take them before reading, so that what is appended while the
        model reads is news at the next look (``take``)."""
        return tuple(file_key(path) for path in paths)

    def take(self, keys: tuple[FileKey | None, ...]) -> None:
        """``keys`` (from ``keys``, before the read) are what the model has read."""
        self._keys = keys


def error_log() -> Path:
    """Where the tracebacks of errors nothing expects go (the screen says so when one happens)."""
    return pideck_home() / "errors.log"


def log_error(where: str, exc: BaseException) -> Path | None:
    """Append ``exc``'s traceback to the error log; the log's path, or None when it cannot be written."""
    path = error_log()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S")
        with path.open("a", encoding="utf-8") as out:
            out.write(f"--- {stamp} {where}\n")
            out.write("".join(traceback.format_exception(exc)))
    except OSError:
        return None
    return path


def failure_text(where: str, exc: BaseException, logged: Path | None) -> str:
    said = f"{where}: unexpected error {type(exc).__name__}: {exc}"
    return f"{said} (traceback in {logged})" if logged is not None else said


class Model:
    """The thread side of one screen. It owns every file, log and Deck the screen shows and runs
    only on its ``ModelThread``; ``post`` sends a message to the screen (thread-safe)."""

    name = "model"
    look_s: float | None = None
    """How often (seconds) ``idle`` is told to look beyond its files; None: never."""

    def __init__(self) -> None:
        self.post: Callable[[Message], object] = lambda message: None
        self.trouble: Callable[[str | None], None] = lambda problem: None
        self.later: Callable[[Callable[[], Any]], None] = lambda job: None
        """Queue a job of the model's own behind the screen's (the next piece of a long read)."""

    def open(self) -> None:
        """The first job: open what the screen shows and post its first view."""

    def idle(self, look: bool) -> bool | None:
        """Between jobs while the screen follows: take in what changed; ``look``: look beyond the
        model's own files too. True: there is more to read, call again at once (not after a poll)."""
        return None

    def close(self) -> None:
        """The last job: the screen went away (its thread ends after this)."""


M = TypeVar("M", bound=Model)


@dataclass(frozen=True)
class _Job:
    run: Callable[[], Any]
    ticket: int | None  # answered with a JobDone
    latest: str | None  # skipped when a newer job of the same name is waiting


_STARTED: weakref.WeakSet[threading.Thread] = weakref.WeakSet()


def join_all(timeout: float) -> None:
    """Wait at most ``timeout`` seconds in all for every model thread to have ended (stopped
    threads end after the jobs already handed over). An app whose folder goes when it ends (the
    demo's) calls it first: a job still writing to the folder would make it again."""
    deadline = time.monotonic() + timeout
    for thread in list(_STARTED):
        thread.join(max(0.0, deadline - time.monotonic()))


class ModelThread(Generic[M]):
    """Runs ``model``'s jobs in the order they were handed over and, between them, its ``idle`` every
    ``poll`` seconds while following. ``call`` hands over a job; ``finished`` (on the UI thread,
    for a ``JobDone``) gives back what to do with its outcome.

    ``first_paint``: the screen paints the first view itself, in its first frame when the view is
    ready by then (docs/tui.md#the-first-frame). What the model posts is held until the screen
    takes it (``release``), and after the first job (the open) the thread waits until the screen
    says that view is on screen (``resume``, at the latest after ``FIRST_PAINT_S``): nothing else
    it could do (the rest of the opening, the looks beyond the file) competes with the first frame
    for the interpreter.

    ``paint_first``: only the wait (the screen takes what the model posts as it comes, and calls
    ``resume`` once the first view is on screen): a long walk's next piece does not compete for the
    interpreter with the drawing of its first rows (the timeline)."""

    FIRST_PAINT_S = 1.0
    """(``first_paint``) The longest the thread waits after the open for the screen's word that
    its first view is on screen (a screen that is never shown must not hold its jobs up)."""

    def __init__(self, model: M, post: Callable[[Message], object], *, poll: float, following: bool = True,
                 first_paint: bool = False, paint_first: bool = False) -> None:
        self.model = model
        model.post = self._post
        model.trouble = self._trouble
        model.later = self.call
        self._deliver = post
        self._held: list[Message] | None = [] if first_paint else None
        self._held_lock = threading.Lock()
        self._first_held = threading.Event()
        self._painted = threading.Event()
        if not (first_paint or paint_first):
            self._painted.set()
        self._poll = poll
        self._following = following
        self._jobs: queue.Queue[_Job | None] = queue.Queue()  # None: stop
        self._stopped = threading.Event()
        self._thread: threading.Thread | None = None
        self._tickets = itertools.count(1)
        self._waiting: dict[int, Callable[[Any], None] | None] = {}  # UI thread only
        self._newest: dict[str, int] = {}
        self._problem: str | None = None
        self._raised = False  # the problem shown came from an error this thread caught
        self._looked = -1e18
        self._again = False  # the model's last idle left more to read

    def start(self) -> None:
        """A plain daemon thread, not a Textual worker: it lives as long as its screen, and waiting
        for the app's workers (tests, the palette) must not wait on it. Its first job opens the model."""
        self.call(self.model.open)
        self._thread = threading.Thread(target=self._run, daemon=True, name=f"pideck {self.model.name}")
        self._thread.start()
        _STARTED.add(self._thread)

    def stop(self) -> None:
        """No more idling; the jobs handed over already still run (a command typed just before the
        screen went away is applied), then the thread ends."""
        self._stopped.set()
        self._painted.set()
        self._jobs.put(None)

    def join(self, timeout: float) -> None:
        """Wait at most ``timeout`` seconds for the jobs handed over before ``stop`` to have run (the
        app's last saves, as it ends)."""
        if self._thread is not None:
            self._thread.join(timeout)

    def release(self) -> list[Message]:
        """(``first_paint``, on the UI thread) What the model posted so far, for the screen to take
        now; from here on its messages are posted to the screen as they come."""
        with self._held_lock:
            held, self._held = self._held or [], None
        return held

    def wait_first(self, timeout: float) -> bool:
        """(``first_paint``, on the UI thread) Wait at most ``timeout`` seconds for the model's first
        message (its first view, or why there is none); True when it is there. The UI thread
        waits idle meanwhile, so the model has the interpreter to itself: a thread that has to win
        it back from a busy one after each system call waits some milliseconds every time."""
        return self._first_held.wait(timeout)

    def resume(self) -> None:
        """(``first_paint``, ``paint_first``) The first view is on screen, or the open failed: go
        on with the jobs."""
        self._painted.set()

    def _post(self, message: Message) -> None:
        with self._held_lock:
            if self._held is not None:
                self._held.append(message)
                self._first_held.set()
                return
        self._deliver(message)

    def call(self, job: Callable[..., Any], *args: Any, then: Callable[[Any], None] | None = None,
             answer: bool = False, latest: str | None = None) -> None:
        """Run ``job(*args)`` on the thread. With ``then`` (or ``answer``) a ``JobDone`` comes back:
        ``then(outcome)`` runs on the UI thread, an error is reported instead. ``latest``: only the
        newest job of that name runs (a preview the cursor has moved past is skipped)."""
        ticket = None
        if then is not None or answer:
            ticket = next(self._tickets)
            self._waiting[ticket] = then
        if latest is not None:
            self._newest[latest] = seq = next(self._tickets)
            run = lambda: None if self._newest.get(latest) != seq else job(*args)  # noqa: E731
        else:
            run = lambda: job(*args)  # noqa: E731
        self._jobs.put(_Job(run, ticket, latest))

    def follow(self, following: bool) -> None:
        """Follow the files (``idle`` runs) or pause: a job, so it takes effect in order."""
        self.call(self._set_following, following)

    def _set_following(self, following: bool) -> None:
        self._following = following

    def finished(self, message: JobDone) -> Callable[[Any], None] | None:
        """The UI thread's side of a ``JobDone``: what to run with its outcome."""
        return self._waiting.pop(message.ticket, None)

    @property
    def busy(self) -> bool:
        """A job is waiting or running, its answer has not been taken yet, or the model has more
        to read right away (tests wait for this)."""
        return self._jobs.unfinished_tasks > 0 or bool(self._waiting) or self._again

    # -- on the thread --------------------------------------------------------------------------

    def _run(self) -> None:
        first = True
        while True:
            try:
                job = self._jobs.get(timeout=0 if self._again else self._poll)
            except queue.Empty:
                self._again = False
                if self._following and not self._stopped.is_set():
                    self._idle()
                continue
            try:
                if job is None:
                    self._guarded(self.model.close, "closing")
                    return
                self._run_job(job)
            finally:
                self._jobs.task_done()
            if first:  # (the open: its view is painted before anything else runs)
                first = False
                self._painted.wait(self.FIRST_PAINT_S)

    def _idle(self) -> None:
        look = self.model.look_s is not None and time.monotonic() - self._looked >= self.model.look_s
        if look:
            self._looked = time.monotonic()

        def idle() -> None:
            self._again = bool(self.model.idle(look))

        if self._guarded(idle, "following the files") and self._raised:  # the file is readable again
            self._raised = False
            self._trouble(None)

    def _run_job(self, job: _Job) -> None:
        if job.ticket is None:
            self._guarded(job.run, "a job")
            return
        outcome: Any = None
        error: BaseException | None = None
        said = ""
        try:
            outcome = job.run()
        except Exception as exc:  # the job's own answer: the screen reports it where it was asked
            error, said = exc, f"{exc}"
            if not isinstance(exc, FILE_PROBLEMS):
                where = f"{self.model.name}, a job"
                said = failure_text(where, exc, log_error(where, exc))
        self._post(JobDone(job.ticket, outcome, error, said))

    def _guarded(self, run: Callable[[], Any], what: str) -> bool:
        """The error policy: a file problem goes to the header, anything else is reported and
        logged; the thread goes on either way. True when ``run`` raised nothing."""
        try:
            run()
        except FILE_PROBLEMS as exc:
            self._trouble(f"{exc}")
            self._raised = True
        except Exception as exc:
            where = f"{self.model.name}, {what}"
            self._post(ModelFailed(failure_text(where, exc, log_error(where, exc))))
        else:
            return True
        return False

    def _trouble(self, problem: str | None) -> None:
        """Say a file problem (or its end, None) once per change, never in a loop."""
        if problem != self._problem:
            self._problem = problem
            self._post(FileTrouble(problem))
