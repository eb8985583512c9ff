"""Every real conversation of tests/fixtures/agent-transcripts/ (read its README.md) and the pi
fixtures, with what each agent's own accounting says the conversation used: the tally pideck's
usage must equal. Each tally is read from the agent's own summary, never from the lines pideck
counts (Claude Code's ``cost-state`` line, Codex's last ``total_token_usage``, Gemini CLI's and Qwen
Code's ``--output-format json`` stats, Copilot's ``session.shutdown`` metrics, opencode's assistant
messages, pi's assistant messages), so an answer counted twice or missed shows.

Every sample's fake model answered each request with 50 input and 20 output tokens, no cache.
"""

from __future__ import annotations

import gzip
import json
import sqlite3
from pathlib import Path
from typing import Callable, NamedTuple

from conversations.transcript_samples import BY_NAME, FIXTURES

from core.sources.in_database import conversation_path

TESTS = Path(__file__).resolve().parent.parent
CLAUDE_SUBAGENT = (FIXTURES / "claude-subagent" / "final" / ".claude" / "projects" / "-home-user-project"
                   / "b7d01310-a8b8-4926-8509-4fea1459b430.jsonl")
OPENCODE_DB = FIXTURES / "opencode-todowrite" / "final" / ".local" / "share" / "opencode" / "opencode.db.gz"
OPENCODE_SESSION = "ses_dcc919244ffeTKrCyRrUVGVjZ5"
PI_FIXTURES = {
    "pi-cli": TESTS / "fixtures" / "pi_cli_session.jsonl",
    "pi-sessionmanager": TESTS / "fixtures" / "pi_sessionmanager_branched.jsonl",
    "pi-sessionmanager-0.84.2": TESTS / "fixtures" / "pi_sessionmanager_branched_0.84.2.jsonl",
    "pi-small-branched": TESTS / "fixtures" / "2026-11-30T14-53-16-479Z_01a22cf2-253f-70fd-b26f-f043e48c877f.jsonl",
}


class Tally(NamedTuple):
    """What the agent says the conversation used: [input without cache, output, cache read, cache
    write] (pi's sense of input), its answers where it says them, its cost in USD where it says it."""

    tokens: list[int]
    answers: int | None
    cost: float | None


class Case(NamedTuple):
    name: str
    open: Callable[[Path], Path]  # a scratch folder -> the path pideck opens
    tally: Callable[[Path], Tally]  # that path -> the agent's own count
    model: str | None  # of every answer (None: pi's)
    provider: str | None  # as the reader names it to the price table


def _lines(path: Path) -> list[dict[str, object]]:
    """The file's JSON lines (a line that is not JSON, as pi's CLI fixture has one, is no line)."""
    out = []
    for line in path.read_bytes().splitlines():
        try:
            out.append(json.loads(line))
        except ValueError:
            pass
    return out


def claude_tally(path: Path) -> Tally:
    """Claude Code's last line, ``cost-state``: its tokens and cost per model (the subagents' too)."""
    state = next(line for line in reversed(_lines(path)) if line.get("type") == "cost-state")
    used = state["modelUsage"]["claude-sonnet-4-5"]
    return Tally([used["inputTokens"], used["outputTokens"], used["cacheReadInputTokens"],
                  used["cacheCreationInputTokens"]], None, state["totalCostUSD"])


def codex_tally(path: Path) -> Tally:
    """Codex's last ``total_token_usage`` (its input counts the cached tokens: taken off)."""
    total = [line["payload"]["info"]["total_token_usage"] for line in _lines(path)
             if line.get("type") == "event_msg" and line["payload"].get("type") == "token_count"][-1]
    cached = total["cached_input_tokens"]
    return Tally([total["input_tokens"] - cached, total["output_tokens"], cached, total["cache_write_input_tokens"]],
                 None, None)


def stdout_stats(folder: Path) -> list[dict[str, object]]:
    return [line for name in ("1", "2") for line in _lines(next(folder.glob(f"*.stdout.{name}.jsonl")))]


def gemini_tally(path: Path) -> Tally:
    """Gemini CLI's ``stats`` of each of the two runs (``-p``, then ``--resume``), added up; the
    variant kept no output: the last copy of each of its records (Gemini rewrites a record whole)."""
    if "50a2a7df" not in path.name:  # (the variant's session)
        stats = [line["stats"] for line in stdout_stats(FIXTURES / "gemini-write-todos") if "stats" in line]
        return Tally([sum(s["input_tokens"] - s["cached"] for s in stats), sum(s["output_tokens"] for s in stats),
                      sum(s["cached"] for s in stats), 0], None, None)
    records = {line["id"]: line for line in _lines(path) if line.get("type") == "gemini"}
    tokens = [r["tokens"] for r in records.values() if isinstance(r.get("tokens"), dict)]
    return Tally([sum(t["input"] - t["cached"] for t in tokens), sum(t["output"] + t["thoughts"] for t in tokens),
                  sum(t["cached"] for t in tokens), 0], len(tokens), None)


def qwen_tally(path: Path) -> Tally:
    """Qwen Code's ``result`` of the resumed run: the conversation's usage so far."""
    used = [line["usage"] for line in stdout_stats(FIXTURES / "qwen-todo-write") if line.get("type") == "result"][-1]
    return Tally([used["input_tokens"] - used["cache_read_input_tokens"], used["output_tokens"],
                  used["cache_read_input_tokens"], 0], None, None)


def copilot_tally(path: Path) -> Tally:
    """Copilot's ``session.shutdown``: the model's requests and tokens."""
    shutdown = [line for line in _lines(path) if line.get("type") == "session.shutdown"][-1]
    metrics = shutdown["data"]["accountingSnapshot"]["modelMetrics"]["gpt-4.1"]
    used = metrics["usage"]
    return Tally([used["inputTokens"], used["outputTokens"], used["cacheReadTokens"], used["cacheWriteTokens"]],
                 metrics["requests"]["count"], None)


def opencode_open(folder: Path) -> Path:
    db = folder / ".local" / "share" / "opencode" / "opencode.db"
    db.parent.mkdir(parents=True, exist_ok=True)
    db.write_bytes(gzip.decompress(OPENCODE_DB.read_bytes()))
    return conversation_path(db, OPENCODE_SESSION)


def opencode_tally(path: Path) -> Tally:
    """opencode's assistant messages (each says its tokens and cost, apart from its parts)."""
    db = Path(str(path).partition("#")[0])
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        rows = [json.loads(data) for (data,) in conn.execute("SELECT data FROM message WHERE session_id = ?",
                                                              (OPENCODE_SESSION,))]
    conn.close()
    answers = [r for r in rows if r.get("role") == "assistant"]
    tokens = [a["tokens"] for a in answers]
    return Tally([sum(t["input"] for t in tokens), sum(t["output"] + t["reasoning"] for t in tokens),
                  sum(t["cache"]["read"] for t in tokens), sum(t["cache"]["write"] for t in tokens)],
                 len(answers), sum(a["cost"] for a in answers))


def pi_tally(path: Path) -> Tally:
    """pi's assistant messages, every branch (each carries its usage and cost)."""
    used = [line["message"]["usage"] for line in _lines(path)
            if line.get("type") == "message" and line["message"].get("role") == "assistant"]
    return Tally([sum(u[k] for u in used) for k in ("input", "output", "cacheRead", "cacheWrite")], len(used),
                 sum(u["cost"]["total"] for u in used))


def _sample(name: str) -> Callable[[Path], Path]:
    return lambda folder: BY_NAME[name].copy_home(folder)


def _subagent(folder: Path) -> Path:
    import shutil

    shutil.copytree(FIXTURES / "claude-subagent" / "final", folder, dirs_exist_ok=True)
    return folder / CLAUDE_SUBAGENT.relative_to(FIXTURES / "claude-subagent" / "final")


def _pi(path: Path) -> Callable[[Path], Path]:
    def copy(folder: Path) -> Path:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / path.name).write_bytes(path.read_bytes())
        return folder / path.name
    return copy


CASES = [
    Case("claude-tasks", _sample("claude-tasks"), claude_tally, "claude-sonnet-4-5", "anthropic"),
    Case("claude-todowrite", _sample("claude-todowrite"), claude_tally, "claude-sonnet-4-5", "anthropic"),
    Case("claude-subagent", _subagent, claude_tally, "claude-sonnet-4-5", "anthropic"),
    Case("codex-update-plan", _sample("codex-update-plan"), codex_tally, "gpt-5.5", "openai"),
    Case("gemini-write-todos", _sample("gemini-write-todos"), gemini_tally, "gemini-2.5-pro", None),
    Case("gemini-resume-next-minute", _sample("gemini-resume-next-minute"), gemini_tally, "gemini-2.5-pro", None),
    Case("qwen-todo-write", _sample("qwen-todo-write"), qwen_tally, "qwen3-coder-plus", None),
    Case("opencode-todowrite", opencode_open, opencode_tally, "fake-model", "fake"),
    Case("copilot-sql-todos", _sample("copilot-sql-todos"), copilot_tally, "gpt-4.1", "openai"),
    *(Case(name, _pi(path), pi_tally, None, None) for name, path in PI_FIXTURES.items()),
]
AGENTS = [c for c in CASES if c.model is not None]
