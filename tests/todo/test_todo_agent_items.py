"""An agent's plan item is restored by a shorter path when it holds only the keys the readers give
it (core/primitives/todo/restore.py ``_agent_item``): it must accept, refuse and make exactly
what the full path does, for any values of those keys."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from core.primitives.todo import restore

values = st.one_of(st.none(), st.text(max_size=4), st.sampled_from(["", " ", "\u3000", "x"]), st.integers(),
                   st.booleans(), st.lists(st.one_of(st.text(max_size=3), st.integers()), max_size=3),
                   st.dictionaries(st.text(max_size=2), st.integers(), max_size=2))
items = st.dictionaries(st.sampled_from(sorted(restore._AGENT_KEYS)), values)


def outcome(make, raw):
    try:
        return "made", make(raw).to_json()
    except restore._Invalid:
        return "refused", None


@settings(max_examples=3000, deadline=None)
@given(items)
def test_the_short_path_makes_and_refuses_what_the_full_path_does(raw):
    assert outcome(restore._agent_item, raw) == outcome(lambda r: restore._any_item(r, True), raw)


def test_an_item_with_any_other_key_takes_the_full_path():
    raw = {"content": "c", "status": "pending", "id": "1", "confidence": 101}
    assert outcome(lambda r: restore._item(r, True), raw) == ("refused", None)  # (its score is checked)
    assert restore._item({**raw, "confidence": 90}, True).confidence == 90
