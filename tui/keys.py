"""Key hints derived from the bindings, so a key is written once: in its ``Binding``. The palette's
texts, the help and the README's key table all read it from there."""

from __future__ import annotations

from typing import Iterable

from textual.binding import Binding, BindingType


def key_of(bindings: Iterable[BindingType], action: str) -> str | None:
    """The first key bound to ``action`` ("escape,f8" gives "escape"), or None."""
    for binding in bindings:
        if isinstance(binding, Binding) and binding.action == action:
            return binding.key.split(",")[0]
    return None


def with_key(text: str, bindings: Iterable[BindingType], action: str) -> str:
    """``text (key)`` when ``action`` has a key, else ``text``."""
    key = key_of(bindings, action)
    return f"{text} ({key})" if key else text


OPTION_DIGITS = ("inverted_exclamation_mark", "trade_mark_sign", "pound_sign", "cent_sign", "infinity", "section_sign")
"""Textual's names of ¡ ™ £ ¢ ∞ §: the macOS Option key with 1 ... 6, and what Textual makes of
ESC 1 ... ESC 6, which is how tmux, screen, xterm and the Linux console send alt+1 ... alt+6
(docs/tui.md#keys). The deck screen takes them as alt+digit while no line is being typed."""
