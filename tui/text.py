"""Untrusted text made safe to show: never parsed as markup, control characters made visible.

Everything that comes from the session log or from an agent goes through ``safe`` / ``plain``
before it reaches a widget, so ``[red]x[/red]`` or an escape sequence shows literally.
"""

from __future__ import annotations

from rich.text import Text

from core.untrusted import visible_controls as clean

__all__ = ["clean", "one_line", "safe"]


def safe(value: object, style: str = "", *, multiline: bool = False) -> Text:
    """A rich ``Text`` holding ``value`` literally (no markup, no emoji codes)."""
    return Text(clean(value, multiline=multiline), style=style)


def one_line(value: object, style: str = "") -> Text:
    """``safe`` cut to one line with an ellipsis when the widget is too narrow."""
    text = safe(value, style)
    text.no_wrap = True
    text.overflow = "ellipsis"
    return text
