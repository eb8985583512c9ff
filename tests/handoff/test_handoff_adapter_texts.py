"""Agent Handoff adapter: verbatim names and texts (docs/primitives.md#adapter-texts-are-verbatim), the
command table, non-dict params and restore details."""

import pytest

from core.primitives.handoff.adapter import AgentHandoffAdapter
from core.primitives.handoff.mutations import clear_state, remove_packet
from core.primitives.host import Notice
from memory_log import MemoryLog
from core.jsutil import compact_json

ENTRY = "agent-handoff-state"
USAGE = Notice(
    "Agent Handoff: Usage: /agent-handoff status | show <id> | remove <id> | clear --yes", "warning"
)
INVALID_MUTATION = (
    "Agent Handoff: change rejected as invalid; common causes include duplicate ids, empty "
    "identifiers, malformed packets, or unknown top-level keys. State was unchanged."
)
INVALID_PERSISTED = Notice(
    "Agent Handoff: persisted state was invalid; starting with fresh state.", "warning"
)
POLICY = (
    "Policy: explicit caller-declared packets only; no automatic generation, no successor "
    "selection, no completion judgment."
)
PRIVACY = (
    "Privacy: all packet fields are caller-controlled and may carry sensitive content; scrub "
    "before transmission. No automatic redaction."
)
SHOW_1_JSON = (
    '{"schemaVersion":1,"id":"show-1","source":"src","destination":"dst","goal":"Goal text",'
    '"constraints":["c1"],"openItems":["o1"],"evidenceReferences":["e1"]}'
)


def start(entries=()):
    log = MemoryLog(entries=list(entries))
    adapter = AgentHandoffAdapter(log.append_custom)
    assert adapter.load(log.branch_entries()) == [] or entries
    return log, adapter


def packet(packet_id, **extra):
    return {"schemaVersion": 1, "id": packet_id, "source": "s", "goal": "g", **extra}


def with_packets(*ids):
    log, adapter = start()
    for packet_id in ids:
        adapter.call_tool("agent_handoff_create", packet(packet_id))
    return log, adapter


# --- names, descriptions and schemas, byte for byte -----------------------------------------------


def test_handoff_tool_descriptions_verbatim():
    get, create, remove = AgentHandoffAdapter.TOOLS
    assert get.description == (
        "Read the current caller-declared handoff packets as readable text. This reports what was "
        "recorded and asserts nothing about completion, truth, or readiness. It does not generate "
        "packets automatically, summarize context, select successors, judge completion, or call "
        "Evidence/State/Progress/Retry/Context Guard."
    )
    assert create.description == (
        "Create one caller-declared handoff packet after validation by the core createHandoff "
        "function. The packet is persisted only when validation and packet-id uniqueness succeed. "
        "This tool does not generate packets automatically, summarize context, select successors, "
        "judge completion, or call Evidence/State/Progress/Retry/Context Guard."
    )
    assert remove.description == (
        "Remove one caller-declared handoff packet by identifier. This tool does not generate "
        "packets automatically, summarize context, select successors, judge completion, or call "
        "Evidence/State/Progress/Retry/Context Guard."
    )


def test_handoff_tool_schemas_verbatim_in_upstream_key_order():
    get, create, remove = AgentHandoffAdapter.TOOLS
    assert compact_json(get.parameters) == (
        '{"type":"object","properties":{},"additionalProperties":false}'
    )
    assert compact_json(create.parameters) == (
        '{"type":"object",'
        '"properties":{'
        '"schemaVersion":{"type":"integer","const":1,"description":"Required schema version; must be 1."},'
        '"id":{"type":"string","description":"Caller-supplied packet identifier, preserved exactly."},'
        '"source":{"type":"string","description":"Caller-supplied source identifier, preserved exactly."},'
        '"destination":{"type":"string","description":"Optional destination identifier, preserved exactly."},'
        '"goal":{"type":"string","description":"Caller-supplied goal prose, preserved exactly."},'
        '"constraints":{"type":"array","items":{"type":"string"},"description":"Optional caller-supplied prose restrictions; duplicates allowed."},'
        '"openItems":{"type":"array","items":{"type":"string"},"description":"Optional caller-supplied open items prose; duplicates allowed."},'
        '"evidenceReferences":{"type":"array","items":{"type":"string"},"description":"Optional caller-supplied opaque evidence references; exact duplicates are rejected."}},'
        '"required":["schemaVersion","id","source","goal"],'
        '"additionalProperties":false}'
    )
    assert compact_json(remove.parameters) == (
        '{"type":"object",'
        '"properties":{"id":{"type":"string","description":"Caller-supplied packet identifier to remove."}},'
        '"required":["id"],'
        '"additionalProperties":false}'
    )


def test_handoff_adapter_class_attributes():
    assert AgentHandoffAdapter.COMMAND == "agent-handoff"
    assert AgentHandoffAdapter.ENTRY_TYPE == "agent-handoff-state"
    assert isinstance(AgentHandoffAdapter.TOOLS, tuple)
    assert len(AgentHandoffAdapter.TOOLS) == 3


# --- golden texts ---------------------------------------------------------------------------------


def test_handoff_golden_status_after_creating_show_1():
    import json

    _, adapter = start()
    adapter.call_tool("agent_handoff_create", json.loads(SHOW_1_JSON))
    expected = (
        "Agent Handoff: 1 packet in the current session.\n"
        "Packets:\n"
        "- show-1: src -> dst | goal: Goal text\n"
        "Policy: explicit caller-declared packets only; no automatic generation, no successor "
        "selection, no completion judgment.\n"
        "Privacy: all packet fields are caller-controlled and may carry sensitive content; scrub "
        "before transmission. No automatic redaction."
    )
    assert adapter.command("") == [Notice(expected, "info")]
    assert adapter.command("status") == [Notice(expected, "info")]


def test_handoff_golden_get_after_creating_show_1():
    import json

    log, adapter = start()
    adapter.call_tool("agent_handoff_create", json.loads(SHOW_1_JSON))
    assert compact_json(log.appended[0]["data"]) == (
        '{"schemaVersion":1,"packets":[' + SHOW_1_JSON + "]}"
    )
    assert adapter.call_tool("agent_handoff_get", {}).text == (
        "Agent Handoff: 1 packet in the current session.\n"
        "Packets:\n"
        "\n"
        "Packet: show-1\n"
        "  Source: src\n"
        "  Destination: dst\n"
        "  Goal: Goal text\n"
        "  Constraints:\n"
        "- c1\n"
        "  Open items:\n"
        "- o1\n"
        "  Evidence references:\n"
        "- e1\n"
        "\n"
        "Policy: explicit caller-declared packets only; no automatic generation, no successor "
        "selection, no completion judgment.\n"
        "Privacy: all packet fields are caller-controlled and may carry sensitive content; scrub "
        "before transmission. No automatic redaction."
    )


def test_handoff_golden_get_empty_registry():
    _, adapter = start()
    expected = (
        "Agent Handoff: 0 packets in the current session.\n"
        "Packets: none.\n"
        "Policy: explicit caller-declared packets only; no automatic generation, no successor "
        "selection, no completion judgment.\n"
        "Privacy: all packet fields are caller-controlled and may carry sensitive content; scrub "
        "before transmission. No automatic redaction."
    )
    assert adapter.call_tool("agent_handoff_get", {}).text == expected
    assert adapter.command("status") == [Notice(expected, "info")]


def test_handoff_show_minimal_packet_prints_none_for_absent_and_empty_lists():
    _, adapter = start()
    adapter.call_tool("agent_handoff_create", packet("m", constraints=[]))
    assert adapter.command("show m") == [
        Notice(
            "Packet: m\n"
            "  Source: s\n"
            "  Destination: none\n"
            "  Goal: g\n"
            "  Constraints: none.\n"
            "  Open items: none.\n"
            "  Evidence references: none.",
            "info",
        )
    ]


def test_handoff_detailed_get_with_two_packets():
    _, adapter = with_packets("a", "b")
    block = "Packet: {}\n  Source: s\n  Destination: none\n  Goal: g\n  Constraints: none.\n" \
        "  Open items: none.\n  Evidence references: none."
    assert adapter.call_tool("agent_handoff_get", None).text == "\n".join([
        "Agent Handoff: 2 packets in the current session.",
        "Packets:",
        "",
        block.format("a"),
        "",
        block.format("b"),
        "",
        POLICY,
        PRIVACY,
    ])
    assert adapter.command("status")[0].message == "\n".join([
        "Agent Handoff: 2 packets in the current session.",
        "Packets:",
        "- a: s | goal: g",
        "- b: s | goal: g",
        POLICY,
        PRIVACY,
    ])


# --- the /agent-handoff command table -------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    ["status x", "show", "show  ", "show a b", "remove", "remove a b", "create x", "STATUS",
     "Show a", "help", "clearx", "--yes"],
)
def test_handoff_command_usage(args):
    log, adapter = with_packets("a")
    assert adapter.command(args) == [USAGE]
    assert len(log.appended) == 1


@pytest.mark.parametrize("args", ["", "   ", "\n", "\ufeff\u3000", "status", "  status  \n"])
def test_handoff_command_blank_and_status_give_the_summary(args):
    _, adapter = with_packets("a")
    [notice] = adapter.command(args)
    assert notice.level == "info"
    assert notice.message.startswith("Agent Handoff: 1 packet in the current session.\nPackets:\n")


def test_handoff_command_show_trims_its_single_argument():
    _, adapter = with_packets("a")
    [notice] = adapter.command("show   a  \n")
    assert notice.level == "info"
    assert notice.message.startswith("Packet: a\n")


def test_handoff_command_clear_unconfirmed_variants():
    log, adapter = with_packets("a", "b")
    warning = Notice(
        "Agent Handoff: clear would remove 2 packets. Run /agent-handoff clear --yes to confirm.",
        "warning",
    )
    for args in ("clear", "clear --YES", "clear --yes extra", "clear yes", "clear -y"):
        assert adapter.command(args) == [warning]
    assert len(log.appended) == 2
    assert adapter.command("  clear   --yes \n") == [Notice("Agent Handoff: cleared.", "info")]
    assert len(log.appended) == 3
    assert adapter.packets() == []


def test_handoff_unused_clear_message_is_never_emitted():
    unused = (
        "Agent Handoff: clear requires confirmation; run /agent-handoff clear --yes to wipe all "
        "handoff packets."
    )
    _, adapter = with_packets("a")
    texts = [n.message for args in ("clear", "clear x", "clear --yes", "clear") for n in
             adapter.command(args)]
    assert unused not in texts


def test_handoff_command_remove_stores_trimmed_id_and_exact_match():
    log, adapter = start()
    adapter.call_tool("agent_handoff_create", packet(" spaced "))
    # The command argument is trimmed, so a spaced id can only be removed by the tool.
    assert adapter.command("remove  spaced ") == [
        Notice('Agent Handoff: unknown packet "spaced"; state was unchanged.', "warning")
    ]
    assert adapter.call_tool("agent_handoff_remove", {"id": " spaced "}).text == (
        'Agent Handoff: removed packet " spaced "; 0 packets remain.'
    )
    assert len(log.appended) == 2


def test_handoff_tool_remove_grammar_one_packet_remain():
    _, adapter = with_packets("a", "b")
    assert adapter.call_tool("agent_handoff_remove", {"id": "a"}).text == (
        'Agent Handoff: removed packet "a"; 1 packet remain.'
    )


# --- non-dict params ------------------------------------------------------------------------------


@pytest.mark.parametrize("params", [None, [], ["x"], "h1", 0, 1, 1.5, True, False, ()], ids=repr)
def test_handoff_non_dict_params(params):
    log, adapter = with_packets("a")
    assert adapter.call_tool("agent_handoff_create", params).text == INVALID_MUTATION
    assert adapter.call_tool("agent_handoff_remove", params).text == INVALID_MUTATION
    assert adapter.call_tool("agent_handoff_get", params).text.startswith(
        "Agent Handoff: 1 packet in the current session."
    )
    assert len(log.appended) == 1


@pytest.mark.parametrize("params", [{}, {"id": None}, {"id": 42}, {"id": ""}, {"id": " \t"},
                                    {"id": "\ufeff"}, {"id": ["a"]}], ids=repr)
def test_handoff_remove_invalid_ids(params):
    log, adapter = with_packets("a")
    assert adapter.call_tool("agent_handoff_remove", params).text == INVALID_MUTATION
    assert len(log.appended) == 1


def test_handoff_remove_ignores_extra_params_keys():
    _, adapter = with_packets("a")
    assert adapter.call_tool("agent_handoff_remove", {"id": "a", "extra": 1}).text == (
        'Agent Handoff: removed packet "a"; 0 packets remain.'
    )


# --- restore details ------------------------------------------------------------------------------


def test_handoff_envelope_schema_version_float_one_accepted_and_written_back_as_int():
    entry = MemoryLog.custom(ENTRY, {"packets": [packet("a", schemaVersion=1.0)],
                                     "schemaVersion": 1.0})
    log, adapter = start([entry])
    assert [p["id"] for p in adapter.packets()] == ["a"]
    adapter.call_tool("agent_handoff_create", packet("b"))
    assert compact_json(log.appended[0]["data"]) == (
        '{"schemaVersion":1,"packets":[{"schemaVersion":1,"id":"a","source":"s","goal":"g"},'
        '{"schemaVersion":1,"id":"b","source":"s","goal":"g"}]}'
    )


@pytest.mark.parametrize(
    "data",
    [
        {"schemaVersion": True, "packets": []},
        {"schemaVersion": "1", "packets": []},
        {"schemaVersion": None, "packets": []},
        {"packets": []},
        {"schemaVersion": 1},
        {"schemaVersion": 1, "packets": None},
        {"schemaVersion": 1, "packets": ()},
        {"schemaVersion": 1, "packets": [packet("a", schemaVersion=True)]},
        {"schemaVersion": 1, "packets": [None]},
        {"schemaVersion": 1, "packets": [packet("a"), "b"]},
        [],
        None,
        "x",
        {},
    ],
    ids=repr,
)
def test_handoff_restore_rejects_invalid_envelopes(data):
    older = MemoryLog.custom(ENTRY, {"schemaVersion": 1, "packets": [packet("old")]})
    log = MemoryLog(entries=[older, MemoryLog.custom(ENTRY, data)])
    adapter = AgentHandoffAdapter(log.append_custom)
    assert adapter.load(log.branch_entries()) == [INVALID_PERSISTED]
    assert adapter.packets() == []
    assert log.appended == []


def test_handoff_restore_entry_without_data_is_invalid():
    log = MemoryLog(entries=[{"type": "custom", "customType": ENTRY}])
    adapter = AgentHandoffAdapter(log.append_custom)
    assert adapter.load(log.branch_entries()) == [INVALID_PERSISTED]


def test_handoff_restore_empty_packets_is_valid_and_custom_messages_are_ignored():
    entries = [
        MemoryLog.custom(ENTRY, {"schemaVersion": 1, "packets": [packet("old")]}),
        MemoryLog.custom(ENTRY, {"schemaVersion": 1, "packets": []}),
        {"type": "custom_message", "customType": ENTRY, "content": "x", "display": True},
        MemoryLog.custom("agent-state-state", {"schemaVersion": 1}),
    ]
    log = MemoryLog(entries=entries)
    adapter = AgentHandoffAdapter(log.append_custom)
    assert adapter.load(log.branch_entries()) == []
    assert adapter.packets() == []


def test_handoff_load_replaces_previous_state():
    log, adapter = with_packets("a")
    assert adapter.load([]) == []
    assert adapter.packets() == []
    assert adapter.load(log.branch_entries()) == []
    assert [p["id"] for p in adapter.packets()] == ["a"]
    assert len(log.appended) == 1


def test_handoff_restored_packets_do_not_alias_the_entry():
    data = {"schemaVersion": 1, "packets": [packet("a", constraints=["c"])]}
    log = MemoryLog(entries=[MemoryLog.custom(ENTRY, data)])
    adapter = AgentHandoffAdapter(log.append_custom)
    adapter.load(log.branch_entries())
    data["packets"][0]["constraints"].append("later")
    data["packets"].append(packet("b"))
    assert adapter.packets() == [packet("a", constraints=["c"])]


def test_handoff_appended_payloads_are_fresh_copies():
    received = []

    def append_custom(custom_type, data):  # keeps the object as is, unlike MemoryLog
        received.append((custom_type, data))

    adapter = AgentHandoffAdapter(append_custom)
    adapter.load([])
    params = packet("a", openItems=["o"])
    adapter.call_tool("agent_handoff_create", params)
    adapter.call_tool("agent_handoff_create", packet("b"))
    first = received[0][1]
    first["packets"][0]["openItems"].append("mutated")
    first["packets"].clear()
    params["openItems"].append("mutated")
    assert received[1][1]["packets"][0]["openItems"] == ["o"]
    assert adapter.packets()[0]["openItems"] == ["o"]
    assert received[1][1] is not received[0][1]


def test_handoff_packets_accessor_returns_copies():
    _, adapter = with_packets("a")
    copy_one = adapter.packets()
    copy_one[0]["id"] = "changed"
    copy_one.append("junk")
    assert [p["id"] for p in adapter.packets()] == ["a"]


def test_handoff_failed_append_reports_and_keeps_state():
    def failing(custom_type, data):
        raise OSError("disk full")

    adapter = AgentHandoffAdapter(failing)
    adapter.load([])
    # The host's failure is not an input error: it reaches the host (see test_handoff_refused_append.py).
    with pytest.raises(OSError):
        adapter.call_tool("agent_handoff_create", packet("a"))
    assert adapter.packets() == []
    assert adapter.command("remove a") == [
        Notice('Agent Handoff: unknown packet "a"; state was unchanged.', "warning")
    ]


def test_handoff_command_exception_becomes_formatter_warning():
    adapter = AgentHandoffAdapter(lambda *_: None)
    adapter.load([])
    assert adapter.command(None) == [Notice("Agent Handoff: invalid handoff input.", "warning")]


def test_handoff_unknown_tool_is_text_not_an_exception():
    _, adapter = start()
    assert isinstance(adapter.call_tool("agent_handoff_clear", {}).text, str)


def test_handoff_js_whitespace_in_command_parsing():
    _, adapter = with_packets("\x85")
    # U+0085 is not JS whitespace: it is an id, not a blank argument.
    assert adapter.command("show \x85")[0].message.startswith("Packet: \x85\n")
    # U+FEFF and U+3000 are JS whitespace: the argument is blank.
    assert adapter.command("show \ufeff") == [USAGE]
    assert adapter.command("show\u3000\x85\u3000")[0].level == "info"


def test_handoff_remove_packet_removes_only_the_first_match():
    state = {"packets": [packet("a", goal="first"), packet("a", goal="second")]}
    result = remove_packet(state, "a")
    assert [p["goal"] for p in result.state["packets"]] == ["second"]


def test_handoff_clear_state_is_pure():
    state = {"packets": [packet("a")]}
    result = clear_state(state)
    assert result.changed and result.state == {"packets": []}
    assert state == {"packets": [packet("a")]}
    assert clear_state({"packets": []}).reason == "no_change"
