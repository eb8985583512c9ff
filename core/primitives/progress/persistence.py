"""The persisted ``agent-progress-state`` envelope: strict parsing and payload building
(docs/primitives.md#restore-rules)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from core.jsutil import is_schema_version_one
from core.primitives.host import latest_custom
from core.primitives.progress import ENTRY_TYPE
from core.primitives.progress.core import judge_progress
from core.primitives.progress.mutations import ProgressState, empty_state

if TYPE_CHECKING:  # (for the type checker alone: a TypedDict made at run time compiles its annotations)

    class Payload(ProgressState):
        """An ``agent-progress-state`` entry's data: ``schemaVersion``, then the state's keys."""

        schemaVersion: int

SCHEMA_VERSION = 1


def to_payload(state: ProgressState) -> Payload:
    """The full state as a fresh payload, keys in upstream order."""
    return {
        "schemaVersion": SCHEMA_VERSION,
        "hasBaseline": state["hasBaseline"],
        "currentMilestones": list(state["currentMilestones"]),
        "recordedMilestones": list(state["recordedMilestones"]),
    }


def restore(entries: Iterable[Mapping[str, Any]]) -> ProgressState | None:
    """The state held by the newest matching entry (the empty state when there is none), or None
    when that entry is invalid. Unlike the other two adapters, an error while reading the branch
    counts as invalid too (upstream's ``loadState`` catches everything)."""
    try:
        entry = latest_custom(entries, ENTRY_TYPE)
        if entry is None:
            return empty_state()
        return parse_payload(entry.get("data"))  # absent data reads as None: invalid
    except Exception:  # an unreadable branch warns like upstream's catch-all
        return None


def parse_payload(data: Any) -> ProgressState | None:
    """The state held by a persisted payload, or None when it is invalid in any way.

    Extra envelope keys are allowed (docs/primitives.md#restore-rules). Milestone entries are checked
    by the core itself.
    """
    try:
        if not isinstance(data, dict):
            return None
        # An absent key reads as None, which none of these checks accept.
        if not is_schema_version_one(data.get("schemaVersion")):
            return None
        if type(data.get("hasBaseline")) is not bool:
            return None
        current = data.get("currentMilestones")
        recorded = data.get("recordedMilestones")
        if not isinstance(current, list) or not isinstance(recorded, list):
            return None
        if not data["hasBaseline"] and recorded:
            return None
        judge_progress({"previous": {"milestones": recorded}, "current": {"milestones": current}})
    except Exception:
        return None
    return {
        "hasBaseline": data["hasBaseline"],
        "currentMilestones": list(current),
        "recordedMilestones": list(recorded),
    }
