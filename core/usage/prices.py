"""What a model's tokens cost, from the price table of ``genai-prices`` (its data ships inside the
wheel; pideck never asks it to fetch newer prices), and the model's context window
(docs/usage.md#where-the-prices-come-from).

Loading the table takes a good half second, so it is loaded only when a model is priced that no
earlier run priced: each model's rates are saved in ``$PIDECK_HOME/prices.json`` with the table's
version, and a run that may not load the table (``pideck status``) prices with the saved rates
alone. Rates are dollars per million tokens for the four counts pideck keeps of an answer; a rate
that changes above a number of input tokens (Anthropic's and Google's long-context prices) keeps
its tiers, and the tier is chosen by the answer's whole input, cache included, as the table does.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any, cast

from core.files import read_json, write_json
from core.usage.rates import Rates

SAVED = "prices.json"
LONG_CONTEXT = "[1m]"
"""Claude Code's name for a model run with a one-million-token window (``claude-sonnet-4-5[1m]``)."""
LONG_WINDOW = 1_000_000
WINDOWS = {"gemini-2.5-pro": 1_048_576}
"""Context windows of models the table prices without saying their window (by the table's id)."""

class Prices:
    """The rates of the models priced so far (one per process: ``prices()``)."""

    def __init__(self, home: Path | None) -> None:
        self._path = home / SAVED if home is not None else None
        self._lock = threading.Lock()
        self._rates: dict[str, Rates | None] = {}
        self._saved: dict[str, object] = {}
        self._version: str | None = None  # of the table, once loaded
        self._saved_version: object = None  # of the table the saved rates came from
        self._dirty = False
        if self._path is not None:
            saved = read_json(self._path) or {}
            rates = saved.get("rates")
            if isinstance(rates, dict):
                self._saved = rates
                self._saved_version = saved.get("table")

    def rates(self, provider: str | None, model: str, table: bool = True) -> Rates | None:
        """The rates of ``model`` (of ``provider`` where known), or None when the table has no
        price for it; with ``table`` False, only rates an earlier run saved (None otherwise)."""
        key = f"{provider or ''}/{model}"
        with self._lock:
            if key in self._rates:
                return self._rates[key]
            found = _from_saved(self._saved.get(key)) if key in self._saved else _UNKNOWN
            if found is _UNKNOWN:
                if not table:
                    return None
                found = self._look_up(provider, model)
                self._saved[key] = list(found) if found is not None else None
                self._dirty = True
            self._rates[key] = found
            return found

    def save(self) -> None:
        """Keep the rates found in this run for the next (best effort: a home that cannot be
        written prices again next time)."""
        with self._lock:
            if not self._dirty or self._path is None:
                return
            try:
                write_json(self._path, {"table": self._version, "rates": self._saved})
                self._dirty = False
            except OSError:
                pass

    def _look_up(self, provider: str | None, model: str) -> Rates | None:
        from core.usage import table

        if self._version is None:
            self._version = table.version()
            if self._saved_version != self._version:  # (a new table: price every model again)
                self._saved = {}
        found = table.rates(provider, model.replace(LONG_CONTEXT, ""))
        if found is not None and found.window is None:
            found = found._replace(window=WINDOWS.get(found.model))
        if found is not None and LONG_CONTEXT in model:
            found = found._replace(window=LONG_WINDOW)
        return found


_UNKNOWN = Rates("", "", (0.0, ()), (0.0, ()), (0.0, ()), (0.0, ()), None)


def _from_saved(value: object) -> Rates | None:
    """Saved rates (a list as ``Rates`` writes), or None (a model the table had no price for, or
    a value this version cannot read: ``_UNKNOWN``, to look it up again)."""
    if value is None:
        return None
    try:
        model, provider, given, output, read, written, window = cast("list[Any]", value)
        parsed = [(float(base), tuple((int(s), float(p)) for s, p in tiers)) for base, tiers in (given, output, read, written)]
        return Rates(str(model), str(provider), parsed[0], parsed[1], parsed[2], parsed[3],
                     window if isinstance(window, int) else None)
    except (TypeError, ValueError):
        return _UNKNOWN


_prices: Prices | None = None
_prices_home: Path | None = None


def prices(home: Path | None = None) -> Prices:
    """The process's rates (saved under ``home``, else pideck's home)."""
    global _prices, _prices_home
    if home is None:
        from core.config.places import pideck_home

        home = pideck_home()
    if _prices is None or _prices_home != home:
        _prices, _prices_home = Prices(home), home
    return _prices
