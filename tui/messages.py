"""Messages the Deck's worker thread posts to its screen (the only way it talks to widgets)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from textual.message import Message

from core.deck import DeckChange
from core.view import DeckView


@dataclass
class DeckUpdated(Message):
    """The log changed (another writer, a truncation, a pideck session found): here is the new view."""

    view: DeckView
    change: DeckChange


@dataclass
class JobDone(Message):
    """A job the screen handed the worker has run: its outcome (or the error it raised) and the
    view after it."""

    ticket: int
    outcome: Any
    error: BaseException | None
    view: DeckView
    change: DeckChange | None


@dataclass
class FileTrouble(Message):
    """The session file cannot be read (deleted, unreadable) or is readable again (``problem``
    None). Posted once per change of state, never in a loop."""

    problem: str | None


@dataclass
class WorkerFailed(Message):
    """The worker thread met an error nothing expects and stopped: the screen raises it."""

    error: Exception
