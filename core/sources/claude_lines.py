"""What Claude Code's reader (``claude.py``) reads of a transcript line, decoded without the rest.

A user or assistant line is mostly what the reader never looks at: the answer's detailed usage
(server tools, cache tiers, iterations), ids, permission decisions, the git branch. msgspec
validates the whole line as JSON and builds only the fields named below, in a quarter of the
time ``json`` takes to build all of it: ``line_of`` hands the reader a dict of those fields alone,
each one present exactly when the line has it, with the value ``json`` would give. So a field
the reader reads must be named here too (tests/conversations/test_conversation_decoded_lines.py
reads the samples and hostile lines both ways and compares).

What msgspec refuses (a value of a shape these types do not take, a number ``json`` reads as
infinity, a lone surrogate or bytes that are not UTF-8 in a field named here, not an object at
all) raises one of ``REFUSED``: the caller then parses the line with ``loads_line``, as every
line was before, and the reader decides on that. Imported for a big read only (``reading.py``), as msgspec is for a
session's.
"""

from __future__ import annotations

from typing import TypedDict, Union

import msgspec

REFUSED = (msgspec.MsgspecError, RecursionError)


class _Usage(TypedDict, total=False):
    input_tokens: object
    output_tokens: object
    cache_read_input_tokens: object
    cache_creation_input_tokens: object


class _Block(TypedDict, total=False):
    type: object
    text: object
    id: object
    name: object
    input: object
    tool_use_id: object
    is_error: object
    content: object


class _Message(TypedDict, total=False):
    content: Union[str, list[_Block], None]
    usage: Union[_Usage, None]
    id: object
    model: object
    stop_reason: object


class _Line(TypedDict, total=False):
    type: object
    subtype: object
    isSidechain: object
    isMeta: object
    compactMetadata: object
    sessionId: object
    cwd: object
    version: object
    timestamp: object
    requestId: object
    toolUseResult: object
    message: Union[_Message, None]


line_of = msgspec.json.Decoder(_Line).decode
"""``line_of(raw)``: the fields of the line ``raw`` the reader reads, in a dict, as ``json`` gives
them; raises one of ``REFUSED`` when msgspec does not read it so (the caller parses it in full)."""
