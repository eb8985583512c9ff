"""The command palette's providers, read from the command registry (``core.deck.registry``) and from the
screen's current view of the session: nothing here types a command again. Completion of the
command line, which needs no screen, is in ``tui/completion.py``."""

from __future__ import annotations

from functools import partial
from typing import Protocol, runtime_checkable

from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.content import Content
from textual.fuzzy import Matcher

from core.deck.commands import SUBCOMMANDS, SubCommand, appends
from core.views.items import WORK_ITEM_STATUSES
from core.views.view import DeckView
from tui.completion import offered
from tui.text import clean
from tui.widgets.todos import goal_key


@runtime_checkable
class CommandScreen(Protocol):
    """What the providers use of the screen the palette was opened from (the deck screen). A
    Protocol, not the screen's class: the deck screen imports this module, so importing it back
    would close an import circle (tests/tui/test_tui_imports.py)."""

    view: DeckView

    def fill_command(self, text: str) -> None: ...

    def show_row(self, kind: str, key: str) -> None: ...

    def run_line(self, line: str) -> None: ...


def highlight_plain(matcher: Matcher, text: str) -> Content:
    """``Matcher.highlight`` without its markup parsing: ``[PATH]`` or a packet id stays literal."""
    content = Content(text)
    score, offsets = matcher.fuzzy_search.match(matcher.query, text)
    for offset in offsets if score else ():
        if not text[offset].isspace():
            content = content.stylize(matcher._match_style, offset, offset + 1)
    return content


def _deck_screen(provider: Provider) -> CommandScreen | None:
    return provider.screen if isinstance(provider.screen, CommandScreen) else None


READ_ONLY_NOTE = "read-only session: refused here · "


class SlashCommandProvider(Provider):
    """Every slash command with its description; choosing one fills the command line. On a
    read-only session the commands that append say so before they are chosen; on an agent's
    conversation with no pideck session yet they are not offered at all (``offered``)."""

    async def startup(self) -> None:
        screen = _deck_screen(self)
        self.read_only = screen is not None and not screen.view.writable
        self.commands = [c for c in SUBCOMMANDS if screen is None or offered(screen.view, c)]

    def _help(self, command: SubCommand) -> str:
        return (READ_ONLY_NOTE if self.read_only and appends(command) else "") + command.help

    async def discover(self) -> Hits:
        for command in self.commands:
            yield DiscoveryHit(Content(command.usage), partial(self._fill, command), text=command.usage,
                               help=self._help(command))

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for command in self.commands:
            score = matcher.match(f"{command.usage}  {command.help}")
            if score > 0:
                yield Hit(score, highlight_plain(matcher, command.usage), partial(self._fill, command),
                          text=command.usage, help=self._help(command))

    def _fill(self, command: SubCommand) -> None:
        screen = _deck_screen(self)
        if screen is not None:
            screen.fill_command(command.fill)


class DetailProvider(Provider):
    """"Show work item parse …": one hit per row that has a detail (work items, decisions,
    milestones, packets, todos, goals), shown literally (ids and texts are untrusted). Search only,
    so an empty palette is not flooded; ``ShowProvider`` lists them all."""

    KINDS: tuple[str, ...] = ()  # only these kinds (all when empty)

    async def startup(self) -> None:
        screen = _deck_screen(self)
        rows = detail_rows(screen.view) if screen is not None else []
        self.rows = [row for row in rows if not self.KINDS or row[0] in self.KINDS]

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for kind, key, text in self.rows:
            score = matcher.match(text)
            if score > 0:
                yield Hit(score, highlight_plain(matcher, text), partial(self._show, kind, key), text=text)

    def _show(self, kind: str, key: str) -> None:
        screen = _deck_screen(self)
        if screen is not None:
            screen.show_row(kind, key)


class ShowProvider(DetailProvider):
    """"Show detail": every row, listed before anything is typed."""

    async def discover(self) -> Hits:
        for kind, key, text in self.rows:
            yield DiscoveryHit(Content(text), partial(self._show, kind, key), text=text)


class PacketProvider(ShowProvider):
    """"Show packet": the handoff packets only."""

    KINDS = ("packet",)


def detail_rows(view: DeckView) -> list[tuple[str, str, str]]:
    """(kind, key, palette text) of every row a detail can be shown for."""
    rows = [("work item", i["id"], f"Show work item {clean(i['id'])}  {clean(i['content'])}")
            for i in view.state["workItems"]]
    rows += [("decision", d["id"], f"Show decision {clean(d['id'])}  {clean(d['content'])}")
             for d in view.state["decisions"]]
    progress = view.progress
    names = [*progress["currentMilestones"],
             *(m for m in progress["recordedMilestones"] if m not in progress["currentMilestones"])]
    rows += [("milestone", m, f"Show milestone {clean(m)}") for m in names]
    rows += [("packet", p["id"], f"Show packet {clean(p['id'])}  {clean(p['goal'])}") for p in view.packets]
    rows += [("todo", t.id, f"Show todo #{clean(t.id)}  {clean(t.content)}") for t in view.todo_state.todos]
    rows += [("goal", goal_key(g), f"Show goal {clean(g.label)}") for g in view.goals]
    return rows


class ItemCommandProvider(Provider):
    """Commands on what exists now ("Set work item parse done", "Remove packet h1"): search only,
    so an empty palette is not flooded. Choosing one runs it at once."""

    async def startup(self) -> None:
        screen = _deck_screen(self)
        self.lines = item_command_lines(screen.view) if screen is not None else []

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        screen = _deck_screen(self)
        if screen is None:
            return
        for title, line in self.lines:
            score = matcher.match(title)
            if score > 0:
                # The command line goes in the prompt, not in ``help``: the palette parses help as markup.
                prompt = Content("\n").join([highlight_plain(matcher, title), Content.styled(clean(line), "dim")])
                yield Hit(score, prompt, partial(screen.run_line, line), text=title)


def item_command_lines(view: DeckView) -> list[tuple[str, str]]:
    """(palette title, command line) for every work item status, milestone and packet."""
    out = []
    for item in view.state["workItems"]:
        item_id = clean(item["id"])
        for status in WORK_ITEM_STATUSES:
            if status != item["status"]:
                out.append((f"Set work item {item_id} {status}", f"/agent-state set {item['id']} {status}"))
    for milestone in view.progress["currentMilestones"]:
        out.append((f"Withdraw milestone {clean(milestone)}", f"/agent-progress withdraw {milestone}"))
    for packet in view.packets:
        out.append((f"Remove packet {clean(packet['id'])}", f"/agent-handoff remove {packet['id']}"))
    return out

