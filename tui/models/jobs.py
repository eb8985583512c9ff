"""Jobs with no state of their own, off the UI thread: the app's (saving the settings and the
history, listing the sessions for the picker, opening a session) and the notifier's commands. Each
is handed to its ``ModelThread`` with what it needs, and with ``then`` where the UI thread does
something with the outcome, the same way a screen hands over its own (``tui/models/thread.py``):
one way of working in the background for the whole app."""

from __future__ import annotations

from tui.models.thread import Model


class Jobs(Model):
    """No state: each job carries what it needs. ``name`` says whose jobs they are in a failure's
    text and in pideck's error log."""

    def __init__(self, name: str) -> None:
        super().__init__()
        self.name = name
