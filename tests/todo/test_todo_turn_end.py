"""Suite B: the turn-end machine driven through TodoAdapter on a clocked MemoryLog."""

from __future__ import annotations

from todo_helpers import GOOD_GOAL, GOOD_PLAN, item, kinds, make, user

from core.primitives.todo import constants as c
from core.primitives.todo.followups import build_gate_digest, completion_text
from core.primitives.todo.gate_checks import confidence_summary, spike_completed
from core.primitives.todo.model import TodoGoal, TodoItem, TodoPlan
from core.primitives.todo.observations import Observation


def complete(adapter, cc, id="a", conf=90, **extra):
    params = {"todos": [item(id, "completed", conf, completion_confidence=cc, **extra)],
              "goals": [GOOD_GOAL]}
    result = adapter.run_tool("todo", params)
    assert result.outcome == "accepted", result.text
    return result


def started(**config):
    """An armed adapter with one open item and no weak observations."""
    adapter, log, clock = make(**config)
    adapter.call_tool("todo", {"todos": [item("a", conf=90)], "plan": GOOD_PLAN, "goals": [GOOD_GOAL]})
    assert adapter.observations == []
    return adapter, log, clock


def test_B01_settle_with_open_items_pokes():
    adapter, log, _ = started()
    text, notice = adapter.settle()
    assert text == "You have 1 incomplete todo. Continue working, or update the todo tool."
    assert notice.message == "👉 1 incomplete todo. We poked it for you. /todos poke off to stop."
    last = log.appended[-1]
    assert last["type"] == "custom_message" and last["customType"] == "pi-jtodo/followup"
    assert last["content"] == text and last["display"] is True
    assert last["details"] == {"kind": "poke", "ids": ["a"]}
    assert list(last["details"]) == ["kind", "ids"]
    adapter.call_tool("todo", {"todos": [item("a"), item("b", "in_progress")]})
    text, notice = adapter.settle()
    assert text == "You have 2 incomplete todos. Continue working, or update the todo tool."
    assert notice.message == "👉 2 incomplete todos. We poked it for you. /todos poke off to stop."
    assert log.appended[-1]["details"]["ids"] == ["a", "b"]


def test_B02_a_poke_resets_the_attempts():
    adapter, log, _ = started()
    complete(adapter, 50)
    assert adapter.settle()[1].message == c.NOTICE_COMPLETION_CHALLENGED
    complete(adapter, 51)
    assert adapter.settle()[1].message == c.NOTICE_COMPLETION_CHALLENGED
    assert adapter.cycle.attempts == 2
    adapter.call_tool("todo", {"todos": [item("a", "in_progress", 90)]})
    text, _ = adapter.settle()
    assert text.startswith("You have 1 incomplete todo.")
    assert adapter.cycle.attempts == 0 and adapter.cycle.last_signature is None
    for cc in (60 + 1, 62, 63, 64, 65):
        complete(adapter, cc)
        assert adapter.settle()[1].message == c.NOTICE_COMPLETION_CHALLENGED
    complete(adapter, 66)
    assert adapter.settle() == (None, _stalled())
    assert log.appended[-1]["data"] == {"armed": False, "reason": "stalled"}


def _stalled():
    from core.primitives.host import Notice
    return Notice(c.NOTICE_GATE_STALLED, "warning")


def test_B03_digest_once_per_cycle_before_the_gates_and_again_after_rearm():
    adapter, log, _ = make()
    adapter.call_tool("todo", {"todos": [item("a", conf=90)],
                               "plan": {"user_intention": "x", "understands_user_intent": 80},
                               "goals": [GOOD_GOAL]}).text
    assert len(adapter.observations) == 1
    complete(adapter, 90)
    text, notice = adapter.settle()
    assert text.startswith(c.DIGEST_PREFIX) and notice.message == c.NOTICE_DIGEST_QUEUED
    assert adapter.observations == [] and adapter.cycle.digest_delivered
    text, notice = adapter.settle()
    assert text.startswith(c.COMPLETION_CONTINUATION)
    complete(adapter, 97)
    assert adapter.settle() == (None, _done("97%"))
    assert log.appended[-1]["data"] == {"armed": False, "reason": "passed"}
    assert not adapter.cycle.digest_delivered
    adapter.call_tool("todo", {"todos": [item("b", conf=90)]})
    assert kinds(log)[-2:] == ["state", "cycle:on:new_work"]
    complete(adapter, 98, id="b")
    text, _ = adapter.settle()
    assert text.startswith(c.DIGEST_PREFIX)


def _done(label):
    from core.primitives.host import Notice
    return Notice(c.NOTICE_DONE.format(label=label))


def test_B04_digest_wordings():
    intent = [Observation("intent_understanding", None, 70)]
    open_plan, cleared_plan = TodoPlan(understands_user_intent=70), TodoPlan(understands_user_intent=97)
    assert f"\n- {c.DIGEST_INTENT_OPEN}\n" in build_gate_digest(intent, open_plan, [])
    assert f"\n- {c.DIGEST_INTENT_CLEARED}\n" in build_gate_digest(intent, cleared_plan, [])
    loop = [Observation("closed_feedback_loop", "speed", 50)]
    text = build_gate_digest(loop, TodoPlan(), [TodoGoal(group="speed", closed_feedback_loop=50)])
    assert '- the goal for "speed" never closed its feedback loop: no observation' in text
    text = build_gate_digest(loop, TodoPlan(), [TodoGoal(group="speed", closed_feedback_loop=99)])
    assert '- the goal for "speed" was worked on before its feedback loop was closed' in text
    ungrouped = [Observation("closed_feedback_loop", None, None)]
    text = build_gate_digest(ungrouped, TodoPlan(), [])
    assert "- the goal never closed its feedback loop" in text
    assert text.endswith("\n" + c.DIGEST_FOOTER)


def test_B05_repeats_collapse():
    nine = [Observation("closed_feedback_loop", "g", 50)] * 9
    text = build_gate_digest(nine, TodoPlan(), [])
    assert text.count("\n- ") == 1
    assert text.split("\n")[1].endswith(" (flagged 9 times this turn)")
    two = nine[:2] + [Observation("closed_feedback_loop", "h", 50)]
    lines = build_gate_digest(two, TodoPlan(), []).split("\n")
    assert lines[1].endswith("(flagged 2 times this turn)") and "flagged" not in lines[2]


def test_B06_completion_challenge_names_ids():
    adapter, log, _ = make()
    adapter.call_tool("todo", {"todos": [item("parse", conf=90)], "plan": GOOD_PLAN, "goals": [GOOD_GOAL]})
    adapter.call_tool("todo", {"todos": [item("parse", "completed", 90)], "goals": [GOOD_GOAL]})
    text, notice = adapter.settle()
    assert text == c.COMPLETION_CONTINUATION + "\n- No completion_confidence was recorded for: #parse."
    assert notice.message == c.NOTICE_COMPLETION_CHALLENGED
    assert log.appended[-1]["details"] == {"kind": "completion", "ids": ["parse"]}
    weak = [TodoItem(content="x", status="completed", priority="high", id="cli",
                     confidence=90, completion_confidence=70, confidence_history=[90, 70])]
    assert completion_text(confidence_summary(weak)).endswith(
        "\n- The recorded completion_confidence is not strong enough for: #cli.")
    eight = [TodoItem(content="x", status="completed", priority="low", id=i, confidence=90)
             for i in "abcdefgh"]
    assert completion_text(confidence_summary(eight)).endswith(
        "\n- No completion_confidence was recorded for: #a, #b, #c, #d, #e, #f (and 2 more).")
    both = weak + eight[:1]
    assert completion_text(confidence_summary(both)) == (
        c.COMPLETION_CONTINUATION
        + "\n- No completion_confidence was recorded for: #a."
        + "\n- The recorded completion_confidence is not strong enough for: #cli."
    )


def test_B07_all_cancelled_gets_the_taken_together_line():
    adapter, log, _ = started()
    adapter.call_tool("todo", {"todos": [item("a", "cancelled", 90)]})
    text, notice = adapter.settle()
    assert text == c.COMPLETION_CONTINUATION + "\n" + c.COMPLETION_TAKEN_TOGETHER
    assert log.appended[-1]["details"] == {"kind": "completion", "ids": []}


def test_B08_spike_at_the_boundary_once_per_cycle_and_legacy():
    adapter, log, _ = make()
    adapter.call_tool("todo", {"todos": [item("a", conf=85)], "plan": GOOD_PLAN, "goals": [GOOD_GOAL]})
    complete(adapter, 100, conf=85)
    assert adapter.todos[0].confidence_history == [85, 100]
    text, notice = adapter.settle()
    assert text == c.SPIKE_CONTINUATION + "\n- Recheck the confidence jump on: #a."
    assert notice.message == c.NOTICE_SPIKE_CHALLENGED
    assert log.appended[-1]["details"] == {"kind": "spike", "ids": ["a"]}
    assert adapter.settle()[1] == _done("100%")
    legacy = TodoItem(content="x", status="completed", priority="high", id="l",
                      confidence=80, completion_confidence=100)
    assert spike_completed([legacy]) == [legacy]


def test_B09_single_entry_and_gradual_histories_do_not_spike():
    def done(hist):
        return TodoItem(content="x", status="completed", priority="high", id="a", confidence=0,
                        completion_confidence=hist[-1], confidence_history=hist)
    assert spike_completed([done([100])]) == []
    assert spike_completed([done([70, 80, 90, 100])]) == []
    assert spike_completed([done([70, 100])]) != []


def test_B10_attempt_budget():
    adapter, log, _ = started()
    for cc in (50, 51, 52, 53, 54):
        complete(adapter, cc)
        text, notice = adapter.settle()
        assert text.startswith(c.COMPLETION_CONTINUATION)
    complete(adapter, 55)
    before = len(log.appended)
    assert adapter.settle() == (None, _stalled())
    assert [e["data"] for e in log.appended[before:]] == [{"armed": False, "reason": "stalled"}]
    adapter, log, _ = started(completion_gate_max_attempts=2)
    for cc in (50, 51):
        complete(adapter, cc)
        assert adapter.settle()[0] is not None
    complete(adapter, 52)
    assert adapter.settle() == (None, _stalled())


def test_B11_unchanged_signature_stops():
    adapter, log, _ = started()
    complete(adapter, 50)
    adapter.settle()
    adapter.call_tool("todo", {"plan": {"user_intention": "other words"}})
    before = len(log.appended)
    text, notice = adapter.settle()
    assert text is None and notice.message == c.NOTICE_GATE_UNCHANGED
    assert [e["data"] for e in log.appended[before:]] == [{"armed": False, "reason": "unchanged"}]


def test_B12_pass():
    adapter, log, _ = make()
    adapter.call_tool("todo", {"todos": [item("a", conf=90), item("b", conf=90, priority="medium")],
                               "plan": GOOD_PLAN, "goals": [GOOD_GOAL]}).text
    adapter.call_tool("todo", {"todos": [
        item("a", "completed", 90, completion_confidence=97),
        item("b", "completed", 90, completion_confidence=99, priority="medium")]}).text
    text, notice = adapter.settle()
    assert text is None
    assert notice.message == "✅ All todos done. Completion confidence: 98%."
    assert log.appended[-1]["data"] == {"armed": False, "reason": "passed"}
    assert adapter.settle() == (None, None)


def test_B13_empty_list_disarms_silently():
    adapter, log, _ = make()
    assert adapter.settle() == (None, None)
    assert log.appended == [{"type": "custom", "customType": "pi-jtodo/cycle",
                             "data": {"armed": False, "reason": "no_todos"},
                             "timestamp": log.appended[0]["timestamp"]}]


def test_B14_consecutive_pokes_without_progress():
    adapter, log, _ = started(max_consecutive_pokes_without_progress=2)
    assert adapter.settle()[0] is not None
    assert adapter.settle()[0] is not None
    text, notice = adapter.settle()
    assert text is None
    assert notice.message == (
        "⚠️ The agent stopped 2 times in a row without changing its todos. We stopped poking;"
        " review the remaining todos yourself. /todos poke on to resume."
    )
    assert log.appended[-1]["data"] == {"armed": False, "reason": "no_progress"}
    adapter, log, _ = started(max_consecutive_pokes_without_progress=2)
    adapter.settle()
    adapter.settle()
    adapter.call_tool("todo", {"todos": [item("a", conf=91)]})
    assert adapter.settle()[0] is not None
    assert adapter.settle()[0] is not None
    assert adapter.settle()[0] is None
    adapter, log, _ = started(max_consecutive_pokes_without_progress=1)
    assert adapter.settle()[0] is not None
    assert adapter.settle()[1].message.startswith("⚠️ The agent stopped 1 times")


def test_B15_watchdog_with_a_fake_clock():
    adapter, log, clock = started()
    t = clock.now
    assert adapter.watchdog_tick(t + 89_999) == []
    assert len(log.appended) == 1
    for n in range(3):
        clock.now = t + 90_000 * (n + 1)
        notices = adapter.watchdog_tick()
        assert [x.message for x in notices] == [
            "👉 1 incomplete todo. We poked it for you. /todos poke off to stop."]
        assert log.appended[-1]["details"] == {"kind": "watchdog", "ids": ["a"]}
        assert log.appended[-1]["content"] == c.POKE_TEXT.format(n=1, s="")
    clock.now = t + 90_000 * 4
    notices = adapter.watchdog_tick()
    assert [x.message for x in notices] == [
        "⚠️ The agent stayed idle after 3 re-pokes with todos still open. We stopped poking;"
        " review the remaining todos yourself. /todos poke on to resume."]
    assert log.appended[-1]["data"] == {"armed": False, "reason": "watchdog"}
    # activity resets the dead count
    adapter, log, clock = started()
    for _ in range(2):
        clock.advance(90_000)
        adapter.watchdog_tick()
    log.add(user("still there?"))
    assert adapter.replay().dead_watchdog_pokes == 0
    for _ in range(3):
        clock.advance(90_000)
        assert log.appended[-1] is not None and adapter.watchdog_tick()[0].message.startswith("👉")
    clock.advance(90_000)
    assert adapter.watchdog_tick()[0].message.startswith("⚠️")


def test_B15_watchdog_quiet_when_disarmed_or_done():
    adapter, log, clock = make(watchdog=False)
    adapter.call_tool("todo", {"todos": [item("a")]})
    clock.advance(10**6)
    assert adapter.watchdog_tick() == []
    adapter, log, clock = make()
    adapter.call_tool("todo", {"todos": [item("a")]})
    adapter.command("poke off")
    clock.advance(10**6)
    assert adapter.watchdog_tick() == []
    adapter, log, clock = make()
    adapter.call_tool("todo", {"todos": [item("a", "cancelled")]})
    clock.advance(10**6)
    assert adapter.watchdog_tick() == []


def test_B16_replay_equals_live_after_every_step():
    adapter, log, clock = started(max_consecutive_pokes_without_progress=3)
    snapshots = []

    def snap():
        snapshots.append((len(log.entries), adapter.snapshot()))

    snap()
    adapter.settle(); snap()
    complete(adapter, 50); snap()
    adapter.settle(); snap()
    complete(adapter, 97, conf=50); snap()
    adapter.settle(); snap()  # spike challenge
    adapter.settle(); snap()  # pass
    adapter.call_tool("todo", {"todos": [item("z")]}).text; snap()
    for count, expected in snapshots:
        fresh = type(adapter)(type(log)(entries=list(log.entries[:count])), config=adapter.config)
        assert fresh.snapshot() == expected


def test_B16_cycle_entry_resets_and_spike_is_not_rechallenged_after_reload():
    adapter, log, _ = make()
    adapter.call_tool("todo", {"todos": [item("a", conf=80)], "plan": GOOD_PLAN, "goals": [GOOD_GOAL]})
    complete(adapter, 100, conf=80)
    assert adapter.settle()[0].startswith(c.SPIKE_CONTINUATION)
    assert adapter.cycle.spike_challenged and adapter.cycle.attempts == 1
    reloaded = type(adapter)(type(log)(entries=list(log.entries)), config=adapter.config)
    assert reloaded.settle()[1] == _done("100%")
    adapter.command("poke on")
    flags = adapter.cycle
    assert flags.armed and not flags.spike_challenged and flags.attempts == 0 and flags.targets == []


def test_B16_branch_switch_yields_the_flags_of_the_new_branch():
    adapter, log, _ = started()
    complete(adapter, 50)
    fork = list(log.entries)
    adapter.settle()
    assert adapter.cycle.attempts == 1 and adapter.cycle.targets == ["a"]
    log.entries[:] = fork  # jump back to the entry before the challenge
    assert adapter.cycle.attempts == 0 and adapter.cycle.targets == []
    adapter.command("poke off")
    assert not adapter.cycle.armed


def test_B18_idle_nudge():
    adapter, log, _ = started(idle_nudge_after_assistant_turns=3)
    from todo_helpers import assistant
    log.add(assistant())
    assert adapter.after_assistant_message() is None
    log.add(assistant())
    assert adapter.after_assistant_message() is None
    log.add(assistant())
    assert adapter.after_assistant_message() == c.NUDGE_TEXT
    assert log.appended[-1]["details"] == {"kind": "nudge", "ids": ["a"]}
    for _ in range(2):
        log.add(assistant())
        assert adapter.after_assistant_message() is None
    adapter.call_tool("todo", {"todos": [item("a", conf=91)]})
    for _ in range(2):
        log.add(assistant())
        assert adapter.after_assistant_message() is None
    log.add(assistant())
    assert adapter.after_assistant_message() == c.NUDGE_TEXT
    adapter.command("poke off")
    for _ in range(5):
        log.add(assistant())
        assert adapter.after_assistant_message() is None
    adapter, log, _ = make(idle_nudge_after_assistant_turns=1)
    adapter.call_tool("todo", {"todos": [item("a", "cancelled")]})
    log.add(assistant())
    assert adapter.after_assistant_message() is None


def test_B19_rearm_on_new_work():
    adapter, log, _ = make()
    adapter.call_tool("todo", {"todos": [item("a", conf=90)], "plan": GOOD_PLAN, "goals": [GOOD_GOAL]})
    complete(adapter, 99)
    adapter.settle()
    assert kinds(log)[-1] == "cycle:off:passed"
    adapter.call_tool("todo", {"todos": [item("a", "completed", 90, completion_confidence=99), item("b")]})
    assert kinds(log)[-2:] == ["state", "cycle:on:new_work"]
    adapter.command("poke off")
    adapter.call_tool("todo", {"todos": [item("c")]})
    assert kinds(log)[-2:] == ["cycle:off:user", "state"]
    log.add(user())
    assert adapter.after_user_message() is False
    adapter, log, _ = make()
    adapter.settle()  # no todos: disarmed
    log.add(user())
    assert adapter.after_user_message() is True
    assert kinds(log)[-1] == "cycle:on:new_work"


def test_B20_poke_command_texts():
    adapter, log, _ = make()
    assert adapter.command("poke on")[0].message == (
        "Auto-poke enabled. Nothing unfinished right now; we'll poke the agent if it stops with"
        " todos left.")
    assert kinds(log) == ["cycle:on:user"]
    adapter.call_tool("todo", {"todos": [item("a"), item("b")]})
    adapter.busy = True
    assert adapter.command("poke on")[0].message == (
        "👉 Poke queued. We'll re-check for unfinished todos after this turn. /todos poke off to"
        " stop.")
    assert adapter.command("poke status")[0].message == (
        "Auto-poke: ON. 2 incomplete todos. A turn is currently running.")
    adapter.busy = False
    assert adapter.command("poke trigger")[0].message == (
        "👉 2 incomplete todos. We poked the agent. /todos poke off to stop.")
    assert kinds(log)[-2:] == ["cycle:on:user", "poke"]
    assert adapter.command("poke off")[0].message == "Auto-poke disabled."
    assert kinds(log)[-1] == "cycle:off:user"
    n = len(log.appended)
    assert adapter.command("poke off")[0].message == "Auto-poke disabled."
    assert len(log.appended) == n
    assert adapter.command("poke status")[0].message == "Auto-poke: OFF. 2 incomplete todos."
    for bad in ("poke", "poke maybe", "poke on now"):
        assert adapter.command(bad)[0].message == "Usage: /todos poke on|off|status|trigger"


def test_scripted_full_cycle_leaves_the_expected_log():
    adapter, log, _ = make()
    adapter.call_tool("todo", {"todos": [item("a", conf=80), item("b", conf=90)],
                               "plan": {"user_intention": "x", "understands_user_intent": 80},
                               "goals": [GOOD_GOAL]}).text
    adapter.settle()  # poke
    adapter.call_tool("todo", {"todos": [item("a", "completed", 80, completion_confidence=100),
                                         item("b", "completed", 90)], "goals": [GOOD_GOAL]}).text
    adapter.settle()  # digest
    adapter.settle()  # completion: b has no completion_confidence
    adapter.call_tool("todo", {"todos": [item("a", "completed", 80),
                                         item("b", "completed", 90, completion_confidence=97)]}).text
    adapter.settle()  # spike on a (80 -> 100)
    adapter.settle()  # pass
    adapter.settle()  # disarmed: nothing
    assert kinds(log) == ["state", "poke", "state", "digest", "completion", "state", "spike",
                          "cycle:off:passed"]
    assert adapter.cycle.to_json() == {
        "armed": False, "digest_delivered": False, "spike_challenged": False, "attempts": 0,
        "last_signature": None, "unchanged_settles": 0, "targets": [], "last_disarm_reason": "passed"}
