"""The app's own jobs, off the UI thread: saving the settings and the history, listing the
sessions for the picker, opening a session. The app hands each over to its ``ModelThread`` with
``then`` (what to do with the outcome on the UI thread), the same way a screen hands over its own
(``tui/models/thread.py``): one way of working in the background for the whole app."""

from __future__ import annotations

from tui.models.thread import Model


class AppJobs(Model):
    """No state of its own: each job carries what it needs."""

    name = "app"
