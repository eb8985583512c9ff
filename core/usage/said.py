"""What the usage ledger reads of a pi message line, decoded without the rest of it.

An assistant line is mostly what the agent said and the tools it called; the ledger reads its
timestamp, role, usage, provider and model (core/usage/ledger.py ``add_message``). msgspec checks
the whole line as JSON and builds only those fields, each as JSON gives it (a duplicate key keeps
its last value, as JSON.parse does), so they are what a full read of the line gives. A line it
refuses, or whose ``message`` is not an object, is read whole by the caller instead. The scan
of a big file decodes the same fields as it indexes (core/session/scan.py ``Batch.said``); this
reads them of the lines it did not.
"""

from __future__ import annotations

import msgspec


class _Message(msgspec.Struct, gc=False):
    role: object = None
    usage: object = None
    provider: object = None
    model: object = None


class _Said(msgspec.Struct, gc=False):
    id: object = None
    timestamp: object = None
    message: "_Message | None" = None


_decode = msgspec.json.Decoder(_Said).decode


def fields_of(line: bytes | memoryview, entry_id: str) -> tuple[object, object, object, object, object] | None:
    """(timestamp, role, usage, provider, model) of the message ``line``, when it decodes so and
    is still the entry ``entry_id`` (the index's); None otherwise."""
    try:
        said = _decode(line)
    except (msgspec.MsgspecError, RecursionError):
        return None
    message = said.message
    if said.id != entry_id or message is None:
        return None
    return said.timestamp, message.role, message.usage, message.provider, message.model
