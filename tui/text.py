"""Untrusted text made safe to show: never parsed as markup, control characters made visible.

Everything that comes from the session log or from an agent goes through ``safe`` / ``plain``
before it reaches a widget, so ``[red]x[/red]`` or an escape sequence shows literally.
"""

from __future__ import annotations

import re

from rich.text import Text

from core.untrusted import visible_controls as clean

__all__ = ["clean", "markdown_literal", "one_line", "safe"]

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
