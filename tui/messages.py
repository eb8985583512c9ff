"""Every message a model thread posts to its screen (``tui/models/thread.py``): the only way log work
reaches widgets. Each carries plain immutable data the model built on its thread."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from textual.message import Message

if TYPE_CHECKING:  # (the fields' types only: the app's start does not wait for the modules of later screens)
    from core.catalog.attention import Attention
    from core.catalog.catalog import Record
    from core.catalog.rows import OverviewRow
    from core.deck.deck import DeckChange
    from core.views.activity import Event
    from core.views.costs import UsageJson
    from core.views.diff import Change
    from core.views.timetravel import AsOf
    from core.views.tree import SessionTree
    from core.views.view import DeckView

# -- every model -------------------------------------------------------------------------------------


@dataclass
class JobDone(Message):
    """A job the screen asked an answer of has run: its outcome, or the error it raised."""

    bubble = False  # (posted to the screen or the app that asked: never on to the app)

    ticket: int
    outcome: Any
    error: BaseException | None
    said: str = ""  # the error in a person's words (with where its traceback went, when unexpected)


@dataclass
class FileTrouble(Message):
    """A file the screen shows cannot be read (deleted, unreadable, no longer a session), or is
    readable again (``problem`` None). Posted once per change of state, never in a loop."""

    bubble = False  # (posted to the screen or the app that asked: never on to the app)

    problem: str | None


@dataclass
class ModelFailed(Message):
    """An error nothing expects happened on the model's thread; the thread goes on. ``text`` says
    where and what, and where its traceback was written."""

    bubble = False  # (posted to the screen or the app that asked: never on to the app)

    text: str


@dataclass
class NotifierFailed(Message):
    """A notifier's command failed (``tui/notifications.py``): said once, in these words."""

    bubble = False  # (posted to the app)

    text: str


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
    usage: UsageJson | None = None  # what the whole file's answers cost, per turn too (the preview says the turn's)
    older: int = 0  # the first events are new, before those shown (a walk that reads the newest first)


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
class CatalogChanged(Message):
    """The app's catalog read a change (``tui/models/catalog.py``): every row, who needs the person
    first, and the state of every row read, for the scope it was asked for; its records in the same
    order, those whose state changed at this look, whether it is the scope's first look, and each
    record's path with its links resolved (worked out on the catalog's thread: a screen finds its own
    record without touching the disk)."""

    bubble = False  # (posted to the screen or the app that asked: never on to the app)

    rows: list[OverviewRow]
    scope: str
    show_all: bool
    attentions: dict[str, Attention]
    records: tuple[Record, ...]
    changed: tuple[Record, ...]
    first: bool
    real: dict[str, str]


@dataclass
class HungUp(Message):
    """The terminal is gone (``tui/launcher.py``): the app ends with this exit status."""

    bubble = False

    status: int
