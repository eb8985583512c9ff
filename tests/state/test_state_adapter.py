"""Agent State adapter: the upstream suite, the exact status text and pideck's additions
(docs/primitives.md#how-parity-is-tested), driven through MemoryLog like the upstream test harness."""

from __future__ import annotations

import json

import pytest

from core.primitives.state.adapter import AgentStateAdapter
from core.primitives.host import Notice
from memory_log import MemoryLog
from core.jsutil import compact_json

ENTRY = "agent-state-state"
EMPTY_TEXT = "Agent State: no objective, 0 work items, 0 decisions."
INVALID_WARNING = Notice("Agent State: persisted state was invalid; starting with empty state.", "warning")
USAGE = (
    "Usage: /agent-state status | objective <text...> | add <id> <content...> | "
    "set <id> <open|in_progress|blocked|done> | remove <id> | decide <id> <content...> | clear --yes"
)
INVALID_INPUT_TEXT = "Agent State: invalid agent state input."
TOOL_NAMES = [
    "agent_state_get",
    "agent_state_add_work_item",
    "agent_state_set_work_item_status",
    "agent_state_add_decision",
]


def valid_payload() -> dict:
    return {
        "schemaVersion": 1,
        "state": {
            "schemaVersion": 1,
            "objective": "Resume this work.",
            "workItems": [
                {"id": "first", "content": "First item.", "status": "open"},
                {"id": "second", "content": "Second item.", "status": "done"},
            ],
            "decisions": [{"id": "choice", "content": "Keep the safe path."}],
        },
    }


def start(*datas) -> tuple[MemoryLog, AgentStateAdapter, list[Notice]]:
    """A log seeded with one agent-state-state entry per data, an adapter loaded from it."""
    log = MemoryLog(entries=[MemoryLog.custom(ENTRY, d) for d in datas])
    adapter = AgentStateAdapter(log.append_custom)
    notices = adapter.load(log.branch_entries())
    return log, adapter, notices


def run(adapter: AgentStateAdapter, args: str) -> Notice:
    notices = adapter.command(args)
    assert len(notices) == 1
    return notices[0]


def get(adapter: AgentStateAdapter) -> str:
    return adapter.call_tool("agent_state_get", {}).text


def payloads(log: MemoryLog) -> list[str]:
    assert all(e["type"] == "custom" and e["customType"] == ENTRY for e in log.appended)
    return [compact_json(e["data"]) for e in log.appended]


# --- the 14 cases of the upstream agent-state-pi suite --------------------------------------------


def test_adapter_01_empty_status_and_bare_command_usage():
    log, adapter, notices = start()
    assert notices == []
    assert run(adapter, "status") == Notice(EMPTY_TEXT, "info")
    assert run(adapter, "") == Notice(USAGE, "warning")
    assert USAGE.startswith("Usage: /agent-state ")
    assert log.appended == []


SHOWCASE = [
    "objective Ship the release.",
    "add first Prepare the release.",
    "add second Run the checks.",
    "set first in_progress",
    "decide tests Keep the focused tests.",
]
SHOWCASE_TEXT = (
    "Agent State: objective: Ship the release., 2 work items (1 open, 1 in_progress, 0 blocked, 0 done), 1 decision.\n"
    "Work items:\n"
    "- first [in_progress]: Prepare the release.\n"
    "- second [open]: Run the checks.\n"
    "Decisions:\n"
    "- tests: Keep the focused tests."
)


def test_adapter_02_records_objective_items_statuses_decisions_in_order():
    log, adapter, _ = start()
    assert [run(adapter, c) for c in SHOWCASE] == [
        Notice("Agent State: objective updated.", "info"),
        Notice('Agent State: added work item "first".', "info"),
        Notice('Agent State: added work item "second".', "info"),
        Notice('Agent State: work item "first" is now in_progress.', "info"),
        Notice('Agent State: added decision "tests".', "info"),
    ]
    assert run(adapter, "status") == Notice(SHOWCASE_TEXT, "info")
    assert payloads(log) == [
        '{"schemaVersion":1,"state":{"schemaVersion":1,"workItems":[],"decisions":[],"objective":"Ship the release."}}',
        '{"schemaVersion":1,"state":{"schemaVersion":1,"workItems":[{"id":"first","content":"Prepare the release.","status":"open"}],"decisions":[],"objective":"Ship the release."}}',
        '{"schemaVersion":1,"state":{"schemaVersion":1,"workItems":[{"id":"first","content":"Prepare the release.","status":"open"},{"id":"second","content":"Run the checks.","status":"open"}],"decisions":[],"objective":"Ship the release."}}',
        '{"schemaVersion":1,"state":{"schemaVersion":1,"workItems":[{"id":"first","content":"Prepare the release.","status":"in_progress"},{"id":"second","content":"Run the checks.","status":"open"}],"decisions":[],"objective":"Ship the release."}}',
        '{"schemaVersion":1,"state":{"schemaVersion":1,"workItems":[{"id":"first","content":"Prepare the release.","status":"in_progress"},{"id":"second","content":"Run the checks.","status":"open"}],"decisions":[{"id":"tests","content":"Keep the focused tests."}],"objective":"Ship the release."}}',
    ]


def test_adapter_03_duplicate_and_unknown_ids_neither_mutate_nor_append():
    log, adapter, _ = start()
    run(adapter, "add task Original.")
    assert run(adapter, "add task Replacement.") == Notice(
        'Agent State: duplicate work item id "task".', "warning"
    )
    assert len(log.appended) == 1
    assert run(adapter, "set missing done") == Notice(
        'Agent State: unknown work item id "missing".', "warning"
    )
    assert len(log.appended) == 1
    assert get(adapter) == (
        "Agent State: no objective, 1 work item (1 open, 0 in_progress, 0 blocked, 0 done), 0 decisions.\n"
        "Work items:\n"
        "- task [open]: Original."
    )


def test_adapter_04_invalid_status_remove_and_remaining_state():
    log, adapter, _ = start()
    run(adapter, "add task Original.")
    assert run(adapter, "set task paused") == Notice(
        'Agent State: invalid status "paused"; expected open, in_progress, blocked, done.', "warning"
    )
    assert len(log.appended) == 1
    assert run(adapter, "remove task") == Notice('Agent State: removed work item "task".', "info")
    assert run(adapter, "remove task") == Notice('Agent State: unknown work item id "task".', "warning")
    assert len(log.appended) == 2
    assert payloads(log)[-1] == '{"schemaVersion":1,"state":{"schemaVersion":1,"workItems":[],"decisions":[]}}'
    assert run(adapter, "status") == Notice(EMPTY_TEXT, "info")


def test_adapter_05_clear_needs_confirmation():
    log, adapter, _ = start()
    run(adapter, "objective Keep this objective.")
    run(adapter, "add task Do the work.")
    run(adapter, "decide choice Keep the safe choice.")
    assert len(log.appended) == 3
    assert run(adapter, "clear") == Notice(
        "Agent State: clear would remove the objective, 1 work item and 1 decision. "
        "Run /agent-state clear --yes to confirm.",
        "warning",
    )
    assert len(log.appended) == 3
    assert "1 work item" in run(adapter, "status").message
    assert run(adapter, "clear --yes") == Notice("Agent State: cleared.", "info")
    assert len(log.appended) == 4
    assert payloads(log)[-1] == '{"schemaVersion":1,"state":{"schemaVersion":1,"workItems":[],"decisions":[]}}'
    assert run(adapter, "status") == Notice(EMPTY_TEXT, "info")


def test_adapter_06_registers_exactly_the_four_tools_in_order():
    assert [t.name for t in AgentStateAdapter.TOOLS] == TOOL_NAMES
    assert isinstance(AgentStateAdapter.TOOLS, tuple)
    assert [t.label for t in AgentStateAdapter.TOOLS] == [
        "Agent State: get",
        "Agent State: add work item",
        "Agent State: set work item status",
        "Agent State: add decision",
    ]
    # The only event handler upstream is session_start, which is load() here.
    public = sorted(n for n in vars(AgentStateAdapter) if not n.startswith("_"))
    assert public == [
        "COMMAND", "DESCRIPTION", "ENTRY_TYPE", "TOOLS", "call_tool", "command", "load", "snapshot"
    ]


def test_adapter_07_tools_add_update_read_and_record_decisions():
    log, adapter, _ = start()
    assert adapter.call_tool(
        "agent_state_add_work_item", {"id": "task", "content": "Run the checks.", "status": "open"}
    ).text == 'Agent State: added work item "task".'
    assert adapter.call_tool(
        "agent_state_set_work_item_status", {"id": "task", "status": "blocked"}
    ).text == 'Agent State: work item "task" is now blocked.'
    assert adapter.call_tool(
        "agent_state_add_decision", {"id": "choice", "content": "Keep the safe path."}
    ).text == 'Agent State: added decision "choice".'
    assert get(adapter) == (
        "Agent State: no objective, 1 work item (0 open, 0 in_progress, 1 blocked, 0 done), 1 decision.\n"
        "Work items:\n"
        "- task [blocked]: Run the checks.\n"
        "Decisions:\n"
        "- choice: Keep the safe path."
    )
    assert payloads(log) == [
        '{"schemaVersion":1,"state":{"schemaVersion":1,"workItems":[{"id":"task","content":"Run the checks.","status":"open"}],"decisions":[]}}',
        '{"schemaVersion":1,"state":{"schemaVersion":1,"workItems":[{"id":"task","content":"Run the checks.","status":"blocked"}],"decisions":[]}}',
        '{"schemaVersion":1,"state":{"schemaVersion":1,"workItems":[{"id":"task","content":"Run the checks.","status":"blocked"}],"decisions":[{"id":"choice","content":"Keep the safe path."}]}}',
    ]


def test_adapter_08_safe_messages_for_invalid_tool_input():
    log, adapter, _ = start()
    assert adapter.call_tool("agent_state_add_work_item", {"id": "", "content": ""}).text == INVALID_INPUT_TEXT
    assert adapter.call_tool(
        "agent_state_set_work_item_status", {"id": "missing", "status": "done"}
    ).text == 'Agent State: unknown work item id "missing".'
    assert log.appended == []
    for tool in AgentStateAdapter.TOOLS:
        assert "caller" in tool.description
        assert "automatically" not in tool.description


def test_adapter_09_appends_only_after_mutations_and_restores_on_resume():
    first_log, first, _ = start()
    run(first, "objective Resume this work.")
    run(first, "status")
    get(first)
    run(first, "add task Continue the task.")
    assert len(first_log.appended) == 2
    last = first_log.appended[-1]
    assert last["customType"] == ENTRY
    assert compact_json(last["data"]) == (
        '{"schemaVersion":1,"state":{"schemaVersion":1,"workItems":[{"id":"task",'
        '"content":"Continue the task.","status":"open"}],"decisions":[],"objective":"Resume this work."}}'
    )
    resumed_log = MemoryLog(entries=first_log.branch_entries())
    resumed = AgentStateAdapter(resumed_log.append_custom)
    assert resumed.load(resumed_log.branch_entries()) == []
    assert resumed_log.appended == []
    assert get(resumed) == (
        "Agent State: objective: Resume this work., 1 work item (1 open, 0 in_progress, 0 blocked, 0 done), 0 decisions.\n"
        "Work items:\n"
        "- task [open]: Continue the task."
    )


def test_adapter_10_fresh_session_is_empty_and_loading_does_not_append():
    log, adapter, notices = start(valid_payload())
    assert notices == [] and log.appended == []
    assert get(adapter) == (
        "Agent State: objective: Resume this work., 2 work items (1 open, 0 in_progress, 0 blocked, 1 done), 1 decision.\n"
        "Work items:\n"
        "- first [open]: First item.\n"
        "- second [done]: Second item.\n"
        "Decisions:\n"
        "- choice: Keep the safe path."
    )
    fresh_log, fresh, notices = start()
    assert notices == []
    assert get(fresh) == EMPTY_TEXT
    assert fresh_log.appended == []


def test_adapter_11_warns_and_starts_empty_for_malformed_or_unsupported_data():
    log, adapter, notices = start({"schemaVersion": 1})
    assert notices == [INVALID_WARNING]
    assert get(adapter) == EMPTY_TEXT
    assert log.appended == []
    log, adapter, notices = start({"schemaVersion": 2, "state": valid_payload()["state"]})
    assert notices == [INVALID_WARNING]
    assert get(adapter) == EMPTY_TEXT
    assert log.appended == []


def test_adapter_12_uses_newest_entry_and_never_falls_back():
    log, adapter, notices = start(valid_payload(), {"schemaVersion": 1, "state": {"schemaVersion": 1}})
    assert notices == [INVALID_WARNING]
    assert get(adapter) == EMPTY_TEXT
    assert log.appended == []


def test_adapter_13_mutating_an_appended_payload_leaves_live_state_alone():
    raw: list = []  # no defensive copy here, unlike MemoryLog: the adapter must hand out fresh data
    adapter = AgentStateAdapter(lambda custom_type, data: raw.append(data))
    adapter.load([])
    run(adapter, "add task Original content.")
    raw[0]["state"]["workItems"][0]["content"] = "Changed outside the adapter."
    raw[0]["state"]["decisions"].append({"id": "x", "content": "y"})
    raw[0]["state"]["objective"] = "injected"
    assert "- task [open]: Original content." in get(adapter)
    assert get(adapter).startswith("Agent State: no objective, 1 work item")
    run(adapter, "decide d Later.")
    assert raw[0] is not raw[1]
    assert compact_json(raw[1]) == (
        '{"schemaVersion":1,"state":{"schemaVersion":1,"workItems":[{"id":"task","content":"Original content.",'
        '"status":"open"}],"decisions":[{"id":"d","content":"Later."}]}}'
    )


def test_adapter_14_names_distinct_from_context_guard():
    assert AgentStateAdapter.COMMAND == "agent-state"
    assert AgentStateAdapter.COMMAND != "context-guard"
    assert AgentStateAdapter.ENTRY_TYPE == "agent-state-state"
    assert AgentStateAdapter.ENTRY_TYPE != "agent-context-guard-state"
    assert not any(t.name.startswith("context_guard") for t in AgentStateAdapter.TOOLS)


# --- exact status text and tool definitions -------------------------------------------------------


def test_vector_adapter_status_text_after_showcase():
    _, adapter, _ = start()
    for c in SHOWCASE:
        run(adapter, c)
    assert run(adapter, "status").message == SHOWCASE_TEXT
    assert get(adapter) == SHOWCASE_TEXT


def test_command_description_and_tool_texts_are_verbatim():
    assert AgentStateAdapter.DESCRIPTION == "Record and inspect caller-declared Agent State."
    assert [t.description for t in AgentStateAdapter.TOOLS] == [
        "Read the current caller-declared Agent State as readable text. This reports what was recorded and asserts nothing about truth, progress, evidence, or completion.",
        "Record one caller-declared work item in Agent State. The content and status are claims supplied by the caller; this tool does not infer, verify, or assert their truth, progress, evidence, or completion.",
        "Set the exact caller-declared status of an existing Agent State work item. This records a claim and does not infer, verify, or assert truth, progress, evidence, or completion.",
        "Record one caller-declared decision in Agent State. The content is a claim supplied by the caller; this tool does not infer, verify, or assert its truth, progress, evidence, or completion.",
    ]


def test_tool_schemas_are_byte_exact():
    status = '"status":{"type":"string","enum":["open","in_progress","blocked","done"],"description":"Exact caller-declared work item status."}'
    assert [compact_json(t.parameters) for t in AgentStateAdapter.TOOLS] == [
        '{"type":"object","properties":{},"additionalProperties":false}',
        '{"type":"object","properties":{"id":{"type":"string","description":"Caller-supplied work item id."},'
        '"content":{"type":"string","description":"Caller-declared description of the work item."},'
        + status + '},"required":["id","content"],"additionalProperties":false}',
        '{"type":"object","properties":{"id":{"type":"string","description":"Caller-supplied work item id."},'
        + status + '},"required":["id","status"],"additionalProperties":false}',
        '{"type":"object","properties":{"id":{"type":"string","description":"Caller-supplied decision id."},'
        '"content":{"type":"string","description":"Caller-declared description of the decision."}},'
        '"required":["id","content"],"additionalProperties":false}',
    ]


# --- command parsing details ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        "", "   ", "\n", "status extra", "Status", "STATUS", "unknown", "objective", "objective   \n",
        "add", "add x", "add x\n", "decide", "decide d", "set", "set x", "set x open extra",
        "remove", "remove a b", "objective\ufeff",
    ],
)
def test_command_usage_cases(args):
    log, adapter, _ = start()
    assert adapter.command(args) == [Notice(USAGE, "warning")]
    assert log.appended == []


def test_leading_whitespace_is_ignored_and_trailing_kept():
    _, adapter, _ = start()
    assert run(adapter, "  \n add a  two  words \n") == Notice('Agent State: added work item "a".', "info")
    assert adapter.snapshot()["workItems"] == [{"id": "a", "content": "two  words \n", "status": "open"}]


def test_objective_is_trimmed_and_repeating_it_does_not_append():
    log, adapter, _ = start()
    assert run(adapter, "objective   Ship it.  \n") == Notice("Agent State: objective updated.", "info")
    assert run(adapter, "objective Ship it.") == Notice(
        'Agent State: objective is already set to "Ship it.".', "info"
    )
    assert payloads(log) == ['{"schemaVersion":1,"state":{"schemaVersion":1,"workItems":[],"decisions":[],"objective":"Ship it."}}']
    assert run(adapter, "objective Other.") == Notice("Agent State: objective updated.", "info")
    assert len(log.appended) == 2


def test_set_same_status_reports_but_does_not_append():
    log, adapter, _ = start()
    run(adapter, "add a A.")
    assert run(adapter, "set a open") == Notice('Agent State: work item "a" is now open.', "info")
    assert adapter.call_tool("agent_state_set_work_item_status", {"id": "a", "status": "open"}).text == (
        'Agent State: work item "a" is now open.'
    )
    assert len(log.appended) == 1
    assert run(adapter, "set  a   done  ") == Notice('Agent State: work item "a" is now done.', "info")
    assert len(log.appended) == 2


def test_set_invalid_status_checked_before_unknown_id():
    _, adapter, _ = start()
    assert run(adapter, "set missing OPEN") == Notice(
        'Agent State: invalid status "OPEN"; expected open, in_progress, blocked, done.', "warning"
    )


def test_decide_duplicate_and_ids_shared_with_work_items():
    log, adapter, _ = start()
    run(adapter, "add same Work.")
    assert run(adapter, "decide same Decision.") == Notice('Agent State: added decision "same".', "info")
    assert run(adapter, "decide same Again.") == Notice(
        'Agent State: duplicate decision id "same".', "warning"
    )
    assert len(log.appended) == 2


def test_clear_on_empty_state_warns_then_reports_already_empty():
    log, adapter, _ = start()
    assert run(adapter, "clear") == Notice(
        "Agent State: clear would remove 0 work items and 0 decisions. Run /agent-state clear --yes to confirm.",
        "warning",
    )
    assert run(adapter, "clear --yes") == Notice("Agent State: state is already empty.", "info")
    assert log.appended == []


@pytest.mark.parametrize("rest", ["--YES", "--yes extra", "yes", "-y", "--yes--"])
def test_clear_other_confirmations_are_unconfirmed(rest):
    log, adapter, _ = start()
    run(adapter, "add a A.")
    run(adapter, "add b B.")
    run(adapter, "decide d D.")
    assert run(adapter, "clear " + rest) == Notice(
        "Agent State: clear would remove 2 work items and 1 decision. Run /agent-state clear --yes to confirm.",
        "warning",
    )
    assert len(log.appended) == 3
    assert run(adapter, "clear  --yes \n") == Notice("Agent State: cleared.", "info")


def test_clear_counts_an_empty_restored_objective():
    data = {"schemaVersion": 1, "state": {"schemaVersion": 1, "workItems": [], "decisions": [], "objective": ""}}
    log, adapter, _ = start(data)
    assert get(adapter) == "Agent State: objective: , 0 work items, 0 decisions."
    assert run(adapter, "clear").message.startswith("Agent State: clear would remove the objective, 0 work items")
    assert run(adapter, "clear --yes") == Notice("Agent State: cleared.", "info")
    assert payloads(log) == ['{"schemaVersion":1,"state":{"schemaVersion":1,"workItems":[],"decisions":[]}}']


# --- loading (restore) ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "data",
    [
        None, [], "x", 1, {}, {"state": valid_payload()["state"]},
        {"schemaVersion": True, "state": valid_payload()["state"]},
        {"schemaVersion": "1", "state": valid_payload()["state"]},
        {"schemaVersion": 1, "state": None},
        {"schemaVersion": 1, "state": valid_payload()},
    ],
)
def test_load_rejects_bad_envelopes(data):
    log, adapter, notices = start(data)
    assert notices == [INVALID_WARNING]
    assert get(adapter) == EMPTY_TEXT
    assert log.appended == []


def test_load_entry_without_data_is_invalid():
    log = MemoryLog(entries=[{"type": "custom", "customType": ENTRY}])
    adapter = AgentStateAdapter(log.append_custom)
    assert adapter.load(log.branch_entries()) == [INVALID_WARNING]


def test_load_allows_extra_envelope_keys_and_float_version():
    data = {**valid_payload(), "schemaVersion": 1.0, "extra": {"anything": True}}
    log, adapter, notices = start(data)
    assert notices == []
    run(adapter, "remove first")
    assert payloads(log) == [
        '{"schemaVersion":1,"state":{"schemaVersion":1,"workItems":[{"id":"second","content":"Second item.",'
        '"status":"done"}],"decisions":[{"id":"choice","content":"Keep the safe path."}],"objective":"Resume this work."}}'
    ]


def test_load_ignores_other_entry_types_and_replaces_previous_state():
    log = MemoryLog(
        entries=[
            MemoryLog.custom(ENTRY, valid_payload()),
            MemoryLog.custom("agent-progress-state", {"schemaVersion": 1}),
            {"type": "custom_message", "customType": ENTRY, "content": "x", "display": True},
        ]
    )
    adapter = AgentStateAdapter(log.append_custom)
    assert adapter.load(log.branch_entries()) == []
    assert adapter.snapshot()["objective"] == "Resume this work."
    assert adapter.load([]) == []
    assert adapter.snapshot() == {"schemaVersion": 1, "workItems": [], "decisions": []}


def test_snapshot_accessor_is_a_fresh_copy():
    _, adapter, _ = start(valid_payload())
    first = adapter.snapshot()
    first["workItems"].clear()
    first["decisions"][0]["content"] = "changed"
    first["objective"] = "changed"
    assert compact_json(adapter.snapshot()) == (
        '{"schemaVersion":1,"workItems":[{"id":"first","content":"First item.","status":"open"},'
        '{"id":"second","content":"Second item.","status":"done"}],'
        '"decisions":[{"id":"choice","content":"Keep the safe path."}],"objective":"Resume this work."}'
    )


# --- tool details, non-dict params ----------------------------------------------------------------


def test_tool_add_work_item_with_status_and_null_status():
    log, adapter, _ = start()
    assert adapter.call_tool("agent_state_add_work_item", {"id": "a", "content": "A.", "status": "done"}).text == (
        'Agent State: added work item "a".'
    )
    assert adapter.call_tool("agent_state_add_work_item", {"id": "b", "content": "B.", "status": None}).text == (
        INVALID_INPUT_TEXT
    )
    assert adapter.call_tool("agent_state_add_work_item", {"id": "a", "content": "Again."}).text == (
        'Agent State: duplicate work item id "a".'
    )
    assert payloads(log) == [
        '{"schemaVersion":1,"state":{"schemaVersion":1,"workItems":[{"id":"a","content":"A.","status":"done"}],"decisions":[]}}'
    ]


@pytest.mark.parametrize(
    "params",
    [
        {"status": "open"},
        {"id": "a"},
        {},
        {"id": "a", "status": "paused"},
        {"id": "a", "status": None},
        {"id": None, "status": "open"},
        {"id": ["a"], "status": "open"},
    ],
)
def test_tool_set_status_missing_or_bad_values_are_invalid_input(params):
    log, adapter, _ = start()
    adapter.call_tool("agent_state_add_work_item", {"id": "a", "content": "A."})
    assert adapter.call_tool("agent_state_set_work_item_status", params).text == INVALID_INPUT_TEXT
    assert len(log.appended) == 1


def test_tool_add_decision_duplicate_and_extra_keys():
    log, adapter, _ = start()
    assert adapter.call_tool("agent_state_add_decision", {"id": "d", "content": "D.", "x": 1}).text == (
        'Agent State: added decision "d".'
    )
    assert adapter.call_tool("agent_state_add_decision", {"id": "d", "content": "D."}).text == (
        'Agent State: duplicate decision id "d".'
    )
    assert adapter.call_tool("agent_state_add_decision", {"id": "e"}).text == INVALID_INPUT_TEXT
    assert len(log.appended) == 1


def test_tool_get_ignores_params():
    _, adapter, _ = start()
    for params in [None, [], "x", 1, {"junk": True}]:
        assert adapter.call_tool("agent_state_get", params).text == EMPTY_TEXT


MUTATING_TOOLS = TOOL_NAMES[1:]


@pytest.mark.parametrize("name", MUTATING_TOOLS)
def test_tool_none_params_give_invalid_input(name):
    log, adapter, _ = start()
    assert adapter.call_tool(name, None).text == "Agent State: invalid input."
    assert log.appended == []


@pytest.mark.parametrize("name", MUTATING_TOOLS)
@pytest.mark.parametrize("params", [[], ["id", "content"], "id", 0, 1.5, True, False])
def test_tool_other_non_dict_params_read_as_empty(name, params):
    log, adapter, _ = start()
    assert adapter.call_tool(name, params).text == INVALID_INPUT_TEXT
    assert log.appended == []


# --- pideck additions -----------------------------------------------------------------------------


def test_pideck_04_trailing_whitespace_in_args_is_kept():
    log, adapter, _ = start()
    assert run(adapter, "add x  y  ") == Notice('Agent State: added work item "x".', "info")
    assert payloads(log) == [
        '{"schemaVersion":1,"state":{"schemaVersion":1,"workItems":[{"id":"x","content":"y  ","status":"open"}],"decisions":[]}}'
    ]
    assert run(adapter, "add z   ") == Notice(INVALID_INPUT_TEXT, "warning")
    assert run(adapter, "decide z   ") == Notice(INVALID_INPUT_TEXT, "warning")
    assert len(log.appended) == 1


def test_pideck_03_command_blankness_uses_js_whitespace():
    log, adapter, _ = start()
    assert run(adapter, "add \x85 \x1c") == Notice('Agent State: added work item "\x85".', "info")
    assert run(adapter, "add a\ufeffb") == Notice('Agent State: added work item "a".', "info")
    assert adapter.snapshot()["workItems"][1] == {"id": "a", "content": "b", "status": "open"}
    assert run(adapter, "add\ufeff") == Notice(USAGE, "warning")
    assert run(adapter, "add c \ufeff") == Notice(INVALID_INPUT_TEXT, "warning")  # blank content
    assert run(adapter, "objective \ufeff\u3000") == Notice(USAGE, "warning")
    assert run(adapter, "objective \x85") == Notice("Agent State: objective updated.", "info")
    assert run(adapter, "remove \x85\u2028") == Notice('Agent State: removed work item "\x85".', "info")
    assert payloads(log)[0] == (
        '{"schemaVersion":1,"state":{"schemaVersion":1,"workItems":[{"id":"\x85","content":"\\u001c","status":"open"}],"decisions":[]}}'
    )


def test_pideck_02_envelope_schema_version_float_written_back_as_int_and_true_rejected():
    data = {"schemaVersion": 1.0, "state": {"schemaVersion": 1.0, "workItems": [], "decisions": []}}
    log, adapter, notices = start(data)
    assert notices == []
    run(adapter, "add a A.")
    assert payloads(log)[0].startswith('{"schemaVersion":1,"state":{"schemaVersion":1,')
    _, _, notices = start({"schemaVersion": 1, "state": {"schemaVersion": True, "workItems": [], "decisions": []}})
    assert notices == [INVALID_WARNING]


def test_pideck_01_persisted_lines_round_trip_through_json():
    log, adapter, _ = start()
    for c in SHOWCASE:
        run(adapter, c)
    assert len(log.appended) == len(SHOWCASE)
    for entry in log.appended:
        # What pi would read back from its log line restores to exactly the persisted state.
        line = compact_json(entry["data"])
        resumed = AgentStateAdapter(MemoryLog().append_custom)
        assert resumed.load([MemoryLog.custom(ENTRY, json.loads(line))]) == []
        assert compact_json({"schemaVersion": 1, "state": resumed.snapshot()}) == line


def test_tool_unexpected_exception_reading_params_is_invalid_input_text():
    class Exploding(dict):
        def __contains__(self, key):
            raise RuntimeError("boom")

        def get(self, key, default=None):
            raise RuntimeError("boom")

    log, adapter, _ = start()
    for name in MUTATING_TOOLS:
        assert adapter.call_tool(name, Exploding()).text == "Agent State: invalid input."
    assert log.appended == []
