"""What changed between two points of a session (``core/views/points.py``): added, removed and changed
work items, decisions, the objective, milestones, packets, todos, the plan and goals.

The activity events (``core/views/activity.py``) are worded from these changes, and ``pideck diff``
prints them, so an event and a diff never tell two stories. Text in a change is the log's text,
untrusted: front ends show it literally.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Literal, Mapping, Sequence, TypedDict

from core.deck.deck import HANDOFF, PROGRESS, STATE, TODO
from core.views.points import Point

Kind = Literal["added", "removed", "changed"]

PART_TITLES = {STATE: "Agent State", PROGRESS: "Agent Progress", HANDOFF: "Agent Handoff", TODO: "Todos"}
PART_ORDER = (STATE, PROGRESS, HANDOFF, TODO)


@dataclass(slots=True)  # (not frozen, which makes each instance 5x slower: see ``activity.Event``)
class Change:
    """One difference (read-only by convention: walks share them). ``subject``: objective, work
    item, decision, milestone, recorded milestone, baseline, packet, todo, plan or goal; ``key``:
    the id (milestone name, goal group) or ""; ``field``: what changed in a ``changed`` item (""
    for a whole value); ``before``/``after``: the item or the field's value on each side (None
    where absent)."""

    part: str
    subject: str
    key: str
    kind: Kind
    field: str = ""
    before: Any = None
    after: Any = None


WORK_ITEM_FIELDS = ("status", "content")
TODO_FIELDS = ("status", "content", "priority", "group", "confidence", "completion_confidence",
               "activeForm", "description", "blocks", "blockedBy", "madeBy")  # (the last five: an agent's own plan)
PLAN_FIELDS = ("user_intention", "understands_user_intent")
GOAL_FIELDS = ("feedback_loop", "closed_feedback_loop", "end_to_end_ownership")


def diff_points(a: Point, b: Point) -> list[Change]:
    """Every change from ``a`` to ``b``, part by part in ``PART_ORDER``."""
    changes: list[Change] = []
    # A part that is the same object on both sides has no change (a log holds no NaN, the one
    # value unequal to itself: core/session/parse.py), so the activity walk, whose entries each
    # restore one part, compares only that one.
    if a.state is not b.state:
        changes += _objective(a.state.get("objective"), b.state.get("objective"))
        changes += _keyed(STATE, "work item", a.state["workItems"], b.state["workItems"], WORK_ITEM_FIELDS)
        changes += _keyed(STATE, "decision", a.state["decisions"], b.state["decisions"], ("content",))
    if a.progress is not b.progress:
        changes += _progress(a, b)
    if a.packets is not b.packets:
        changes += _keyed(HANDOFF, "packet", a.packets, b.packets, None)
    if a.todos is not b.todos:
        changes += _keyed(TODO, "todo", a.todos["todos"], b.todos["todos"], TODO_FIELDS)
        changes += _fields(TODO, "plan", "", a.todos["plan"], b.todos["plan"], PLAN_FIELDS)
        changes += _explanation(a.todos.get("agentPlan"), b.todos.get("agentPlan"))
        changes += _keyed(TODO, "goal", a.todos["goals"], b.todos["goals"], GOAL_FIELDS, key="group")
    return changes


def _explanation(before: Any, after: Any) -> list[Change]:
    """Codex's word on why it changed its plan: it comes with one call, so a call without one
    takes nothing back; only a new one is a change."""
    was = before.get("explanation") if isinstance(before, dict) else None
    now = after.get("explanation") if isinstance(after, dict) else None
    if now is None or now == was:
        return []
    return [Change(TODO, "plan", "", "changed", "explanation", was, now)]


def _objective(before: str | None, after: str | None) -> list[Change]:
    if before == after:
        return []
    kind: Kind = "added" if before is None else "removed" if after is None else "changed"
    return [Change(STATE, "objective", "", kind, "", before, after)]


def _by_key(items: Iterable[Mapping[str, Any]], key: str) -> dict[str, Mapping[str, Any]]:
    """Items by key; with a repeated key (restored foreign data) the last one counts, as lookups
    do, at the place of the first."""
    found: dict[str, Mapping[str, Any]] = {}
    for item in items:
        found[str(item.get(key) or "")] = item
    return found


def _keyed(
    part: str,
    subject: str,
    before: Sequence[Mapping[str, Any]],
    after: Sequence[Mapping[str, Any]],
    fields: Sequence[str] | None,
    key: str = "id",
) -> list[Change]:
    """Added, removed and changed items of two lists keyed by ``key``; ``fields`` None compares
    whole items (a changed packet is one change)."""
    old, new = _by_key(before, key), _by_key(after, key)
    changes = [Change(part, subject, k, "removed", "", item, None) for k, item in old.items() if k not in new]
    for k, item in new.items():
        was = old.get(k)
        if was is None:
            changes.append(Change(part, subject, k, "added", "", None, item))
        elif fields is None:
            if was != item:
                changes.append(Change(part, subject, k, "changed", "", was, item))
        elif was != item:  # (an item equal as a whole has no changed field: compared in C at once)
            changes += [Change(part, subject, k, "changed", f, was.get(f), item.get(f))
                        for f in fields if was.get(f) != item.get(f)]
    return changes


def _fields(
    part: str, subject: str, key: str, before: Mapping[str, Any], after: Mapping[str, Any], fields: Sequence[str]
) -> list[Change]:
    return [Change(part, subject, key, "changed", f, before.get(f), after.get(f))
            for f in fields if before.get(f) != after.get(f)]


def _progress(a: Point, b: Point) -> list[Change]:
    changes: list[Change] = []
    was, now = a.progress, b.progress
    declared, recorded = was["currentMilestones"], was["recordedMilestones"]
    # (milestones are names, restored as strings: sets tell which are in the other list)
    declared_now, recorded_now = set(now["currentMilestones"]), set(now["recordedMilestones"])
    declared_set, recorded_set = set(declared), set(recorded)
    changes += [Change(PROGRESS, "milestone", m, "removed") for m in declared if m not in declared_now]
    changes += [Change(PROGRESS, "milestone", m, "added") for m in now["currentMilestones"] if m not in declared_set]
    if was["hasBaseline"] != now["hasBaseline"]:
        changes.append(Change(PROGRESS, "baseline", "", "added" if now["hasBaseline"] else "removed"))
    changes += [Change(PROGRESS, "recorded milestone", m, "removed") for m in recorded if m not in recorded_now]
    changes += [Change(PROGRESS, "recorded milestone", m, "added")
                for m in now["recordedMilestones"] if m not in recorded_set]
    return changes


# -- the lines ``pideck diff`` prints ---------------------------------------------------------------

_MARK = {"added": "+", "removed": "-", "changed": "~"}
FIELD_NAMES = {
    "completion_confidence": "completion confidence",
    "user_intention": "user intention",
    "understands_user_intent": "intent understanding",
    "closed_feedback_loop": "closed loop",
    "end_to_end_ownership": "ownership",
    "feedback_loop": "feedback loop",
}


def shown(value: Any) -> str:
    """A field's value in a line: "none" for an absent one."""
    return "none" if value is None else str(value)


def change_line(change: Change, noun: str = "todo") -> str:
    """One change as one line, e.g. ``~ work item parse status: open → done``; ``noun``: what a
    todo is called (an agent's own plan names its items: task, step)."""
    mark, subject, key = _MARK[change.kind], change.subject, change.key
    name = f"#{key}" if subject == "todo" else key
    said = noun if subject == "todo" else subject
    label = f"{said} {name}" if name else "goal (no group)" if subject == "goal" else said
    if change.kind == "changed" and change.field:
        return f"{mark} {label} {FIELD_NAMES.get(change.field, change.field)}: {shown(change.before)} → {shown(change.after)}"
    if subject == "objective":
        if change.kind == "changed":
            return f"{mark} objective: {change.before} → {change.after}"
        return f"{mark} objective: {side_text(change, change.kind != 'removed')}"
    if subject in ("milestone", "recorded milestone", "baseline"):
        label = "baseline" if subject == "baseline" else f"milestone {key}"
        return f"{mark} {label} {_PROGRESS_WORDS[subject][change.kind]}"
    if change.kind == "changed":
        return f"{mark} {label} changed"
    text = side_text(change, change.kind != "removed") if subject != "goal" else ""
    return f"{mark} {label}{'' if text.startswith('[') or not text else ':'} {text}".rstrip()


def side_text(change: Change, after: bool) -> str:
    """What one side of a change holds, in words ("" where the item is absent): a field's value,
    ``[status]: content`` of a work item or todo, a decision's content, a packet's goal, the
    objective, or whether a milestone is declared or recorded."""
    value = change.after if after else change.before
    if change.kind == "changed" and change.field:
        return shown(value)
    if change.subject in ("milestone", "recorded milestone", "baseline"):
        present = (change.kind == "added") == after
        words = {"milestone": "declared", "recorded milestone": "recorded", "baseline": "set"}
        return words[change.subject] if present else ""
    if value is None:
        return ""
    if isinstance(value, Mapping):
        if change.subject in ("work item", "todo"):
            return f"[{value.get('status')}]: {value.get('content')}"
        if change.subject == "decision":
            return str(value.get("content"))
        if change.subject == "packet":
            return str(value.get("goal"))
        if change.subject == "goal":
            return (f"closed loop {shown(value.get('closed_feedback_loop'))}, "
                    f"ownership {shown(value.get('end_to_end_ownership'))}")
        return ""
    return str(value)


_PROGRESS_WORDS = {
    "milestone": {"added": "declared", "removed": "withdrawn"},
    "recorded milestone": {"added": "recorded", "removed": "no longer recorded"},
    "baseline": {"added": "set", "removed": "cleared"},
}


def plan_noun(*points: Point) -> str:
    """What the todos of these points are called: ``todo``, or the noun of an agent's own plan."""
    for point in points:
        agent_plan = point.todos.get("agentPlan")
        if isinstance(agent_plan, Mapping) and isinstance(agent_plan.get("noun"), str):
            return str(agent_plan["noun"])
    return "todo"


def diff_text(changes: Sequence[Change], noun: str = "todo") -> str:
    """The changes under one heading per part, or "No changes." when there are none."""
    if not changes:
        return "No changes."
    out: list[str] = []
    for part in PART_ORDER:
        lines = [change_line(c, noun) for c in changes if c.part == part]
        if lines:
            out.append(PART_TITLES[part])
            out += [f"  {line}" for line in lines]
    return "\n".join(out)


class ChangeJson(TypedDict):
    part: str
    subject: str
    key: str
    kind: str
    field: str
    before: Any  # the item or field as each side has it (JSON)
    after: Any


def change_json(change: Change) -> ChangeJson:
    """A change for ``pideck diff --json``."""
    return {"part": change.part, "subject": change.subject, "key": change.key, "kind": change.kind,
            "field": change.field, "before": change.before, "after": change.after}
