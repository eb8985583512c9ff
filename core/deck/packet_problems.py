"""Which field of a packet the core turns down, in a person's words (docs/primitives.md#tool-parameters).

The core answers every bad packet with one text, upstream's, which stays the result. The F7 form
and ``pideck tool`` add, beside it, each field that fails one of the core's checks, in the core's
order, with the field's name as the person knows it.
"""

from __future__ import annotations

from typing import Collection, Mapping

from core.jsutil import is_blank, is_non_empty_string

REQUIRED = ("id", "source", "goal")
LISTS = ("constraints", "openItems", "evidenceReferences")
KNOWN = ("schemaVersion", "id", "source", "destination", "goal", *LISTS)


def packet_problems(value: object, existing: Collection[str] = ()) -> list[tuple[str, str]]:
    """(field, what is wrong) for each check of the core ``value`` fails, and an id already among
    ``existing`` (the packets there now; the adapter turns a duplicate down too)."""
    if not isinstance(value, Mapping):
        return [("", "the packet must be a JSON object")]
    found = [(key, "not a field of a packet") for key in value if key not in KNOWN]
    if value.get("schemaVersion") != 1 or isinstance(value.get("schemaVersion"), bool):
        found.append(("schemaVersion", "must be 1"))
    for key in REQUIRED:
        if not is_non_empty_string(value.get(key)):
            found.append((key, "required, but empty" if isinstance(value.get(key), str) else "required: a text"))
    if "destination" in value and not is_non_empty_string(value["destination"]):
        found.append(("destination", "empty: leave it out or name one"))
    for key in LISTS:
        if key not in value:
            continue
        items = value[key]
        if not isinstance(items, list):
            found.append((key, "must be a list of texts"))
            continue
        if any(not isinstance(item, str) or is_blank(item) for item in items):
            found.append((key, "holds an empty or non-text item"))
        if key == "evidenceReferences":
            repeated = sorted({item for item in items if isinstance(item, str) and items.count(item) > 1})
            if repeated:
                found.append((key, "repeats " + ", ".join(repr(item) for item in repeated)))
    if is_non_empty_string(value.get("id")) and value["id"] in existing:
        found.append(("id", f"a packet {value['id']!r} exists already"))
    return found
