"""Text from a session log is untrusted: make control characters visible before it is shown.

An escape sequence in a work item or a packet goal must never drive the user's terminal, whether
it reaches the screen through the TUI or through the CLI's output.
"""

from __future__ import annotations

import re

_BIDI = "\u202a-\u202e\u2066-\u2069\u200e\u200f"
_SEPARATORS = "\u2028\u2029"
CONTROL = re.compile(f"[\x00-\x1f\x7f-\x9f{_SEPARATORS}{_BIDI}\ud800-\udfff]")
"""Characters that must never reach a terminal as they are: C0/C1 controls, DEL, the line and
paragraph separators (a terminal or a layout may break the line there: one line of a log would look
like two), bidirectional overrides (they reorder what is shown) and lone surrogates (they cannot
be encoded)."""
_MARKDOWN_PUNCTUATION = re.compile(r"([!-/:-@\[-`{-~])")


def _visible(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code < 0x20:
        return chr(0x2400 + code)  # Unicode control pictures: ␛ for ESC, ␉ for TAB ...
    if code == 0x7F:
        return "\u2421"  # ␡
    return f"\\u{code:04x}" if code > 0xFF else f"\\x{code:02x}"


def visible_controls(value: object, *, multiline: bool = False) -> str:
    """``value`` as a string with every control character replaced by a visible stand-in.

    With ``multiline`` newlines are kept (and tabs become spaces); otherwise a newline shows as ␊.
    """
    text = value if isinstance(value, str) else str(value)
    if multiline:
        text = text.replace("\r\n", "\n").replace("\t", "    ")
        return "\n".join(CONTROL.sub(_visible, line) for line in text.split("\n"))
    return CONTROL.sub(_visible, text)


LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def encodable(text: str) -> str:
    """``text`` with each lone surrogate (a JSON string may hold one; UTF-8 cannot) written as its
    escape, ``\\ud800``, the way JSON.stringify writes it: everything else is left as it is."""
    return LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def markdown_literal(value: str) -> str:
    """Markdown source that shows ``value`` literally on one line: control characters made visible
    (a newline shows as ␊, so it cannot start a heading or a list) and every ASCII punctuation
    character backslash-escaped (CommonMark allows it for all of them), so ``__init__``,
    ``[text](url)``, ``<b>`` or a backtick stay text."""
    return _MARKDOWN_PUNCTUATION.sub(r"\\\1", visible_controls(value))
