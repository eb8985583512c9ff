"""What the index reads from one line, decoded without building the line's body.

msgspec validates the whole line as JSON and builds only the fields named below: ``type``, ``id``,
``parentId``, ``customType`` and the message's ``role`` and ``toolName``. A duplicate key keeps its
last value, as JSON.parse does, and a key spelled with escapes counts as the key it spells, so what
comes back is what pi sees, for a fraction of a full decode. Any line msgspec refuses (not UTF-8, a
lone surrogate escape, not an object, nested too deeply, a ``message`` that is not an object) goes
to the slow path in ``indexing.py``, which parses it with ``json`` like pi and decides there.

Imported on the first read of a file, so commands that never read a session do not load msgspec.
"""

import msgspec


class _Message(msgspec.Struct, gc=False):
    role: object = None
    toolName: object = None


class _Line(msgspec.Struct, gc=False):
    type: object = None
    id: object = None
    parentId: object = None
    customType: object = None
    message: "_Message | None" = None


decode_line = msgspec.json.Decoder(_Line).decode
"""``decode_line(bytes_like)`` -> an object with the fields above; raises one of ``REFUSED``."""


class _Role(msgspec.Struct, gc=False):
    role: "str | None" = None
    toolName: "str | None" = None


class _Entry(msgspec.Struct, gc=False):
    type: str
    id: str
    parentId: "str | None" = None
    customType: "str | None" = None
    message: "_Role | None" = None


decode_entry = msgspec.json.Decoder(_Entry).decode
"""``decode_line`` for an ordinary entry only: every field a string (or null, where pi allows
it); anything else raises one of ``REFUSED`` (the caller then reads the line with
``decode_line``). What it returns is what ``decode_line`` gives for the same line."""

REFUSED = (msgspec.MsgspecError, RecursionError)
