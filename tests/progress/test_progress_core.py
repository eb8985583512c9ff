"""Agent Progress core: the upstream core test suite and golden vectors
(docs/primitives.md#how-parity-is-tested)."""

from __future__ import annotations

import copy
import datetime
import json
from collections import OrderedDict
from types import MappingProxyType

import pytest

import core.primitives.progress.core as progress_module
from core.jsutil import compact_json
from core.primitives.progress.core import ProgressError, judge_progress


def judge(prev, cur):
    return judge_progress({"previous": {"milestones": prev}, "current": {"milestones": cur}})


def expect_error(input, code, *call_args):
    with pytest.raises(ProgressError) as info:
        judge_progress(input, *call_args)
    error = info.value
    assert type(error) is ProgressError
    assert error.code == code
    message = {"invalid_input": "Invalid progress input.", "duplicate_milestone": "Duplicate milestone."}
    assert str(error) == message[code]
    assert error.args == (message[code],)
    assert not hasattr(error, "item_id")
    return error


# --- the ten cases of the upstream agent-progress core suite --------------------------------------


def test_progress_core_public_boundary_and_no_agent_state_dependency():
    assert sorted(progress_module.__all__) == ["ProgressError", "judge_progress"]
    with open(progress_module.__file__, encoding="utf-8") as file:
        source = file.read()
    assert "core.primitives.state.core" not in source and "agent_state" not in source
    assert issubclass(ProgressError, Exception)
    assert compact_json(judge([], ["plain-observation"])) == (
        '{"outcome":"progress","newMilestones":["plain-observation"],'
        '"recordedMilestones":["plain-observation"]}'
    )


def test_progress_core_judges_growth_preserving_order_and_exact_strings():
    assert compact_json(judge(["zeta", "alpha", "withdrawn"], ["alpha", "  new  ", "zeta"])) == (
        '{"outcome":"progress","newMilestones":["  new  "],"withdrawnMilestones":["withdrawn"],'
        '"recordedMilestones":["zeta","alpha","withdrawn","  new  "]}'
    )


def test_progress_core_no_progress_for_reordering_and_redeclaring():
    verdict = judge(["zeta", "alpha"], ["alpha", "zeta"])
    assert compact_json(verdict) == (
        '{"outcome":"no_progress","newMilestones":[],"recordedMilestones":["zeta","alpha"]}'
    )
    assert "withdrawnMilestones" not in verdict


def test_progress_core_unknown_only_when_baseline_missing():
    current_milestones = ["first", "second"]
    current = {"milestones": current_milestones}
    verdict = judge_progress({"current": current})
    assert compact_json(verdict) == (
        '{"outcome":"unknown","reason":"missing_baseline","recordedMilestones":["first","second"]}'
    )
    assert verdict["recordedMilestones"] is not current_milestones
    assert current == {"milestones": ["first", "second"]}
    assert compact_json(judge([], [])) == (
        '{"outcome":"no_progress","newMilestones":[],"recordedMilestones":[]}'
    )


def test_progress_core_cumulative_set_across_multi_round_loop():
    first = judge([], ["third", "first"])
    assert compact_json(first) == (
        '{"outcome":"progress","newMilestones":["third","first"],'
        '"recordedMilestones":["third","first"]}'
    )
    second = judge(first["recordedMilestones"], ["first", "second"])
    assert compact_json(second) == (
        '{"outcome":"progress","newMilestones":["second"],"withdrawnMilestones":["third"],'
        '"recordedMilestones":["third","first","second"]}'
    )
    third = judge(second["recordedMilestones"], ["second"])
    assert compact_json(third) == (
        '{"outcome":"no_progress","newMilestones":[],"withdrawnMilestones":["third","first"],'
        '"recordedMilestones":["third","first","second"]}'
    )


def test_progress_core_withdrawal_then_redeclaration_is_not_progress():
    declared = judge([], ["a"])
    assert declared["outcome"] == "progress"
    assert compact_json(declared) == (
        '{"outcome":"progress","newMilestones":["a"],"recordedMilestones":["a"]}'
    )
    withdrawn = judge(declared["recordedMilestones"], [])
    assert compact_json(withdrawn) == (
        '{"outcome":"no_progress","newMilestones":[],"withdrawnMilestones":["a"],'
        '"recordedMilestones":["a"]}'
    )
    redeclared = judge(withdrawn["recordedMilestones"], ["a"])
    assert compact_json(redeclared) == (
        '{"outcome":"no_progress","newMilestones":[],"recordedMilestones":["a"]}'
    )
    assert "withdrawnMilestones" not in redeclared


class _Odd:
    """An arbitrary object (upstream: ``Object.create({})``)."""


_CUR = {"milestones": ["current"]}

# The 22 upstream kinds (docs/primitives.md#absent-is-not-null: JS undefined values become absent keys or
# non-JSON objects), plus Python-only shapes that are not plain objects or arrays.
MALFORMED = [
    pytest.param(None, id="null"),
    pytest.param(42, id="number"),
    pytest.param("input", id="string"),
    pytest.param([], id="array"),
    pytest.param(datetime.datetime(2026, 1, 1), id="date"),
    pytest.param(_Odd(), id="object"),
    pytest.param({}, id="no-current"),
    pytest.param({"current": _Odd()}, id="current-undefined-like"),
    pytest.param({"current": None}, id="current-null"),
    pytest.param({"current": {}}, id="current-no-milestones"),
    pytest.param({"current": {"milestones": None}}, id="milestones-null"),
    pytest.param({"current": {"milestones": "not-an-array"}}, id="milestones-string"),
    pytest.param({"current": {"milestones": [42]}}, id="milestone-number"),
    pytest.param({"current": {"milestones": [""]}}, id="milestone-empty"),
    pytest.param({"current": {"milestones": [" \t\n"]}}, id="milestone-blank"),
    pytest.param({"current": _CUR, "previous": None}, id="previous-null"),
    pytest.param({"current": _CUR, "previous": _Odd()}, id="previous-undefined-like"),
    pytest.param({"current": _CUR, "previous": {}}, id="previous-empty"),
    pytest.param({"current": _CUR, "previous": {"milestones": "x"}}, id="previous-string"),
    pytest.param({"current": _CUR, "previous": {"milestones": [False]}}, id="previous-false"),
    pytest.param({"current": _CUR, "previous": {"milestones": ["\n"]}}, id="previous-newline"),
    # Python-only: tuples are not arrays, other mappings are not plain objects.
    pytest.param({"current": {"milestones": ("a",)}}, id="milestones-tuple"),
    pytest.param(MappingProxyType({"current": {"milestones": []}}), id="mapping-proxy"),
    pytest.param({"current": MappingProxyType({"milestones": []})}, id="current-mapping"),
    pytest.param({"current": {"milestones": [b"a"]}}, id="milestone-bytes"),
    pytest.param({"current": {"milestones": [None]}}, id="milestone-null"),
    pytest.param({"current": {"milestones": ["\ufeff"]}}, id="milestone-bom"),
    pytest.param({"current": {"milestones": ["\u3000\u2028"]}}, id="milestone-js-space"),
]


@pytest.mark.parametrize("input", MALFORMED)
def test_progress_core_rejects_malformed_inputs_with_invalid_input(input):
    expect_error(input, "invalid_input")


def test_progress_core_rejects_absent_input():
    with pytest.raises(ProgressError) as info:
        judge_progress()
    assert info.value.code == "invalid_input"


def test_progress_core_rejects_duplicates_within_either_observation():
    expect_error({"current": {"milestones": ["a", "a"]}}, "duplicate_milestone")
    expect_error(
        {"previous": {"milestones": ["a", "b", "a"]}, "current": {"milestones": ["b"]}},
        "duplicate_milestone",
    )


def test_progress_core_deterministic_and_json_round_trip_safe():
    input = {"previous": {"milestones": ["zeta", "alpha"]}, "current": {"milestones": ["alpha", "new"]}}
    first = judge_progress(input)
    second = judge_progress(input)
    assert first == second
    assert compact_json(first) == compact_json(second)
    assert json.loads(compact_json(first)) == first
    assert list(json.loads(compact_json(first))) == list(first)


def test_progress_core_does_not_mutate_inputs_or_alias_returned_lists():
    previous_milestones = ["old"]
    current_milestones = ["new"]
    input = {"previous": {"milestones": previous_milestones}, "current": {"milestones": current_milestones}}
    before = copy.deepcopy(input)
    first = judge_progress(input)
    assert input == before
    for key in ("newMilestones", "withdrawnMilestones", "recordedMilestones"):
        assert first[key] is not previous_milestones
        assert first[key] is not current_milestones
        first[key].append("returned-only")
    assert compact_json(judge_progress(input)) == (
        '{"outcome":"progress","newMilestones":["new"],"withdrawnMilestones":["old"],'
        '"recordedMilestones":["old","new"]}'
    )
    assert input == before


# --- golden vectors (exact outputs) not already covered above -------------------------------------

GOLDEN = [
    ({"current": {"milestones": ["b", "a"]}},
     '{"outcome":"unknown","reason":"missing_baseline","recordedMilestones":["b","a"]}'),
    ({"previous": {"milestones": []}, "current": {"milestones": []}},
     '{"outcome":"no_progress","newMilestones":[],"recordedMilestones":[]}'),
    ({"previous": {"milestones": []}, "current": {"milestones": ["plain-observation"]}},
     '{"outcome":"progress","newMilestones":["plain-observation"],'
     '"recordedMilestones":["plain-observation"]}'),
    ({"previous": {"milestones": ["zeta", "alpha", "withdrawn"]},
      "current": {"milestones": ["alpha", "  new  ", "zeta"]}},
     '{"outcome":"progress","newMilestones":["  new  "],"withdrawnMilestones":["withdrawn"],'
     '"recordedMilestones":["zeta","alpha","withdrawn","  new  "]}'),
    ({"previous": {"milestones": ["zeta", "alpha"]}, "current": {"milestones": ["alpha", "zeta"]}},
     '{"outcome":"no_progress","newMilestones":[],"recordedMilestones":["zeta","alpha"]}'),
    ({"previous": {"milestones": ["a", "b"]}, "current": {"milestones": ["b"]}},
     '{"outcome":"no_progress","newMilestones":[],"withdrawnMilestones":["a"],'
     '"recordedMilestones":["a","b"]}'),
]


@pytest.mark.parametrize(("input", "expected"), GOLDEN)
def test_progress_core_golden_vector(input, expected):
    assert compact_json(judge_progress(input)) == expected


@pytest.mark.parametrize(
    "previous",
    [None, {}, {"milestones": "x"}, {"milestones": [False]}, {"milestones": ["\n"]}],
    ids=["None", "empty", "string", "false", "newline"],
)
def test_progress_core_golden_invalid_previous(previous):
    expect_error({"previous": previous, "current": {"milestones": ["a"]}}, "invalid_input")


def test_progress_core_validation_happens_before_unknown_short_circuit():
    expect_error({"current": {"milestones": ["a", "a"]}}, "duplicate_milestone")


def test_progress_core_current_is_checked_first():
    expect_error({"previous": {"milestones": ["x", "x"]}, "current": {"milestones": [""]}}, "invalid_input")
    expect_error({"previous": {"milestones": [""]}, "current": {"milestones": ["a", "a"]}},
                 "duplicate_milestone")
    # Key order of the input does not matter: current still wins.
    expect_error({"current": {"milestones": ["a", "a"]}, "previous": None}, "duplicate_milestone")


def test_progress_core_first_offending_element_decides():
    expect_error({"current": {"milestones": ["a", "a", 42]}}, "duplicate_milestone")
    expect_error({"current": {"milestones": ["a", 42, "a"]}}, "invalid_input")


def test_progress_core_extra_keys_are_ignored():
    verdict = judge_progress({
        "extra": 1,
        "previous": {"milestones": ["a"], "note": None},
        "current": {"milestones": ["a", "b"], "more": [1, 2]},
    })
    assert compact_json(verdict) == (
        '{"outcome":"progress","newMilestones":["b"],"recordedMilestones":["a","b"]}'
    )


@pytest.mark.parametrize("milestone", ["\x85", "\x1c"], ids=["NEL", "FS"])
def test_progress_core_python_only_whitespace_is_a_valid_id(milestone):
    assert compact_json(judge_progress({"current": {"milestones": [milestone]}})) == compact_json(
        {"outcome": "unknown", "reason": "missing_baseline", "recordedMilestones": [milestone]}
    )


def test_progress_core_ids_are_never_trimmed():
    verdict = judge([" a "], ["a"])
    assert verdict["newMilestones"] == ["a"]
    assert verdict["withdrawnMilestones"] == [" a "]


def test_progress_core_dict_subclass_is_a_plain_object():
    verdict = judge_progress(OrderedDict(current=OrderedDict(milestones=["x"])))
    assert compact_json(verdict) == (
        '{"outcome":"unknown","reason":"missing_baseline","recordedMilestones":["x"]}'
    )


def test_progress_core_unexpected_exception_becomes_invalid_input():
    class Exploding(dict):
        def __getitem__(self, key):
            raise RuntimeError("boom")

    error = expect_error(Exploding(current={"milestones": []}), "invalid_input")
    assert error.__cause__ is None


def test_progress_core_no_length_limits():
    long = "g" * 100_000
    assert judge([], [long])["newMilestones"] == [long]
    many = [f"m{i}" for i in range(2000)]
    assert judge(many[:1000], many)["recordedMilestones"] == many


def test_progress_core_withdrawn_key_only_when_non_empty():
    assert list(judge(["a"], ["a"])) == ["outcome", "newMilestones", "recordedMilestones"]
    assert list(judge(["a"], [])) == [
        "outcome", "newMilestones", "withdrawnMilestones", "recordedMilestones",
    ]
    assert list(judge_progress({"current": {"milestones": []}})) == [
        "outcome", "reason", "recordedMilestones",
    ]

