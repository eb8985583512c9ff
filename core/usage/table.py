"""The one module that loads ``genai-prices`` (``prices.py`` says when): a model's rates as pideck
keeps them, read from the table that ships inside the package. Nothing here starts its updater,
so no price is ever fetched."""

from __future__ import annotations

from datetime import datetime, timezone
from decimal import Decimal

from genai_prices import data_snapshot
from genai_prices.types import TieredPrices

from core.usage.rates import Rate, Rates


def version() -> str:
    from importlib.metadata import version as of

    return of("genai-prices")


def rates(provider: str | None, model: str) -> Rates | None:
    """The rates of ``model`` as the table prices it now, or None when the table does not know it
    (or knows it without a price per token)."""
    snapshot = data_snapshot.get_snapshot()
    try:
        found_provider, found = snapshot.find_provider_model(model, None, provider, None)
    except LookupError:
        if provider is None:
            return None
        try:  # (a provider the table names otherwise: the model's name alone)
            found_provider, found = snapshot.find_provider_model(model, None, None, None)
        except LookupError:
            return None
    price = found.get_prices(datetime.now(timezone.utc))
    given = getattr(price, "input_mtok", None)
    output = getattr(price, "output_mtok", None)
    if given is None or output is None:
        return None
    read = getattr(price, "cache_read_mtok", None)
    written = getattr(price, "cache_write_mtok", None)
    return Rates(found.id, found_provider.id, _rate(given), _rate(output),
                 _rate(read if read is not None else given), _rate(written if written is not None else given),
                 found.context_window)


def _rate(price: Decimal | TieredPrices) -> Rate:
    if isinstance(price, TieredPrices):
        return float(price.base), tuple((tier.start, float(tier.price)) for tier in price.tiers)
    return float(price), ()
