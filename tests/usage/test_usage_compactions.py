"""Compactions as each log says them (docs/usage.md#context-and-compactions), with the tokens in the
context before (the log's number where it says one, else the last answer's) and after (the next
answer's): Claude Code's ``compact_boundary`` line, Codex's ``compacted`` line and its
``context_compacted`` event (one compaction), pi's ``compaction`` entries."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from conversations.transcript_samples import BY_NAME
from usage.usage_samples import PI_FIXTURES

from core.catalog.opening import open_log
from core.sources.log import ConversationLog
from core.usage.of_log import usage_of

CODEX = BY_NAME["codex-update-plan"]
CLAUDE = BY_NAME["claude-todowrite"]
AT = "2026-12-01T07:16:45.000Z"  # (between Codex's two turns)


def written(tmp_path: Path, sample: Any, lines: list[bytes]) -> Any:
    path = tmp_path / sample.transcript
    path.parent.mkdir(parents=True)
    path.write_bytes(b"".join(lines))
    return usage_of(ConversationLog.open_transcript(path))


def codex_with(told: list[dict[str, Any]]) -> list[bytes]:
    """The Codex sample whose context grows 1,000 input tokens an answer for its first turn's
    seven answers, then starts again from 500 after ``told`` (put after the first turn)."""
    out, k, total = [], 0, {"input_tokens": 0, "cached_input_tokens": 0, "cache_write_input_tokens": 0,
                            "output_tokens": 0, "reasoning_output_tokens": 0, "total_tokens": 0}
    for n, raw in enumerate(CODEX.lines):
        line = json.loads(raw)
        payload = line.get("payload") or {}
        if line.get("type") == "event_msg" and payload.get("type") == "token_count" and payload.get("info"):
            k += 1
            given = 1000 * k if k <= 7 else 500 + 1000 * (k - 8)
            last = {"input_tokens": given, "cached_input_tokens": 0, "cache_write_input_tokens": 0, "output_tokens": 20,
                    "reasoning_output_tokens": 0, "total_tokens": given + 20}
            total = {key: total[key] + value for key, value in last.items()}
            payload["info"]["last_token_usage"], payload["info"]["total_token_usage"] = last, total
            raw = json.dumps(line).encode() + b"\n"
        out.append(raw)
        if n == 38:  # (the first turn's task_complete)
            out += [json.dumps(t).encode() + b"\n" for t in told]
    return out


COMPACTED = {"timestamp": AT, "type": "compacted",
             "payload": {"message": "Another language model started to solve this problem...", "replacement_history": []}}
EVENT = {"timestamp": AT, "type": "event_msg", "payload": {"type": "context_compacted"}}


@pytest.mark.parametrize("told", [[COMPACTED, EVENT], [COMPACTED], [EVENT]], ids=["line and event", "line", "event"])
def test_codex_compaction(told: list[dict[str, Any]], tmp_path: Path) -> None:
    usage = written(tmp_path, CODEX, codex_with(told))
    # before: the last answer's context (Codex does not say it), after: the next answer's
    assert usage["compactions"] == [{"at": AT, "before": 7020, "after": 520}]
    assert usage["context"] == {"tokens": 3520, "window": 258_400, "model": "gpt-5.5", "share": 0.0136}
    assert usage["answers"] == 11


def test_codex_compaction_is_kept_across_reads(tmp_path: Path) -> None:
    """The line read in one sync, its event in the next: still one compaction."""
    lines = codex_with([COMPACTED, EVENT])
    path = tmp_path / CODEX.transcript
    path.parent.mkdir(parents=True)
    path.write_bytes(b"".join(lines[:40]))  # (up to the compacted line)
    ConversationLog.open_transcript(path)
    path.write_bytes(b"".join(lines))
    usage = usage_of(ConversationLog.open_transcript(path))
    assert usage is not None and usage["compactions"] == [{"at": AT, "before": 7020, "after": 520}]


def test_claude_compact_boundary(tmp_path: Path) -> None:
    """Claude Code says how many tokens the context held (``compactMetadata.preTokens``)."""
    boundary = {"parentUuid": None, "logicalParentUuid": "c0ffee00-0000-4000-8000-000000000000", "isSidechain": False,
                "userType": "external", "cwd": "/home/user/project", "sessionId": CLAUDE.session_id,
                "version": CLAUDE.version, "type": "system", "subtype": "compact_boundary",
                "content": "Conversation compacted", "isMeta": False, "timestamp": "2026-12-01T07:16:34.000Z",
                "uuid": "c0ffee00-0000-4000-8000-000000000001", "level": "info",
                "compactMetadata": {"trigger": "auto", "preTokens": 155_123}}
    lines = list(CLAUDE.lines)
    at = next(n for n, raw in enumerate(lines) if b"TURN-1" in raw and b'"assistant"' in raw)
    lines.insert(at + 1, json.dumps(boundary).encode() + b"\n")
    usage = written(tmp_path, CLAUDE, lines)
    assert usage["compactions"] == [{"at": "2026-12-01T07:16:34.000Z", "before": 155_123, "after": 70}]
    assert usage["answers"] == 12


@pytest.mark.parametrize("name", ["pi-sessionmanager", "pi-sessionmanager-0.84.2"])
def test_pi_compaction_entries(name: str) -> None:
    """pi's SessionManager wrote ``tokensBefore`` 4321; the next answer held 15 tokens."""
    path = PI_FIXTURES[name]
    at = next(json.loads(line)["timestamp"] for line in path.read_text().splitlines() if '"type":"compaction"' in line)
    usage = usage_of(open_log(path, writable=False))
    assert usage is not None and usage["compactions"] == [{"at": at, "before": 4321, "after": 15}]
