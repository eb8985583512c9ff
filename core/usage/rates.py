"""A model's rates, as pideck keeps them (docs/usage.md#where-the-prices-come-from): apart from
``prices.py``, which looks them up and saves them, and from ``table.py``, which reads them from
genai-prices' table and imports nothing of the other two (they would import each other).
"""

# (No ``from __future__ import annotations``: ``Rates`` is a NamedTuple, whose string annotations
# ``inspect --json`` would compile: core/slotted.py.)

from typing import NamedTuple, Sequence

Rate = tuple[float, tuple[tuple[int, float], ...]]
"""Dollars per million tokens, and the tiers above it: (more than this many input tokens, rate)."""


class Rates(NamedTuple):
    """What one model costs, as the table says."""

    model: str  # the table's id of the model
    provider: str  # and of its provider
    input: Rate  # input tokens not read from or written to the cache
    output: Rate
    cache_read: Rate
    cache_write: Rate
    window: int | None  # the model's context window, where the table says it

    def micro_dollars(self, tokens: Sequence[int]) -> int:
        """The cost in millionths of a dollar of an answer's (input, output, cacheRead, cacheWrite)."""
        fresh, out, read, written = tokens
        whole_input = fresh + read + written
        total = 0.0
        for count, (base, tiers) in ((fresh, self.input), (out, self.output), (read, self.cache_read),
                                     (written, self.cache_write)):
            if count:
                rate = base
                for start, price in tiers:
                    if whole_input > start:
                        rate = price
                total += count * rate
        return round(total)  # (per million tokens, in millionths of a dollar: the same number)
