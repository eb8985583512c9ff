"""Agent Handoff core: validate one caller-declared handoff packet (docs/primitives.md#agent-handoff).

Port of ``createHandoff`` from ``@j1nn0/agent-handoff`` 0.1.1. The module deliberately exposes only
``create_handoff`` and ``HandoffError`` (everything else is private), like the upstream package.
"""

from typing import Any as _Any

from core.jsutil import is_non_empty_string as _is_non_empty_string
from core.jsutil import is_schema_version_one as _is_schema_version_one

__all__ = ["HandoffError", "create_handoff"]

_MESSAGE = "Invalid handoff input."

# Also the output key order (upstream's order, so compact JSON matches JSON.stringify).
_KEYS = (
    "schemaVersion",
    "id",
    "source",
    "destination",
    "goal",
    "constraints",
    "openItems",
    "evidenceReferences",
)
_KNOWN = frozenset(_KEYS)
_COPIED = _KEYS[1:]
_REQUIRED_STRINGS = ("id", "source", "goal")
_PROSE_LISTS = ("constraints", "openItems")


class HandoffError(Exception):
    """The only failure of the core; ``code`` is always ``"invalid_input"``."""

    def __init__(self, message: str = _MESSAGE) -> None:
        super().__init__(message)
        self.code = "invalid_input"


def create_handoff(input: _Any) -> dict[str, object]:
    """A new packet dict (keys in upstream order, fresh lists), or ``HandoffError``. (The adapter
    reads it as a ``core.shapes.Packet``: this module names no type of pideck's, as upstream's core
    depends on nothing.)"""
    try:
        return _create(input)
    except HandoffError:
        raise
    except Exception as exc:  # anything unexpected while reading the input is invalid input, as upstream
        raise HandoffError() from exc


def _create(value: _Any) -> dict[str, object]:
    if not isinstance(value, dict):
        raise HandoffError()
    # Unknown keys are rejected before any field is read (upstream's check order).
    if not _KNOWN.issuperset(value):
        raise HandoffError()
    if "schemaVersion" not in value or not _is_schema_version_one(value["schemaVersion"]):
        raise HandoffError()
    for key in _REQUIRED_STRINGS:
        if key not in value or not _is_non_empty_string(value[key]):
            raise HandoffError()
    if "destination" in value and not _is_non_empty_string(value["destination"]):
        raise HandoffError()
    for key in _PROSE_LISTS:
        if key in value:
            _check_string_list(value[key], allow_duplicates=True)
    if "evidenceReferences" in value:
        _check_string_list(value["evidenceReferences"], allow_duplicates=False)

    packet: dict[str, object] = {"schemaVersion": 1}
    for key in _COPIED:
        if key in value:
            field = value[key]
            packet[key] = list(field) if isinstance(field, list) else field
    return packet


def _check_string_list(items: _Any, *, allow_duplicates: bool) -> None:
    if not isinstance(items, list):
        raise HandoffError()
    seen: set[str] = set()  # an accelerator only; order comes from the list
    for item in items:
        if not _is_non_empty_string(item):
            raise HandoffError()
        if not allow_duplicates:
            if item in seen:
                raise HandoffError()
            seen.add(item)
