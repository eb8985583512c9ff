"""Agent State core: a port of ``@j1nn0/agent-state`` 0.1.0 (docs/primitives.md#agent-state).

A caller-declared objective, work items and decisions. Nothing here infers, verifies or judges:
the state only records what it is told, validates it strictly and hands out fresh copies.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from core.jsutil import is_non_empty_string, is_schema_version_one

if TYPE_CHECKING:  # (names for annotations alone: core.shapes is not loaded to run a primitive)
    from typing import ParamSpec, TypeGuard, TypeVar

    from core.shapes import Decision, StateSnapshot, WorkItem, WorkItemStatus

    _P = ParamSpec("_P")
    _T = TypeVar("_T")
    _Stored = TypeVar("_Stored", bound=Decision)  # a work item has a decision's keys, and its status

WORK_ITEM_STATUSES = ("open", "in_progress", "blocked", "done")

INVALID_INPUT = "Invalid agent state input."
INVALID_SNAPSHOT = "Invalid agent state snapshot."

_ABSENT: Any = object()
"""Private default: "no argument", which JS ``undefined`` means. ``None`` is JS ``null``."""


class AgentStateError(Exception):
    """The core's only error. ``code`` is invalid_input, duplicate_item_id or unknown_item_id."""

    def __init__(self, code: str, message: str, item_id: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.item_id = item_id


def _invalid(message: str = INVALID_INPUT) -> AgentStateError:
    return AgentStateError("invalid_input", message)


def _duplicate_work_item(item_id: str) -> AgentStateError:
    return AgentStateError("duplicate_item_id", f'Duplicate work item id "{item_id}".', item_id)


def _duplicate_decision(item_id: str) -> AgentStateError:
    return AgentStateError("duplicate_item_id", f'Duplicate decision id "{item_id}".', item_id)


def _is_status(value: Any) -> TypeGuard[WorkItemStatus]:
    return isinstance(value, str) and value in WORK_ITEM_STATUSES


def _id_and_content(value: Any, message: str) -> tuple[str, str]:
    """A dict whose ``id`` and ``content`` are non-blank strings: the check work items and decisions
    share, in inputs and snapshots."""
    if not isinstance(value, dict) or "id" not in value or "content" not in value:
        raise _invalid(message)
    item_id, content = value["id"], value["content"]
    if not is_non_empty_string(item_id) or not is_non_empty_string(content):
        raise _invalid(message)
    return item_id, content


def _work_item(value: Any, *, snapshot: bool) -> WorkItem:
    """A validated work item. In a snapshot ``status`` is required; in an input it defaults."""
    message = INVALID_SNAPSHOT if snapshot else INVALID_INPUT
    item_id, content = _id_and_content(value, message)
    if "status" in value:
        status = value["status"]
        if not _is_status(status):
            raise _invalid(message)
    elif snapshot:
        raise _invalid(message)
    else:
        status = "open"
    return {"id": item_id, "content": content, "status": status}


def _decision(value: Any, *, snapshot: bool) -> Decision:
    item_id, content = _id_and_content(value, INVALID_SNAPSHOT if snapshot else INVALID_INPUT)
    return {"id": item_id, "content": content}


def _guarded(message: str, validate: Callable[_P, _T], *args: _P.args, **kwargs: _P.kwargs) -> _T:
    """Run a validator; any unexpected exception becomes ``invalid_input``
    (docs/primitives.md#errors-and-how-adapters-word-them)."""
    try:
        return validate(*args, **kwargs)
    except AgentStateError:
        raise
    except Exception as error:
        raise _invalid(message) from error


def _unique(
    candidates: list[Any], validate: Callable[[Any], _Stored], duplicate: Callable[[str], AgentStateError]
) -> dict[str, _Stored]:
    """Validate in array order, each duplicate check right after its element (first problem wins)."""
    stored: dict[str, _Stored] = {}
    for candidate in candidates:
        value = validate(candidate)
        if value["id"] in stored:
            raise duplicate(value["id"])
        stored[value["id"]] = value
    return stored


def _collections(
    raw_items: list[Any], raw_decisions: list[Any], *, snapshot: bool
) -> tuple[dict[str, WorkItem], dict[str, Decision]]:
    """All work items are checked before any decision."""
    items = _unique(raw_items, lambda v: _work_item(v, snapshot=snapshot), _duplicate_work_item)
    decisions = _unique(
        raw_decisions, lambda v: _decision(v, snapshot=snapshot), _duplicate_decision
    )
    return items, decisions


def _validate_input(value: Any) -> tuple[Any, dict[str, WorkItem], dict[str, Decision]]:
    if value is _ABSENT:
        return _ABSENT, {}, {}
    if not isinstance(value, dict):
        raise _invalid()
    objective = value.get("objective", _ABSENT)
    if objective is not _ABSENT and not isinstance(objective, str):
        raise _invalid()
    raw_items = value.get("workItems", [])
    raw_decisions = value.get("decisions", [])
    if not isinstance(raw_items, list) or not isinstance(raw_decisions, list):
        raise _invalid()
    return (objective, *_collections(raw_items, raw_decisions, snapshot=False))


def _validate_snapshot(value: Any) -> tuple[Any, dict[str, WorkItem], dict[str, Decision]]:
    if not isinstance(value, dict):
        raise _invalid(INVALID_SNAPSHOT)
    if not is_schema_version_one(value.get("schemaVersion", _ABSENT)):
        raise _invalid(INVALID_SNAPSHOT)
    objective = value.get("objective", _ABSENT)
    if objective is not _ABSENT and not isinstance(objective, str):
        raise _invalid(INVALID_SNAPSHOT)
    if "workItems" not in value or not isinstance(value["workItems"], list):
        raise _invalid(INVALID_SNAPSHOT)
    if "decisions" not in value or not isinstance(value["decisions"], list):
        raise _invalid(INVALID_SNAPSHOT)
    return (objective, *_collections(value["workItems"], value["decisions"], snapshot=True))


class AgentState:
    """Live state. Dicts keep insertion order and keep a key's position when its value is
    replaced, exactly like the JavaScript ``Map`` upstream uses."""

    def __init__(
        self, objective: Any, items: dict[str, WorkItem], decisions: dict[str, Decision]
    ) -> None:
        self._objective = objective  # _ABSENT or a str (possibly "")
        self._items = items
        self._decisions = decisions

    def add_work_item(self, item: Any) -> WorkItem:
        stored = _guarded(INVALID_INPUT, _work_item, item, snapshot=False)
        if stored["id"] in self._items:
            raise _duplicate_work_item(stored["id"])
        self._items[stored["id"]] = stored
        return stored.copy()

    def set_work_item_status(self, id: Any, status: Any) -> WorkItem:
        if not is_non_empty_string(id) or not _is_status(status):
            raise _invalid()
        existing = self._items.get(id)
        if existing is None:
            raise AgentStateError("unknown_item_id", f'Unknown work item id "{id}".', id)
        updated: WorkItem = {"id": existing["id"], "content": existing["content"], "status": status}
        self._items[id] = updated
        return updated.copy()

    def get_work_item(self, id: Any) -> WorkItem | None:
        item = self._lookup(id)
        return None if item is None else item.copy()

    def list_work_items(self) -> list[WorkItem]:
        return [item.copy() for item in self._items.values()]

    def remove_work_item(self, id: Any) -> bool:
        if self._lookup(id) is None:
            return False
        del self._items[id]
        return True

    def add_decision(self, decision: Any) -> Decision:
        stored = _guarded(INVALID_INPUT, _decision, decision, snapshot=False)
        if stored["id"] in self._decisions:
            raise _duplicate_decision(stored["id"])
        self._decisions[stored["id"]] = stored
        return stored.copy()

    def list_decisions(self) -> list[Decision]:
        return [decision.copy() for decision in self._decisions.values()]

    def snapshot(self) -> StateSnapshot:
        result: StateSnapshot = {
            "schemaVersion": 1,
            "workItems": self.list_work_items(),
            "decisions": self.list_decisions(),
        }
        if self._objective is not _ABSENT:
            result["objective"] = self._objective
        return result

    def _lookup(self, id: Any) -> WorkItem | None:
        """The stored item for ``id``; any non-id value (even an unhashable one) finds nothing."""
        if not isinstance(id, str):
            return None
        return self._items.get(id)


def create_agent_state(input: Any = _ABSENT) -> AgentState:
    """``createAgentState(input?)``: all-or-nothing: every work item, then every decision, is
    validated before a state exists (docs/primitives.md#order-of-checks)."""
    return AgentState(*_guarded(INVALID_INPUT, _validate_input, input))


def restore_agent_state(snapshot: Any) -> AgentState:
    """``restoreAgentState(snapshot)``: strict validation of an untrusted snapshot: a restored work
    item must carry its status (docs/primitives.md#agent-state)."""
    return AgentState(*_guarded(INVALID_SNAPSHOT, _validate_snapshot, snapshot))


def summarize_agent_state(snapshot: Any) -> dict[str, int]:
    """Counts per status and the total; no validation and no ratio."""
    items = snapshot["workItems"]
    if not isinstance(items, list):
        raise TypeError("snapshot workItems is not a list")
    summary = {"open": 0, "in_progress": 0, "blocked": 0, "done": 0, "total": 0}
    for item in items:
        status = item.get("status") if isinstance(item, dict) else None
        if isinstance(status, str) and _is_status(status):
            summary[status] += 1
        summary["total"] += 1
    return summary
