"""One thread that owns a screen's session logs: jobs run there in order, and between jobs it
polls (``idle``), so the UI thread never reads a file or waits on one.

The overview and the timeline each keep logs a Deck does not own (a log is not thread-safe, so all
of its work happens on this one thread); results go back as messages (``post_message`` is
thread-safe).
"""

from __future__ import annotations

import queue
import threading
from typing import Callable

Job = Callable[[], None]


class JobThread:
    """``submit(job)`` runs ``job()`` on the thread; every ``poll`` seconds without a job it runs
    ``idle()``. An exception in a job goes to ``failed`` and the loop goes on."""

    def __init__(self, name: str, poll: float, idle: Job | None, failed: Callable[[Exception], None]) -> None:
        self._name, self._poll, self._idle, self._failed = name, poll, idle, failed
        self._jobs: queue.Queue[Job | None] = queue.Queue()  # None: stop
        self._stopped = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """A plain daemon thread, not a Textual worker: it lives as long as its screen, and waiting
        for the app's workers (tests, the palette) must not wait on it."""
        self._thread = threading.Thread(target=self._run, daemon=True, name=self._name)
        self._thread.start()

    def submit(self, job: Job) -> None:
        self._jobs.put(job)

    def stop(self) -> None:
        self._stopped.set()
        self._jobs.put(None)

    @property
    def idle_now(self) -> bool:
        """No job is waiting (tests wait for this)."""
        return self._jobs.unfinished_tasks == 0

    def _run(self) -> None:
        while not self._stopped.is_set():
            try:
                job = self._jobs.get(timeout=self._poll)
            except queue.Empty:
                job = self._idle
                if job is None:
                    continue
                self._call(job)
                continue
            try:
                if job is None:
                    return
                self._call(job)
            finally:
                self._jobs.task_done()

    def _call(self, job: Job) -> None:
        try:
            job()
        except Exception as exc:  # a file that vanished mid-read: the screen says so, the loop goes on
            self._failed(exc)
