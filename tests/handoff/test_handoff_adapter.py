"""Agent Handoff pi adapter: the 13 cases of the upstream agent-handoff-pi suite, driven through
MemoryLog (docs/primitives.md#how-parity-is-tested)."""

import copy
import json

from core.primitives.handoff.adapter import AgentHandoffAdapter
from core.primitives.handoff.mutations import create_packet, remove_packet
from core.primitives.host import Notice
from memory_log import MemoryLog
from core.jsutil import compact_json

ENTRY = "agent-handoff-state"
INVALID_PERSISTED = "Agent Handoff: persisted state was invalid; starting with fresh state."
INVALID_MUTATION = (
    "Agent Handoff: change rejected as invalid; common causes include duplicate ids, empty "
    "identifiers, malformed packets, or unknown top-level keys. State was unchanged."
)
POLICY = (
    "Policy: explicit caller-declared packets only; no automatic generation, no successor "
    "selection, no completion judgment."
)
PRIVACY = (
    "Privacy: all packet fields are caller-controlled and may carry sensitive content; scrub "
    "before transmission. No automatic redaction."
)
EMPTY_GET = "\n".join(
    ["Agent Handoff: 0 packets in the current session.", "Packets: none.", POLICY, PRIVACY]
)
SHOW_1 = {
    "schemaVersion": 1, "id": "show-1", "source": "src", "destination": "dst",
    "goal": "Goal text", "constraints": ["c1"], "openItems": ["o1"], "evidenceReferences": ["e1"],
}


def start(entries=()):
    log = MemoryLog(entries=list(entries))
    adapter = AgentHandoffAdapter(log.append_custom)
    notices = adapter.load(log.branch_entries())
    return log, adapter, notices


def packet(packet_id, **extra):
    return {"schemaVersion": 1, "id": packet_id, "source": "engineer", "goal": "Review PR 42",
            **extra}


def payload(*packets):
    return {"schemaVersion": 1, "packets": list(packets)}


def test_handoff_adapter_01_one_command_three_tools_one_handler():
    assert AgentHandoffAdapter.COMMAND == "agent-handoff"
    assert AgentHandoffAdapter.DESCRIPTION == "Persist and inspect caller-declared handoff packets."
    tools = AgentHandoffAdapter.TOOLS
    assert [t.name for t in tools] == [
        "agent_handoff_get", "agent_handoff_create", "agent_handoff_remove",
    ]
    assert [t.label for t in tools] == [
        "Agent Handoff: get", "Agent Handoff: create", "Agent Handoff: remove",
    ]
    assert compact_json(tools[0].parameters) == (
        '{"type":"object","properties":{},"additionalProperties":false}'
    )
    for tool in tools:
        for phrase in (
            "does not generate packets automatically",
            "summarize context",
            "select successors",
            "judge completion",
            "Evidence/State/Progress/Retry/Context Guard",
        ):
            assert phrase in tool.description
    # The single event handler is session_start, i.e. load(); nothing else reacts to events.
    public = sorted(n for n in vars(AgentHandoffAdapter) if not n.startswith("_"))
    assert public == [
        "COMMAND", "DESCRIPTION", "ENTRY_TYPE", "TOOLS", "call_tool", "command", "load", "packets"
    ]


def test_handoff_adapter_02_namespaces_are_distinct():
    others_commands = {"agent-evidence", "agent-state", "agent-progress", "agent-retry"}
    others_entries = {
        "agent-evidence-state", "agent-state-state", "agent-progress-state", "agent-retry-state",
    }
    assert AgentHandoffAdapter.COMMAND not in others_commands
    assert AgentHandoffAdapter.ENTRY_TYPE not in others_entries
    assert AgentHandoffAdapter.ENTRY_TYPE == "agent-handoff-state"
    assert all(t.name.startswith("agent_handoff_") for t in AgentHandoffAdapter.TOOLS)


def test_handoff_adapter_03_has_no_clear_tool():
    assert "agent_handoff_clear" not in [t.name for t in AgentHandoffAdapter.TOOLS]
    log, adapter, _ = start()
    adapter.call_tool("agent_handoff_create", packet("h1"))
    adapter.call_tool("agent_handoff_clear", {})
    assert len(adapter.packets()) == 1
    assert len(log.appended) == 1


def test_handoff_adapter_04_creates_through_core_validation_and_persists_only_on_change():
    log, adapter, notices = start()
    assert notices == []
    text = adapter.call_tool("agent_handoff_create", packet("h1")).text
    assert text == 'Agent Handoff: created packet "h1"; 1 packet in the current session.'
    assert len(log.appended) == 1
    assert log.appended[0]["customType"] == ENTRY
    assert compact_json(log.appended[0]["data"]) == (
        '{"schemaVersion":1,"packets":[{"schemaVersion":1,"id":"h1","source":"engineer",'
        '"goal":"Review PR 42"}]}'
    )

    text = adapter.call_tool("agent_handoff_create", packet("h1")).text
    assert text == 'Agent Handoff: duplicate packet id "h1"; state was unchanged.'
    assert "duplicate packet id \"h1\"" in text
    for bad in (
        packet("h3", goal=""),
        packet("h3", extra="x"),
        packet("h3", evidenceReferences=["e", "e"]),
    ):
        text = adapter.call_tool("agent_handoff_create", bad).text
        assert "change rejected as invalid" in text
        assert text == INVALID_MUTATION
    assert len(log.appended) == 1

    text = adapter.call_tool("agent_handoff_create", packet("h2", constraints=["same", "same"])).text
    assert 'created packet "h2"' in text
    assert text == 'Agent Handoff: created packet "h2"; 2 packets in the current session.'
    assert len(log.appended) == 2
    assert compact_json(log.appended[1]["data"]) == (
        '{"schemaVersion":1,"packets":['
        '{"schemaVersion":1,"id":"h1","source":"engineer","goal":"Review PR 42"},'
        '{"schemaVersion":1,"id":"h2","source":"engineer","goal":"Review PR 42",'
        '"constraints":["same","same"]}]}'
    )


def test_handoff_adapter_05_removes_via_tool_and_command_with_append_on_change():
    log, adapter, _ = start()
    for packet_id in ("p1", "p2", "p3"):
        adapter.call_tool("agent_handoff_create", packet(packet_id))
    assert len(log.appended) == 3

    text = adapter.call_tool("agent_handoff_remove", {"id": "p1"}).text
    assert text == 'Agent Handoff: removed packet "p1"; 2 packets remain.'
    assert len(log.appended) == 4
    assert [p["id"] for p in log.appended[-1]["data"]["packets"]] == ["p2", "p3"]

    text = adapter.call_tool("agent_handoff_remove", {"id": "missing"}).text
    assert text == 'Agent Handoff: unknown packet "missing"; state was unchanged.'
    assert len(log.appended) == 4

    assert adapter.command("remove p2") == [Notice('Agent Handoff: removed packet "p2".', "info")]
    assert len(log.appended) == 5
    assert adapter.command("remove p2") == [
        Notice('Agent Handoff: unknown packet "p2"; state was unchanged.', "warning")
    ]
    assert len(log.appended) == 5

    text = adapter.call_tool("agent_handoff_remove", {"id": "p3"}).text
    assert text == 'Agent Handoff: removed packet "p3"; 0 packets remain.'
    assert compact_json(log.appended[-1]["data"]) == '{"schemaVersion":1,"packets":[]}'


def test_handoff_adapter_06_human_clear_with_confirmation():
    log, adapter, _ = start()
    adapter.call_tool("agent_handoff_create", packet("h1"))
    assert adapter.command("clear") == [
        Notice(
            "Agent Handoff: clear would remove 1 packet. Run /agent-handoff clear --yes to confirm.",
            "warning",
        )
    ]
    assert len(log.appended) == 1
    assert adapter.command("clear --yes") == [Notice("Agent Handoff: cleared.", "info")]
    assert len(log.appended) == 2
    assert compact_json(log.appended[-1]["data"]) == '{"schemaVersion":1,"packets":[]}'
    for args in ("clear --yes", "clear"):
        assert adapter.command(args) == [
            Notice("Agent Handoff: packets were already clear.", "info")
        ]
    assert len(log.appended) == 2


def test_handoff_adapter_07_status_and_show():
    log, adapter, _ = start()
    adapter.call_tool("agent_handoff_create", SHOW_1)
    detailed = "\n".join([
        "Agent Handoff: 1 packet in the current session.",
        "Packets:",
        "",
        "Packet: show-1",
        "  Source: src",
        "  Destination: dst",
        "  Goal: Goal text",
        "  Constraints:",
        "- c1",
        "  Open items:",
        "- o1",
        "  Evidence references:",
        "- e1",
        "",
        POLICY,
        PRIVACY,
    ])
    assert adapter.call_tool("agent_handoff_get", {}).text == detailed
    summary = "\n".join([
        "Agent Handoff: 1 packet in the current session.",
        "Packets:",
        "- show-1: src -> dst | goal: Goal text",
        POLICY,
        PRIVACY,
    ])
    assert adapter.command("") == [Notice(summary, "info")]
    assert adapter.command("status") == [Notice(summary, "info")]
    [shown] = adapter.command("show show-1")
    assert shown.level == "info"
    for part in ("Packet: show-1", "Source: src", "Destination: dst"):
        assert part in shown.message
    [missing] = adapter.command("show missing")
    assert missing.level == "warning"
    assert 'unknown packet "missing"' in missing.message
    assert len(log.appended) == 1


def test_handoff_adapter_08_restores_latest_entry_and_rejects_malformed_newest():
    valid = MemoryLog.custom(ENTRY, payload(packet("old")))
    malformed = MemoryLog.custom(ENTRY, {"schemaVersion": 1, "packets": [{"id": "broken"}]})
    log, adapter, notices = start([valid, malformed])
    assert notices == [Notice(INVALID_PERSISTED, "warning")]
    assert len(notices) == 1
    assert "persisted state was invalid" in notices[0].message
    text = adapter.call_tool("agent_handoff_get", {}).text
    assert "0 packet" in text
    assert adapter.packets() == []  # no fallback to the older valid entry
    assert log.appended == []

    adapter.call_tool("agent_handoff_create", packet("fresh"))
    assert len(log.appended) == 1
    assert [p["id"] for p in log.appended[0]["data"]["packets"]] == ["fresh"]

    two = MemoryLog.custom(ENTRY, payload(packet("a"), packet("b")))
    _, adapter, notices = start([valid, two])
    assert notices == []
    assert "2 packets" in adapter.call_tool("agent_handoff_get", {}).text
    assert [p["id"] for p in adapter.packets()] == ["a", "b"]


def test_handoff_adapter_09_duplicate_ids_on_restore_are_invalid():
    entry = MemoryLog.custom(ENTRY, payload(packet("dup"), packet("dup", goal="other")))
    log, adapter, notices = start([entry])
    assert notices == [Notice(INVALID_PERSISTED, "warning")]
    assert adapter.packets() == []
    assert log.appended == []


def test_handoff_adapter_10_sessions_isolated_and_unrelated_entries_ignored():
    other = MemoryLog.custom("other-type", payload(packet("foreign")))
    log, adapter, notices = start([other])
    assert notices == []
    assert adapter.call_tool("agent_handoff_get", {}).text == EMPTY_GET

    adapter.call_tool("agent_handoff_create", packet("kept"))
    # A fresh session sees nothing of the first one.
    _, isolated, _ = start()
    assert isolated.packets() == []
    # Resuming the same session (through a JSON round trip, like a reload) keeps the packet.
    resumed_entries = json.loads(compact_json(log.entries))
    resumed_log, resumed, notices = start(resumed_entries)
    assert notices == []
    assert [p["id"] for p in resumed.packets()] == ["kept"]
    assert resumed_log.appended == []


def test_handoff_adapter_11_outer_envelope_is_strict():
    for data in (
        {"schemaVersion": 2, "packets": []},
        {"schemaVersion": 1, "packets": [], "extra": True},
        {"schemaVersion": 1, "packets": {}},
        {"schemaVersion": 1, "packets": "h1"},
    ):
        log, adapter, notices = start([MemoryLog.custom(ENTRY, data)])
        assert notices == [Notice(INVALID_PERSISTED, "warning")], data
        assert adapter.packets() == []
        assert log.appended == []


def test_handoff_adapter_12_packet_validation_is_delegated_to_the_core():
    log, adapter, _ = start()
    assert adapter.call_tool("agent_handoff_create", packet("w", goal=" \t\n")).text == INVALID_MUTATION
    text = adapter.call_tool("agent_handoff_create", packet(" spaced ")).text
    assert text == 'Agent Handoff: created packet " spaced "; 1 packet in the current session.'
    assert adapter.packets()[0]["id"] == " spaced "
    assert (
        adapter.call_tool("agent_handoff_create", packet("c", createdAt="2026-01-01")).text
        == INVALID_MUTATION
    )
    assert len(log.appended) == 1
    # The same delegation applies to each restored packet.
    for bad in (packet("w", goal=" "), packet("c", createdAt="x")):
        _, _, notices = start([MemoryLog.custom(ENTRY, payload(bad))])
        assert notices == [Notice(INVALID_PERSISTED, "warning")]
    _, restored, notices = start([MemoryLog.custom(ENTRY, payload(packet(" spaced ")))])
    assert notices == []
    assert restored.packets()[0]["id"] == " spaced "


def test_handoff_adapter_13_pure_mutations_do_not_alias_input_state():
    state = {"packets": [packet("a"), packet("b", constraints=["x"])]}
    before = copy.deepcopy(state)

    created = create_packet(state, packet("c"))
    assert created.changed and created.reason is None
    assert created.state is not state
    assert created.state["packets"] is not state["packets"]
    assert all(n is not o for n, o in zip(created.state["packets"], state["packets"]))
    assert created.state["packets"][1]["constraints"] is not state["packets"][1]["constraints"]
    created.state["packets"][1]["constraints"].append("mutated")
    assert state == before

    removed = remove_packet(state, "a")
    assert removed.changed
    assert [p["id"] for p in removed.state["packets"]] == ["b"]
    assert removed.state["packets"][0] is not state["packets"][1]
    assert state == before

    assert create_packet(state, packet("a")).reason == "duplicate"
    assert create_packet(state, {"id": "x"}).reason == "invalid"
    assert remove_packet(state, "zzz").reason == "not_found"
    assert remove_packet(state, " ").reason == "invalid"
    assert remove_packet(state, 42).reason == "invalid"
    assert state == before
