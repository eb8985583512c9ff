"""Pure state mutations: each returns a new state on change or the reason it did not change.

Inputs are never modified and results never alias them, so the adapter can persist a result's
state as is and "append only on change" is a single ``if result.changed``.
"""

# (No ``from __future__ import annotations``: typing would compile the string annotations of the
# NamedTuples below, and inspect, run, tool and the hooks compile nothing: core/slotted.py.)

from typing import TYPE_CHECKING, Any, Literal, NamedTuple, cast

from core.jsutil import is_non_empty_string
from core.primitives.handoff.core import HandoffError, create_handoff

if TYPE_CHECKING:
    from core.shapes import HandoffState, Packet
else:  # A plain dict at run time, where core.shapes is not loaded: a NamedTuple's annotations are
    # evaluated, and so are the other modules' aliases that import it from here.
    HandoffState = dict
Reason = Literal["invalid", "duplicate", "not_found", "no_change"]


class Mutation(NamedTuple):  # (a NamedTuple, as in core/primitives/host.py: made quickly at start-up)
    """``changed`` with the new ``state``, or unchanged with a ``reason``."""

    changed: bool
    state: HandoffState | None = None  # set only when changed
    reason: Reason | None = None  # set only when not changed


def empty_state() -> HandoffState:
    return {"packets": []}


def copy_state(state: HandoffState) -> HandoffState:
    """A copy sharing nothing that can change: a packet holds strings, an int and lists of strings
    (``core.create_handoff`` made it so), so new dicts and lists are the deep copy, made without
    ``copy.deepcopy``'s walk (the activity walk restores thousands of states: core/views/points.py)."""
    return {"packets": [cast("Packet", {k: list(v) if isinstance(v, list) else v for k, v in packet.items()})
                        for packet in state["packets"]]}


def validated_packet(raw: Any) -> "Packet":
    """``create_handoff(raw)``, read as the packet it is: the core checked every key and value (it
    names no type of pideck's). Raises ``HandoffError``."""
    return cast("Packet", create_handoff(raw))


def create_packet(state: HandoffState, raw: Any) -> Mutation:
    try:
        packet = validated_packet(raw)
    except HandoffError:
        return Mutation(False, reason="invalid")
    if any(p["id"] == packet["id"] for p in state["packets"]):
        return Mutation(False, reason="duplicate")
    new = copy_state(state)
    new["packets"].append(packet)
    return Mutation(True, state=new)


def remove_packet(state: HandoffState, packet_id: Any) -> Mutation:
    if not is_non_empty_string(packet_id):
        return Mutation(False, reason="invalid")
    for index, packet in enumerate(state["packets"]):
        if packet["id"] == packet_id:  # exact spelling; only the first match goes
            new = copy_state(state)
            del new["packets"][index]
            return Mutation(True, state=new)
    return Mutation(False, reason="not_found")


def clear_state(state: HandoffState) -> Mutation:
    if not state["packets"]:
        return Mutation(False, reason="no_change")
    return Mutation(True, state=empty_state())
