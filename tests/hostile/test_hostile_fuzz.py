"""Fuzzing the CLI's input (issue 9): any JSON text, nesting, escapes and bytes as tool parameters
or stdin give exit 0, 1 or 2, never an exception, and whatever a tool appends reads back: the
session only grows, by whole entries the reader keeps (a line it would skip would be a lost
write)."""

from __future__ import annotations

import io
import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.cli.main import main
from core.session.log import SessionLog

FUZZ = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
TOOLS = ["agent_state_add_work_item", "agent_state_add_decision", "agent_progress_add_milestone",
         "agent_handoff_create", "todo", "agent_state_set_work_item_status"]
TEXT = st.one_of(  # any text; half the time with a lone surrogate or a control character in it
    st.text(max_size=12),
    st.builds(lambda a, c, b: a + c + b, st.text(max_size=6), st.sampled_from("\ud800\udbff\udc00\udfff\x1b\x07\x00\u202e"),
              st.text(max_size=6)),
)
VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXT | st.sampled_from(
        ["id", "content", "milestone", "status", "todos", "schemaVersion", "goal", "source"]), inner, max_size=4),
    max_leaves=12,
)


@st.composite
def params(draw) -> bytes:
    value = draw(st.fixed_dictionaries({}, optional={
        "id": TEXT, "content": VALUES, "milestone": VALUES, "status": st.sampled_from(["open", "done", "x"]),
        "schemaVersion": st.sampled_from([1, 1.0, "1"]), "source": TEXT, "goal": TEXT,
        "todos": st.lists(st.fixed_dictionaries({
            "id": TEXT, "content": TEXT, "status": st.sampled_from(["pending", "in_progress", "completed", "x"]),
            "priority": st.sampled_from(["high", "low", "x"]), "confidence": st.integers(0, 100) | VALUES}),
            max_size=3),
    }))
    text = json.dumps(value, ensure_ascii=draw(st.booleans()), allow_nan=True)
    shape = draw(st.sampled_from(["as is"] * 4 + ["nested", "deep", "cut", "bytes"]))
    if shape == "nested":  # nesting around a value, near and past the depth a session line may hold
        levels = draw(st.sampled_from([10, 200, 250, 256, 300, 3000]))
        key = draw(st.sampled_from(["content", "milestone", "todos", "extra"]))
        value[key] = "@"
        text = json.dumps(value).replace('"@"', "[" * levels + "1" + "]" * levels)
    elif shape == "deep":
        text = "[" * 5000 + "]" * 5000
    elif shape == "cut":
        text = text[: draw(st.integers(0, len(text)))]
    raw = text.encode("utf-8", "surrogatepass")
    if shape == "bytes":
        at = draw(st.integers(0, len(raw)))
        raw = raw[:at] + draw(st.sampled_from([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x00"])) + raw[at:]
    return raw


@FUZZ
@given(tool=st.sampled_from(TOOLS), raw=params(), via=st.sampled_from(["argument", "stdin"]))
def test_any_tool_input_is_an_answer_and_every_append_reads_back(tmp_path, monkeypatch, capsys, tool, raw, via):
    monkeypatch.setenv("PIDECK_CONFIG", str(tmp_path / "config.toml"))
    path = tmp_path / "s.jsonl"
    if not path.exists():
        SessionLog.create(path, cwd=tmp_path)
    before = path.read_bytes()
    if via == "stdin":
        monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8"))
        argument = "-"
    else:
        argument = raw.decode("utf-8", "surrogateescape")  # how Python hands over a command-line word
    capsys.readouterr()
    code = main(["tool", "--session", str(path), tool, argument])
    out, err = capsys.readouterr()
    assert code in (0, 1, 2) and "Traceback" not in err
    after = path.read_bytes()
    assert after.startswith(before)
    if code == 2:
        assert after == before
    log = SessionLog.open(path, saved_index=False)
    assert log.warnings == []  # every line pideck wrote is one the reader keeps
    assert [json.loads(line)["id"] for line in after.splitlines()[1:]] == [r.id for r in log.records]


def test_what_the_fuzzer_needs_is_reachable(tmp_path, monkeypatch, capsys):
    """The tools the fuzzer calls do append for good input, so its read-back check checks something."""
    monkeypatch.setenv("PIDECK_CONFIG", str(tmp_path / "config.toml"))
    path = tmp_path / "s.jsonl"
    SessionLog.create(path, cwd=tmp_path)
    for tool, good in (("agent_state_add_work_item", {"id": "a", "content": "x"}),
                       ("agent_progress_add_milestone", {"milestone": "m"}),
                       ("todo", {"todos": [{"id": "t", "content": "c", "status": "pending", "priority": "high",
                                           "confidence": 70}]})):
        assert main(["tool", "--session", str(path), tool, json.dumps(good)]) == 0
    assert len(Path(path).read_bytes().splitlines()) == 4
