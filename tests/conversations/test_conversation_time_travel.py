"""Time travel on the sample conversations: ``inspect --at`` every entry of a conversation (each an
event its reader made, held in memory) shows the plan the agent had at the transcript line the entry came from (plan_oracle.py), and
``diff`` between the first and the last plan tells the changes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from plan_oracle import plans_by_line
from transcript_samples import BY_NAME, SAMPLES, Sample

from core.sources.log import ConversationLog
from core.sources.reading import Reading


def line_of_each_entry(sample: Sample, folder: Path) -> list[tuple[int, int]]:
    """``[k - 1]``: the transcript line that added entry ``k`` and the line whose plan it shows,
    found by growing a copy a line at a time. A line adds at most one entry of what the agent
    said or did, after the answers it paid for (``u``, and a compaction, ``c``), which show the plan before the line: an
    answer was made before what it did."""
    growing = folder / sample.transcript
    growing.parent.mkdir(parents=True)
    growing.write_bytes(b"")
    reading = Reading(growing, sample.kind)
    lines: list[tuple[int, int]] = []
    for n, raw in enumerate(sample.lines, 1):
        with open(growing, "ab") as f:
            f.write(raw)
        added = reading.sync().events
        kinds = reading.kinds[len(reading.kinds) - added:] if added else ""
        paid = len(kinds) - len(kinds.lstrip("uc"))
        assert len(kinds) - paid <= 1, f"line {n} added {kinds}"  # so each other entry's plan is the line's
        lines += [(n, n - 1)] * paid + [(n, n)] * (len(kinds) - paid)
    return lines


@pytest.mark.parametrize("sample", SAMPLES, ids=[s.name for s in SAMPLES])
def test_inspect_at_every_entry(sample: Sample, tmp_path: Path, pideck: Any) -> None:
    expected = plans_by_line(sample.kind, sample.lines)
    line_of = line_of_each_entry(sample, tmp_path / "grown")
    path = sample.copy_home(tmp_path / "home")
    for k, (n, plan_at) in enumerate(line_of, 1):
        entry = f"{k:08x}"
        code, out, err = pideck("inspect", "--session", str(path), "--at", entry, "--json")
        assert (code, err) == (0, "")
        shown = json.loads(out)
        assert (shown["session"]["leaf"], shown["session"]["entries"]) == (entry, k)
        todos = shown["todo"]["todos"] if shown["todo"] is not None else []
        assert (entry, n, todos) == (entry, n, expected[plan_at][0])
    code, out, _ = pideck("inspect", "--session", str(path), "--at", f"{len(line_of) + 1:08x}", "--json")
    assert code != 0 and out == ""  # no such entry


DIFFS = {
    "claude-tasks": """\
From 00000004, as of 2026-12-01 07:15:54 UTC, entry 4 of 37
to 00000023, as of 2026-12-01 07:16:15 UTC, entry 35 of 37:
Todos
  ~ task #1 status: pending → completed
  + task #2 [completed]: Add the --session flag
  + task #3 [completed]: Test the flag
  + task #4 [completed]: Document the flag in the README
""",
    "claude-todowrite": """\
From 00000004, as of 2026-12-01 07:16:21 UTC, entry 4 of 24
to 00000016, as of 2026-12-01 07:16:33 UTC, entry 22 of 24:
Todos
  ~ todo #1 status: pending → completed
  ~ todo #2 status: pending → completed
  ~ todo #3 status: pending → completed
  + todo #4 [completed]: Document the flag in the README
""",
    "codex-update-plan": """\
From 00000002, as of 2026-12-01 07:16:37 UTC, entry 2 of 23
to 00000014, as of 2026-12-01 07:16:49 UTC, entry 20 of 23:
Todos
  ~ step #1 status: pending → completed
  ~ step #2 status: pending → completed
  ~ step #3 status: pending → completed
  + step #4 [completed]: Document the flag in the README
  ~ plan explanation: Three steps to add the flag. → All done.
""",
    "gemini-write-todos": """\
From 00000003, as of 2026-12-01 07:17:34 UTC, entry 3 of 23
to 00000015, as of 2026-12-01 07:17:46 UTC, entry 21 of 23:
Todos
  ~ todo #1 status: pending → completed
  ~ todo #2 status: pending → completed
  ~ todo #3 status: pending → completed
  + todo #4 [completed]: Document the flag in the README
""",
    "copilot-sql-todos": """\
From 00000003, as of 2026-12-01 21:13:21 UTC, entry 3 of 23
to 00000015, as of 2026-12-01 21:13:33 UTC, entry 21 of 23:
Todos
  ~ todo #read-entry-point status: pending → completed
  ~ todo #add-session-flag status: pending → completed
  ~ todo #test-flag status: pending → completed
  + todo #document-flag [completed]: Document the flag in the README
""",
    "qwen-todo-write": """\
From 00000003, as of 2026-12-01 21:11:40 UTC, entry 3 of 23
to 00000015, as of 2026-12-01 21:11:58 UTC, entry 21 of 23:
Todos
  ~ todo #1 status: pending → completed
  ~ todo #2 status: pending → completed
  ~ todo #3 status: pending → completed
  + todo #4 [completed]: Document the flag in the README
""",
}
"""The first plan entry holds the agent's first plan (Claude's Task tools: task #1 alone; the
whole-list tools: three pending items), the last one the plan as the run ended (four completed).
Entries are counted as the file holds them: each answer the agent paid for is one (a ``usage``
entry, as pi writes them), so Claude's first plan is entry 4 (after the prompt, the answer that
looked the tool up with ToolSearch and the one that called it), while Codex's is entry 2 (Codex
writes the call before its token count)."""


def plan_entries(path: Path) -> list[str]:
    log = ConversationLog.open_transcript(path)
    return [r.id for r in log.records if r.type == "message" and r.tool_name == "todo"]


@pytest.mark.parametrize("name", sorted(DIFFS))
def test_diff_between_the_first_and_the_last_plan(name: str, tmp_path: Path, pideck: Any) -> None:
    sample = BY_NAME[name]
    path = sample.copy_home(tmp_path / "home")
    assert pideck("inspect", "--session", str(path))[0] == 0  # the cache is made
    assert Reading(path, sample.kind).path.is_file()
    first, *_, last = plan_entries(path)
    assert pideck("diff", "--session", str(path), first, last) == (0, DIFFS[name], "")
    code, out, err = pideck("diff", "--session", str(path), first, last, "--json")
    assert (code, err) == (0, "") and json.loads(out)
    # to the live state (the last entry is the agent's closing answer): the plan is the same
    code, out, _ = pideck("diff", "--session", str(path), last, "leaf")
    assert code == 0 and "Todos" not in out
