"""pi writes numbers with JavaScript's ``Number.prototype.toString``
(docs/session-format.md#numbers-and-strings-as-javascript-writes-them). Python's ``repr`` differs
for small magnitudes: ``1e-05`` where JavaScript writes ``0.00001``, and a zero-padded exponent
(``1.5e-07``) where JavaScript writes ``1.5e-7``."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.session.writer import serialise

pytestmark = pytest.mark.read_three_ways  # (how lines are read: the split scan too, tests/conftest.py)

# JSON.stringify of each value, as node prints it
JS = {
    1e-5: "0.00001", 1.5e-7: "1.5e-7", 1e-7: "1e-7", 1e-6: "0.000001", 0.000001234: "0.000001234",
    -2.5e-5: "-0.000025", 0.0001: "0.0001", 123.5: "123.5", 1e21: "1e+21", 1.5e22: "1.5e+22",
    1e300: "1e+300", 5e-324: "5e-324", -1.25e-9: "-1.25e-9", 9.5e-8: "9.5e-8", 0.1: "0.1",
}


@pytest.mark.parametrize("value", list(JS))
def test_floats_are_written_as_javascript_writes_them(value):
    assert serialise({"a": value, "b": [value]}) == f'{{"a":{JS[value]},"b":[{JS[value]}]}}\n'.encode()
    assert json.loads(serialise({"a": value}))["a"] == value


def test_a_string_that_looks_like_a_number_stays_a_string():
    assert serialise({"a": "1e-05", "b": 1e-05}) == b'{"a":"1e-05","b":0.00001}\n'


@pytest.mark.skipif(shutil.which("node") is None, reason="node not installed")
@settings(max_examples=25, deadline=None)
@given(st.lists(st.floats(allow_nan=False, allow_infinity=False), min_size=1, max_size=40))
def test_floats_match_node(values):
    out = subprocess.run(["node", "-e", "process.stdout.write(JSON.stringify(JSON.parse(process.argv[1])))",
                          json.dumps(values)], capture_output=True, text=True, check=True).stdout
    assert serialise(values).decode() == out + "\n"


def test_integral_floats_beyond_2_53_use_the_shortest_digits():
    # JavaScript prints 7.132508318008495e16 as 71325083180084950 (shortest digits, then zeros);
    # int() of the float is 71325083180084952
    assert serialise([7.132508318008495e16, 9007199254740994.0, 1e20, -1e16]) == (
        b"[71325083180084950,9007199254740994,100000000000000000000,-10000000000000000]\n")


def test_integers_beyond_2_53_are_written_as_the_double_pi_would_hold():
    # node: JSON.stringify(JSON.parse("[71325083180084952,1e400,9007199254740993,...]"))
    assert serialise([71325083180084952, 10**400, 9007199254740993, -9007199254740993,
                      123456789012345678901234567890, 2**53 - 1, True]) == (
        b"[71325083180084950,null,9007199254740992,-9007199254740992,1.2345678901234568e+29,"
        b"9007199254740991,true]\n")


def test_array_index_keys_come_first_as_in_a_javascript_object():
    # node: JSON.stringify({"b":1,"2":2,"1":3,"01":4,"-1":5,"4294967294":6,"4294967295":7})
    data = {"b": 1, "2": 2, "1": 3, "01": 4, "-1": 5, "4294967294": 6, "4294967295": 7}
    assert serialise({"d": data}) == (
        b'{"d":{"1":3,"2":2,"4294967294":6,"b":1,"01":4,"-1":5,"4294967295":7}}\n')
    assert serialise({"x": 1, "y": {"z": 2}}) == b'{"x":1,"y":{"z":2}}\n'
