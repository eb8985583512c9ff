"""Agent Progress adapter: the upstream suite, the exact texts and pideck's additions
(docs/primitives.md#how-parity-is-tested)."""

from __future__ import annotations

import re

import pytest

from core.primitives.progress.adapter import AgentProgressAdapter
from core.primitives.host import Notice
from memory_log import MemoryLog
from core.jsutil import compact_json

ENTRY = "agent-progress-state"
USAGE = (
    "Agent Progress: Usage: /agent-progress status | add <milestone> | withdraw <milestone>"
    " | judge | clear --yes"
)
INVALID_STATE = "Agent Progress: persisted state was invalid; starting with fresh state."
EMPTY_STATUS = (
    "Agent Progress: 0 declared milestones; baseline not established (0 recorded milestones)."
    "\nDeclared milestones: none."
)
HINT = (
    "Call agent_progress_judge again after the milestone set changes:"
    " this first judgment established the baseline."
)
EMPTY_PAYLOAD = '{"schemaVersion":1,"hasBaseline":false,"currentMilestones":[],"recordedMilestones":[]}'


class Harness:
    """Start the adapter on a branch, then run commands and tools like the upstream harness."""

    def __init__(self, entries=None):
        self.log = MemoryLog(entries=list(entries or []))
        self.adapter = AgentProgressAdapter(self.log.append_custom)
        self.notices: list[Notice] = list(self.adapter.load(self.log.branch_entries()))

    def command(self, args: str) -> Notice:
        emitted = self.adapter.command(args)
        assert len(emitted) == 1
        self.notices += emitted
        return emitted[0]

    def tool(self, name: str, params=None) -> str:
        return self.adapter.call_tool(name, {} if params is None else params).text

    @property
    def appended(self):
        return self.log.appended

    def payloads(self) -> list[str]:
        for entry in self.appended:
            assert entry["type"] == "custom" and entry["customType"] == ENTRY
        return [compact_json(entry["data"]) for entry in self.appended]

    def last_payload(self) -> str:
        return self.payloads()[-1]


def entry(data):
    return MemoryLog.custom(ENTRY, data)


def payload(has_baseline, current, recorded):
    return compact_json({
        "schemaVersion": 1,
        "hasBaseline": has_baseline,
        "currentMilestones": current,
        "recordedMilestones": recorded,
    })


# --- the twelve cases of the upstream agent-progress-pi suite -------------------------------------


def test_progress_adapter_registers_namespace_shows_status_rejects_extra_arguments():
    h = Harness()
    assert AgentProgressAdapter.COMMAND == "agent-progress"
    assert AgentProgressAdapter.DESCRIPTION == "Record and judge caller-declared progress."
    assert h.command("status") == Notice(EMPTY_STATUS, "info")
    assert h.command("status extra") == Notice(USAGE, "warning")
    for args in ("add first second", "withdraw first second", "judge extra"):
        assert h.command(args) == Notice(USAGE, "warning")
    assert h.appended == []


def test_progress_adapter_adds_and_withdraws_without_judgment():
    h = Harness()
    assert h.command("add first") == Notice('Agent Progress: added milestone "first".')
    assert h.payloads() == [payload(False, ["first"], [])]
    assert h.command("add first") == Notice(
        'Agent Progress: milestone "first" is already declared.', "warning"
    )
    assert len(h.appended) == 1
    assert h.command("withdraw unknown") == Notice(
        'Agent Progress: unknown declared milestone "unknown".', "warning"
    )
    assert len(h.appended) == 1
    assert h.command("withdraw first") == Notice('Agent Progress: withdrew milestone "first".')
    assert h.payloads() == [payload(False, ["first"], []), EMPTY_PAYLOAD]
    assert not any(re.search(r"unknown \(|no_progress\.|progress\.", n.message) for n in h.notices)
    assert h.adapter.last_verdict() is None


def test_progress_adapter_clear_requires_confirmation():
    h = Harness()
    h.command("add first")
    assert h.command("clear") == Notice(
        "Agent Progress: clear would remove 1 declared milestone and 0 recorded milestones."
        " Run /agent-progress clear --yes to confirm.",
        "warning",
    )
    assert len(h.appended) == 1
    assert h.command("clear --yes") == Notice("Agent Progress: cleared.")
    assert len(h.appended) == 2
    assert h.last_payload() == EMPTY_PAYLOAD
    assert h.command("clear --yes") == Notice("Agent Progress: state is already empty.")
    assert len(h.appended) == 2


def test_progress_adapter_registers_exactly_four_tools_with_schemas_and_labels():
    tools = AgentProgressAdapter.TOOLS
    assert isinstance(tools, tuple) and len(tools) == 4
    assert [t.name for t in tools] == [
        "agent_progress_get",
        "agent_progress_add_milestone",
        "agent_progress_withdraw_milestone",
        "agent_progress_judge",
    ]
    assert [t.label for t in tools] == [
        "Agent Progress: get",
        "Agent Progress: add milestone",
        "Agent Progress: withdraw milestone",
        "Agent Progress: judge",
    ]
    get, add, withdraw, judge = tools
    empty = '{"type":"object","properties":{},"additionalProperties":false}'
    milestone = (
        '{"type":"object","properties":{"milestone":{"type":"string",'
        '"description":"Caller-supplied opaque milestone identifier."}},'
        '"required":["milestone"],"additionalProperties":false}'
    )
    assert compact_json(get.parameters) == empty
    assert compact_json(judge.parameters) == empty
    assert compact_json(add.parameters) == milestone
    assert compact_json(withdraw.parameters) == milestone
    for tool in tools:
        assert "caller" in tool.description
        assert re.search("infer, verify, or assert", tool.description)
    for phrase in (
        "complete currently declared milestone set",
        "cumulative baseline",
        "strictly grew",
        "does not inspect milestone meaning",
        "verify that a milestone was worth reaching",
    ):
        assert phrase in judge.description


def test_progress_adapter_tool_descriptions_are_verbatim():
    assert [t.description for t in AgentProgressAdapter.TOOLS] == [
        "Read the current caller-declared Agent Progress state as readable text. This reports what"
        " was recorded and does not infer, verify, or assert meaning, truth, progress, evidence, or"
        " completion.",
        "Add one caller-declared opaque milestone to the current Agent Progress set. This tool does"
        " not infer, verify, or assert the milestone meaning, truth, progress, evidence, or"
        " completion.",
        "Withdraw one caller-declared opaque milestone from the current Agent Progress set. This"
        " changes only the declared set and does not infer, verify, or assert the milestone"
        " meaning, truth, progress, evidence, or completion.",
        "Judge the complete currently declared milestone set supplied by the caller against the"
        " cumulative baseline with the Progress core. This reports whether the declared set"
        " strictly grew; it does not inspect milestone meaning or verify that a milestone was worth"
        " reaching, and does not infer, verify, or assert truth, evidence, or completion.",
    ]


def test_progress_adapter_tool_mutations_are_separate_from_judgment():
    h = Harness()
    assert "baseline not established" in h.tool("agent_progress_get")
    assert h.tool("agent_progress_add_milestone", {"milestone": "first"}) == (
        'Agent Progress: added milestone "first".'
    )
    assert h.payloads() == [payload(False, ["first"], [])]
    assert h.tool("agent_progress_add_milestone", {"milestone": "first"}) == (
        'Agent Progress: milestone "first" is already declared.'
    )
    assert h.tool("agent_progress_withdraw_milestone", {"milestone": "missing"}) == (
        'Agent Progress: unknown declared milestone "missing".'
    )
    assert len(h.appended) == 1
    first = h.tool("agent_progress_judge")
    assert "Agent Progress: unknown (missing_baseline)." in first
    assert HINT in first
    assert h.last_payload() == (
        '{"schemaVersion":1,"hasBaseline":true,"currentMilestones":["first"],'
        '"recordedMilestones":["first"]}'
    )
    repeated = h.tool("agent_progress_judge")
    assert "Agent Progress: no_progress." in repeated
    assert "Call agent_progress_judge again after the milestone set changes" not in repeated
    assert len(h.appended) == 2


def test_progress_adapter_establishes_baseline_then_progress_then_no_progress():
    h = Harness()
    h.command("add planned")
    assert "Agent Progress: unknown (missing_baseline)." in h.command("judge").message
    assert h.last_payload() == payload(True, ["planned"], ["planned"])
    h.command("add implemented")
    message = h.command("judge").message
    assert "Agent Progress: progress." in message and "- implemented" in message
    assert h.last_payload() == payload(True, ["planned", "implemented"], ["planned", "implemented"])
    count = len(h.appended)
    assert "Agent Progress: no_progress." in h.command("judge").message
    assert len(h.appended) == count


def test_progress_adapter_progress_with_withdrawal_when_one_replaces_another():
    h = Harness()
    for args in ("add old", "judge", "withdraw old", "add new"):
        h.command(args)
    message = h.command("judge").message
    for part in ("Agent Progress: progress.", "New milestones:", "- new", "Withdrawn milestones:", "- old"):
        assert part in message
    assert h.last_payload() == payload(True, ["new"], ["old", "new"])


def test_progress_adapter_withdrawal_then_redeclaration_is_not_progress():
    h = Harness()
    for args in ("add milestone", "judge", "withdraw milestone"):
        h.command(args)
    count = len(h.appended)
    assert "Agent Progress: no_progress." in h.command("judge").message
    assert len(h.appended) == count
    h.command("add milestone")
    count = len(h.appended)
    assert "Agent Progress: no_progress." in h.command("judge").message
    assert len(h.appended) == count
    assert h.last_payload() == payload(True, ["milestone"], ["milestone"])


def test_progress_adapter_established_empty_baseline_is_real_no_progress():
    h = Harness([entry({"schemaVersion": 1, "hasBaseline": True, "currentMilestones": [], "recordedMilestones": []})])
    assert h.notices == []
    notice = h.command("judge")
    assert notice == Notice(
        "Agent Progress: no_progress.\nNew milestones: none.\nRecorded milestones: none."
    )
    assert "unknown" not in notice.message
    assert h.appended == []


def test_progress_adapter_restores_newest_valid_state_without_appending():
    first = Harness()
    for args in ("add first", "judge", "add second"):
        first.command(args)
    resumed = Harness(first.log.branch_entries())
    assert resumed.notices == [] and resumed.appended == []
    status = resumed.command("status").message
    assert "2 declared milestones" in status
    assert "baseline established (1 recorded milestone)" in status
    assert "- first" in status and "- second" in status
    assert resumed.appended == []

    fresh = Harness()
    status = fresh.command("status").message
    assert "baseline not established" in status and "Declared milestones: none." in status
    assert fresh.appended == []


MALFORMED_PAYLOADS = [
    None,
    {},
    {"schemaVersion": 2, "hasBaseline": False, "currentMilestones": [], "recordedMilestones": []},
    {"schemaVersion": 1, "currentMilestones": [], "recordedMilestones": []},
    {"schemaVersion": 1, "hasBaseline": "false", "currentMilestones": [], "recordedMilestones": []},
    {"schemaVersion": 1, "hasBaseline": False, "currentMilestones": "not-array", "recordedMilestones": []},
    {"schemaVersion": 1, "hasBaseline": False, "currentMilestones": [], "recordedMilestones": ["recorded"]},
    {"schemaVersion": 1, "hasBaseline": False, "currentMilestones": ["duplicate", "duplicate"], "recordedMilestones": []},
    {"schemaVersion": 1, "hasBaseline": True, "currentMilestones": [""], "recordedMilestones": []},
    {"schemaVersion": 1, "hasBaseline": True, "currentMilestones": [], "recordedMilestones": ["duplicate", "duplicate"]},
]


@pytest.mark.parametrize("data", MALFORMED_PAYLOADS, ids=lambda d: compact_json(d))
def test_progress_adapter_warns_and_starts_fresh_for_malformed_newest_entry(data):
    h = Harness([entry(data)])
    assert h.notices == [Notice(INVALID_STATE, "warning")]
    assert h.appended == []
    assert "baseline not established" in h.command("status").message
    assert h.adapter.state() == {"hasBaseline": False, "currentMilestones": [], "recordedMilestones": []}


def test_progress_adapter_newest_invalid_entry_does_not_fall_back():
    valid = {"schemaVersion": 1, "hasBaseline": True, "currentMilestones": ["current"], "recordedMilestones": ["recorded"]}
    h = Harness([entry(valid), entry({"schemaVersion": 1})])
    assert h.notices == [Notice(INVALID_STATE, "warning")]
    assert h.appended == []
    assert h.command("status") == Notice(EMPTY_STATUS)


def test_progress_adapter_names_are_distinct_from_other_adapters():
    assert AgentProgressAdapter.COMMAND == "agent-progress"
    assert AgentProgressAdapter.ENTRY_TYPE == "agent-progress-state"
    names = [t.name for t in AgentProgressAdapter.TOOLS]
    assert not any(name.startswith("agent_state") or name.startswith("agent_handoff") for name in names)
    assert all(name.startswith("agent_progress_") for name in names)


# --- exact adapter texts --------------------------------------------------------------------------


def test_progress_adapter_golden_texts():
    h = Harness()
    h.command("add first")
    assert h.command("judge") == Notice(
        "Agent Progress: unknown (missing_baseline).\n" + HINT + "\nRecorded milestones:\n- first"
    )
    assert h.last_payload() == (
        '{"schemaVersion":1,"hasBaseline":true,"currentMilestones":["first"],"recordedMilestones":["first"]}'
    )
    count = len(h.appended)
    assert h.command("judge") == Notice(
        "Agent Progress: no_progress.\nNew milestones: none.\nRecorded milestones:\n- first"
    )
    assert len(h.appended) == count


def test_progress_adapter_golden_progress_with_withdrawal_text():
    h = Harness()
    for args in ("add old", "judge", "withdraw old", "add new"):
        h.command(args)
    assert h.command("judge") == Notice(
        "Agent Progress: progress.\nNew milestones:\n- new\nWithdrawn milestones:\n- old\n"
        "Recorded milestones:\n- old\n- new"
    )
    assert h.last_payload() == payload(True, ["new"], ["old", "new"])
    assert h.payloads() == [
        payload(False, ["old"], []),
        payload(True, ["old"], ["old"]),
        payload(True, [], ["old"]),
        payload(True, ["new"], ["old"]),
        payload(True, ["new"], ["old", "new"]),
    ]


# --- command parsing details ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "args", ["", "   ", "\n", "\ufeff", "Status", "STATUS", "unknown", "add", "add   ", "withdraw",
             "judge now", "status\u3000x", "add \ufeff", "withdraw \u2028"],
)
def test_progress_adapter_usage_cases(args):
    h = Harness()
    assert h.command(args) == Notice(USAGE, "warning")
    assert h.appended == []


def test_progress_adapter_leading_and_trailing_whitespace_is_ignored_for_tokens():
    h = Harness()
    assert h.command("  \t add   first  \n") == Notice('Agent Progress: added milestone "first".')
    assert h.command("status  \n") == Notice(
        "Agent Progress: 1 declared milestone; baseline not established (0 recorded milestones)."
        "\nDeclared milestones:\n- first"
    )
    assert h.command("\u3000judge\ufeff").message.startswith("Agent Progress: unknown (missing_baseline).")


def test_progress_adapter_add_nel_adds_the_milestone():
    h = Harness()
    assert h.command("add \x85") == Notice('Agent Progress: added milestone "\x85".')
    assert h.last_payload() == payload(False, ["\x85"], [])
    assert h.command("add \x1c") == Notice('Agent Progress: added milestone "\x1c".')


def test_progress_adapter_add_bom_is_usage():
    h = Harness()
    assert h.command("add \ufeff") == Notice(USAGE, "warning")
    assert h.appended == []


@pytest.mark.parametrize("rest", ["", "--YES", "--yes extra", "yes", "-- yes"])
def test_progress_adapter_unconfirmed_clear_warns_even_when_empty(rest):
    h = Harness()
    assert h.command(f"clear {rest}") == Notice(
        "Agent Progress: clear would remove 0 declared milestones and 0 recorded milestones."
        " Run /agent-progress clear --yes to confirm.",
        "warning",
    )
    assert h.appended == []


def test_progress_adapter_clear_counts_and_confirmation_with_whitespace():
    h = Harness()
    for args in ("add a", "add b", "judge", "withdraw b"):
        h.command(args)
    assert h.command("clear").message.startswith(
        "Agent Progress: clear would remove 1 declared milestone and 2 recorded milestones."
    )
    assert h.command("clear   --yes \n") == Notice("Agent Progress: cleared.")
    assert h.last_payload() == EMPTY_PAYLOAD


def test_progress_adapter_established_empty_baseline_is_not_fresh_for_clear():
    h = Harness([entry({"schemaVersion": 1, "hasBaseline": True, "currentMilestones": [], "recordedMilestones": []})])
    assert h.command("clear --yes") == Notice("Agent Progress: cleared.")
    assert h.payloads() == [EMPTY_PAYLOAD]


def test_progress_adapter_status_lists_declared_but_only_counts_recorded():
    h = Harness([entry({"schemaVersion": 1, "hasBaseline": True, "currentMilestones": ["b"], "recordedMilestones": ["a", "b"]})])
    assert h.command("status") == Notice(
        "Agent Progress: 1 declared milestone; baseline established (2 recorded milestones)."
        "\nDeclared milestones:\n- b"
    )


# --- persistence details (docs/primitives.md#restore-rules) ---------------------------------------


def test_progress_adapter_schema_version_float_accepted_and_written_back_as_int():
    h = Harness([entry({"schemaVersion": 1.0, "hasBaseline": False, "currentMilestones": ["a"], "recordedMilestones": []})])
    assert h.notices == []
    h.command("add b")
    assert h.last_payload() == payload(False, ["a", "b"], [])


@pytest.mark.parametrize("version", [True, "1", 1.5, 2, 0, -1, float("nan"), float("inf"), None])
def test_progress_adapter_schema_version_rejected(version):
    h = Harness([entry({"schemaVersion": version, "hasBaseline": False, "currentMilestones": [], "recordedMilestones": []})])
    assert h.notices == [Notice(INVALID_STATE, "warning")]


@pytest.mark.parametrize("raw", [
    {"type": "custom", "customType": ENTRY},  # no data key at all
    entry([]),
    entry("state"),
    entry({"schemaVersion": 1, "hasBaseline": 0, "currentMilestones": [], "recordedMilestones": []}),
    entry({"schemaVersion": 1, "hasBaseline": None, "currentMilestones": [], "recordedMilestones": []}),
    entry({"schemaVersion": 1, "hasBaseline": False, "recordedMilestones": []}),
    entry({"schemaVersion": 1, "hasBaseline": False, "currentMilestones": []}),
    entry({"schemaVersion": 1, "hasBaseline": False, "currentMilestones": ("a",), "recordedMilestones": []}),
    entry({"schemaVersion": 1, "hasBaseline": True, "currentMilestones": [1], "recordedMilestones": []}),
    entry({"schemaVersion": 1, "hasBaseline": True, "currentMilestones": [], "recordedMilestones": ["\ufeff"]}),
], ids=lambda e: compact_json(e))
def test_progress_adapter_more_malformed_entries(raw):
    h = Harness([raw])
    assert h.notices == [Notice(INVALID_STATE, "warning")]
    assert h.appended == []


def test_progress_adapter_load_accepts_extra_envelope_keys_and_non_subset_current():
    data = {"schemaVersion": 1, "hasBaseline": True, "currentMilestones": ["x"], "recordedMilestones": ["y"], "extra": 1}
    h = Harness([entry(data)])
    assert h.notices == []
    assert h.adapter.state() == {"hasBaseline": True, "currentMilestones": ["x"], "recordedMilestones": ["y"]}
    # Written back without the extra key, in payload key order.
    h.command("add z")
    assert h.last_payload() == payload(True, ["x", "z"], ["y"])


def test_progress_adapter_load_uses_newest_matching_entry_and_ignores_other_types():
    older = {"schemaVersion": 1, "hasBaseline": False, "currentMilestones": ["old"], "recordedMilestones": []}
    newer = {"schemaVersion": 1, "hasBaseline": False, "currentMilestones": ["new"], "recordedMilestones": []}
    h = Harness([
        entry(older),
        entry(newer),
        MemoryLog.custom("agent-state-state", {"junk": True}),
        {"type": "custom_message", "customType": ENTRY, "content": "x", "display": True},
    ])
    assert h.notices == []
    assert h.adapter.state()["currentMilestones"] == ["new"]


def test_progress_adapter_reload_replaces_state():
    h = Harness()
    h.command("add a")
    assert h.adapter.load([]) == []
    assert h.adapter.state() == {"hasBaseline": False, "currentMilestones": [], "recordedMilestones": []}
    assert h.adapter.load([entry(None)]) == [Notice(INVALID_STATE, "warning")]
    assert len(h.appended) == 1


def test_progress_adapter_unreadable_branch_warns_and_starts_fresh():
    adapter = AgentProgressAdapter(MemoryLog().append_custom)
    assert adapter.load(["not an entry"]) == [Notice(INVALID_STATE, "warning")]
    assert adapter.state() == {"hasBaseline": False, "currentMilestones": [], "recordedMilestones": []}


def test_progress_adapter_loaded_state_does_not_alias_entry():
    data = {"schemaVersion": 1, "hasBaseline": False, "currentMilestones": ["a"], "recordedMilestones": []}
    h = Harness([entry(data)])
    data["currentMilestones"].append("mutated")
    assert h.adapter.state()["currentMilestones"] == ["a"]


def test_progress_adapter_appended_payloads_are_fresh_copies():
    captured = []
    adapter = AgentProgressAdapter(lambda custom_type, data: captured.append((custom_type, data)))
    adapter.load([])
    adapter.command("add a")
    adapter.command("judge")
    (_, first), (_, second) = captured
    assert first is not second
    assert first["currentMilestones"] is not second["currentMilestones"]
    first["currentMilestones"].append("mutated")
    second["recordedMilestones"].append("mutated")
    assert adapter.state() == {"hasBaseline": True, "currentMilestones": ["a"], "recordedMilestones": ["a"]}
    adapter.command("add b")
    assert compact_json(captured[-1][1]) == payload(True, ["a", "b"], ["a"])


# --- tools: params (docs/primitives.md#tool-params-that-are-not-dicts) ----------------------------


@pytest.mark.parametrize("name", ["agent_progress_add_milestone", "agent_progress_withdraw_milestone"])
def test_progress_adapter_tool_params_none_is_invalid_input(name):
    h = Harness()
    assert h.adapter.call_tool(name, None).text == "Agent Progress: invalid input."
    assert h.appended == []


@pytest.mark.parametrize("name", ["agent_progress_add_milestone", "agent_progress_withdraw_milestone"])
@pytest.mark.parametrize("params", [[], ["a"], "milestone", 3, 2.5, True, False, {}, {"milestone": None},
                                    {"milestone": 1}, {"milestone": ""}, {"milestone": " \n"},
                                    {"milestone": "\ufeff"}, {"milestone": ["a"]}, {"other": "a"}],
                         ids=repr)
def test_progress_adapter_tool_invalid_milestone(name, params):
    h = Harness()
    assert h.adapter.call_tool(name, params).text == "Agent Progress: invalid milestone."
    assert h.appended == []


@pytest.mark.parametrize("params", [None, [], "x", 1, {"milestone": "m"}, {"anything": 1}], ids=repr)
def test_progress_adapter_get_and_judge_ignore_params(params):
    h = Harness()
    assert h.adapter.call_tool("agent_progress_get", params).text == EMPTY_STATUS
    assert h.adapter.call_tool("agent_progress_judge", params).text == (
        "Agent Progress: unknown (missing_baseline).\n" + HINT + "\nRecorded milestones: none."
    )
    assert h.payloads() == [payload(True, [], [])]


def test_progress_adapter_tool_ids_are_verbatim_and_may_contain_spaces():
    h = Harness()
    assert h.tool("agent_progress_add_milestone", {"milestone": " two words "}) == (
        'Agent Progress: added milestone " two words ".'
    )
    assert h.tool("agent_progress_add_milestone", {"milestone": "two words"}) == (
        'Agent Progress: added milestone "two words".'
    )
    assert h.tool("agent_progress_withdraw_milestone", {"milestone": " two words "}) == (
        'Agent Progress: withdrew milestone " two words ".'
    )
    assert h.last_payload() == payload(False, ["two words"], [])
    assert h.tool("agent_progress_get") == (
        "Agent Progress: 1 declared milestone; baseline not established (0 recorded milestones)."
        "\nDeclared milestones:\n- two words"
    )


def test_progress_adapter_tool_extra_params_are_ignored():
    h = Harness()
    assert h.tool("agent_progress_add_milestone", {"milestone": "a", "extra": 1}) == (
        'Agent Progress: added milestone "a".'
    )


def test_progress_adapter_unknown_tool_is_text_not_raised():
    h = Harness()
    assert h.adapter.call_tool("agent_state_get", {}).text == 'Agent Progress: unknown tool "agent_state_get".'
    assert h.appended == []


def test_progress_adapter_core_error_in_judge_is_formatted():
    """A state that bypassed validation makes the core raise; command warns, tool returns text."""
    h = Harness()
    h.adapter._controller.state = {"hasBaseline": True, "currentMilestones": ["a", "a"], "recordedMilestones": []}
    assert h.command("judge") == Notice("Agent Progress: duplicate milestone.", "warning")
    assert h.adapter.call_tool("agent_progress_judge", {}).text == "Agent Progress: duplicate milestone."
    h.adapter._controller.state = {"hasBaseline": True, "currentMilestones": [""], "recordedMilestones": []}
    assert h.command("judge") == Notice("Agent Progress: invalid progress input.", "warning")
    assert h.appended == []
    assert h.adapter.last_verdict() is None


# --- TUI accessors --------------------------------------------------------------------------------


def test_progress_adapter_state_accessor_returns_fresh_copies():
    h = Harness()
    h.command("add a")
    state = h.adapter.state()
    assert list(state) == ["hasBaseline", "currentMilestones", "recordedMilestones"]
    state["currentMilestones"].append("mutated")
    assert h.adapter.state()["currentMilestones"] == ["a"]
    assert h.adapter.state() is not h.adapter.state()


def test_progress_adapter_last_verdict_tracks_latest_judge():
    h = Harness()
    assert h.adapter.last_verdict() is None
    h.command("add old")
    h.command("judge")
    assert compact_json(h.adapter.last_verdict()) == (
        '{"outcome":"unknown","reason":"missing_baseline","recordedMilestones":["old"]}'
    )
    h.command("withdraw old")
    h.command("add new")
    h.tool("agent_progress_judge")
    verdict = h.adapter.last_verdict()
    assert compact_json(verdict) == (
        '{"outcome":"progress","newMilestones":["new"],"withdrawnMilestones":["old"],'
        '"recordedMilestones":["old","new"]}'
    )
    verdict["newMilestones"].append("mutated")
    assert h.adapter.last_verdict()["newMilestones"] == ["new"]
    # Reads and mutations other than judge leave it alone.
    h.command("status")
    h.command("add more")
    assert h.adapter.last_verdict()["newMilestones"] == ["new"]
