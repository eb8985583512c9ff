"""Untrusted text made safe to show: never parsed as markup, control characters made visible.

Everything that comes from the session log or from an agent goes through ``safe`` / ``plain``
before it reaches a widget, so ``[red]x[/red]`` or an escape sequence shows literally.
"""

from __future__ import annotations

import re

from rich.text import Text

_BIDI = "\u202a-\u202e\u2066-\u2069\u200e\u200f"
_CONTROL = re.compile(f"[\x00-\x1f\x7f-\x9f{_BIDI}\ud800-\udfff]")


def _visible(match: re.Match[str]) -> str:
    ch = match.group()
    code = ord(ch)
    if code < 0x20:
        return chr(0x2400 + code)  # Unicode control pictures: ␛ for ESC, ␉ for TAB ...
    if code == 0x7F:
        return "\u2421"  # ␡
    return f"\\u{code:04x}" if code > 0xFF else f"\\x{code:02x}"


def clean(value: object, *, multiline: bool = False) -> str:
    """``value`` as a string with every control character replaced by a visible stand-in.

    With ``multiline`` newlines are kept (and tabs become spaces); otherwise a newline shows as ␊.
    """
    text = value if isinstance(value, str) else str(value)
    if multiline:
        text = text.replace("\r\n", "\n").replace("\t", "    ")
        return "\n".join(_CONTROL.sub(_visible, line) for line in text.split("\n"))
    return _CONTROL.sub(_visible, text)


def safe(value: object, style: str = "", *, multiline: bool = False) -> Text:
    """A rich ``Text`` holding ``value`` literally (no markup, no emoji codes)."""
    return Text(clean(value, multiline=multiline), style=style)


def one_line(value: object, style: str = "") -> Text:
    """``safe`` cut to one line with an ellipsis when the widget is too narrow."""
    text = safe(value, style)
    text.no_wrap = True
    text.overflow = "ellipsis"
    return text
