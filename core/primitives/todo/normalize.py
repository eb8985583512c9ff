"""Lenient input normalisation from jcode (docs/todo-gates.md#lenient-input-parsing).

Some providers send stringified JSON or numbers as strings; this repairs what can be repaired and
leaves the rest for validation to reject.
"""

from __future__ import annotations

import json
import re
from typing import Any

from core.jsutil import is_blank, js_trim

_DIGITS = re.compile(r"\+?[0-9]+")
_ITEM_INT_KEYS = (
    "confidence",
    "completion_confidence",
    "alignment_score",
    "user_intention_alignment",
    "closed_feedback_loop",
    "hill_climbability",
    "end_to_end_ownership",
)
_PLAN_INT_KEYS = ("alignment_score", "user_intention_alignment", "understands_user_intent")
_ABSENT = object()


def coerce_int(value: Any) -> Any:
    """Numeric strings and whole non-negative floats become ints; bools and the rest stay."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str):
        text = js_trim(value)
        if text == "":
            return None
        if _DIGITS.fullmatch(text) and text.isascii():
            return int(text)
        return value
    if isinstance(value, float) and value.is_integer() and value >= 0:
        return int(value)
    return value


def _parse_json(text: str) -> Any:
    try:
        return json.loads(js_trim(text))
    except ValueError:
        return _ABSENT


def _unstring(value: Any, want: type) -> Any:
    """A blank string is null; a string holding JSON of type ``want`` (or null) is parsed."""
    if not isinstance(value, str):
        return value
    if is_blank(value):
        return None
    parsed = _parse_json(value)
    if parsed is None or isinstance(parsed, want):
        return parsed
    return value


# ``d`` below is an object of the call as the caller sent it (JSON), repaired in place: nothing here
# uses its values, which validate.py checks.


def _coerce_keys(d: dict[str, object], keys: tuple[str, ...]) -> None:
    for key in keys:
        if key in d:
            d[key] = coerce_int(d[key])


def _take_legacy(d: dict[str, object], canonical: str, *legacy: str) -> None:
    if d.get(canonical) is not None:
        return
    for name in legacy:
        if d.get(name) is not None:
            d[canonical] = d[name]
            return


def normalise_input(params: Any) -> Any:
    """Returns a normalised copy with only ``todos``/``plan``/``goals`` (nulls dropped)."""
    import copy  # (here: the turn-end fold loads this module for ``holds_write``, and copy loads weakref)

    if not isinstance(params, dict):
        return params
    out: dict[str, object] = {}
    plan = _unstring(copy.deepcopy(params.get("plan")), dict)
    if isinstance(plan, dict):
        _coerce_keys(plan, _PLAN_INT_KEYS)
        _take_legacy(plan, "understands_user_intent", "alignment_score", "user_intention_alignment")
    for key in ("todos", "goals"):
        value = _unstring(copy.deepcopy(params.get(key)), list)
        if isinstance(value, list):
            value = [_unstring_item(v) for v in value]
            for element in value:
                if isinstance(element, dict):
                    _coerce_keys(element, _ITEM_INT_KEYS)
                    if key == "goals":
                        _take_legacy(element, "closed_feedback_loop", "hill_climbability")
        if value is not None:
            out[key] = value
    if plan is not None:
        out["plan"] = plan
    return {k: out[k] for k in ("todos", "plan", "goals") if k in out}


def holds_write(params: Any) -> bool:
    """Whether ``normalise_input(params)`` keeps any of ``todos``/``plan``/``goals``, decided
    without the copies it makes (the replay asks this of every todo call on a branch)."""
    if not isinstance(params, dict):
        return False
    wanted = (("todos", list), ("plan", dict), ("goals", list))
    return any(_unstring(params.get(key), kind) is not None for key, kind in wanted)


def _unstring_item(value: Any) -> Any:
    if isinstance(value, str) and not is_blank(value):
        parsed = _parse_json(value)
        if isinstance(parsed, dict):
            return parsed
    return value
