"""What the index reads from one line, decoded without building the line's body.

msgspec validates the whole line as JSON and builds only the fields named below: ``type``, ``id``,
``parentId``, ``customType`` and the message's ``role`` and ``toolName``. A duplicate key keeps its
last value, as JSON.parse does, and a key spelled with escapes counts as the key it spells, so what
comes back is what pi sees, for a fraction of a full decode. Any line msgspec refuses (not UTF-8, a
lone surrogate escape, not an object, nested too deeply, a ``message`` that is not an object) goes
to the slow path in ``indexing.py``, which parses it with ``json`` like pi and decides there.

Imported on the first read of a file, so commands that never read a session do not load msgspec.
"""

from array import array
from itertools import compress
from operator import attrgetter, sub

import msgspec

from core.session.parse import MAX_DEPTH, too_deep

SHORT = 2 * MAX_DEPTH
"""Lines of other types than ``message`` longer than this have their depth checked: their bodies
are what derived state is built from (message lines are checked when their body is read)."""


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
    usage: object = None
    provider: object = None
    model: object = None


class _Entry(msgspec.Struct, gc=False):
    type: str
    id: str
    parentId: "str | None" = None
    customType: "str | None" = None
    message: "_Role | None" = None
    timestamp: object = None


decode_entry = msgspec.json.Decoder(_Entry).decode
"""``decode_line`` for an ordinary entry only: every field a string (or null, where pi allows
it); anything else raises one of ``REFUSED`` (the caller then reads the line with
``decode_line``). What it returns is what ``decode_line`` gives for the same line, and besides,
for a message, what the usage ledger reads of it (``Batch.said``): the validation reads every
byte of the line anyway, so building those few fields here costs a fraction of reading the line
again for them."""

SAID_ROLES = ("assistant", "user")
"""The messages whose ``Said`` fields a batch carries: answers and prompts."""

REFUSED = (msgspec.MsgspecError, RecursionError)


class Batch:
    """The identities of a run of lines that are all ordinary entries (``decode_entry`` read
    every one, none is a second header, none nests too deeply to be read back): what the index
    needs of them, in file order. Their kinds are ``table[codes[i]]`` (the kinds in the order
    they first appear); ``offsets`` are file offsets of the lines."""

    __slots__ = ("ids", "parent_ids", "table", "codes", "offsets", "lengths", "back", "outside", "said_at", "said")

    def __init__(self, ids: list, parent_ids: list, table: list, codes: "list[int] | array[int]",
                 offsets: "list[int] | array[int]", lengths: "list[int] | array[int]",
                 said_at: "list[int] | None" = None, said: "list[tuple] | None" = None) -> None:
        self.ids, self.parent_ids, self.table, self.codes = ids, parent_ids, table, codes
        self.offsets, self.lengths = offsets, lengths
        self.said_at: list[int] = said_at or []
        """The entries (places in the batch) that are answers or prompts (``SAID_ROLES``)."""
        self.said: list[tuple] = said or []
        """Of each of them, as JSON gives them: (timestamp, role, usage, provider, model)."""
        self.back: "array[int] | None" = None
        """Instead of ``parent_ids`` (``split.py``): how many entries back in the batch each
        entry's parent is, 0 for the entries in ``outside``."""
        self.outside: "list[tuple[int, str | None]]" = []
        """(entry, parentId) of the entries whose parent is not an earlier entry of the batch."""


_ID, _PARENT_ID = attrgetter("id"), attrgetter("parentId")


def decode_batch(data: "bytes | bytearray", start: int, size: int, base: int) -> "Batch | None":
    """The ``Batch`` of the lines of ``data[start:size]`` (whole lines; ``data[0]`` is at file
    offset ``base``), each step run over all of them at once in C where it can; None when any
    line is not an ordinary entry (each line then has to be decided about on its own, as pi
    would). A pure function of the bytes, so it may run in another process (``split.py``)."""
    find, ends, end = data.find, [], start - 1
    while (end := find(b"\n", end + 1, size)) >= 0:
        ends.append(end)
    starts = [start, *map((1).__add__, ends[:-1])]
    lines = list(map(memoryview(data).__getitem__, map(slice, starts, ends)))  # views: no copies
    try:
        entries = list(map(decode_entry, lines))
    except REFUSED:
        return None
    del lines  # (the tailer reuses its buffer: no view of it may outlive this call)
    kinds: dict = {}
    add = kinds.setdefault
    codes = [
        add((e.type, e.customType, m.role, m.toolName), len(kinds)) if (m := e.message) is not None and e.type == "message"
        else add((e.type, e.customType, None, None), len(kinds)) for e in entries
    ]
    table = list(kinds)
    lengths = list(map(sub, ends, starts))
    if any(kind[0] == "session" for kind in table):  # a second header
        return None
    plain = [code for code, kind in enumerate(table) if kind[0] != "message"]
    if plain and any(  # a line too deep to read back
            lengths[i] > SHORT and too_deep(data[starts[i]:ends[i]])
            for i in compress(range(len(codes)), map(set(plain).__contains__, codes))):
        return None
    said_codes = {code for code, kind in enumerate(table) if kind[0] == "message" and kind[2] in SAID_ROLES}
    said_at = list(compress(range(len(codes)), map(said_codes.__contains__, codes))) if said_codes else []
    said = [(e.timestamp, m.role, m.usage, m.provider, m.model)
            for e in map(entries.__getitem__, said_at) if (m := e.message) is not None]  # (each has one)
    return Batch(list(map(_ID, entries)), list(map(_PARENT_ID, entries)), table, codes,
                 list(map(base.__add__, starts)), lengths, said_at, said)
