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
