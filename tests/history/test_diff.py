"""The diff of two points: every kind of change, in order, as pideck diff prints it."""

from __future__ import annotations

from core.views.diff import diff_points, diff_text
from core.views.points import Point


def state(*items, objective=None, decisions=()):
    s = {"schemaVersion": 1, "workItems": [dict(zip(("id", "content", "status"), i)) for i in items],
         "decisions": [{"id": d, "content": c} for d, c in decisions]}
    if objective is not None:
        s["objective"] = objective
    return s


def todos(*items, plan=None, goals=()):
    return {"todos": [{"content": c, "status": st, "priority": "medium", "id": i, **extra} for i, c, st, extra in items],
            "plan": plan or {}, "goals": list(goals)}


A = Point(
    state=state(("a", "Alpha", "open"), ("b", "Beta", "open"), objective="Old", decisions=[("d1", "Keep")]),
    progress={"hasBaseline": True, "currentMilestones": ["m1", "m2"], "recordedMilestones": ["m1"]},
    packets=({"schemaVersion": 1, "id": "p1", "source": "s", "goal": "One"},
             {"schemaVersion": 1, "id": "p2", "source": "s", "goal": "Two"}),
    todos=todos(("t1", "First", "pending", {"confidence": 70}), ("t2", "Second", "in_progress", {}),
                plan={"user_intention": "Do it", "understands_user_intent": 80},
                goals=[{"group": "g", "closed_feedback_loop": 40}]),
)
B = Point(
    state=state(("b", "Beta!", "done"), ("c", "Gamma", "blocked"), objective="New", decisions=[("d2", "Swap")]),
    progress={"hasBaseline": True, "currentMilestones": ["m2", "m3"], "recordedMilestones": ["m1", "m2", "m3"]},
    packets=({"schemaVersion": 1, "id": "p2", "source": "s", "goal": "Two, again"},
             {"schemaVersion": 1, "id": "p3", "source": "s", "goal": "Three"}),
    todos=todos(("t1", "First", "completed", {"confidence": 70, "completion_confidence": 97}),
                ("t3", "Third", "pending", {"group": "g"}),
                plan={"user_intention": "Do it well", "understands_user_intent": 96},
                goals=[{"group": "g", "closed_feedback_loop": 90, "end_to_end_ownership": 97}, {"closed_feedback_loop": 10}]),
)


def test_every_kind_of_change_in_order():
    assert diff_text(diff_points(A, B)) == "\n".join([
        "Agent State",
        "  ~ objective: Old → New",
        "  - work item a [open]: Alpha",
        "  ~ work item b status: open → done",
        "  ~ work item b content: Beta → Beta!",
        "  + work item c [blocked]: Gamma",
        "  - decision d1: Keep",
        "  + decision d2: Swap",
        "Agent Progress",
        "  - milestone m1 withdrawn",
        "  + milestone m3 declared",
        "  + milestone m2 recorded",
        "  + milestone m3 recorded",
        "Agent Handoff",
        "  - packet p1: One",
        "  ~ packet p2 changed",
        "  + packet p3: Three",
        "Todos",
        "  - todo #t2 [in_progress]: Second",
        "  ~ todo #t1 status: pending → completed",
        "  ~ todo #t1 completion confidence: none → 97",
        "  + todo #t3 [pending]: Third",
        "  ~ plan user intention: Do it → Do it well",
        "  ~ plan intent understanding: 80 → 96",
        "  ~ goal g closed loop: 40 → 90",
        "  ~ goal g ownership: none → 97",
        "  + goal (no group)",
    ])


def test_the_way_back_mirrors_it():
    back = diff_text(diff_points(B, A)).splitlines()
    assert "  + objective: Old" not in back and "  ~ objective: New → Old" in back
    assert "  - milestone m3 no longer recorded" in back and "  + milestone m1 declared" in back


def test_objective_set_and_cleared_and_baselines():
    empty = Point()
    assert diff_text(diff_points(empty, Point(state=state(objective="Go")))) == "Agent State\n  + objective: Go"
    assert diff_text(diff_points(Point(state=state(objective="Go")), empty)) == "Agent State\n  - objective: Go"
    judged = Point(progress={"hasBaseline": True, "currentMilestones": [], "recordedMilestones": []})
    assert diff_text(diff_points(empty, judged)) == "Agent Progress\n  + baseline set"
    assert diff_text(diff_points(judged, empty)) == "Agent Progress\n  - baseline cleared"


def test_no_changes():
    assert diff_points(A, A) == [] and diff_text([]) == "No changes."


def test_repeated_todo_ids_count_once_the_last_wins():
    twice = Point(todos=todos(("t1", "Old", "pending", {}), ("t1", "New", "completed", {})))
    once = Point(todos=todos(("t1", "New", "completed", {})))
    assert diff_points(twice, once) == []
