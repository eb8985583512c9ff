"""A tool's parameters told from its JSON Schema: what ``pideck tool NAME --help`` lists, and which
field a refused call lacks or got wrong (docs/primitives.md#tool-parameters).

Upstream's validators answer a bad call with one text ("invalid agent state input."), and that text
stays the tool's result byte for byte. The schema each tool declares already says what every field
must be, so the front ends add, beside that text, the fields that do not fit it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Collection

if TYPE_CHECKING:
    from core.primitives.host import ToolDef
    from core.shapes import Schema

_TYPES: dict[str, tuple[type, ...]] = {"string": (str,), "integer": (int,), "number": (int, float), "boolean": (bool,),
                                       "array": (list,), "object": (dict,)}


def _kind(value: object) -> str:
    """The JSON name of a value's type."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object" if isinstance(value, dict) else type(value).__name__


def _fits_type(value: object, expected: str) -> bool:
    if isinstance(value, bool) and expected in ("integer", "number"):
        return False  # (JSON's true is not a number)
    return isinstance(value, _TYPES.get(expected, (object,)))


def problems(schema: Schema, value: object, where: str = "") -> list[str]:
    """Each way ``value`` does not fit ``schema``, as ``field: what is wrong`` (``todos[2].status``),
    in the order the schema lists its fields; [] when it fits."""
    name = where or "the parameters"
    expected = schema.get("type")
    if expected is not None and not _fits_type(value, expected):
        return [f"{name}: must be {_article(expected)}, not {_article(_kind(value))}"]
    if "const" in schema and value != schema["const"]:
        return [f"{name}: must be {_shown(schema['const'])}"]
    if "enum" in schema and value not in schema["enum"]:
        return [f"{name}: must be one of {', '.join(schema['enum'])}, not {_shown(value)}"]
    found: list[str] = []
    if isinstance(value, dict):
        properties = schema.get("properties", {})
        for key in schema.get("required", []):
            if key not in value:
                found.append(f"{_field(where, key)}: required, missing")
        for key, inner in properties.items():
            if key in value:
                found += problems(inner, value[key], _field(where, key))
        if schema.get("additionalProperties") is False:
            found += [f"{_field(where, key)}: not a parameter (the parameters are {', '.join(properties) or 'none'})"
                      for key in value if key not in properties]
    elif isinstance(value, list) and "items" in schema:
        for index, item in enumerate(value):
            found += problems(schema["items"], item, f"{name}[{index}]")
    elif isinstance(value, int) and not isinstance(value, bool):
        if "minimum" in schema and value < schema["minimum"]:
            found.append(f"{name}: must be at least {schema['minimum']}")
        if "maximum" in schema and value > schema["maximum"]:
            found.append(f"{name}: must be at most {schema['maximum']}")
    return found


def what_does_not_fit(tool: ToolDef, params: object, packet_ids: Collection[str] = ()) -> list[str]:
    """What a front end says beside a refused call's text: each field that does not fit the tool's
    schema; for a packet that fits it, each of the core's own checks it fails (an empty goal, an
    id among ``packet_ids``, core/deck/packet_problems.py)."""
    found = problems(tool.parameters, params)
    if not found and tool.name == "agent_handoff_create":
        from core.deck.packet_problems import packet_problems

        found = [f"{field}: {what}" for field, what in packet_problems(params, packet_ids)]
    return found


def describe(tool: ToolDef) -> str:
    """The tool's description and one line per parameter: its name, type, whether it is required,
    its allowed values and its description (nested objects indented under their field)."""
    lines = [f"usage: pideck tool {tool.name} [JSON]", "", tool.description, "", "parameters (a JSON object):"]
    lines += _parameter_lines(tool.parameters, "  ") or ["  (none)"]
    return "\n".join(lines)


def _parameter_lines(schema: Schema, indent: str) -> list[str]:
    lines: list[str] = []
    required = set(schema.get("required", []))
    for key, inner in schema.get("properties", {}).items():
        kind = inner.get("type", "any")
        items = inner.get("items", {})
        if kind == "array" and "type" in items:
            kind = f"array of {items['type']}s"
        facts = [kind, "required" if key in required else "optional"]
        if "enum" in inner:
            facts.append("one of " + "|".join(inner["enum"]))
        if "const" in inner:
            facts.append(f"always {_shown(inner['const'])}")
        if "minimum" in inner or "maximum" in inner:
            facts.append(f"{inner.get('minimum', '')}..{inner.get('maximum', '')}")
        description = inner.get("description", "")
        lines.append(f"{indent}{key} ({', '.join(facts)})" + (f": {description}" if description else ""))
        nested = items if items.get("type") == "object" else inner if kind == "object" else None
        if nested is not None:
            lines += _parameter_lines(nested, indent + "  ")
    return lines


def _field(where: str, key: str) -> str:
    return f"{where}.{key}" if where else key


def _article(kind: str) -> str:
    return ("an " if kind[:1] in "aeiou" else "a ") + kind if kind != "null" else "null"


def _shown(value: object) -> str:
    import json

    return json.dumps(value, ensure_ascii=False)
