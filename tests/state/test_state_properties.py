"""Property tests for Agent State: no aliasing, stable JSON round trips, JS blankness, and the
adapter's log always matching its live state."""

from __future__ import annotations

import copy
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from core.primitives.state.adapter import AgentStateAdapter
from memory_log import MemoryLog
from core.jsutil import JS_WHITESPACE, compact_json
from core.primitives.state.core import AgentStateError, create_agent_state, restore_agent_state, summarize_agent_state

STATUSES = ["open", "in_progress", "blocked", "done"]
# Python-only whitespace and JS-only whitespace side by side, so blankness bugs surface quickly.
TRICKY = " \t\n\x0b\x85\x1c\x1f\ufeff\u3000\u2028\xa0ab"
texts = st.text(alphabet=st.sampled_from(TRICKY) | st.characters(), max_size=8)
non_blank = texts.filter(lambda s: s.strip(JS_WHITESPACE) != "")

work_items = st.lists(
    st.fixed_dictionaries(
        {"id": non_blank, "content": non_blank},
        optional={"status": st.sampled_from(STATUSES), "extra": texts},
    ),
    unique_by=lambda i: i["id"],
    max_size=6,
)
decisions = st.lists(
    st.fixed_dictionaries({"id": non_blank, "content": non_blank}, optional={"extra": texts}),
    unique_by=lambda d: d["id"],
    max_size=6,
)
state_inputs = st.fixed_dictionaries(
    {}, optional={"objective": texts, "workItems": work_items, "decisions": decisions}
)


def containers(value) -> list:
    """Every dict and list inside a JSON-shaped value, the value included."""
    found = []
    if isinstance(value, (dict, list)):
        found.append(value)
        for child in value.values() if isinstance(value, dict) else value:
            found.extend(containers(child))
    return found


def assert_no_shared_containers(a, b) -> None:
    ids = {id(c) for c in containers(a)}
    assert not any(id(c) in ids for c in containers(b))


@given(state_inputs)
def test_property_outputs_never_alias_inputs(source):
    pristine = copy.deepcopy(source)
    state = create_agent_state(source)
    assert source == pristine  # the input is only read
    snapshot = state.snapshot()
    assert_no_shared_containers(source, snapshot)
    assert_no_shared_containers(snapshot, state.snapshot())
    assert_no_shared_containers(state.list_work_items(), state.list_work_items())
    expected = compact_json(snapshot)
    for container in containers(source) + containers(snapshot):
        container.clear()
    assert compact_json(state.snapshot()) == expected
    restored = restore_agent_state(json.loads(expected))
    assert compact_json(restored.snapshot()) == expected


@given(state_inputs)
def test_property_snapshot_json_round_trip_through_restore_is_stable(source):
    snapshot = create_agent_state(source).snapshot()
    line = compact_json(snapshot)
    once = restore_agent_state(json.loads(line)).snapshot()
    assert once == snapshot
    assert compact_json(once) == line
    assert compact_json(restore_agent_state(once).snapshot()) == line
    assert list(once)[:3] == ["schemaVersion", "workItems", "decisions"]


@given(state_inputs)
def test_property_create_keeps_strings_and_order_and_defaults_status(source):
    snapshot = create_agent_state(source).snapshot()
    items = source.get("workItems", [])
    assert snapshot["workItems"] == [
        {"id": i["id"], "content": i["content"], "status": i.get("status", "open")} for i in items
    ]
    assert snapshot["decisions"] == [
        {"id": d["id"], "content": d["content"]} for d in source.get("decisions", [])
    ]
    assert ("objective" in snapshot) == ("objective" in source)
    summary = summarize_agent_state(snapshot)
    assert summary["total"] == len(items) == sum(summary[s] for s in STATUSES)


@given(texts)
def test_property_id_validity_is_js_blankness(value):
    state = create_agent_state()
    blank = value.strip(JS_WHITESPACE) == ""
    try:
        state.add_work_item({"id": value, "content": "c"})
        accepted = True
    except AgentStateError as error:
        assert error.code == "invalid_input"
        accepted = False
    assert accepted is not blank


commands = st.one_of(
    st.tuples(st.just("command"), st.sampled_from(
        ["status", "objective O", "objective P", "add a A", "add b B  ", "add a again",
         "set a done", "set a open", "set b blocked", "set zz done", "remove a", "remove b",
         "decide d D", "decide d E", "decide e \nE", "clear", "clear --yes", "", "bogus"]
    )),
    st.tuples(
        st.sampled_from(["agent_state_add_work_item", "agent_state_set_work_item_status",
                         "agent_state_add_decision", "agent_state_get"]),
        st.fixed_dictionaries(
            {}, optional={"id": st.sampled_from(["a", "b", "", None]),
                          "content": st.sampled_from(["C", " ", None]),
                          "status": st.sampled_from(STATUSES + ["paused", None])},
        ) | st.sampled_from([None, [], "x", 3]),
    ),
)


@settings(max_examples=60)
@given(st.lists(commands, max_size=12))
def test_property_log_always_restores_the_live_state(steps):
    log = MemoryLog()
    adapter = AgentStateAdapter(log.append_custom)
    adapter.load(log.branch_entries())
    for kind, arg in steps:
        before = compact_json(adapter.snapshot())
        appended = len(log.appended)
        if kind == "command":
            assert len(adapter.command(arg)) == 1
        else:
            assert isinstance(adapter.call_tool(kind, arg).text, str)
        after = compact_json(adapter.snapshot())
        # Append-on-change: exactly one entry when the state changed, none otherwise.
        assert len(log.appended) - appended == (0 if after == before else 1)
    resumed = AgentStateAdapter(MemoryLog().append_custom)
    assert resumed.load(log.branch_entries()) == []
    assert compact_json(resumed.snapshot()) == compact_json(adapter.snapshot())
