"""What one tool call or command may store (docs/session-format.md#limits): beyond the limits a
call is refused with one short message and no append; files that exceed them are still read."""

from __future__ import annotations

import json

from core.deck.deck import Deck
from core.limits import MAX_ENTRY_BYTES, MAX_FIELD_CHARS
from core.session.log import SessionLog
from pideck_run import pideck  # noqa: F401  (the fixture)

TOO_LONG = "x" * (MAX_FIELD_CHARS + 1)


def test_a_tool_call_with_a_field_over_the_limit_is_refused_and_appends_nothing(tmp_path, pideck):
    path = tmp_path / "s.jsonl"
    SessionLog.create(path, cwd=str(tmp_path))
    before = path.read_bytes()
    code, out, err = pideck("tool", "--session", str(path), "agent_progress_add_milestone",
                            json.dumps({"milestone": TOO_LONG}))
    assert code == 1 and out == "" and path.read_bytes() == before
    assert err == (f"Refused: a text of {MAX_FIELD_CHARS + 1:,} characters is longer than the {MAX_FIELD_CHARS:,} "
                   "pideck stores in one field. Nothing was changed.\n")


def test_a_command_line_over_the_limit_is_refused_and_says_the_field_s_length(tmp_path):
    """The refusal counts the text that is too long, not the whole line around it (it said
    "70,024 characters" for a 70,000-character work item)."""
    deck = Deck(SessionLog.create(tmp_path / "s.jsonl", cwd=str(tmp_path)))
    notices = deck.apply(f"/agent-state add w1 {TOO_LONG} and more")
    assert [(n.level, n.message) for n in notices] == [("refused", (
        f"Refused: a text of {MAX_FIELD_CHARS + 10:,} characters is longer than the {MAX_FIELD_CHARS:,} pideck "
        "stores in one field. Nothing was changed."))]
    assert deck.apply(f"/agent-state add w1 {'x' * (MAX_FIELD_CHARS - 3)} ok")[0].level != "refused"
    assert [n.level for n in deck.apply(f"/agent-progress add {TOO_LONG}")] == ["refused"]


def test_an_entry_over_the_limit_is_refused_though_each_field_fits(tmp_path):
    """Every entry holds the whole set: many fields that fit make an entry that does not."""
    deck = Deck(SessionLog.create(tmp_path / "s.jsonl", cwd=str(tmp_path)))
    big = "m" * (MAX_FIELD_CHARS - 10)
    results = [deck.call_tool("agent_progress_add_milestone", {"milestone": f"{n}-{big}"})
               for n in range(MAX_ENTRY_BYTES // MAX_FIELD_CHARS + 2)]
    refused = [r for r in results if r.rejected]
    assert refused and refused[0].text.startswith("Refused: the entry would be ")
    assert refused[0].text.endswith("Nothing was changed.")
    entries = SessionLog.open(tmp_path / "s.jsonl").records
    assert all(r.length <= MAX_ENTRY_BYTES + 1 for r in entries)
    # (the state is what the last entry written holds: the refused milestone is not in it)
    assert len(Deck(SessionLog.open(tmp_path / "s.jsonl")).progress.state()["currentMilestones"]) == \
        len(results) - len(refused)


def test_a_file_written_by_someone_else_beyond_the_limits_is_still_read(tmp_path):
    path = tmp_path / "s.jsonl"
    SessionLog.create(path, cwd=str(tmp_path))
    state = {"schemaVersion": 1, "hasBaseline": False, "currentMilestones": ["m" * (2 * MAX_ENTRY_BYTES)],
             "recordedMilestones": []}
    entry = {"type": "custom", "customType": "agent-progress-state", "data": state, "id": "aaaaaaa1",
             "parentId": None, "timestamp": "2026-12-01T10:00:00.000Z"}
    with path.open("a") as out:
        out.write(json.dumps(entry) + "\n")
    deck = Deck(SessionLog.open(path))
    assert len(deck.progress.state()["currentMilestones"][0]) == 2 * MAX_ENTRY_BYTES
