"""The app's one catalog (``core/catalog/catalog.py``), looked at on its own ``ModelThread``.

Every view of who needs the person reads what this model posts: the deck screens' header and
ctrl+g, the overview screen's rows, the notifications. So there is one watch of the folders in the
app, and the views cannot disagree (docs/architecture.md).

The scope (this directory or every session pideck knows) comes with the job that starts a look
(``restart``): what comes back is labelled with the scope it was read for, however fast the person
toggles it.
"""

from __future__ import annotations

import os
from typing import Callable

from core.catalog.catalog import Catalog, ranked
from tui.messages import CatalogChanged
from tui.models.thread import Model

BUDGET_S = 0.1
"""Seconds of conversation reading per look, so the first rows show at once however many there are."""
LOOK_S = 0.5
"""How often (seconds) the catalog looks at the folders: a change of state is shown within about this long."""


class CatalogModel(Model):
    name = "catalog"

    def __init__(self, cwd: str, make: Callable[[str | None], Catalog], *, show_all: bool = False) -> None:
        """``make(scope)``: the catalog of a directory, or of every session pideck knows (None)."""
        super().__init__()
        self.cwd = cwd
        self._make = make
        self.show_all = show_all
        self.catalog: Catalog | None = None
        self.looks = 0  # looks taken (tests wait for them)
        self._real: dict[str, str] = {}  # each record's path with its links resolved, found once

    def open(self) -> None:
        self.restart(self.show_all)

    def restart(self, show_all: bool) -> None:
        """Read the scope's records from the start: every session pideck knows, else the directory's."""
        self.show_all = show_all
        if self.catalog is not None:
            self.catalog.close()  # (the hosts it followed: their ssh ends)
        self.catalog = self._make(None if show_all else self.cwd)
        self._look(first=True)

    def close(self) -> None:
        if self.catalog is not None:
            self.catalog.close()

    def idle(self, look: bool) -> bool:
        return self._look()

    def _look(self, first: bool = False) -> bool:
        """One look; True while conversations are left to read (the next look follows at once)."""
        catalog = self.catalog
        if catalog is None:
            return False
        changed = catalog.look()
        self.looks += 1
        if first or catalog.moved or changed:
            attentions = catalog.attentions()
            scope = "every session pideck knows" if self.show_all else self.cwd
            records = tuple(catalog.ranked())
            # (a remote record's path, HOST:PATH, names no file here: it stays as it is)
            real = {r.path: r.path if r.host is not None else
                    self._real.get(r.path) or self._real.setdefault(r.path, os.path.realpath(r.path))
                    for r in records}
            self.post(CatalogChanged(ranked(catalog.rows, attentions), scope, self.show_all, attentions,
                                     records, tuple(changed), first, real))
        return bool(catalog.pending)
