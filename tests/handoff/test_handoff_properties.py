"""Property tests: no aliasing, key-order independence, stable JSON round trips (core and adapter)."""

import copy
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from core.primitives.handoff.adapter import AgentHandoffAdapter
from core.primitives.handoff.mutations import create_packet, remove_packet
from memory_log import MemoryLog
from core.primitives.handoff.core import HandoffError, create_handoff
from core.jsutil import JS_WHITESPACE, compact_json, is_non_empty_string

KEYS = [
    "schemaVersion", "id", "source", "destination", "goal",
    "constraints", "openItems", "evidenceReferences",
]

# Text that leans on the whitespace sets where JavaScript and Python differ.
text = st.text(
    alphabet=st.sampled_from(list(JS_WHITESPACE) + list("ab \x85\x1c\u200b\u00e9\U0001f600\"\\")),
    max_size=8,
) | st.text(max_size=8)
identifier = text.filter(is_non_empty_string)


@st.composite
def packet_inputs(draw):
    """A valid createHandoff input, its keys in a random order."""
    value = {
        "schemaVersion": draw(st.sampled_from([1, 1.0])),
        "id": draw(identifier),
        "source": draw(identifier),
        "goal": draw(identifier),
    }
    if draw(st.booleans()):
        value["destination"] = draw(identifier)
    for key in ("constraints", "openItems"):
        if draw(st.booleans()):
            value[key] = draw(st.lists(identifier, max_size=4))
    if draw(st.booleans()):
        value["evidenceReferences"] = draw(st.lists(identifier, max_size=4, unique=True))
    keys = draw(st.permutations(list(value)))
    return {key: value[key] for key in keys}


def shuffled(value, order):
    keys = sorted(value, key=lambda key: order.index(key))
    return {key: value[key] for key in keys}


@given(packet_inputs())
def test_handoff_property_output_never_aliases_input(value):
    before = copy.deepcopy(value)
    out = create_handoff(value)
    assert out is not value
    for key, field in out.items():
        if isinstance(field, list):
            assert field is not value[key]
            field.append("mutated")
    out["goal"] = "changed"
    assert value == before  # mutating the output leaves the input alone

    fresh = create_handoff(value)
    snapshot = copy.deepcopy(fresh)
    for field in value.values():
        if isinstance(field, list):
            field.append("later")
    assert fresh == snapshot  # mutating the input leaves an earlier output alone


@given(packet_inputs(), st.permutations(KEYS))
def test_handoff_property_output_independent_of_key_order(value, order):
    out = create_handoff(value)
    other = create_handoff(shuffled(value, order))
    assert compact_json(other) == compact_json(out)
    assert list(out) == [key for key in KEYS if key in value]


@given(packet_inputs())
def test_handoff_property_json_round_trip_is_stable(value):
    out = create_handoff(value)
    text_once = compact_json(out)
    again = create_handoff(json.loads(text_once))
    assert again == out
    assert compact_json(again) == text_once
    assert type(again["schemaVersion"]) is int and again["schemaVersion"] == 1


@given(packet_inputs(), st.text(min_size=1, max_size=6).filter(lambda k: k not in KEYS), text)
def test_handoff_property_any_unknown_key_is_invalid(value, key, extra):
    value[key] = extra
    try:
        create_handoff(value)
    except HandoffError as error:
        assert error.code == "invalid_input"
    else:
        raise AssertionError("an unknown key was accepted")


@settings(max_examples=50)
@given(st.lists(packet_inputs(), max_size=5))
def test_handoff_property_adapter_payloads_round_trip_and_do_not_alias(values):
    log = MemoryLog()
    adapter = AgentHandoffAdapter(log.append_custom)
    adapter.load(log.branch_entries())
    for value in values:
        adapter.call_tool("agent_handoff_create", value)
    packets = adapter.packets()
    # Every persisted payload is compact-JSON stable and restores to the same packets.
    for entry in log.appended:
        data = entry["data"]
        assert compact_json(json.loads(compact_json(data))) == compact_json(data)
    resumed_log = MemoryLog(entries=json.loads(compact_json(log.entries)))
    resumed = AgentHandoffAdapter(resumed_log.append_custom)
    assert resumed.load(resumed_log.branch_entries()) == []
    assert compact_json(resumed.packets()) == compact_json(packets)
    assert resumed_log.appended == []
    # Accessor copies are fresh.
    first, second = adapter.packets(), adapter.packets()
    assert first == second
    assert all(a is not b for a, b in zip(first, second))
    first.clear()
    assert adapter.packets() == second


@given(st.lists(packet_inputs(), max_size=4), packet_inputs())
def test_handoff_property_pure_mutations_do_not_alias_state(values, extra):
    state = {"packets": []}
    for value in values:
        result = create_packet(state, value)
        if result.changed:
            state = result.state
    before = copy.deepcopy(state)
    created = create_packet(state, extra)
    if created.changed:
        assert created.state is not state
        assert created.state["packets"] is not state["packets"]
        for new, old in zip(created.state["packets"], state["packets"]):
            assert new is not old
        created.state["packets"][0]["goal"] = "mutated"
    assert state == before
    if state["packets"]:
        removed = remove_packet(state, state["packets"][0]["id"])
        assert removed.changed
        assert removed.state["packets"] is not state["packets"]
        for packet in removed.state["packets"]:
            packet["id"] = "mutated"
        assert state == before
