"""Agent Handoff core: the upstream suite, the golden vectors and pideck's additions
(docs/primitives.md#how-parity-is-tested)."""

import ast
import copy
import json
from collections import OrderedDict
from pathlib import Path

import pytest

from core.primitives.handoff import core as handoff
from core.primitives.handoff.core import HandoffError, create_handoff
from core.jsutil import compact_json

MESSAGE = "Invalid handoff input."
MINIMAL = {"schemaVersion": 1, "id": "h", "source": "s", "goal": "g"}
FULL = {
    "schemaVersion": 1,
    "id": "handoff-42",
    "source": "engineer",
    "destination": "reviewer",
    "goal": "Review PR 42",
    "constraints": ["Check diff"],
    "openItems": ["Confirm deploy note"],
    "evidenceReferences": ["tests-run-123"],
}
FULL_KEYS = [
    "schemaVersion", "id", "source", "destination", "goal",
    "constraints", "openItems", "evidenceReferences",
]


def with_(**changes):
    return {**MINIMAL, **changes}


def assert_invalid(value):
    with pytest.raises(HandoffError) as info:
        create_handoff(value)
    error = info.value
    assert error.code == "invalid_input"
    assert str(error) == MESSAGE
    assert error.args == (MESSAGE,)
    assert not hasattr(error, "item_id")


# --- the 16 cases of the upstream agent-handoff core suite ----------------------------------------


def test_handoff_core_01_exports_only_the_api_and_has_no_dependencies():
    public = sorted(name for name in dir(handoff) if not name.startswith("_"))
    assert public == ["HandoffError", "create_handoff"]
    assert sorted(handoff.__all__) == ["HandoffError", "create_handoff"]
    tree = ast.parse(Path(handoff.__file__).read_text(encoding="utf-8"))
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            imported.add(node.module)
    # Only the standard library and the shared JS-semantics helpers.
    assert imported <= {"typing", "core.jsutil"}


def test_handoff_core_02_returns_the_minimal_valid_packet():
    packet = create_handoff(dict(MINIMAL))
    assert packet == MINIMAL
    assert list(packet) == ["schemaVersion", "id", "source", "goal"]


def test_handoff_core_03_accepts_a_plain_dict_of_any_dict_type():
    assert create_handoff(OrderedDict(MINIMAL)) == MINIMAL
    assert type(create_handoff(OrderedDict(MINIMAL))) is dict


class _NotADict:
    def __init__(self):
        self.schemaVersion = 1
        self.id = "h"
        self.source = "s"
        self.goal = "g"


@pytest.mark.parametrize(
    "value",
    [[], [MINIMAL], "x", "", 0, 1, 1.5, True, False, None, (), _NotADict(),
     list(MINIMAL.items()), {"schemaVersion", "id"}],
    ids=repr,
)
def test_handoff_core_04_rejects_non_plain_inputs(value):
    assert_invalid(value)


@pytest.mark.parametrize("field", ["id", "source", "goal"])
@pytest.mark.parametrize(
    "bad", ["<missing>", None, 42, 1.0, True, [], {}, ["x"], "", " \t\n", "\ufeff", "\u3000"]
)
def test_handoff_core_05_requires_each_required_field_as_a_non_blank_string(field, bad):
    value = dict(MINIMAL)
    if bad == "<missing>":
        del value[field]
    else:
        value[field] = bad
    assert_invalid(value)


SCHEMA_BAD = [None, 0, 2, -1, 1.1, float("nan"), float("inf"), float("-inf"), "1", True]


@pytest.mark.parametrize("bad", ["<missing>", *SCHEMA_BAD], ids=repr)
def test_handoff_core_06_requires_schema_version_exactly_one(bad):
    # Every rejected schemaVersion (docs/primitives.md#schemaversion): a missing key plus the ten bad values
    # (they include the golden vectors' invalid values).
    value = dict(MINIMAL)
    if bad == "<missing>":
        del value["schemaVersion"]
    else:
        value["schemaVersion"] = bad
    assert_invalid(value)


@pytest.mark.parametrize("bad", ["", " ", "  ", " \t\n", None, 42, ["dst"]], ids=repr)
def test_handoff_core_07_validates_destination_only_when_present(bad):
    assert_invalid(with_(destination=bad))


def test_handoff_core_07_destination_spelling_is_kept():
    assert "destination" not in create_handoff(MINIMAL)
    assert create_handoff(with_(destination=" reviewer "))["destination"] == " reviewer "


@pytest.mark.parametrize("field", ["constraints", "openItems"])
def test_handoff_core_08_validates_prose_lists_allowing_duplicates(field):
    assert create_handoff(with_(**{field: ["a", "a"]}))[field] == ["a", "a"]
    assert create_handoff(with_(**{field: []}))[field] == []
    for bad in [None, "str", [None], [42], [""], [" \t\n"], ["valid", None], ["a", " "], {}]:
        assert_invalid(with_(**{field: bad}))


def test_handoff_core_09_rejects_duplicate_evidence_but_keeps_distinct_spellings():
    assert_invalid(with_(evidenceReferences=["a", "a"]))
    assert_invalid(with_(evidenceReferences=["a", "b", "a"]))
    refs = [" proof ", "proof", "Proof"]
    assert create_handoff(with_(evidenceReferences=refs))["evidenceReferences"] == refs
    assert create_handoff(with_(evidenceReferences=[]))["evidenceReferences"] == []
    for bad in [None, "str", [None], [42], [""], [" \t\n"], ["valid", None]]:
        assert_invalid(with_(evidenceReferences=bad))


UNKNOWN_KEYS = [
    "metadata", "createdAt", "extra", "retryAllowed", "verdict", "progress", "timestamp",
    "state", "evidence", "schema_version", "ID",
]


@pytest.mark.parametrize("key", UNKNOWN_KEYS)
def test_handoff_core_10_rejects_unknown_keys_before_reading_fields(key):
    assert_invalid(with_(**{key: "x"}))

    class Recording(dict):
        def __init__(self, *args):
            super().__init__(*args)
            self.reads = []

        def __getitem__(self, name):
            self.reads.append(name)
            return super().__getitem__(name)

    recording = Recording({**MINIMAL, key: "x"})
    assert_invalid(recording)
    assert recording.reads == []  # no field value was read
    # The unknown key is found first even when the known fields would also be invalid.
    assert_invalid({key: 1})
    assert_invalid({"schemaVersion": 2, "id": "", key: None})


def test_handoff_core_10_non_string_keys_are_unknown():
    assert_invalid({**MINIMAL, 1: "x"})
    assert_invalid({**MINIMAL, None: "x"})
    assert_invalid({**MINIMAL, ("id",): "x"})


def test_handoff_core_11_preserves_identifier_spelling():
    packet = create_handoff(
        {"schemaVersion": 1, "id": " spaced ", "source": "\tsrc ", "destination": " dst",
         "goal": " g\n"}
    )
    assert packet["id"] == " spaced "
    assert packet["source"] == "\tsrc "
    assert packet["destination"] == " dst"
    assert packet["goal"] == " g\n"
    assert create_handoff(with_(id=" h "))["id"] != create_handoff(MINIMAL)["id"]


def test_handoff_core_12_preserves_list_order():
    packet = create_handoff(
        with_(constraints=["z", "a", "m"], openItems=["3", "1", "2"],
              evidenceReferences=["e2", "e1", "e3"])
    )
    assert packet["constraints"] == ["z", "a", "m"]
    assert packet["openItems"] == ["3", "1", "2"]
    assert packet["evidenceReferences"] == ["e2", "e1", "e3"]


def test_handoff_core_13_deterministic_and_json_round_trip_safe():
    reversed_input = dict(reversed(list(FULL.items())))
    first = create_handoff(FULL)
    assert create_handoff(reversed_input) == first
    assert compact_json(create_handoff(reversed_input)) == compact_json(first)
    round_tripped = json.loads(compact_json(first))
    assert create_handoff(round_tripped) == first
    assert compact_json(create_handoff(round_tripped)) == compact_json(first)


def test_handoff_core_14_does_not_alias_input_or_output_lists():
    source = copy.deepcopy(FULL)
    packet = create_handoff(source)
    for key in ("constraints", "openItems", "evidenceReferences"):
        assert packet[key] is not source[key]
    assert packet is not source
    packet["constraints"].append("mutated")
    packet["goal"] = "changed"
    assert source == FULL
    source["openItems"].append("later")
    assert packet["openItems"] == ["Confirm deploy note"]
    # Two calls give two independent packets.
    again = create_handoff(source)
    assert again["constraints"] is not create_handoff(source)["constraints"]


@pytest.mark.parametrize("key", ["retryAllowed", "retry", "verdict", "progress", "milestones"])
def test_handoff_core_15_keeps_retry_verdict_progress_outside(key):
    assert_invalid(with_(**{key: True}))
    packet = create_handoff(FULL)
    assert set(packet) == set(FULL_KEYS)


def test_handoff_core_16_typed_and_untyped_inputs_behave_the_same():
    untyped = json.loads(compact_json(FULL))  # as a model tool call would supply it
    typed = OrderedDict(FULL)
    assert create_handoff(untyped) == create_handoff(typed) == create_handoff(FULL)
    assert compact_json(create_handoff(untyped)) == compact_json(create_handoff(typed))


# --- golden vectors: exact output or invalid ------------------------------------------------------


def test_handoff_golden_minimal_compact_json():
    out = create_handoff(json.loads('{"schemaVersion":1,"id":"h","source":"s","goal":"g"}'))
    assert compact_json(out) == '{"schemaVersion":1,"id":"h","source":"s","goal":"g"}'


def test_handoff_golden_reverse_key_order():
    out = create_handoff(dict(reversed(list(FULL.items()))))
    assert list(out) == FULL_KEYS
    assert compact_json(out) == (
        '{"schemaVersion":1,"id":"handoff-42","source":"engineer","destination":"reviewer",'
        '"goal":"Review PR 42","constraints":["Check diff"],"openItems":["Confirm deploy note"],'
        '"evidenceReferences":["tests-run-123"]}'
    )


@pytest.mark.parametrize("bad", [None, "", "  ", 42], ids=repr)
def test_handoff_golden_destination_invalid(bad):
    assert_invalid(with_(destination=bad))


def test_handoff_golden_destination_spaced_kept():
    out = create_handoff(with_(destination=" reviewer "))
    assert compact_json(out) == (
        '{"schemaVersion":1,"id":"h","source":"s","destination":" reviewer ","goal":"g"}'
    )


def test_handoff_golden_empty_lists_kept():
    out = create_handoff(with_(evidenceReferences=[], openItems=[], constraints=[]))
    assert compact_json(out) == (
        '{"schemaVersion":1,"id":"h","source":"s","goal":"g","constraints":[],"openItems":[],'
        '"evidenceReferences":[]}'
    )


def test_handoff_golden_duplicate_constraints_kept():
    out = create_handoff(with_(constraints=["a", "a"]))
    assert compact_json(out) == (
        '{"schemaVersion":1,"id":"h","source":"s","goal":"g","constraints":["a","a"]}'
    )


def test_handoff_golden_duplicate_evidence_invalid():
    assert_invalid(with_(evidenceReferences=["a", "a"]))


def test_handoff_golden_distinct_evidence_spellings_kept():
    out = create_handoff(with_(evidenceReferences=[" proof ", "proof"]))
    assert compact_json(out) == (
        '{"schemaVersion":1,"id":"h","source":"s","goal":"g",'
        '"evidenceReferences":[" proof ","proof"]}'
    )


@pytest.mark.parametrize("key", ["metadata", "createdAt", "extra"])
def test_handoff_golden_extra_key_invalid(key):
    assert_invalid(with_(**{key: "x"}))


def test_handoff_golden_schema_version_float_one_accepted_written_as_int():
    out = create_handoff(with_(schemaVersion=1.0))
    assert type(out["schemaVersion"]) is int
    assert compact_json(out) == '{"schemaVersion":1,"id":"h","source":"s","goal":"g"}'


def test_handoff_golden_goal_of_100000_characters_accepted():
    goal = "g" * 100_000
    assert create_handoff(with_(goal=goal))["goal"] == goal


def test_handoff_golden_open_items_with_blank_invalid():
    assert_invalid(with_(openItems=["a", " "]))


# --- pideck additions and JS semantics ------------------------------------------------------------


@pytest.mark.parametrize("blank", ["\ufeff", "\u3000", "\xa0", "\u2028", "\x0b\x0c", "\u200a"])
def test_handoff_js_whitespace_is_blank(blank):
    assert_invalid(with_(id=blank))
    assert_invalid(with_(constraints=[blank]))


@pytest.mark.parametrize("not_blank", ["\x85", "\x1c", "\x1d", "\x1e", "\x1f", "\u200b"])
def test_handoff_python_only_whitespace_is_not_blank(not_blank):
    out = create_handoff(with_(id=not_blank, evidenceReferences=[not_blank]))
    assert out["id"] == not_blank
    assert out["evidenceReferences"] == [not_blank]


def test_handoff_tuples_are_not_arrays():
    assert_invalid(with_(constraints=("a",)))


def test_handoff_unexpected_exception_becomes_invalid_input():
    class Weird(dict):
        def __getitem__(self, key):
            raise RuntimeError("boom")

    with pytest.raises(HandoffError) as info:
        create_handoff(Weird(MINIMAL))
    assert info.value.code == "invalid_input"
    assert str(info.value) == MESSAGE


def test_handoff_error_defaults():
    error = HandoffError()
    assert error.code == "invalid_input"
    assert str(error) == MESSAGE
    assert error.args == (MESSAGE,)
