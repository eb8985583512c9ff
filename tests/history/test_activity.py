"""Activity events: exact texts, sources and times, taken in incrementally, agreeing with a Deck."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.deck.entries import picked_by_activity
from core.views.activity import Activity
from core.deck.deck import Deck
from core.cli.demo import counter_ids, write_demo
from core.views.points import point_of
from core.session.log import SessionLog
from history_helpers import BRANCHED, BRANCHED_084, PI_FIXTURES, PiSession, cut, random_session, todo


def rows(activity: Activity) -> list[tuple[int, str, str, str | None, str]]:
    return [(e.position, e.entry_id, e.part, e.source, e.text) for e in activity.events]


def activity_of(path: Path) -> Activity:
    activity = Activity(SessionLog.open(path, writable=False))
    activity.update()
    return activity


# Derived by hand from the generator's script (tests/fixtures/make_pi_sessionmanager_fixture.mjs):
# the current branch is T1..T12, B1..B10, F1..F5; the abandoned A and L entries never show.
BRANCHED_EVENTS = [
    (4, "b5397fd0", "todo", "tool", "todos #parse, #cli added"),
    (4, "b5397fd0", "todo", "tool", "user intention set"),
    (4, "b5397fd0", "todo", "tool", "intent understanding none → 90"),
    (4, "b5397fd0", "todo", "tool", "goal parser added"),
    (5, "a6a7dde9", "state", None, "objective set"),
    (5, "a6a7dde9", "state", None, "work items parse, cli added"),
    (5, "a6a7dde9", "state", None, "decision format added"),
    (6, "fb9f4e14", "progress", None, "milestone parser-skeleton declared"),
    (7, "b200b1af", "handoff", None, "packet h1 created"),
    (10, "35491fb0", "session", None, "session named Parser work"),
    (11, "fa8ee7f1", "session", None, "label checkpoint-1 on 5b1e7958"),
    (14, "3d8a879e", "todo", "tool", "todo #parse completed"),
    (14, "3d8a879e", "todo", "tool", "todo #parse completion confidence none → 97"),
    (14, "3d8a879e", "todo", "tool", "todo #cli started"),
    (14, "3d8a879e", "todo", "tool", "todo #cli confidence 70 → 75"),
    (14, "3d8a879e", "todo", "tool", "todo #docs added"),
    (14, "3d8a879e", "todo", "tool", "user intention changed"),
    (14, "3d8a879e", "todo", "tool", "intent understanding 90 → 97"),
    (14, "3d8a879e", "todo", "tool", "goal parser closed loop 85 → 97"),
    (14, "3d8a879e", "todo", "tool", "goal parser ownership none → 96"),
    (14, "3d8a879e", "todo", "tool", "goal (no group) added"),
    (15, "0c4958b7", "progress", None, "milestone streaming-reader declared"),
    (15, "0c4958b7", "progress", None, "verdict: baseline set (1 milestone)"),
    (17, "302721a2", "todo", "gate", "todo gates armed"),
    (18, "6f36ee6c", "todo", "gate", "poke sent (#cli, #docs)"),
    (19, "da072054", "todo", "gate", "completion challenged (#parse)"),
    (20, "09353a65", "handoff", None, "invalid entry: Agent Handoff reads as empty"),
    (20, "09353a65", "handoff", None, "packet h1 removed"),
    (22, "9b75b179", "session", None, "branch summary: Tried a late experiment and abandoned it."),
    (23, "80f95293", "session", None, "label streaming-start on 505aa600"),
    (25, "fd78b857", "session", None, "session named Streaming parser"),
    (26, "83e8628a", "session", None, "label cleared on 5b1e7958"),
]


def test_pi_fixture_events_exact():
    assert rows(activity_of(BRANCHED)) == BRANCHED_EVENTS


def test_pi_084_fixture_gives_the_same_texts():
    ids_084 = {"5b1e7958": "469d979e", "505aa600": "8a08b012"}  # T4 and B1 in that file
    expected = [(p, part, s, t) for p, _, part, s, t in BRANCHED_EVENTS]
    for old, new in ids_084.items():
        expected = [(p, part, s, t.replace(old, new)) for p, part, s, t in expected]
    assert [(p, part, s, t) for p, _, part, s, t in rows(activity_of(BRANCHED_084))] == expected


def test_events_carry_the_entry_time():
    events = activity_of(BRANCHED).events
    assert [(e.entry_id, e.timestamp) for e in events[-2:]] == [
        ("fd78b857", "2026-11-30T15:50:53.736Z"), ("83e8628a", "2026-11-30T15:50:53.736Z")]


def test_demo_session_events(tmp_path):
    write_demo(tmp_path / "demo.jsonl", cwd="/p", ids=counter_ids())
    texts = [(e.part, e.source, e.text) for e in activity_of(tmp_path / "demo.jsonl").events]
    assert texts == [
        ("state", "command", "objective set"),
        ("state", "command", "work item parse added"),
        ("state", "command", "work item flag added"),
        ("state", "command", "work item bench added"),
        ("state", "command", "work item docs added"),
        ("state", "command", "work item parse: open → in_progress"),
        ("state", "command", "work item bench: open → blocked"),
        ("state", "command", "work item docs: open → done"),
        ("state", "command", "decision poll added"),
        ("state", "command", "decision lazy added"),
        ("progress", "command", "milestone header-parsed declared"),
        ("progress", "command", "milestone entries-indexed declared"),
        ("progress", "command", "verdict: baseline set (2 milestones)"),
        ("progress", "command", "milestone tail-follows-appends declared"),
        ("progress", "command", "milestone header-parsed withdrawn"),
        ("progress", "command", "verdict: progress (+1 milestone)"),
        ("progress", "command", "milestone truncation-detected declared"),
        ("handoff", "tool", "packet review-parser created"),
        ("handoff", "tool", "packet bench-handover created"),
        ("todo", "tool", "todos #parse, #lex … #readme added"),
        ("todo", "tool", "user intention set"),
        ("todo", "tool", "intent understanding none → 88"),
        ("todo", "tool", "goals parser, cli added"),
        ("todo", "command", "todo gates armed"),
        ("todo", "command", "poke sent (#parse, #crlf … #readme)"),
    ]


def test_pideck_commands_and_clears(tmp_path):
    deck = write_demo(tmp_path / "d.jsonl", cwd="/p", ids=counter_ids())
    activity = Activity(SessionLog.open(tmp_path / "d.jsonl", writable=False))
    activity.update()
    deck.apply("/agent-state remove flag")
    deck.apply("/agent-handoff remove bench-handover")
    deck.apply("/agent-progress add m2")
    deck.apply("/agent-progress add m3")
    deck.apply("/agent-progress judge")
    deck.apply("/agent-progress clear --yes")
    deck.apply("/todos clear --yes")
    deck.apply("/todos poke off")
    new = activity.update().new
    assert [(e.part, e.source, e.text) for e in new] == [
        ("state", "command", "work item flag removed"),
        ("handoff", "command", "packet bench-handover removed"),
        ("progress", "command", "milestone m2 declared"),
        ("progress", "command", "milestone m3 declared"),
        ("progress", "command", "verdict: progress (+3 milestones)"),
        ("progress", "command", "milestones entries-indexed, tail-follows-appends … m3 withdrawn"),
        ("progress", "command", "judged record cleared"),
        ("todo", "command", "todos #parse, #lex … #readme removed"),
        ("todo", "command", "user intention cleared"),
        ("todo", "command", "intent understanding 88 → none"),
        ("todo", "command", "goals parser, cli removed"),
        ("todo", "command", "todo gates turned off"),
    ]


def pi_session(path: Path) -> PiSession:
    s = PiSession(path)
    s.user("Build the parser")
    s.assistant("Recording.", ("c1", "agent_state_add_work_item", {"id": "parse", "content": "Parse"}))
    s.state([{"id": "parse", "content": "Parse", "status": "open"}])
    s.tool_result("c1", "agent_state_add_work_item", 'Agent State: added work item "parse".')
    return s


def test_sources_in_a_pi_session(tmp_path):
    s = pi_session(tmp_path / "pi.jsonl")
    s.assistant("Done for now.", stop="stop")
    # no open call: a pi slash command, or pideck writing into the file; the entry does not say which
    s.state([{"id": "parse", "content": "Parse", "status": "done"}])
    s.assistant("Handing over.", ("c2", "agent_handoff_create", {}), ("c3", "agent_progress_add_milestone", {}))
    s.packets({"schemaVersion": 1, "id": "h1", "source": "a", "goal": "g"})
    s.progress(["m"])
    ids = [f"t{i}" for i in range(1, 13)]
    s.todo_write("c4", [todo(t) for t in ids])
    s.todo_write("c5", [])
    assert [(e.entry_id, e.part, e.source, e.text) for e in activity_of(s.path).events] == [
        ("e0000003", "state", "tool", "work item parse added"),
        ("e0000006", "state", None, "work item parse: open → done"),
        ("e0000008", "handoff", "tool", "packet h1 created"),
        ("e0000009", "progress", "tool", "milestone m declared"),
        ("e0000011", "todo", "tool", "todos #t1, #t2 … #t12 added"),
        ("e0000013", "todo", "tool", "todos #t1, #t2 … #t12 removed"),
    ]


def test_ownership_rejection_errors_and_gate_entries(tmp_path):
    from core.primitives.todo.constants import OWNERSHIP_CONTINUATION

    s = pi_session(tmp_path / "pi.jsonl")
    s.todo_write("c2", [todo("t1"), todo("t2"), todo("t3", "in_progress")])
    s.assistant("Done?", ("c3", "todo", {"todos": [todo("t3", "completed")]}))
    s.tool_result("c3", "todo", OWNERSHIP_CONTINUATION,
                  {"todos": [todo("t1"), todo("t2"), todo("t3", "in_progress")], "plan": {}, "goals": []})
    s.assistant("Oops.", ("c4", "todo", {"todos": "x"}))
    s.tool_result("c4", "todo", "Invalid todos.", is_error=True)
    s.custom("pi-jtodo/cycle", {"armed": False, "reason": "no_progress"})
    s.custom("pi-jtodo/cycle", {"armed": True, "reason": "new_work"})
    s.custom("pi-jtodo/cycle", {"armed": "yes"})
    s.followup("You have 2 incomplete todos. Continue working, or update the todo tool.")  # pi-jtodo's own
    s.followup("x", "watchdog", ["t1"])
    s.followup("y", "digest")
    s.followup("z", "spike", ["t3"])
    s.followup("w", "nudge", ["t1", "t2"])
    s.followup("something else")
    s.todo_write("c5", [todo("t1", "completed", completion_confidence=97), todo("t2", "cancelled"),
                        todo("t3", "completed", confidence=80)])
    s.todo_write("c6", [todo("t1", "pending"), todo("t2", "pending"), todo("t3", "in_progress", confidence=80)])
    texts = [(e.source, e.text) for e in activity_of(s.path).events][1:]
    assert texts == [
        ("tool", "todos #t1, #t2, #t3 added"),
        ("gate", "write rejected by the ownership gate"),
        ("tool", "todo call failed"),
        ("gate", "todo gates gave up: no progress between stops"),
        ("gate", "todo gates re-armed on new work"),
        ("gate", "ignored a gate cycle entry without a boolean armed"),
        ("gate", "poke sent"),
        ("gate", "watchdog poke sent (#t1)"),
        ("gate", "quality review sent"),
        ("gate", "confidence spike challenged (#t3)"),
        ("gate", "idle nudge sent (#t1, #t2)"),
        ("gate", "follow-up sent"),
        ("tool", "todos #t1, #t3 completed"),
        ("tool", "todo #t1 completion confidence none → 97"),
        ("tool", "todo #t2 cancelled"),
        ("tool", "todo #t3 confidence 70 → 80"),
        ("tool", "todos #t1, #t2 reopened"),
        ("tool", "todo #t1 completion confidence 97 → none"),
        ("tool", "todo #t3 started"),
    ]


def test_invalid_newest_entry_reads_as_empty(tmp_path):
    s = pi_session(tmp_path / "pi.jsonl")
    s.custom("agent-state-state", {"schemaVersion": 2, "state": {}})
    s.custom("pi-jtodo/state", {"schemaVersion": 1, "todos": "nope", "plan": {}, "goals": []})
    assert [e.text for e in activity_of(s.path).events][1:] == [
        "invalid entry: Agent State reads as empty", "work item parse removed",
        "invalid entry: Todos reads as empty",
    ]


class CountingLog:
    """A log that records where each ``branch_select`` started and how many entries it picked."""

    def __init__(self, log: SessionLog) -> None:
        self.log, self.calls = log, []

    def __getattr__(self, name):
        return getattr(self.log, name)

    def branch_select(self, wanted, start=0, anchor=None):
        selection = self.log.branch_select(wanted, start, anchor)
        self.calls.append((start, None if selection is None else len(selection[0])))
        return selection


def test_update_takes_in_only_what_was_appended(tmp_path):
    s = pi_session(tmp_path / "pi.jsonl")
    log = CountingLog(SessionLog.open(s.path, writable=False))
    activity = Activity(log)  # type: ignore[arg-type]
    assert len(activity.update().new) == 1
    assert activity.update().new == [] and log.calls[-1] == (4, 0)
    s.state([{"id": "parse", "content": "Parse", "status": "in_progress"}])
    s.packets({"schemaVersion": 1, "id": "h1", "source": "a", "goal": "g"})
    log.refresh()
    update = activity.update()
    assert not update.reset
    assert [e.text for e in update.new] == ["work item parse: open → in_progress", "packet h1 created"]
    assert log.calls[-1] == (4, 2)  # started where it stopped, picked the two new entries only
    assert len(activity.events) == 3


def test_a_branch_switch_starts_over(tmp_path):
    s = pi_session(tmp_path / "pi.jsonl")
    fork = s.leaf
    s.state([{"id": "parse", "content": "Parse", "status": "done"}])
    activity = Activity(log := SessionLog.open(s.path, writable=False))
    activity.update()
    assert [e.text for e in activity.events] == ["work item parse added", "work item parse: open → done"]
    s.state([{"id": "parse", "content": "Parse", "status": "blocked"}], parent=fork)
    log.refresh()
    update = activity.update()
    assert update.reset
    assert [e.text for e in activity.events] == ["work item parse added", "work item parse: open → blocked"]


@pytest.mark.parametrize("fixture", PI_FIXTURES, ids=lambda p: p.name)
def test_the_walk_agrees_with_a_deck_at_every_entry(tmp_path, fixture):
    """The point the activity walk reaches at each entry is what a fresh Deck derives from the file
    cut at that entry."""
    log = SessionLog.open(fixture, writable=False)
    for record in log.records:
        past = cut(fixture, record.id, tmp_path / "cut.jsonl")
        activity = Activity(SessionLog.open(past, writable=False))
        activity.update()
        assert activity.point == point_of(Deck(SessionLog.open(past, writable=False))), record.id


def test_demo_walk_agrees_with_a_deck_at_every_entry(tmp_path):
    path = tmp_path / "demo.jsonl"
    write_demo(path, cwd="/p", ids=counter_ids())
    for record in SessionLog.open(path, writable=False).records:
        past = cut(path, record.id, tmp_path / "cut.jsonl")
        activity = Activity(SessionLog.open(past, writable=False))
        activity.update()
        assert activity.point == point_of(Deck(SessionLog.open(past, writable=False))), record.id


def test_the_walk_picks_no_plain_custom_entries():
    assert not picked_by_activity("custom", "other-ext/state", None, None)
    assert not picked_by_activity("model_change", None, None, None)
    assert picked_by_activity("message", None, "assistant", None)


def newest_first(log: SessionLog, first: int, piece: int) -> tuple[Activity, list[list[str]]]:
    """A walk of ``log`` that takes its last ``first`` picked entries, then ``piece`` at a time
    before them; with the texts of each piece's events."""
    activity = Activity(log)
    update = activity.update(first, newest_first=True)
    pieces = [[e.text for e in update.new]]
    while update.pending:
        update = activity.update(piece, newest_first=True)
        assert update.older
        pieces.append([e.text for e in update.new])
    return activity, pieces


def gate_session(path: Path) -> Path:
    """Pokes right after a person's arming and after the gates' own, at every place a piece can start."""
    s = pi_session(path)
    s.todo_write("c2", [todo("t1"), todo("t2", "in_progress")])
    for n in range(3):
        s.custom("pi-jtodo/cycle", {"armed": True, "reason": "user"})
        s.followup("You have 2 incomplete todos.", "poke", ["t1", "t2"])
        s.custom("pi-jtodo/cycle", {"armed": True, "reason": "write"})
        s.followup("You have 2 incomplete todos.", "poke", ["t1"])
        s.state([{"id": "parse", "content": f"Parse {n}", "status": "in_progress"}])
        s.assistant("Packing.", ("c9", "agent_handoff_create", {}))
        s.packets({"schemaVersion": 1, "id": f"h{n}", "source": "a", "goal": "g"})
    return s.path


@pytest.mark.parametrize("source", ["branched", "demo", "gates"])
def test_a_newest_first_walk_finds_the_same_events(tmp_path, source):
    """Taken from the end in pieces of any size, each seeded with what the entries before it leave,
    the walk finds the events one walk from the start finds, and is then where that walk is."""
    if source == "branched":
        path = BRANCHED
    elif source == "demo":
        write_demo(path := tmp_path / "demo.jsonl", cwd="/p", ids=counter_ids())
    else:
        path = gate_session(tmp_path / "gates.jsonl")
    log = SessionLog.open(path, writable=False)
    whole = Activity(log)
    whole.update()
    picked = len(log.branch_select(picked_by_activity)[0])
    for first in range(1, picked + 1):
        for piece in (1, 2, 3, 5, picked):
            activity, pieces = newest_first(log, first, piece)
            assert activity.events == whole.events, (first, piece)
            assert activity.point == whole.point and activity.walked == whole.walked
            assert [text for texts in reversed(pieces) for text in texts] == [e.text for e in whole.events]
    activity, _ = newest_first(log, 2, 3)
    assert activity.update().new == []  # then it takes in appends as the one walk does


def walked(log: SessionLog) -> Activity:
    activity = Activity(log)
    activity.update()
    return activity


@pytest.mark.parametrize("source", ["branched", "demo", "gates", "random"])
def test_a_fork_over_another_reading_of_the_file_is_the_walk_of_that_file(tmp_path, source):
    """The timeline carries the deck's walk on over its own reading of the file: the twin holds
    the events and the state one walk of that reading finds, and goes on from there alike."""
    if source == "branched":
        path = BRANCHED
    elif source == "demo":
        write_demo(path := tmp_path / "demo.jsonl", cwd="/p", ids=counter_ids())
    elif source == "gates":
        path = gate_session(tmp_path / "gates.jsonl")
    else:
        path = random_session(tmp_path / "random.jsonl", 300, seed=7).path
    deck_walk = walked(SessionLog.open(path, writable=False))
    twin = deck_walk.fork(SessionLog.open(path, writable=False))
    own = walked(SessionLog.open(path, writable=False))
    assert twin is not None and twin.events == own.events
    assert twin.point == own.point and twin.walked == own.walked
    assert twin.update().new == [] and twin.events == own.events


def test_a_fork_reads_what_follows_from_its_own_log_and_leaves_the_walk_it_came_from_alone(tmp_path):
    """The fork is made between a tool call and the entry the tool writes: the entry's source is
    still told from the call (read again from the twin's log), and the deck's walk and the twin
    each take in the appends once."""
    s = pi_session(tmp_path / "pi.jsonl")
    s.assistant("Packing.", ("c9", "agent_handoff_create", {}))
    deck_walk = walked(SessionLog.open(s.path, writable=False))
    twin = deck_walk.fork(SessionLog.open(s.path, writable=False))
    assert twin is not None
    before = list(deck_walk.events)
    s.packets({"schemaVersion": 1, "id": "h1", "source": "a", "goal": "g"})
    s.state([{"id": "parse", "content": "Parse", "status": "done"}])
    new = [(e.part, e.source, e.text) for e in twin.update().new]
    assert new == [("handoff", "tool", "packet h1 created"), ("state", None, "work item parse: open → done")]
    assert deck_walk.events == before  # (the twin's appends are its own)
    assert [(e.part, e.source, e.text) for e in deck_walk.update().new] == new
    assert twin.events == deck_walk.events == walked(SessionLog.open(s.path, writable=False)).events


def test_no_fork_of_a_walk_that_is_not_whole_or_of_another_file(tmp_path):
    """Nothing to carry on before the walk is whole, and nothing from a file that no longer holds
    the entry the walk ended at in its place: the timeline then walks its log from the start."""
    path = gate_session(tmp_path / "gates.jsonl")
    assert Activity(SessionLog.open(path, writable=False)).fork(SessionLog.open(path, writable=False)) is None
    pieces = Activity(SessionLog.open(path, writable=False))
    assert pieces.update(2, newest_first=True).pending  # (older pieces still to take)
    assert pieces.fork(SessionLog.open(path, writable=False)) is None
    whole = walked(SessionLog.open(path, writable=False))
    other = random_session(tmp_path / "other.jsonl", 60, seed=3).path
    assert whole.fork(SessionLog.open(other, writable=False)) is None
    shorter = cut(path, "e0000004", tmp_path / "shorter.jsonl")
    assert whole.fork(SessionLog.open(shorter, writable=False)) is None
