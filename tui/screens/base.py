"""``ModelScreen``: the UI side of a screen whose log work runs on its model's thread
(``tui/models/``), written once: the busy flag tests wait for, the thread's end with the screen,
the answers to its jobs and the one error policy (docs/tui.md#one-thread-per-screen)."""

from __future__ import annotations

from typing import Any

from textual import on
from textual.screen import Screen

from tui.messages import FileTrouble, JobDone, ModelFailed
from tui.models.thread import ModelThread
from tui.text import clean


class ModelScreen(Screen[None]):
    """Subclasses set ``model_thread`` in their ``__init__`` and start it when mounted; they may
    say a file problem where they show it (``problem_changed``) and an error where the person
    looks (``say_error``)."""

    model_thread: ModelThread[Any]
    problem: str | None = None  # why a file the screen shows cannot be read now, or None

    @property
    def busy(self) -> bool:
        """A job is waiting, running or unanswered on the model's thread (tests wait for this)."""
        return self.model_thread.busy

    def stop(self) -> None:
        """End the model's thread (the screen is going away)."""
        self.model_thread.stop()

    def on_unmount(self) -> None:
        self.stop()

    @on(JobDone)
    def _job_done(self, message: JobDone) -> None:
        then = self.model_thread.finished(message)
        if message.error is not None:
            self.say_error(message.said or f"{message.error}")
        elif then is not None:
            then(message.outcome)

    @on(ModelFailed)
    def _model_failed(self, message: ModelFailed) -> None:
        self.say_error(message.text)

    @on(FileTrouble)
    def _file_trouble(self, message: FileTrouble) -> None:
        self.problem = message.problem
        self.problem_changed()

    def say_error(self, text: str) -> None:
        """``text`` may quote a file's name or an entry: made literal first."""
        self.app.notify(clean(text, multiline=True), severity="error", markup=False)

    def problem_changed(self) -> None:
        """The screen's header or title shows ``problem`` (or no longer does)."""
