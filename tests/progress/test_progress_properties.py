"""Property tests for Agent Progress: the caller loop, copies, JSON stability, append-on-change."""

from __future__ import annotations

import copy
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from core.primitives.progress.adapter import AgentProgressAdapter
from memory_log import MemoryLog
from core.jsutil import JS_WHITESPACE, compact_json, is_blank
from core.primitives.progress.core import ProgressError, judge_progress

# Small alphabet so that sets overlap often; JS and Python-only whitespace included on purpose.
_ALPHABET = "ab " + JS_WHITESPACE[:4] + "\x85\x1c\ufeff\u3000é"
milestone = st.text(alphabet=_ALPHABET, min_size=1, max_size=3).filter(lambda s: not is_blank(s))
milestone_set = st.lists(milestone, unique=True, max_size=6)


def _lists(value):
    """Every list object inside a JSON-shaped value."""
    if isinstance(value, list):
        yield value
        for item in value:
            yield from _lists(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _lists(item)


@given(st.booleans(), st.lists(milestone_set, min_size=1, max_size=8))
def test_progress_property_recorded_only_grows_over_fed_back_rounds(with_baseline, rounds):
    recorded: list[str] | None = [] if with_baseline else None
    for current in rounds:
        input = {"current": {"milestones": current}}
        if recorded is not None:
            input["previous"] = {"milestones": recorded}
        verdict = judge_progress(input)
        if recorded is None:
            assert verdict["outcome"] == "unknown"
            assert verdict["recordedMilestones"] == current
        else:
            # The old baseline is a prefix, then the new ids in current order.
            assert verdict["recordedMilestones"][: len(recorded)] == recorded
            new = [m for m in current if m not in recorded]
            assert verdict["newMilestones"] == new
            assert verdict["recordedMilestones"] == recorded + new
            assert verdict["outcome"] == ("progress" if new else "no_progress")
            withdrawn = [m for m in recorded if m not in current]
            assert verdict.get("withdrawnMilestones", []) == withdrawn
            assert ("withdrawnMilestones" in verdict) == bool(withdrawn)
        assert all(m in verdict["recordedMilestones"] for m in current)
        recorded = verdict["recordedMilestones"]


@given(st.one_of(st.none(), milestone_set), milestone_set)
def test_progress_property_outputs_never_alias_inputs(previous, current):
    input = {"current": {"milestones": current}}
    if previous is not None:
        input["previous"] = {"milestones": previous}
    before = copy.deepcopy(input)
    verdict = judge_progress(input)
    input_ids = {id(lst) for lst in _lists(input)}
    output_lists = list(_lists(verdict))
    assert not any(id(lst) in input_ids for lst in output_lists)
    assert len({id(lst) for lst in output_lists}) == len(output_lists)
    expected = compact_json(verdict)
    for lst in output_lists:
        lst.append("mutated")
    assert input == before
    assert compact_json(judge_progress(input)) == expected


@given(st.one_of(st.none(), milestone_set), milestone_set)
def test_progress_property_json_round_trip_is_stable(previous, current):
    input = {"current": {"milestones": current}}
    if previous is not None:
        input["previous"] = {"milestones": previous}
    verdict = judge_progress(input)
    text = compact_json(verdict)
    assert compact_json(json.loads(text)) == text
    assert compact_json(judge_progress(json.loads(compact_json(input)))) == text


@given(st.lists(st.one_of(milestone, st.integers(), st.none(), st.just(""), st.just("\ufeff")), max_size=5))
def test_progress_property_errors_are_progress_errors(milestones):
    try:
        judge_progress({"current": {"milestones": milestones}})
    except ProgressError as error:
        assert error.code in ("invalid_input", "duplicate_milestone")
    else:
        assert all(isinstance(m, str) and not is_blank(m) for m in milestones)
        assert len(set(milestones)) == len(milestones)


_operation = st.one_of(
    st.tuples(st.just("command"), st.sampled_from(["status", "judge", "clear", "clear --yes", "bogus"])),
    st.tuples(st.just("command"), st.builds(lambda m: f"add {m}", milestone)),
    st.tuples(st.just("command"), st.builds(lambda m: f"withdraw {m}", milestone)),
    st.tuples(st.just("agent_progress_add_milestone"), milestone),
    st.tuples(st.just("agent_progress_withdraw_milestone"), milestone),
    st.tuples(st.just("agent_progress_judge"), st.none()),
    st.tuples(st.just("agent_progress_get"), st.none()),
)


@settings(max_examples=150)
@given(st.lists(_operation, max_size=25))
def test_progress_property_adapter_appends_only_on_change_and_restores(operations):
    log = MemoryLog()
    adapter = AgentProgressAdapter(log.append_custom)
    assert adapter.load(log.branch_entries()) == []
    judged_recorded: list[str] = []
    for kind, value in operations:
        before = adapter.state()
        appended_before = len(log.appended)
        if kind == "command":
            adapter.command(value)
        else:
            adapter.call_tool(kind, {"milestone": value})
        after = adapter.state()
        appended = len(log.appended) - appended_before
        assert appended == (1 if after != before else 0)
        if appended:
            assert compact_json(log.appended[-1]["data"]) == compact_json({"schemaVersion": 1, **after})
        # Recorded milestones only grow, except through an explicit confirmed clear.
        if value != "clear --yes":
            assert after["recordedMilestones"][: len(before["recordedMilestones"])] == before["recordedMilestones"]
        if kind == "agent_progress_judge" or value == "judge":
            judged_recorded = after["recordedMilestones"]
            assert adapter.last_verdict()["recordedMilestones"] == judged_recorded
        # A resumed session sees exactly the same state, without appending or warning.
        resumed_log = MemoryLog(entries=log.branch_entries())
        resumed = AgentProgressAdapter(resumed_log.append_custom)
        assert resumed.load(resumed_log.branch_entries()) == []
        assert resumed.state() == after
        assert resumed_log.appended == []
