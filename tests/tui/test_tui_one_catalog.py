"""One catalog in the app (docs/architecture.md): with a deck that follows its files (its header
counts who needs you), the overview screen on top and the notifications on, the app watches the
folders once, and no other watch of them exists; and the app works in the background one way."""

from __future__ import annotations

import gc
import re
import weakref
from pathlib import Path
from typing import Any

import pytest

from tui_fixtures import demo_deck, make_app, run, wait_for

from core.catalog.catalog import Catalog
from core.catalog.elsewhere import WriteWatch
from core.catalog.overview import Overview
from core.config.settings import NotifyConfig
from tui.notifications import AttentionNotifications
from tui.screens.overview import OverviewScreen

TUI = Path(__file__).resolve().parents[2] / "tui"


class Made:
    """The instances of some classes made from now on, while they live (another test's objects that
    are not collected yet are not counted)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, *kinds: type) -> None:
        self.made: dict[type, weakref.WeakSet[Any]] = {kind: weakref.WeakSet() for kind in kinds}
        for kind in kinds:
            monkeypatch.setattr(kind, "__init__", self._recording(kind, kind.__init__))

    def _recording(self, kind: type, init: Any) -> Any:
        def recorded(obj: Any, *args: Any, **kwargs: Any) -> None:
            self.made[kind].add(obj)
            init(obj, *args, **kwargs)
        return recorded

    def alive(self, kind: type) -> int:
        gc.collect()
        return len(self.made[kind])


def test_the_deck_the_inbox_and_the_notifications_read_one_catalog(tmp_path, monkeypatch) -> None:
    def notifications(app: Any) -> AttentionNotifications:
        return AttentionNotifications(app, NotifyConfig(), env={})

    made = Made(monkeypatch, Catalog, Overview, WriteWatch)
    alive = made.alive
    app = make_app(demo_deck(tmp_path), follow=True, overview_poll=0.02, notifications=notifications)

    async def scenario(pilot):
        assert await wait_for(pilot, lambda: app.catalog is not None and app.attention_notifier is not None
                              and app.attention_notifier.looks >= 1)
        app.action_overview()
        assert await wait_for(pilot, lambda: isinstance(app.screen, OverviewScreen) and app.screen.scope != "")
        looks = app.catalog_thread.model.looks
        assert await wait_for(pilot, lambda: app.catalog_thread.model.looks >= looks + 3)
        # the deck screen below still has the header's count from the same looks
        assert app.deck_screen.inbox is not None
        return alive(Catalog), alive(Overview), alive(WriteWatch)

    catalogs, overviews, write_watches = run(app, scenario)
    # one catalog over one watch of the folders; the deck's own look for writes that go to another
    # session of its directory is about its screen, not a state (docs/tui.md#writes-that-go-elsewhere)
    assert (catalogs, overviews) == (1, 1)
    assert write_watches <= 1


OTHER_IDIOMS = re.compile(r"threading\.Thread\(|@work\b|run_worker\(|call_from_thread\(")


def test_the_app_has_one_way_of_working_in_the_background() -> None:
    """Every job off the UI thread runs on a ``ModelThread`` (tui/models/thread.py) and answers with
    typed messages. The launcher's two threads run before and around the app, not in it: the read of
    the session that overlaps importing Textual, and the watch of the terminal for a hang-up."""
    found = {str(path.relative_to(TUI.parent)): OTHER_IDIOMS.findall(path.read_text(encoding="utf-8"))
             for path in sorted(TUI.rglob("*.py"))}
    assert {path: hits for path, hits in found.items() if hits} == {
        "tui/launcher.py": ["threading.Thread(", "threading.Thread(", "threading.Thread("],
        "tui/models/thread.py": ["threading.Thread("],
    }
