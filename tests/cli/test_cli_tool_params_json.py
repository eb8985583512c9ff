"""``pideck tool`` takes its parameters as JSON (issue 3: exit 2 for malformed JSON).
Python's json module also accepts NaN, Infinity and -Infinity, which are not JSON (JSON.parse
rejects them); such parameters reached the tool, and a NaN was stored as null."""

from __future__ import annotations

import pytest

from core.cli.main import main


@pytest.mark.parametrize("params", ['{"id": "a", "content": NaN}', '[Infinity]', '{"x": -Infinity}'])
def test_nan_and_infinity_are_malformed_json(capsys, tmp_path, params):
    s = tmp_path / "s.jsonl"
    code = main(["tool", "--session", str(s), "agent_state_add_work_item", params])
    out, err = capsys.readouterr()
    assert (code, out) == (2, "")
    assert err.startswith("pideck tool: malformed JSON parameters")
    assert not s.exists()
