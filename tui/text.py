"""Untrusted text made safe to show: never parsed as markup, control characters made visible.

Everything that comes from the session log or from an agent goes through ``safe`` / ``one_line``
(or ``clean`` for plain strings) before it reaches a widget, so ``[red]x[/red]`` or an escape
sequence shows literally.
"""

from __future__ import annotations

import re
from datetime import datetime, timezone
from typing import Iterable

from rich.text import Text

from core.untrusted import CONTROL, markdown_literal
from core.untrusted import visible_controls as clean

__all__ = ["clean", "clock_time", "has_controls", "markdown_literal", "one_line", "one_to_one", "safe"]


def _one_cell(match: re.Match[str]) -> str:
    code = ord(match.group())
    return chr(0x2400 + code) if code < 0x20 else "\u2421" if code == 0x7F else "\ufffd"


def one_to_one(value: str) -> str:
    """``value`` with each control character replaced by ONE visible character (␛, ␡, or �), so
    indexes and cursor positions stay the same: for text being edited, like the command line."""
    return CONTROL.sub(_one_cell, value)


def has_controls(value: str) -> bool:
    return CONTROL.search(value) is not None


def safe(value: object, style: str = "", *, multiline: bool = False) -> Text:
    """A rich ``Text`` holding ``value`` literally (no markup, no emoji codes)."""
    return Text(clean(value, multiline=multiline), style=style)


def one_line(value: object, style: str = "") -> Text:
    """``safe`` cut to one line with an ellipsis when the widget is too narrow."""
    text = safe(value, style)
    text.no_wrap = True
    text.overflow = "ellipsis"
    return text


def clock_time(timestamp: str | None, dated: bool = False) -> str:
    """``15:50:53`` (UTC) of an entry's ISO timestamp, ``11-30 15:50:53`` with ``dated`` (a list
    whose times span days); the first 8 characters of anything else."""
    width = 14 if dated else 8
    if timestamp is None:
        return "--:--:--".rjust(width)
    try:
        moment = datetime.fromisoformat(timestamp.replace("Z", "+00:00"))
    except ValueError:
        return clean(timestamp[:width])  # (untrusted: an escape sequence in a timestamp shows, never acts)
    if moment.tzinfo is not None:
        try:
            moment = moment.astimezone(timezone.utc)
        except OverflowError:  # (0001-01-01T00:00:00+01:00: before year 1 in UTC)
            pass
    return moment.strftime("%m-%d %H:%M:%S" if dated else "%H:%M:%S")


def spans_days(timestamps: Iterable[str | None]) -> bool:
    """Whether the (ISO) timestamps fall on more than one day (UTC): times alone would mislead."""
    days = {clock_day(t) for t in timestamps}
    days.discard(None)
    return len(days) > 1


def clock_day(timestamp: str | None) -> str | None:
    if timestamp is None:
        return None
    try:
        moment = datetime.fromisoformat(timestamp.replace("Z", "+00:00"))
        if moment.tzinfo is not None:
            moment = moment.astimezone(timezone.utc)
    except (ValueError, OverflowError):
        return None
    return moment.strftime("%Y-%m-%d")
