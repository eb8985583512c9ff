"""Where the prices come from (docs/usage.md#where-the-prices-come-from): genai-prices' table as it
ships in the wheel, kept per model in ``$PIDECK_HOME/prices.json``; the same dollars as the
table's own ``calc_price``; no price (never $0) for a model it does not know; never a fetch."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import httpx2
import pytest
from genai_prices import Usage, calc_price

from usage.usage_samples import AGENTS

from core.catalog.opening import open_log
from core.usage.ledger import Ledger
from core.usage.of_log import usage_of
from core.usage.prices import Prices

MODELS = [("anthropic", "claude-sonnet-4-5"), ("anthropic", "claude-opus-4-1"), ("anthropic", "claude-haiku-4-5"),
          ("openai", "gpt-4.1"), ("openai", "gpt-5.5"), ("openai", "gpt-4o-mini"), (None, "gemini-2.5-pro"),
          (None, "gemini-2.5-flash")]
TOKENS = [  # (input without cache, output, cache read, cache write)
    [1000, 200, 0, 0],
    [50, 20, 20_000, 1000],
    [3, 7919, 123_457, 31],
    [199_000, 1000, 1000, 0],  # a whole input of 200,000: not above the long-context tier
    [150_000, 3000, 60_000, 5000],  # 215,000: above it (Claude's and Gemini's long-context prices)
    [300_000, 0, 0, 0],
]


def table_micro(provider: str | None, model: str, tokens: list[int]) -> int:
    fresh, out, read, written = tokens
    price = calc_price(Usage(input_tokens=fresh + read + written, output_tokens=out, cache_read_tokens=read,
                             cache_write_tokens=written), model, provider_id=provider)
    return round(float(price.total_price) * 1_000_000)


@pytest.mark.parametrize(("provider", "model"), MODELS, ids=[m for _, m in MODELS])
def test_rates_price_as_the_tables_own_calc_price(provider: str | None, model: str, tmp_path: Path) -> None:
    rates = Prices(tmp_path).rates(provider, model)
    assert rates is not None and rates.model == model
    assert [rates.micro_dollars(t) for t in TOKENS] == [table_micro(provider, model, t) for t in TOKENS]


def test_the_long_context_tier_is_priced_above_200k_input() -> None:
    """(So the parity above covers tiers: claude-sonnet-4-5's input costs twice as much there.)"""
    rates = Prices(None).rates("anthropic", "claude-sonnet-4-5")
    assert rates is not None
    assert rates.micro_dollars([200_000, 0, 0, 0]) == 600_000  # $3 per million
    assert rates.micro_dollars([200_001, 0, 0, 0]) == 1_200_006  # $6 per million, every token


def answer(model: str, tokens: list[int], cost: float | None = None) -> dict[str, Any]:
    usage: dict[str, Any] = dict(zip(("input", "output", "cacheRead", "cacheWrite"), tokens))
    if cost is not None:
        usage["cost"] = {"total": cost}
    return {"type": "usage", "id": "00000001", "timestamp": "2026-12-01T10:00:00.000Z", "kind": "answer",
            "provider": None, "model": model, "usage": usage}


def test_a_model_the_table_does_not_know_has_no_price_never_zero(tmp_path: Path) -> None:
    prices = Prices(tmp_path)
    assert prices.rates(None, "no-such-model-7") is None
    ledger = Ledger(lambda provider, model: prices.rates(provider, model))
    ledger.add(answer("no-such-model-7", [1000, 100, 0, 0]))
    shown = ledger.json()
    assert (shown["cost"], shown["costFrom"], shown["unpriced"]) == (None, None, ["no-such-model-7"])
    assert shown["tokens"]["total"] == 1100 and shown["models"]["no-such-model-7"]["cost"] is None
    ledger.add(answer("gpt-4.1", [1000, 100, 0, 0]))  # a known model beside it: its cost alone
    shown = ledger.json()
    assert (shown["cost"], shown["costFrom"], shown["unpriced"]) == (0.0028, "prices", ["no-such-model-7"])
    assert shown["models"]["no-such-model-7"]["cost"] is None and shown["answers"] == 2


def test_the_logs_own_cost_comes_first() -> None:
    ledger = Ledger(lambda provider, model: None)
    ledger.add(answer("gpt-4.1", [1000, 100, 0, 0], cost=0.5))
    assert (ledger.json()["cost"], ledger.json()["costFrom"], ledger.json()["unpriced"]) == (0.5, "log", [])


def test_shares_are_whole_millionths_and_tokens_the_remainder_to_the_first() -> None:
    """Three items in progress share an answer of 1,001 tokens and $0.001: 334, 334, 333 tokens
    and 334, 333, 333 millionths; they add up to the answer exactly."""
    ledger = Ledger(lambda provider, model: None)
    ledger.add({"type": "custom", "customType": "pi-jtodo/state", "id": "00000001",
                "timestamp": "2026-12-01T10:00:00.000Z",
                "data": {"todos": [{"id": str(n), "content": f"item {n}", "status": "in_progress"} for n in (1, 2, 3)]}})
    ledger.add(answer("m", [1001, 0, 0, 0], cost=0.001))
    items = ledger.json()["items"]
    assert [(i["tokens"]["input"], i["cost"]) for i in items] == [(334, 0.000334), (334, 0.000333), (333, 0.000333)]
    assert ledger.json()["unplanned"]["answers"] == 0


RATES_ONLY = """
import sys
from pathlib import Path
from core.usage.prices import Prices
rates = Prices(Path(sys.argv[1])).rates("anthropic", "claude-sonnet-4-5", table=False)
unknown = Prices(Path(sys.argv[1])).rates("openai", "gpt-4.1", table=False)
print(rates.micro_dollars([1000, 100, 0, 0]) if rates else None, unknown, "genai_prices" in sys.modules)
"""


def test_the_saved_rates_price_without_the_table(tmp_path: Path) -> None:
    """A run that may not load the table (``table=False``: ``pideck status``) prices the models an
    earlier run saved in ``$PIDECK_HOME/prices.json``, and only those."""
    first = Prices(tmp_path)
    assert first.rates("anthropic", "claude-sonnet-4-5") is not None
    first.save()
    saved = json.loads((tmp_path / "prices.json").read_text())
    assert list(saved["rates"]) == ["anthropic/claude-sonnet-4-5"] and saved["table"]
    done = subprocess.run([sys.executable, "-c", RATES_ONLY, str(tmp_path)], capture_output=True, text=True,
                          cwd=Path(__file__).resolve().parents[2], env={**os.environ}, timeout=60)
    assert (done.stdout, done.stderr) == ("4500 None False\n", "")  # ($3 x 1000 + $15 x 100 per million)


def test_usage_without_the_table_uses_the_saved_rates(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PIDECK_HOME", str(tmp_path / "pideck"))
    case = next(c for c in AGENTS if c.name == "claude-todowrite")
    path = case.open(tmp_path / "home")
    assert usage_of(open_log(path, writable=False), table=False)["cost"] is None  # (no rates saved yet)
    assert usage_of(open_log(path, writable=False))["cost"] == 0.0054  # (the table's, saved)
    assert (tmp_path / "pideck" / "prices.json").is_file()
    assert usage_of(open_log(path, writable=False), table=False)["cost"] == 0.0054


def test_pricing_every_sample_never_fetches(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """genai-prices can fetch newer prices in a thread of its own (``UpdatePrices``): pideck never
    starts it, so no request and no such thread, whatever is priced."""
    def refused(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a request was made")

    monkeypatch.setattr(httpx2, "get", refused)
    monkeypatch.setattr(httpx2.Client, "send", refused)
    monkeypatch.setattr(socket.socket, "connect", refused)
    for case in AGENTS:
        path = case.open(tmp_path / case.name)
        shown = usage_of(open_log(path, writable=False))
        assert shown is not None and shown["answers"]
    assert [t.name for t in threading.enumerate() if "genai" in t.name or "update" in t.name.lower()] == []
