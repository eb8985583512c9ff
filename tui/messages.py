"""Every message a model thread posts to its screen (``tui/models/thread.py``): the only way log work
reaches widgets. Each carries plain immutable data the model built on its thread."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

from textual.message import Message

if TYPE_CHECKING:  # (the fields' types only: the app's start does not wait for the modules of later screens)
    from core.activity import Event
    from core.attention import Attention
    from core.deck import DeckChange
    from core.diff import Change
    from core.overview import OverviewRow
    from core.session.tree import SessionTree
    from core.timetravel import AsOf
    from core.view import DeckView

# -- every model -------------------------------------------------------------------------------------


@dataclass
class JobDone(Message):
    """A job the screen asked an answer of has run: its outcome, or the error it raised."""

    ticket: int
    outcome: Any
    error: BaseException | None
    said: str = ""  # the error in a person's words (with where its traceback went, when unexpected)


@dataclass
class FileTrouble(Message):
    """A file the screen shows cannot be read (deleted, unreadable, no longer a session), or is
    readable again (``problem`` None). Posted once per change of state, never in a loop."""

    problem: str | None


@dataclass
class ModelFailed(Message):
    """An error nothing expects happened on the model's thread; the thread goes on. ``text`` says
    where and what, and where its traceback was written."""

    text: str


@dataclass
class NotifierCall(Message):
    """A call the app's notification follower (``tui/notifications.py``) hands to the UI thread.
    ``post_message`` is thread-safe and, unlike ``call_from_thread``, never waits: a thread never
    hangs on an app that is closing."""

    call: Callable[[], None]


@dataclass
class FirstFrame(Message):
    """(to the app) A screen's first view is on screen: what waited for it may start now
    (docs/tui.md#the-first-frame)."""


# -- the deck ---------------------------------------------------------------------------------------


@dataclass
class DeckUpdated(Message):
    """The deck's view changed (the first view, another writer's append, a job's append, a
    truncation, a pideck session found): here it is, and what changed."""

    view: DeckView
    change: DeckChange


# -- the timeline ------------------------------------------------------------------------------------


@dataclass
class TimelineChanged(Message):
    events: tuple[Event, ...]  # oldest first
    tree: SessionTree
    name: str
    entries: int
    branch: str | None  # the leaf of the branch shown, None for the current branch
    reset: bool = True  # not the events shown before plus new ones (the first, another branch, a rewrite)
    loading: bool = False  # the walk of the branch goes on: later events follow
    walked: int = 0  # entries of the branch walked so far


@dataclass
class PointShown(Message):
    ticket: int
    as_of: AsOf
    view: DeckView
    open: bool  # Enter asked for it: show the whole deck


@dataclass
class DiffShown(Message):
    a: AsOf
    b: AsOf
    changes: tuple[Change, ...]


# -- the overview ------------------------------------------------------------------------------------


@dataclass
class RowsChanged(Message):
    """The overview read a change: every row now, who needs the person first, and the state of
    every row read, for the scope it was asked for."""

    rows: list[OverviewRow]
    scope: str
    show_all: bool
    attentions: dict[str, Attention] = field(default_factory=dict)
