"""Agent State core: the upstream suite and the golden vectors (docs/primitives.md#how-parity-is-tested)."""

from __future__ import annotations

import json
from contextlib import contextmanager

import pytest

from core.jsutil import compact_json
from core.primitives.state.core import AgentStateError, create_agent_state, restore_agent_state, summarize_agent_state

INPUT = "Invalid agent state input."
SNAPSHOT = "Invalid agent state snapshot."
STATUSES = ["open", "in_progress", "blocked", "done"]


def item(item_id: str, content: str = "c", **extra):
    return {"id": item_id, "content": content, **extra}


@contextmanager
def raises(code: str, message: str, item_id=None):
    """Expect an AgentStateError with exactly this code, message, args and item_id."""
    with pytest.raises(AgentStateError) as info:
        yield
    error = info.value
    assert (error.code, str(error), error.args, error.item_id) == (code, message, (message,), item_id)


def invalid_input():
    return raises("invalid_input", INPUT)


def invalid_snapshot():
    return raises("invalid_input", SNAPSHOT)


def snap(state) -> str:
    return compact_json(state.snapshot())


# --- the 14 cases of the upstream agent-state core suite ------------------------------------------


def test_core_01_creates_empty_and_prepopulated():
    assert snap(create_agent_state()) == '{"schemaVersion":1,"workItems":[],"decisions":[]}'
    state = create_agent_state(
        {
            "objective": "Ship it.",
            "workItems": [item("a", "First."), item("b", "Second.", status="done")],
            "decisions": [item("d", "Decided.")],
        }
    )
    assert snap(state) == (
        '{"schemaVersion":1,"workItems":[{"id":"a","content":"First.","status":"open"},'
        '{"id":"b","content":"Second.","status":"done"}],'
        '"decisions":[{"id":"d","content":"Decided."}],"objective":"Ship it."}'
    )


def test_core_02_adds_reads_lists_removes_and_orders_work_items():
    state = create_agent_state()
    added = state.add_work_item(item("a", "A."))
    assert added == {"id": "a", "content": "A.", "status": "open"}
    state.add_work_item(item("b", "B.", status="blocked"))
    added["content"] = "changed"
    got = state.get_work_item("a")
    assert got == {"id": "a", "content": "A.", "status": "open"}
    got["status"] = "done"
    assert state.get_work_item("a")["status"] == "open"
    assert state.get_work_item("missing") is None
    listed = state.list_work_items()
    assert [i["id"] for i in listed] == ["a", "b"]
    listed.clear()
    assert len(state.list_work_items()) == 2
    assert state.remove_work_item("a") is True
    assert state.remove_work_item("a") is False
    state.add_work_item(item("a", "Again."))
    assert compact_json(state.list_work_items()) == (
        '[{"id":"b","content":"B.","status":"blocked"},{"id":"a","content":"Again.","status":"open"}]'
    )


def test_core_03_sets_every_status_without_transitions():
    state = create_agent_state({"workItems": [item("a")]})
    for status in ["done", "open", "blocked", "in_progress", "done", "done", "open"]:
        assert state.set_work_item_status("a", status) == {"id": "a", "content": "c", "status": status}
        assert state.get_work_item("a")["status"] == status


def test_core_04_decisions_keep_order_separate_from_work_items():
    state = create_agent_state()
    state.add_work_item(item("same", "Work."))
    assert state.add_decision(item("z", "Last letter.")) == {"id": "z", "content": "Last letter."}
    assert state.add_decision(item("same", "Decision.", status="done")) == {
        "id": "same",
        "content": "Decision.",
    }
    state.add_decision(item("a", "First letter."))
    assert compact_json(state.list_decisions()) == (
        '[{"id":"z","content":"Last letter."},{"id":"same","content":"Decision."},'
        '{"id":"a","content":"First letter."}]'
    )
    assert compact_json(state.list_work_items()) == '[{"id":"same","content":"Work.","status":"open"}]'


def test_core_05_rejects_duplicates_and_unknown_ids_preserving_state():
    state = create_agent_state({"workItems": [item("a", "A.")], "decisions": [item("d", "D.")]})
    before = snap(state)
    with raises("duplicate_item_id", 'Duplicate work item id "a".', "a"):
        state.add_work_item(item("a", "Other.", status="done"))
    with raises("duplicate_item_id", 'Duplicate decision id "d".', "d"):
        state.add_decision(item("d", "Other."))
    with raises("unknown_item_id", 'Unknown work item id "missing".', "missing"):
        state.set_work_item_status("missing", "done")
    assert snap(state) == before


def test_core_06_rejects_duplicate_initial_ids_atomically():
    with raises("duplicate_item_id", 'Duplicate work item id "a".', "a"):
        create_agent_state({"workItems": [item("a"), item("b"), item("a")]})
    with raises("duplicate_item_id", 'Duplicate decision id "d".', "d"):
        create_agent_state({"workItems": [item("a")], "decisions": [item("d"), item("d")]})


@pytest.mark.parametrize(
    "value",
    [
        None,
        [],
        "state",
        42,
        True,
        ("tuple",),
        {"objective": 42},
        {"objective": None},
        {"workItems": "not-an-array"},
        {"workItems": None},
        {"decisions": None},
        {"decisions": {}},
        {"workItems": [None]},
        {"workItems": [[]]},
        {"workItems": ["a"]},
        {"workItems": [{"content": "c"}]},
        {"workItems": [{"id": "a"}]},
        {"workItems": [item("")]},
        {"workItems": [item("  ")]},
        {"workItems": [item("a", "")]},
        {"workItems": [item("a", " \n\t")]},
        {"workItems": [item(1)]},
        {"workItems": [item("a", 1)]},
        {"workItems": [item("a", status="paused")]},
        {"workItems": [item("a", status=None)]},
        {"workItems": [item("a", status="OPEN")]},
        {"decisions": [item("")]},
        {"decisions": [{"id": "d"}]},
        {"decisions": [item("d", None)]},
    ],
)
def test_core_07_rejects_invalid_values_and_unsupported_statuses(value):
    with invalid_input():
        create_agent_state(value)


def test_core_07_method_inputs_are_validated():
    state = create_agent_state()
    for bad in [None, [], "a", item(""), item("a", status="paused"), {"id": "a"}]:
        with invalid_input():
            state.add_work_item(bad)
    for bad in [None, [], item("", "x"), {"content": "x"}]:
        with invalid_input():
            state.add_decision(bad)
    for bad_id, status in [("", "open"), ("  ", "open"), (None, "open"), (1, "open"), ("a", "paused")]:
        with invalid_input():
            state.set_work_item_status(bad_id, status)
    assert snap(state) == '{"schemaVersion":1,"workItems":[],"decisions":[]}'


def test_core_08_does_not_expose_mutable_internal_state():
    items = [item("a", "A.")]
    decisions = [item("d", "D.")]
    source = {"objective": "O.", "workItems": items, "decisions": decisions}
    state = create_agent_state(source)
    items[0]["content"] = "mutated"
    items.append(item("b"))
    decisions.clear()
    source["objective"] = "mutated"
    snapshot = state.snapshot()
    snapshot["workItems"][0]["status"] = "done"
    snapshot["decisions"].append(item("x"))
    state.list_work_items()[0]["id"] = "zzz"
    state.list_decisions()[0]["content"] = "zzz"
    new_item = item("c", "C.")
    state.add_work_item(new_item)
    new_item["content"] = "mutated"
    assert snap(state) == (
        '{"schemaVersion":1,"workItems":[{"id":"a","content":"A.","status":"open"},'
        '{"id":"c","content":"C.","status":"open"}],"decisions":[{"id":"d","content":"D."}],'
        '"objective":"O."}'
    )
    assert state.snapshot() is not state.snapshot()


def test_core_09_deterministic_json_compatible_snapshots():
    state = create_agent_state(
        {"decisions": [item("d")], "workItems": [item("a")], "objective": "O."}
    )
    snapshot = state.snapshot()
    assert json.loads(json.dumps(snapshot)) == snapshot
    assert list(snapshot) == ["schemaVersion", "workItems", "decisions", "objective"]
    assert list(snapshot["workItems"][0]) == ["id", "content", "status"]
    assert list(snapshot["decisions"][0]) == ["id", "content"]
    assert snap(state) == snap(state)


def test_core_10_restores_valid_snapshots_in_order():
    snapshot = {
        "schemaVersion": 1,
        "workItems": [item("z", status="done"), item("a", status="blocked")],
        "decisions": [item("y"), item("b")],
        "objective": "O.",
    }
    state = restore_agent_state(snapshot)
    assert snap(state) == compact_json(snapshot)
    assert [i["id"] for i in state.list_work_items()] == ["z", "a"]
    assert [d["id"] for d in state.list_decisions()] == ["y", "b"]


def test_core_11_restores_a_json_round_trip_unchanged():
    state = create_agent_state(
        {"objective": "Round trip.", "workItems": [item("a", status="in_progress")], "decisions": [item("d")]}
    )
    text = json.dumps(state.snapshot())
    assert snap(restore_agent_state(json.loads(text))) == snap(state)


@pytest.mark.parametrize(
    "value",
    [
        None,
        [],
        "snapshot",
        42,
        {},
        {"schemaVersion": 2, "workItems": [], "decisions": []},
        {"schemaVersion": "1", "workItems": [], "decisions": []},
        {"schemaVersion": True, "workItems": [], "decisions": []},
        {"workItems": [], "decisions": []},
        {"schemaVersion": 1, "workItems": {}, "decisions": []},
        {"schemaVersion": 1, "workItems": [], "decisions": "none"},
        {"schemaVersion": 1, "workItems": []},
        {"schemaVersion": 1, "decisions": []},
        {"schemaVersion": 1, "workItems": [item("a")], "decisions": []},
        {"schemaVersion": 1, "objective": 42, "workItems": [], "decisions": []},
        {"schemaVersion": 1, "objective": None, "workItems": [], "decisions": []},
        {"schemaVersion": 1, "workItems": [item("a", status="paused")], "decisions": []},
        {"schemaVersion": 1, "workItems": [item("", status="open")], "decisions": []},
        {"schemaVersion": 1, "workItems": [None], "decisions": []},
        {"schemaVersion": 1, "workItems": [], "decisions": [item("d", " ")]},
        {"schemaVersion": 1, "workItems": [], "decisions": [[]]},
    ],
)
def test_core_12_rejects_malformed_snapshots_and_schema_versions(value):
    with invalid_snapshot():
        restore_agent_state(value)


def test_core_13_rejects_duplicate_ids_within_restored_collections():
    with raises("duplicate_item_id", 'Duplicate work item id "a".', "a"):
        restore_agent_state(
            {"schemaVersion": 1, "workItems": [item("a", status="open"), item("a", status="done")], "decisions": []}
        )
    with raises("duplicate_item_id", 'Duplicate decision id "d".', "d"):
        restore_agent_state({"schemaVersion": 1, "workItems": [], "decisions": [item("d"), item("d")]})


def test_core_14_counts_every_status_and_total_without_ratio():
    state = create_agent_state({"workItems": [item(s, status=s) for s in STATUSES]})
    assert (
        compact_json(summarize_agent_state(state.snapshot()))
        == '{"open":1,"in_progress":1,"blocked":1,"done":1,"total":4}'
    )


# --- golden vectors: exact compact JSON or exact error --------------------------------------------


def test_vector_create_empty_snapshot():
    assert snap(create_agent_state()) == '{"schemaVersion":1,"workItems":[],"decisions":[]}'


def test_vector_create_empty_objective():
    assert (
        snap(create_agent_state({"objective": ""}))
        == '{"schemaVersion":1,"workItems":[],"decisions":[],"objective":""}'
    )


def test_vector_create_from_empty_dict():
    assert snap(create_agent_state({})) == '{"schemaVersion":1,"workItems":[],"decisions":[]}'


@pytest.mark.parametrize(
    "value", [None, {"objective": None}, {"workItems": None}, {"decisions": None}]
)
def test_vector_create_null_is_invalid(value):
    with invalid_input():
        create_agent_state(value)


@pytest.mark.parametrize("value", [{"objective": 42}, {"workItems": "not-an-array"}, []])
def test_vector_create_wrong_types_are_invalid(value):
    with invalid_input():
        create_agent_state(value)


def test_vector_create_drops_extra_keys():
    state = create_agent_state({"workItems": [{"id": "a", "content": "c", "extra": 1}], "other": 1})
    assert snap(state) == (
        '{"schemaVersion":1,"workItems":[{"id":"a","content":"c","status":"open"}],"decisions":[]}'
    )


def test_vector_create_null_status_is_invalid():
    with invalid_input():
        create_agent_state({"workItems": [{"id": "a", "content": "c", "status": None}]})


def test_vector_duplicate_before_later_invalid_item():
    with raises("duplicate_item_id", 'Duplicate work item id "a".', "a"):
        create_agent_state({"workItems": [item("a"), item("a"), 42]})


def test_vector_invalid_item_before_later_duplicate():
    with invalid_input():
        create_agent_state({"workItems": [42, item("a"), item("a")]})


def test_vector_work_items_checked_before_decisions():
    with invalid_input():
        create_agent_state({"workItems": [42], "decisions": [item("d"), item("d")]})


def test_vector_duplicate_decision():
    with raises("duplicate_item_id", 'Duplicate decision id "d".', "d"):
        create_agent_state({"workItems": [item("a")], "decisions": [item("d"), item("d")]})


def test_vector_set_status_keeps_position():
    state = create_agent_state({"workItems": [item("a"), item("b")]})
    state.set_work_item_status("a", "done")
    assert compact_json(state.list_work_items()) == (
        '[{"id":"a","content":"c","status":"done"},{"id":"b","content":"c","status":"open"}]'
    )


def test_vector_remove_then_add_goes_to_end():
    state = create_agent_state({"workItems": [item("a"), item("b")]})
    state.remove_work_item("a")
    state.add_work_item(item("a"))
    assert [i["id"] for i in state.list_work_items()] == ["b", "a"]


def test_vector_set_status_blank_id_is_invalid():
    with invalid_input():
        create_agent_state().set_work_item_status("  ", "open")


def test_vector_set_status_bad_status_beats_unknown_id():
    with invalid_input():
        create_agent_state().set_work_item_status("missing", "paused")


def test_vector_set_status_unknown_id():
    with raises("unknown_item_id", 'Unknown work item id "missing".', "missing"):
        create_agent_state().set_work_item_status("missing", "open")


def test_vector_restore_requires_status():
    with invalid_snapshot():
        restore_agent_state(
            {"schemaVersion": 1, "workItems": [{"id": "a", "content": "c"}], "decisions": []}
        )


def test_vector_restore_duplicate_work_items():
    with raises("duplicate_item_id", 'Duplicate work item id "a".', "a"):
        restore_agent_state(
            {"schemaVersion": 1, "workItems": [item("a", status="open")] * 2, "decisions": []}
        )


def test_vector_restore_drops_extra_keys():
    state = restore_agent_state(
        {
            "schemaVersion": 1,
            "extra": True,
            "workItems": [{"id": "a", "content": "c", "status": "done", "note": 1}],
            "decisions": [{"id": "d", "content": "c", "status": "open"}],
        }
    )
    assert snap(state) == (
        '{"schemaVersion":1,"workItems":[{"id":"a","content":"c","status":"done"}],'
        '"decisions":[{"id":"d","content":"c"}]}'
    )


def test_vector_restore_null_objective_is_invalid():
    with invalid_snapshot():
        restore_agent_state({"schemaVersion": 1, "objective": None, "workItems": [], "decisions": []})


def test_vector_restore_empty_objective_is_kept():
    state = restore_agent_state({"schemaVersion": 1, "objective": "", "workItems": [], "decisions": []})
    assert snap(state) == '{"schemaVersion":1,"workItems":[],"decisions":[],"objective":""}'


def test_vector_restore_without_decisions_is_invalid():
    with invalid_snapshot():
        restore_agent_state({"schemaVersion": 1, "workItems": []})


def test_vector_restore_schema_version_float_one_is_written_as_int():
    state = restore_agent_state({"schemaVersion": 1.0, "workItems": [], "decisions": []})
    assert snap(state) == '{"schemaVersion":1,"workItems":[],"decisions":[]}'
    assert type(state.snapshot()["schemaVersion"]) is int


@pytest.mark.parametrize("version", [2, "1", True, 1.5, 0, -1, None, float("nan"), float("inf")])
def test_vector_restore_rejects_other_schema_versions(version):
    with invalid_snapshot():
        restore_agent_state({"schemaVersion": version, "workItems": [], "decisions": []})


def test_vector_summarize_counts_unknown_status_in_total_only():
    summary = summarize_agent_state({"workItems": [{"status": "open"}, {"status": "weird"}]})
    assert compact_json(summary) == '{"open":1,"in_progress":0,"blocked":0,"done":0,"total":2}'


def test_vector_ids_and_content_kept_verbatim():
    state = create_agent_state()
    state.add_work_item(item(" a ", " spaced "))
    state.add_work_item(item("a", "plain"))
    assert state.get_work_item(" a ") == {"id": " a ", "content": " spaced ", "status": "open"}
    assert compact_json(state.list_work_items()) == (
        '[{"id":" a ","content":" spaced ","status":"open"},{"id":"a","content":"plain","status":"open"}]'
    )


# --- pideck additions: JS semantics in Python (docs/primitives.md) --------------------------------


def test_js_whitespace_decides_blankness():
    state = create_agent_state()
    for blank in ["\ufeff", "\u3000", "\xa0", "\u2028", "\x0b"]:
        with invalid_input():
            state.add_work_item(item(blank))
    for not_blank in ["\x85", "\x1c", "\x1d", "\x1e", "\x1f"]:
        state.add_work_item(item(not_blank))
    assert [i["id"] for i in state.list_work_items()] == ["\x85", "\x1c", "\x1d", "\x1e", "\x1f"]


def test_get_and_remove_never_raise_on_odd_values():
    state = create_agent_state({"workItems": [item("a")]})
    for odd in [None, 1, ["a"], {"id": "a"}, {"a"}, object()]:
        assert state.get_work_item(odd) is None
        assert state.remove_work_item(odd) is False
    assert state.get_work_item("a") is not None


def test_unhashable_values_in_inputs_are_invalid_not_crashes():
    with invalid_input():
        create_agent_state({"workItems": [{"id": ["a"], "content": "c"}]})
    with invalid_input():
        create_agent_state({"workItems": [{"id": "a", "content": "c", "status": ["open"]}]})
    with invalid_input():
        create_agent_state().set_work_item_status("a", {"open": 1})


def test_unexpected_exceptions_become_invalid_input():
    class Exploding(dict):
        def __contains__(self, key):
            raise RuntimeError("boom")

        def get(self, key, default=None):
            raise RuntimeError("boom")

    with invalid_input():
        create_agent_state(Exploding())
    with invalid_input():
        create_agent_state({"workItems": [Exploding()]})
    with invalid_snapshot():
        restore_agent_state(Exploding())
    with invalid_input():
        create_agent_state().add_decision(Exploding())


def test_error_code_attributes_for_invalid_input():
    with pytest.raises(AgentStateError) as info:
        create_agent_state(None)
    assert info.value.item_id is None
    assert isinstance(info.value, Exception)


def test_summarize_without_list_raises_plain_error():
    with pytest.raises(Exception) as info:
        summarize_agent_state({"workItems": "nope"})
    assert not isinstance(info.value, AgentStateError)
    with pytest.raises(KeyError):
        summarize_agent_state({})


def test_summarize_counts_non_dict_elements_in_total():
    summary = summarize_agent_state({"workItems": [None, "open", {"status": None}, {"status": "done"}]})
    assert compact_json(summary) == '{"open":0,"in_progress":0,"blocked":0,"done":1,"total":4}'


def test_no_length_limits():
    goal = "g" * 100_000
    state = create_agent_state({"objective": goal, "workItems": [item(str(i)) for i in range(2000)]})
    assert state.snapshot()["objective"] == goal
    assert len(state.list_work_items()) == 2000


def test_whitespace_only_objective_is_accepted_on_create():
    assert snap(create_agent_state({"objective": "  "})) == (
        '{"schemaVersion":1,"workItems":[],"decisions":[],"objective":"  "}'
    )
