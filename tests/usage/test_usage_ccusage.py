"""ccusage's published rules (its README and ``data-loader.ts``), on Claude Code transcripts made
from the real claude-tasks sample the way a real Claude Code writes an answer: one line per
content block (thinking, then the text or tool call), each with the answer's ``message.id``, its
``requestId`` and the whole answer's ``usage``.

- An answer is counted once, by its message id and request id; a line without both is counted
  each time (ccusage's ``createUniqueHash`` gives no key then).
- Cache tokens are priced at their own rates: for claude-sonnet-4-5 $3 per million input tokens,
  $15 output, $3.75 cache write, $0.30 cache read; Anthropic's ``input_tokens`` leaves the cache
  out, OpenAI's (Codex's) counts the cached tokens in, which pideck takes off.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from genai_prices import Usage, calc_price

from conversations.transcript_samples import BY_NAME

from core.sources.log import ConversationLog
from core.usage.of_log import usage_of

CLAUDE = BY_NAME["claude-tasks"]
CODEX = BY_NAME["codex-update-plan"]
CACHED = {"input_tokens": 50, "cache_creation_input_tokens": 1000, "cache_read_input_tokens": 20_000, "output_tokens": 20}
"""One answer's usage as Claude Code writes it: 50 fresh input tokens beside the 21,000 of the cache."""
ANSWER_MICRO = 50 * 3 + 20 * 15 + 1000 * 3.75 + 20_000 * 0.30
"""Its cost in millionths of a dollar: 150 + 300 + 3,750 + 6,000 = 10,200 ($0.0102)."""


def blocks(request_ids: bool) -> bytes:
    """The sample with each answer written as two lines, a thinking block and then its own
    block, both with its message id, usage and (``request_ids``) a request id."""
    out = []
    for n, raw in enumerate(CLAUDE.lines):
        line = json.loads(raw)
        if line.get("type") != "assistant":
            out.append(raw)
            continue
        line["message"]["usage"] = {**line["message"]["usage"], **CACHED}
        if request_ids:
            line["requestId"] = f"req_{n:04d}"
        thinking = json.loads(json.dumps(line))
        thinking["message"]["content"] = [{"type": "thinking", "thinking": "Let me see.", "signature": "c2ln"}]
        thinking["uuid"] = f"{line['uuid'][:-4]}beef"
        out += [json.dumps(thinking).encode() + b"\n", json.dumps(line).encode() + b"\n"]
    return b"".join(out)


def usage_of_transcript(tmp_path: Path, data: bytes, sample: Any) -> Any:
    path = tmp_path / sample.transcript
    path.parent.mkdir(parents=True)
    path.write_bytes(data)
    return usage_of(ConversationLog.open_transcript(path))


def test_the_price_of_a_claude_answer_is_anthropics_as_genai_prices_says_it() -> None:
    price = calc_price(Usage(input_tokens=50 + 1000 + 20_000, cache_write_tokens=1000, cache_read_tokens=20_000,
                             output_tokens=20), "claude-sonnet-4-5", provider_id="anthropic")
    assert round(float(price.total_price) * 1_000_000) == ANSWER_MICRO == 10_200


@pytest.mark.parametrize("request_ids", [True, False], ids=["with request ids", "without"])
def test_the_lines_of_one_answer_count_once(request_ids: bool, tmp_path: Path) -> None:
    usage = usage_of_transcript(tmp_path, blocks(request_ids), CLAUDE)
    answers = 21 if request_ids else 42  # (without a request id, each line is an answer, as ccusage counts it)
    assert usage["answers"] == answers
    assert usage["tokens"] == {"input": 50 * answers, "output": 20 * answers, "cacheRead": 20_000 * answers,
                               "cacheWrite": 1000 * answers, "total": 21_070 * answers}
    assert round(usage["cost"] * 1_000_000) == ANSWER_MICRO * answers
    assert usage["context"] == {"tokens": 21_070, "window": 200_000, "model": "claude-sonnet-4-5", "share": 0.1053}


def test_an_answer_counts_once_however_its_lines_are_read(tmp_path: Path) -> None:
    """Claude writes an answer's lines in one write or several: read a line at a time, each new
    read resuming from the cache, the answer still counts once."""
    data = blocks(request_ids=True)
    path = tmp_path / CLAUDE.transcript
    path.parent.mkdir(parents=True)
    path.write_bytes(b"")
    for raw in data.splitlines(keepends=True)[:80]:
        with open(path, "ab") as f:
            f.write(raw)
        ConversationLog.open_transcript(path)  # (each open reads what is new and saves the cache)
    with open(path, "ab") as f:
        f.write(b"".join(data.splitlines(keepends=True)[80:]))
    usage = usage_of(ConversationLog.open_transcript(path))
    assert usage is not None and usage["answers"] == 21 and round(usage["cost"] * 1_000_000) == 21 * ANSWER_MICRO


def codex_cached() -> bytes:
    """The Codex sample with each answer's 1,000 input tokens of which 800 were read from the
    cache (OpenAI's convention: ``input_tokens`` counts them in)."""
    out, k = [], 0
    for raw in CODEX.lines:
        line = json.loads(raw)
        payload = line.get("payload") or {}
        if line.get("type") == "event_msg" and payload.get("type") == "token_count" and payload.get("info"):
            k += 1
            last = {"input_tokens": 1000, "cached_input_tokens": 800, "cache_write_input_tokens": 0, "output_tokens": 20,
                    "reasoning_output_tokens": 0, "total_tokens": 1020}
            payload["info"]["last_token_usage"] = last
            payload["info"]["total_token_usage"] = {key: value * k for key, value in last.items()}
            raw = json.dumps(line).encode() + b"\n"
        out.append(raw)
    return b"".join(out)


def test_codex_input_counts_the_cache_in_and_pideck_takes_it_off(tmp_path: Path) -> None:
    usage = usage_of_transcript(tmp_path, codex_cached(), CODEX)
    assert usage["answers"] == 11
    assert usage["tokens"] == {"input": 2200, "output": 220, "cacheRead": 8800, "cacheWrite": 0, "total": 11_220}
    one = calc_price(Usage(input_tokens=1000, cache_read_tokens=800, output_tokens=20), "gpt-5.5", provider_id="openai")
    assert round(usage["cost"] * 1_000_000) == 11 * round(float(one.total_price) * 1_000_000)
    assert usage["context"] == {"tokens": 1020, "window": 258_400, "model": "gpt-5.5", "share": 0.0039}
