"""Untrusted text made safe to show: never parsed as markup, control characters made visible.

Everything that comes from the session log or from an agent goes through ``safe`` / ``plain``
before it reaches a widget, so ``[red]x[/red]`` or an escape sequence shows literally.
"""

from __future__ import annotations

import re

from rich.text import Text

from core.untrusted import visible_controls as clean

__all__ = ["clean", "has_controls", "markdown_literal", "one_line", "one_to_one", "safe"]

_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u200e\u200f\ud800-\udfff]")


def _one_cell(match: re.Match[str]) -> str:
    code = ord(match.group())
    return chr(0x2400 + code) if code < 0x20 else "\u2421" if code == 0x7F else "\ufffd"


def one_to_one(value: str) -> str:
    """``value`` with each control character replaced by ONE visible character (␛, ␡, or �), so
    indexes and cursor positions stay the same: for text being edited, like the command line."""
    return _CONTROL.sub(_one_cell, value)


def has_controls(value: str) -> bool:
    return _CONTROL.search(value) is not None

_MARKDOWN_PUNCTUATION = re.compile(r"([!-/:-@\[-`{-~])")


def safe(value: object, style: str = "", *, multiline: bool = False) -> Text:
    """A rich ``Text`` holding ``value`` literally (no markup, no emoji codes)."""
    return Text(clean(value, multiline=multiline), style=style)


def one_line(value: object, style: str = "") -> Text:
    """``safe`` cut to one line with an ellipsis when the widget is too narrow."""
    text = safe(value, style)
    text.no_wrap = True
    text.overflow = "ellipsis"
    return text


def markdown_literal(value: str) -> str:
    """Markdown source that shows ``value`` literally on one line: control characters made visible
    (a newline shows as ␊, so it cannot start a heading or a list) and every ASCII punctuation
    character backslash-escaped (CommonMark allows it for all of them), so ``__init__``,
    ``[text](url)``, ``<b>`` or a backtick stay text."""
    return _MARKDOWN_PUNCTUATION.sub(r"\\\1", clean(value))
