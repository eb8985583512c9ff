"""Completion of the command line, from the command registry (``core.deck.registry``) and the screen's
current view of the session. It needs no screen: the command line and its inline suggester use it,
and the palette providers (``tui/commands.py``) do not."""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import partial
from typing import Callable

from textual.suggester import Suggester

from core.deck.commands import NAMESPACES, SubCommand, appends, find, subcommands
from core.views.view import DeckView
from tui.text import has_controls


def words_for(view: DeckView, namespace: str, sub: str, index: int) -> list[str]:
    """The words that may complete argument ``index`` of ``/namespace sub``: the declared choices,
    or the ids the view holds for it."""
    command = find(namespace, sub)
    if command is None or index >= len(command.args):
        return []
    arg = command.args[index]
    return view.words(arg.words) if arg.words is not None else list(arg.choices)


def offers_writes(view: DeckView) -> bool:
    """Whether the screen offers the commands that append: not on an agent's conversation with no
    pideck session of its own yet, where each would only be refused (a typed one still says why,
    docs/agent-conversations.md)."""
    return view.agent is None or view.writable


def offered(view: DeckView, command: SubCommand) -> bool:
    return offers_writes(view) or not appends(command)


Words = Callable[[str, str, int], list[str]]
"""``(namespace, sub, argument index)`` -> the words that may complete that argument."""


@dataclass(frozen=True)
class Completion:
    """What Tab does to a command line."""

    line: str  # the line after Tab (the same line when the words that fit share no more of a start)
    candidates: tuple[str, ...] = ()  # the words that fit, when more than one does: shown to the person


def completion(value: str, words: Words, offer: Callable[[SubCommand], bool] = lambda c: True) -> Completion | None:
    """Tab on ``value`` (namespace, sub-command or argument, the last word possibly empty), or
    None when no word fits there. One word that fits completes, with a space when more can
    follow (so the next word does not glue on); several complete to what they all start with
    and are listed, as a shell and pi's editor do, never the first one silently. Only the
    commands ``offer`` takes are completed (``offered``). An empty line, or one word without its
    slash (``agent``), is the start of a command: Tab puts the slash in and lists the commands."""
    if not value.startswith("/"):
        if " " in value or not all(ch.isalnum() or ch == "-" for ch in value):
            return None
        value = "/" + value
        started = completion(value, words, offer)
        return started if started is not None else Completion(value, ()) if value == "/" else None
    parts = value[1:].split(" ")
    if len(parts) == 1:
        fitting = [(n, True) for n in NAMESPACES if any(offer(c) for c in subcommands(n))]
    elif len(parts) == 2:
        fitting = [(c.sub, bool(c.args)) for c in subcommands(parts[0]) if c.sub and offer(c)]
    else:
        command = find(parts[0], parts[1])
        index = len(parts) - 3
        more = command is not None and index + 1 < len(command.args)
        fitting = [(w, more) for w in words(parts[0], parts[1], index)]
    stem = parts[-1]
    # The line is drawn safely but an inline suggestion is drawn raw by Input: never a word with
    # control characters, here or in the suggestion.
    found = {w: more for w, more in fitting if w.startswith(stem) and not has_controls(w)}
    if not found:
        return None
    if len(found) == 1:
        [(word, more)] = found.items()
        line = value + word[len(stem):] + (" " if more else "")
        return Completion(line) if line != value else None
    return Completion(value + os.path.commonprefix(list(found))[len(stem):], tuple(found))


def complete(value: str, words: Words, offer: Callable[[SubCommand], bool] = lambda c: True) -> str | None:
    """The line Tab would make of ``value`` when it adds to it (the inline suggestion), or None.
    (A line without its slash gets none: a suggestion only adds to the end of what is typed.)"""
    if not value.startswith("/"):
        return None
    found = completion(value, words, offer)
    return found.line if found is not None and found.line != value else None


def arguments_hint(value: str) -> str:
    """The arguments of the command on the line still to be typed, as its usage names them:
    ``/agent-state add `` gives ``<id> <content>``, ``/agent-state add x`` gives `` <content>``;
    "" before the sub-command is whole (Tab lists those) and once the last argument is begun."""
    if not value.startswith("/"):
        return ""
    parts = value[1:].split(" ")
    command = find(parts[0], parts[1]) if len(parts) >= 3 else None
    if command is None:
        return ""
    begun = len(parts) - 2 - (parts[-1] == "")  # arguments typed, the one being typed included
    rest = command.args[begun:]
    if not rest:
        return ""
    return (" " if parts[-1] else "") + " ".join(a.usage for a in rest)


class CommandSuggester(Suggester):
    """Inline completion for the command line; ids come from the screen's current view."""

    def __init__(self, view: Callable[[], DeckView]) -> None:
        super().__init__(use_cache=False, case_sensitive=True)
        self.view = view

    async def get_suggestion(self, value: str) -> str | None:
        view = self.view()
        return complete(value, partial(words_for, view), partial(offered, view))
