"""`pideck usage` (docs/usage-report.md) over real samples: Claude Code's Task tools, Codex's
update_plan, Gemini CLI's write_todos (moved to 2026-11-29 and 2026-11-30: tui/screenshots.py
``USAGE_DAYS``), Qwen Code's todo_write (qwen3-coder-plus: no price in the table) and a real pi
session (its log's own cost, $0), in this directory; a second pi session in another one."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Iterator

import pytest

from core.config.places import pi_sessions_dir
from private_homes import AGENT_VARIABLES
from tui.screenshots import restore, usage_copy

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
PI = FIXTURES / "pi_cli_session.jsonl"
OTHER = "/srv/other"


@pytest.fixture(autouse=True)
def utc() -> Iterator[None]:
    """The ledger's days are local dates: the tests' are UTC's."""
    zone = {"TZ": os.environ.get("TZ")}
    os.environ["TZ"] = "UTC"
    time.tzset()
    yield
    restore(zone)
    time.tzset()


@pytest.fixture
def samples(isolated: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Path]:
    """The samples where each CLI keeps them for this directory (HOME under tmp_path), and the pi
    sessions: one here, one of OTHER."""
    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    for name in AGENT_VARIABLES:
        if name != "PIDECK_INDEX":
            monkeypatch.delenv(name, raising=False)
    found = usage_copy(home, str(isolated))
    for cwd, name in ((str(isolated), "pi"), (OTHER, "pi-other")):
        folder = pi_sessions_dir(cwd)
        folder.mkdir(parents=True, exist_ok=True)
        text = PI.read_text(encoding="utf-8").replace("/home/user/project", cwd)
        if name == "pi-other":
            text = text.replace("01a22cf3-ee8a", "01a22cf4-ee8a")
        found[name] = folder / f"2026-11-30T14-55-13-547Z_{name}.jsonl"
        found[name].write_text(text, encoding="utf-8")
    return found


def test_by_day(pideck, samples, isolated):
    code, out, err = pideck("usage")
    assert (code, err) == (0, "")
    assert out == f"""\
Usage by day: 5 conversations
of {isolated}

DAY         ANSWERS  INPUT  OUTPUT  CACHE R  CACHE W  TOTAL      COST
2026-11-29       11    550     220        0        0    770   $0.0094
2026-11-30       13    550     228        0     2.7k   3.4k   $0.0029
2026-12-01       32   1.6k     640        0        0   2.2k  $0.0095*
TOTAL            56   2.7k    1.1k        0     2.7k   6.4k  $0.0217*

Tokens per day
2026-11-29  ██████████▍                                      770
2026-11-30  ██████████████████████████████████████████████  3.4k
2026-12-01  ██████████████████████████████                  2.2k

* 11 answers without a price: their tokens count, their cost does not.
  No price for qwen3-coder-plus.
"""


def test_by_agent_json_since(pideck, samples):
    code, out, err = pideck("usage", "--all", "--by", "agent", "--since", "2026-11-30", "--json")
    assert (code, err) == (0, "")
    tokens = {"input": 550, "output": 220, "cacheRead": 0, "cacheWrite": 0, "total": 770}
    assert json.loads(out) == {
        "by": "agent", "scope": None, "since": "2026-11-30", "until": None, "conversations": 5,
        "rows": [
            {"agent": "claude", "conversations": 1, "answers": 21, "unpricedAnswers": 0,
             "tokens": {"input": 1050, "output": 420, "cacheRead": 0, "cacheWrite": 0, "total": 1470}, "cost": 0.00945},
            {"agent": "gemini", "conversations": 1, "answers": 11, "unpricedAnswers": 0, "tokens": tokens,
             "cost": 0.002882},
            {"agent": "pi", "conversations": 2, "answers": 4, "unpricedAnswers": 0,  # (its log's own cost: $0)
             "tokens": {"input": 0, "output": 16, "cacheRead": 0, "cacheWrite": 5308, "total": 5324}, "cost": 0.0},
            {"agent": "qwen", "conversations": 1, "answers": 11, "unpricedAnswers": 11, "tokens": tokens, "cost": None},
        ],
        "total": {"answers": 47, "unpricedAnswers": 11,
                  "tokens": {"input": 2150, "output": 876, "cacheRead": 0, "cacheWrite": 5308, "total": 8334},
                  "cost": 0.012332},
        "unpriced": ["qwen3-coder-plus"],
    }


def test_by_conversation_until(pideck, samples, isolated):
    code, out, err = pideck("usage", "--by", "conversation", "--until", "2026-11-30")
    assert (code, err) == (0, "")
    assert out == f"""\
Usage by conversation: 3 conversations, until 2026-11-30
of {isolated}

AGENT   ID        NAME                                  ANSWERS  TOKENS     COST
codex   01a23076  Add a --session flag to the CLI. Pl…       11     770  $0.0094
gemini  ea096d15  Add a --session flag to the CLI. Pl…       11     770  $0.0029
pi      01a22cf3  2026-11-30T14-55-13-547Z_pi.jsonl           2    2.7k  $0.0000
TOTAL                                                        24    4.2k  $0.0122
"""


@pytest.mark.parametrize(("options", "agents"), [
    (("--since", "2026-12-01"), ["claude", "qwen"]),
    (("--since", "2026-11-29", "--until", "2026-11-29"), ["codex"]),
    (("--since", "2026-11-30", "--until", "2026-11-30"), ["gemini", "pi", "pi"]),  # (inclusive, each end)
    (("--until", "2026-11-28"), []),
])
def test_since_and_until_keep_the_answers_of_those_local_days(pideck, samples, options, agents):
    code, out, err = pideck("usage", "--all", "--by", "conversation", "--json", *options)
    report = json.loads(out)
    assert (code, err) == (0, "")
    assert [r["agent"] for r in report["rows"]] == agents
    assert report["total"]["answers"] == sum(r["answers"] for r in report["rows"])
    assert report["unpriced"] == (["qwen3-coder-plus"] if "qwen" in agents else [])


def test_no_usage_in_the_range(pideck, samples, isolated):
    assert pideck("usage", "--since", "2026-12-02") == (
        0, f"No usage of {isolated}, since 2026-12-02: no answer said its tokens.\n", "")


def test_every_directory_only_with_all(pideck, samples):
    here = json.loads(pideck("usage", "--by", "conversation", "--json")[1])
    everywhere = json.loads(pideck("usage", "--by", "conversation", "--json", "--all")[1])
    assert {r["path"] for r in everywhere["rows"]} - {r["path"] for r in here["rows"]} == {str(samples["pi-other"])}
    assert (here["conversations"], everywhere["conversations"]) == (5, 6)


def test_by_item(pideck, samples):
    code, out, err = pideck("usage", "--by", "item", "--session", str(samples["claude-tasks"]))
    assert (code, err) == (0, "")
    assert out == f"""\
Usage by plan item of claude 2aa06482: Add a --session flag to the CLI. Plan it…
{samples["claude-tasks"]}

ITEM                            STATUS     IN PROGRESS  ANSWERS  TOKENS     COST
#1 Read the CLI entry point     completed           2s        2     140  $0.0009
#2 Add the --session flag       completed           6s        4     280  $0.0018
#3 Test the flag                completed           3s        3     210  $0.0014
#4 Document the flag in the R…  completed           1s        1      70  $0.0004
unplanned                                                    11     770  $0.0050
TOTAL                                                        21    1.5k  $0.0095
"""


@pytest.mark.parametrize("sample", ["claude-tasks", "codex-update-plan", "gemini-write-todos", "qwen-todo-write"])
def test_items_and_unplanned_add_up_to_the_conversation(pideck, samples, sample):
    report = json.loads(pideck("usage", "--by", "item", "--session", str(samples[sample]), "--json")[1])
    whole = json.loads(pideck("usage", "--by", "conversation", "--session", str(samples[sample]), "--json")[1])
    parts = [*report["rows"], report["unplanned"]]
    assert [r["content"] for r in report["rows"]] == ["Read the CLI entry point", "Add the --session flag",
                                                      "Test the flag", "Document the flag in the README"]
    assert report["total"] == whole["total"]
    for key in ("input", "output", "cacheRead", "cacheWrite", "total"):
        assert sum(p["tokens"][key] for p in parts) == report["total"]["tokens"][key]
    assert sum(p["answers"] for p in parts) == report["total"]["answers"]
    if report["total"]["cost"] is None:  # (Qwen's: no price, never $0)
        assert {p["cost"] for p in parts} == {None} and report["unpriced"] == ["qwen3-coder-plus"]
    else:
        assert sum(round(p["cost"] * 1_000_000) for p in parts) == round(report["total"]["cost"] * 1_000_000)


def test_by_item_a_deleted_item_and_an_unpriced_answer(pideck, isolated):
    path = isolated / "pi.jsonl"
    path.write_text(pi_with_deleted_item(str(isolated)), encoding="utf-8")
    code, out, err = pideck("usage", "--by", "item", "--session", str(path))
    assert (code, err) == (0, "")
    assert out == f"""\
Usage by plan item of pi 01a22cf5: pi.jsonl
{path}

ITEM          STATUS       IN PROGRESS  ANSWERS  TOKENS      COST
#1 Sketch it  deleted               6s        1     110   $0.0020
#2 Build it   in progress          11s        2     220  $0.0040*
unplanned                                     1     110   $0.0010
TOTAL                                         4     440  $0.0070*

* 1 answer without a price: its tokens count, its cost does not.
  No price for mystery-model-9.
"""
    rows = json.loads(pideck("usage", "--by", "item", "--session", str(path), "--json")[1])["rows"]
    assert [(r["content"], r["status"], r["deleted"], r["inProgressMs"]) for r in rows] == [
        ("Sketch it", "in_progress", True, 6000), ("Build it", "in_progress", False, 11000)]


def pi_with_deleted_item(cwd: str) -> str:
    """A pi session whose plan loses an item: item 1 in progress for one answer, then a list
    without it (item 2 in progress) for two more, one of a model no table prices."""
    def at(second: int) -> str:
        return f"2026-11-30T10:00:{second:02d}.000Z"

    lines: list[dict] = [{"type": "session", "version": 3, "id": "01a22cf5-0000-7000-8000-000000000000",
                          "timestamp": at(0), "cwd": cwd}]

    def entry(second: int, message: dict) -> None:
        n = len(lines)
        lines.append({"type": "message", "id": f"{n:08x}", "parentId": f"{n - 1:08x}" if n > 1 else None,
                      "timestamp": at(second), "message": message})

    def todos(*items: tuple[str, str, str]) -> dict:
        return {"role": "toolResult", "toolCallId": "c", "toolName": "todo", "isError": False,
                "content": [{"type": "text", "text": "ok"}],
                "details": {"todos": [{"id": i, "content": c, "status": s} for i, c, s in items]}}

    def answer(model: str, cost: float | None) -> dict:
        usage: dict = {"input": 100, "output": 10, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 110}
        if cost is not None:  # (pi's own cost; without one, the price table's)
            usage["cost"] = {"total": cost}
        return {"role": "assistant", "content": [{"type": "text", "text": "ok"}], "provider": "faux", "model": model,
                "usage": usage, "stopReason": "stop"}

    entry(1, {"role": "user", "content": [{"type": "text", "text": "Plan it"}]})
    entry(2, answer("faux-1", 0.001))
    entry(3, todos(("1", "Sketch it", "in_progress"), ("2", "Build it", "pending")))
    entry(5, answer("faux-1", 0.002))
    entry(9, todos(("2", "Build it", "in_progress")))
    entry(10, answer("faux-1", 0.004))
    entry(20, answer("mystery-model-9", None))
    return "".join(json.dumps(line) + "\n" for line in lines)


@pytest.mark.parametrize(("argv", "message"), [
    (("--since", "2026-13-01"), "--since '2026-13-01' is not a date (YYYY-MM-DD)"),
    (("--until", "yesterday"), "--until 'yesterday' is not a date (YYYY-MM-DD)"),
    (("--since", "20261201"), "--since '20261201' is not a date (YYYY-MM-DD)"),
    (("--since", "2026-12-02", "--until", "2026-12-01"), "--since 2026-12-02 is after --until 2026-12-01"),
    (("--by", "item"), "--by item reports one conversation: name it with --session PATH"),
    (("--by", "item", "--session", "x.jsonl", "--since", "2026-12-01"),
     "--by item reports the whole conversation: --since and --until do not apply"),
    (("--session", "x.jsonl", "--all"), "give --session PATH or --all, not both"),
])
def test_usage_errors(pideck, argv, message):
    assert pideck("usage", *argv) == (2, "", f"pideck: {message}\n")


def test_an_unknown_grouping_is_argparse_s_usage_error(pideck):
    code, out, err = pideck("usage", "--by", "week")
    assert (code, out) == (2, "")
    assert err.endswith("pideck usage: error: argument --by: invalid choice: 'week' (choose from 'day', 'agent', "
                        "'conversation', 'item')\n")


def test_no_session_at_all(pideck, isolated):
    assert pideck("usage") == (0, f"No usage of {isolated}: no answer said its tokens.\n", "")
    assert pideck("usage", "--all", "--by", "agent") == (0, "No usage of every directory: no answer said its tokens.\n", "")


def test_a_name_and_an_item_from_the_log_never_drive_the_terminal(pideck, isolated):
    path = isolated / "pi.jsonl"
    text = pi_with_deleted_item(str(isolated)).replace("Sketch it", "Sketch\\u001b[2J it\\nnow")
    path.write_text(text + json.dumps({"type": "session_info", "id": "000000aa", "parentId": "00000007",
                                       "timestamp": "2026-11-30T10:00:30.000Z", "name": "\x1b]0;owned\x07"}) + "\n",
                    encoding="utf-8")
    out = pideck("usage", "--by", "conversation", "--session", str(path))[1]
    assert "\x1b" not in out and "\x07" not in out
    assert "pi     01a22cf5  ␛]0;owned␇" in out
    out = pideck("usage", "--by", "item", "--session", str(path))[1]
    assert "\x1b" not in out and "#1 Sketch␛[2J it␊now" in out
