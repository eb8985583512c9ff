"""The ``/agent-handoff`` command: parse the args and decide the notice and the new state.

Pure: ``run_command`` answers with the ``Outcome`` the adapter's controller settles
(``core/primitives/controller.py``), which persists the new state (only present on change) before
the notice is shown.
"""

from __future__ import annotations

from core.jsutil import is_blank
from core.primitives.controller import Outcome
from core.primitives.grammar import CONFIRM, SubCommand, Words, arg
from core.primitives.handoff import messages as m
from core.primitives.handoff.format import format_handoff_error, format_handoff_packet, format_handoff_state
from core.primitives.handoff.mutations import HandoffState, clear_state, remove_packet
from core.primitives.host import Notice
from core.primitives.parsing import is_blank_rest, is_confirmed, single_argument, split_subcommand

CommandResult = tuple[Notice, "HandoffState | None"]

_PACKET = arg("<id>", words=Words.PACKETS)
SUBCOMMANDS: tuple[SubCommand, ...] = tuple(SubCommand(m.COMMAND, sub, args, help) for sub, args, help in (
    ("status", (), "List the handoff packets"),
    ("show", (_PACKET,), "Show one packet"),
    ("remove", (_PACKET,), "Remove one packet"),
    ("clear", (CONFIRM,), "Remove every packet"),
))


def _info(message: str) -> CommandResult:
    return Notice(message, "info"), None


def _warning(message: str) -> CommandResult:
    return Notice(message, "warning"), None


def run_command(state: HandoffState, args: str) -> Outcome[list[Notice], HandoffState]:
    try:
        notice, new_state = _handle(state, args)
    except Exception as exc:  # noqa: BLE001 (upstream wraps the whole handler)
        return Outcome([Notice(format_handoff_error(exc), "warning")])
    return Outcome([notice], new_state)


def _handle(state: HandoffState, args: str) -> CommandResult:
    if is_blank(args):  # unlike the other adapters, bare /agent-handoff is status
        return _info(format_handoff_state(state))
    parsed = split_subcommand(args)
    if parsed is None:
        return _warning(m.USAGE)
    sub, rest = parsed
    if sub == "status":
        return _info(format_handoff_state(state)) if is_blank_rest(rest) else _warning(m.USAGE)
    if sub == "show":
        return _show(state, rest)
    if sub == "remove":
        return _remove(state, rest)
    if sub == "clear":
        return _clear(state, rest)
    return _warning(m.USAGE)


def _show(state: HandoffState, rest: str) -> CommandResult:
    packet_id = single_argument(rest)
    if packet_id is None:
        return _warning(m.USAGE)
    for packet in state["packets"]:
        if packet["id"] == packet_id:
            return _info(format_handoff_packet(packet))
    return _warning(m.unknown_packet(packet_id))


def _remove(state: HandoffState, rest: str) -> CommandResult:
    packet_id = single_argument(rest)
    if packet_id is None:
        return _warning(m.USAGE)
    result = remove_packet(state, packet_id)
    if result.changed:
        return Notice(m.removed_packet_command(packet_id), "info"), result.state
    if result.reason == "not_found":
        return _warning(m.unknown_packet(packet_id))
    return _warning(m.INVALID_MUTATION)


def _clear(state: HandoffState, rest: str) -> CommandResult:
    count = len(state["packets"])
    if not is_confirmed(rest):
        return _info(m.ALREADY_CLEAR) if count == 0 else _warning(m.clear_would_remove(count))
    result = clear_state(state)
    if not result.changed:
        return _info(m.ALREADY_CLEAR)
    return Notice(m.CLEARED, "info"), result.state
