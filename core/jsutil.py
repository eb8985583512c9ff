"""JavaScript semantics the upstream TypeScript cores rely on (docs/primitives.md#javascript-whitespace).

Python's str.strip(), str.isspace() and re's \\s use a different whitespace set than JavaScript's
String.prototype.trim() and regex \\s, so every blankness test and trim in pideck goes through here.
"""

from __future__ import annotations

import json
import re
from typing import Any

JS_WHITESPACE = (
    "\t\n\x0b\x0c\r \xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006"
    "\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
)

_WS_CHARS = re.escape(JS_WHITESPACE)
WS = f"[{_WS_CHARS}]"
"""Regex class for JavaScript ``\\s``."""
NON_WS = f"[^{_WS_CHARS}]"
"""Regex class for JavaScript ``\\S``."""
ANY = "[\\s\\S]"
"""JavaScript ``[\\s\\S]``: any character, newlines included (the union is the same in Python)."""


def js_trim(s: str) -> str:
    return s.strip(JS_WHITESPACE)


def js_trim_start(s: str) -> str:
    return s.lstrip(JS_WHITESPACE)


def js_split(s: str) -> list[str]:
    """Words of ``s`` separated by JavaScript whitespace (JavaScript ``s.trim().split(/\\s+/)``; none when blank)."""
    t = js_trim(s)
    return re.split(f"{WS}+", t) if t else []


def is_blank(s: str) -> bool:
    return not s.strip(JS_WHITESPACE)


def is_non_empty_string(value: Any) -> bool:
    """The upstream identifier test: a str that is not blank. (Written out rather than through
    ``is_blank``: the activity walk restores every state a session held, and this runs for each
    id and text of each of them.)"""
    return isinstance(value, str) and bool(value.strip(JS_WHITESPACE))


def is_schema_version_one(value: Any) -> bool:
    """``schemaVersion`` must be the int 1 or the float 1.0; bool, "1" and the rest are rejected."""
    return type(value) in (int, float) and value == 1


def compact_json(value: Any) -> str:
    """JSON exactly as JavaScript ``JSON.stringify`` writes it (and as pi writes its log lines)."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


_SURROGATE = re.compile("[\ud800-\udfff]")


def has_surrogates(text: str) -> bool:
    return _SURROGATE.search(text) is not None


def escape_lone_surrogates(text: str) -> str:
    """JSON text as ``JSON.stringify`` writes it: a high+low surrogate pair is one character, a lone
    surrogate (which UTF-8 cannot encode) is written as a lowercase ``\\udxxx`` escape."""
    if not has_surrogates(text):
        return text
    text = text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")
    return _SURROGATE.sub(lambda m: "\\u%04x" % ord(m.group()), text)


def lower_first(message: str) -> str:
    """Adapters quote a core error with its first letter lowercased
    (docs/primitives.md#errors-and-how-adapters-word-them)."""
    return message[:1].lower() + message[1:]


def plural(count: int, singular: str, plural_form: str | None = None) -> str:
    """``1 thing`` / ``0 things`` / ``2 things``: singular only when the count is exactly 1."""
    return singular if count == 1 else (plural_form or singular + "s")
