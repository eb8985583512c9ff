"""Display and persistence: strip, goal table, overlay, restore and the /todos commands
(docs/todo-gates.md#how-the-todo-model-is-tested)."""

from __future__ import annotations

import json

from todo_fixtures import EXAMPLE_STATE, example_log
from todo_helpers import item, make, tool_result, assistant

from core.primitives.host import Notice
from memory_log import MemoryLog
from core.primitives.todo.adapter import TodoAdapter
from core.primitives.todo import constants as c
from core.primitives.todo import commands as cmd
from core.primitives.todo.display import band


def test_D01_strip_examples():
    adapter = TodoAdapter(example_log())
    assert adapter.strip_text() == (
        "● Todos (2/4) — Ship the JSONL parser\n"
        "├─ ▶ #parse Write the parser · conf 80 👉\n"
        "├─ ○ #cli Wire the CLI flag · conf 70 👉\n"
        "├─ ✓ #lex Tokenize input · conf 97\n"
        "└─ ✗ #docs Update docs · conf 50"
    )
    assert adapter.strip_text(4) == (
        "● Todos (2/4) — Ship the JSONL parser\n"
        "├─ ▶ #parse Write the parser · conf 80 👉\n"
        "├─ ○ #cli Wire the CLI flag · conf 70 👉\n"
        "└─ +2 more (1 completed, 1 cancelled)"
    )
    lines = adapter.strip_lines()
    assert [l.kind for l in lines] == ["header", "item", "item", "item", "item"]
    assert (lines[1].icon, lines[1].id, lines[1].confidence, lines[1].targeted) == ("▶", "parse", 80, True)
    assert lines[0].active
    assert adapter.strip_text(1) == "● Todos (2/4) — Ship the JSONL parser"
    assert adapter.strip_text(2).split("\n")[1] == "└─ +4 more (1 in progress, 1 pending, 1 completed, 1 cancelled)"


def test_D01_strip_fill_priority_and_unknowns():
    log = MemoryLog(entries=[MemoryLog.custom("pi-jtodo/state", {
        "schemaVersion": 1, "plan": {}, "goals": [],
        "todos": [item("d1", "completed"), item("w", "waiting"), item("p1"), item("p2"),
                  dict(item("x", "completed"), confidence=None)]})])
    adapter = TodoAdapter(log)
    assert adapter.strip_text(4) == (
        "● Todos (2/5)\n├─ ○ #p1 Task p1 · conf 70\n├─ ○ #p2 Task p2 · conf 70\n"
        "└─ +3 more (2 completed, 1 other)"
    )
    assert adapter.strip_text(5).split("\n")[3] == "├─ ○ #w Task w · conf 70"
    assert adapter.strip_text(9).split("\n")[-1] == "└─ ○ #w Task w · conf 70"
    assert "#x Task x · conf ?" in adapter.strip_text(9)
    assert TodoAdapter(MemoryLog()).strip_lines() == []


def test_D01_goal_table_and_bands():
    adapter = TodoAdapter(example_log())
    assert adapter.goal_table_text() == (
        "Todo Goal   | Settled | Conf | Own | Feedback\n"
        "parser      | 1/2     | 89   | —   | 90\n"
        "cli         | 0/1     | 70   | —   | —\n"
        "(ungrouped) | 1/1     | —    | —   | —"
    )
    rows = adapter.goal_rows()
    assert rows[0].bands == ("warning", "missing", "warning")
    assert rows[0].feedback_loop == "run the parser tests"
    assert [band(v) for v in (97, 95, 59, None)] == ["success", "warning", "error", "missing"]


def test_overlay_markdown():
    adapter = TodoAdapter(example_log())
    md = adapter.overlay_markdown()
    assert md.startswith("# Todos\n\n- Progress: **1/4 completed** (25%)\n- In progress: 1\n")
    assert "- Weighted confidence: **82%**\n- Lowest completed confidence: **97%**\n" in md
    assert "- Auto-poke: ON\n\n## Plan\n- User intention: Ship the JSONL parser\n\n## parser (1/2)\n" in md
    assert "- ✓ `#lex` [high] Tokenize input\n  - confidence: `85%`\n  - completion confidence: `97%`\n  - history: `85 → 97`" in md
    assert md.endswith("## Other (0/1)\n\n### Cancelled\n- ✗ `#docs` [high] Update docs\n  - confidence: `50%`")
    assert TodoAdapter(MemoryLog()).overlay_markdown() == (
        "# Todos\n\nNo todos yet. The agent can create them with the `todo` tool.")
    flat, _, _ = make()
    flat.call_tool("todo", {"todos": [item("b", priority="low"), item("a", priority="medium")],
                            "goals": [{"group": None, "feedback_loop": "f"}, {"group": "lonely"}]}).text
    md = flat.overlay_markdown()
    assert "\n\n- Feedback loop: f\n\n## Pending\n- ○ `#a` [medium]" in md
    assert md.endswith("## Goals without todos\n\n### lonely")
    assert adapter.command("") == [Notice(adapter.overlay_markdown())]


def test_D02_restore_from_a_pi_jtodo_tool_result():
    details = {"todos": [{"content": "x", "status": "blocked", "priority": "urgent", "id": "a",
                          "confidence": 50, "blocked_by": ["z"], "assigned_to": "me"}],
               "plan_update": {"before": {}, "after": {}}}
    log = MemoryLog(entries=[tool_result(details)])
    adapter = TodoAdapter(log)
    assert adapter.load() == []
    assert adapter.state.to_json() == {"todos": [{"content": "x", "status": "blocked", "priority": "urgent",
                                                  "id": "a", "confidence": 50}], "plan": {}, "goals": []}
    assert "○ #a x · conf 50" in adapter.strip_text()
    log.entries.append(MemoryLog.custom("pi-jtodo/state", EXAMPLE_STATE))
    assert adapter.todos[0].id == "parse"
    log.entries.append(tool_result({"todos": [], "plan": {"user_intention": "later"}}))
    assert adapter.todos == [] and adapter.plan.user_intention == "later"


def test_D02_tool_results_count_as_writes_only_when_they_were_writes():
    write_call = {"id": "w1", "name": "todo", "arguments": {"todos": [item("a")],
                                                           "plan": {"understands_user_intent": 50}}}
    read_call = {"id": "r1", "name": "todo", "arguments": {}}
    state = {"todos": [dict(item("a"), confidence_history=[70])],
             "plan": {"understands_user_intent": 50, "understands_user_intent_history": [50]}}
    log = MemoryLog(entries=[assistant(tool_calls=[write_call]), tool_result(state, "w1")])
    adapter = TodoAdapter(log)
    assert len(adapter.observations) == 1
    log.entries += [assistant(tool_calls=[read_call]), tool_result(state, "r1")]
    assert len(adapter.observations) == 1
    log.entries.append(tool_result(state, "w9", text="... " + c.OWNERSHIP_CONTINUATION))
    log.entries.append(tool_result(state, "w9", is_error=True))
    assert len(adapter.observations) == 1
    log.entries.append(tool_result(state, "unknown"))  # same details: not a write
    assert len(adapter.observations) == 1
    changed = dict(state, todos=[dict(item("a", conf=71), confidence_history=[70, 71])])
    log.entries.append(tool_result(changed, "unknown"))
    assert len(adapter.observations) == 2


def test_D03_invalid_newest_state_warns_without_fallback():
    bad = {"schemaVersion": 1, "todos": [{"content": "x"}], "plan": {}, "goals": []}
    log = MemoryLog(entries=[MemoryLog.custom("pi-jtodo/state", EXAMPLE_STATE),
                             MemoryLog.custom("pi-jtodo/state", bad)])
    adapter = TodoAdapter(log)
    assert adapter.load() == [Notice(
        "pi-jtodo: the newest saved todo state is invalid; starting with an empty todo list.", "warning")]
    assert adapter.todos == []
    for data in ({"schemaVersion": 2, "todos": [], "plan": {}, "goals": []},
                 {"schemaVersion": True, "todos": [], "plan": {}, "goals": []},
                 {"schemaVersion": 1, "todos": [], "plan": [], "goals": []},
                 {"schemaVersion": 1, "todos": [dict(item("a"), confidence=101)], "plan": {}, "goals": []},
                 "nope"):
        log.entries[1:] = [MemoryLog.custom("pi-jtodo/state", data)]
        assert adapter.todos == [] and len(adapter.load()) == 1
    log.entries[1:] = [MemoryLog.custom("pi-jtodo/state", dict(EXAMPLE_STATE, schemaVersion=1.0, extra=1))]
    assert adapter.load() == [] and len(adapter.todos) == 4
    log.entries.append(MemoryLog.custom("pi-jtodo/cycle", {"reason": "x"}))
    assert [n.level for n in adapter.load()] == ["warning"]


def test_D04_clear_and_export(tmp_path):
    adapter, log, _ = make()
    adapter.cwd = tmp_path
    adapter.call_tool("todo", {"todos": [item("a")], "plan": {"understands_user_intent": 50}})
    assert adapter.observations
    assert adapter.command("clear")[0].level == "warning"
    assert len(log.appended) == 1
    assert adapter.command("clear --yes") == [Notice("Todos cleared.")]
    assert log.appended[-1]["data"] == {"schemaVersion": 1, "todos": [], "plan": {}, "goals": []}
    assert adapter.observations == [] and adapter.todos == []
    assert adapter.command("clear --yes") == [Notice("Todos are already empty.")]
    assert len(log.appended) == 2
    adapter.call_tool("todo", {"todos": [item("a")]})
    md = adapter.overlay_markdown()
    notice = adapter.command("export out.md")[0]
    assert notice.message == f"Exported todos to {(tmp_path / 'out.md').resolve()}."
    assert (tmp_path / "out.md").read_text() == md + "\n"
    adapter.command("export json")
    assert json.loads((tmp_path / "todos.json").read_text()) == adapter.state.to_json()
    adapter.command("export")
    assert (tmp_path / "todos.md").exists()
    bad = adapter.command(f"export md {tmp_path}/missing/dir/x.md")[0]
    assert bad.level == "warning" and bad.message.startswith("Could not export todos to ")
    usage = "Usage: /todos [export [md|json] [PATH] [--force] | clear [--yes] | poke on|off|status|trigger]"
    for args in ("nope", "export a b", "export xml", "clear now"):
        assert adapter.command(args) == [Notice(usage, "warning")]


def test_todos_words_split_on_javascript_whitespace_only():
    adapter = TodoAdapter(MemoryLog())
    # U+0085 is not JavaScript whitespace: "poke\x85status" is one unknown word
    assert [(n.message, n.level) for n in adapter.command("poke\x85status")] == [(cmd.USAGE, "warning")]
    # U+FEFF is: the same words as "poke status"
    assert adapter.command("poke\ufeffstatus")[0].message.startswith("Auto-poke: ON.")
