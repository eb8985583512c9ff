"""The slash-command registry shared by the command line (completion) and the command palette."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Callable

from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.content import Content
from textual.fuzzy import Matcher
from textual.suggester import Suggester

from tui.text import clean, has_controls

if TYPE_CHECKING:
    from tui.app import PideckApp


@dataclass(frozen=True)
class SlashCommand:
    namespace: str
    sub: str  # "" for the bare namespace
    args: str  # usage hint shown in the palette and help
    help: str

    @property
    def text(self) -> str:
        return f"/{self.namespace} {self.sub}".rstrip()

    @property
    def usage(self) -> str:
        return f"{self.text} {self.args}".rstrip()

    @property
    def fill(self) -> str:
        """What choosing it puts on the command line (a space when arguments follow)."""
        return self.text + (" " if self.args else "")


def _c(namespace: str, sub: str, args: str, help: str) -> SlashCommand:
    return SlashCommand(namespace, sub, args, help)


SLASH_COMMANDS: tuple[SlashCommand, ...] = (
    _c("agent-state", "status", "", "Show the objective, work items and decisions"),
    _c("agent-state", "objective", "<text>", "Set the objective"),
    _c("agent-state", "add", "<id> <content>", "Add a work item (status open)"),
    _c("agent-state", "set", "<id> open|in_progress|blocked|done", "Set a work item's status"),
    _c("agent-state", "remove", "<id>", "Remove a work item"),
    _c("agent-state", "decide", "<id> <content>", "Record a decision"),
    _c("agent-state", "clear", "--yes", "Clear the objective, work items and decisions"),
    _c("agent-progress", "status", "", "Show declared and recorded milestones"),
    _c("agent-progress", "add", "<milestone>", "Declare a milestone"),
    _c("agent-progress", "withdraw", "<milestone>", "Withdraw a declared milestone"),
    _c("agent-progress", "judge", "", "Judge the declared set against the baseline"),
    _c("agent-progress", "clear", "--yes", "Clear declared milestones and the baseline"),
    _c("agent-handoff", "status", "", "List the handoff packets"),
    _c("agent-handoff", "show", "<id>", "Show one packet"),
    _c("agent-handoff", "remove", "<id>", "Remove one packet"),
    _c("agent-handoff", "clear", "--yes", "Remove every packet"),
    _c("todos", "", "", "Open the todos overlay"),
    _c("todos", "export", "[PATH]", "Write the todos overlay as Markdown (default todos.md)"),
    _c("todos", "clear", "--yes", "Clear the todo list, plan and goals"),
    _c("todos", "poke", "on|off|status|trigger", "Control the auto-poke cycle"),
)

NAMESPACES = tuple(dict.fromkeys(c.namespace for c in SLASH_COMMANDS))
STATUSES = ("open", "in_progress", "blocked", "done")
POKE_ACTIONS = ("on", "off", "status", "trigger")

IdSource = Callable[[str, str, int], list[str]]
"""``(namespace, sub, argument index)`` -> the words that may complete that argument."""


def subcommands(namespace: str) -> list[str]:
    return [c.sub for c in SLASH_COMMANDS if c.namespace == namespace and c.sub]


def complete(value: str, words_for: IdSource) -> str | None:
    """The completed command line for ``value`` (namespace, subcommand or id), or None."""
    if not value.startswith("/") or value.endswith(" "):
        return None
    parts = value[1:].split(" ")
    if len(parts) == 1:
        candidates = list(NAMESPACES)
    elif len(parts) == 2:
        candidates = subcommands(parts[0])
    else:
        candidates = words_for(parts[0], parts[1], len(parts) - 3)
    stem = parts[-1]
    for word in candidates:  # a suggestion is drawn raw by Input: never one with control characters
        if word.startswith(stem) and word != stem and not has_controls(word):
            return value + word[len(stem):]
    return None


class CommandSuggester(Suggester):
    """Inline completion for the command line; ids come from the live derived state."""

    def __init__(self, words_for: IdSource) -> None:
        super().__init__(use_cache=False, case_sensitive=True)
        self.words_for = words_for

    async def get_suggestion(self, value: str) -> str | None:
        return complete(value, self.words_for)


def highlight_plain(matcher: Matcher, text: str) -> Content:
    """``Matcher.highlight`` without its markup parsing: ``[PATH]`` or a packet id stays literal."""
    content = Content(text)
    score, offsets = matcher.fuzzy_search.match(matcher.query, text)
    for offset in offsets if score else ():
        if not text[offset].isspace():
            content = content.stylize(matcher._match_style, offset, offset + 1)
    return content


class SlashCommandProvider(Provider):
    """Every slash command with its description; choosing one fills the command line."""

    async def discover(self) -> Hits:
        for command in SLASH_COMMANDS:
            yield DiscoveryHit(Content(command.usage), partial(self._fill, command), text=command.usage,
                               help=command.help)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for command in SLASH_COMMANDS:
            text = f"{command.usage}  {command.help}"
            score = matcher.match(text)
            if score > 0:
                yield Hit(score, highlight_plain(matcher, command.usage), partial(self._fill, command),
                          text=command.usage, help=command.help)

    def _fill(self, command: SlashCommand) -> None:
        app: PideckApp = self.app  # type: ignore[assignment]
        app.fill_command(command.fill)


class PacketProvider(Provider):
    """"Show packet": one hit per handoff packet, shown literally (ids and goals are untrusted)."""

    async def startup(self) -> None:
        app: PideckApp = self.app  # type: ignore[assignment]
        self.packets = [(p["id"], clean(f"{p['id']}  {p['goal']}")) for p in app.deck.handoff.packets()]

    async def discover(self) -> Hits:
        for packet_id, text in self.packets:
            yield DiscoveryHit(Content(text), partial(self._show, packet_id), text=text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for packet_id, text in self.packets:
            score = matcher.match(text)
            if score > 0:
                yield Hit(score, highlight_plain(matcher, text), partial(self._show, packet_id), text=text)

    def _show(self, packet_id: str) -> None:
        app: PideckApp = self.app  # type: ignore[assignment]
        app.show_packet(packet_id)


class ItemCommandProvider(Provider):
    """Commands on what exists now ("Set work item parse done", "Remove packet h1"): search only,
    so an empty palette is not flooded. Choosing one runs it at once."""

    async def startup(self) -> None:
        app: PideckApp = self.app  # type: ignore[assignment]
        self.lines = item_command_lines(app)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        app: PideckApp = self.app  # type: ignore[assignment]
        for title, line in self.lines:
            score = matcher.match(title)
            if score > 0:
                # The command line goes in the prompt, not in ``help``: the palette parses help as markup.
                prompt = Content("\n").join([highlight_plain(matcher, title), Content.styled(clean(line), "dim")])
                yield Hit(score, prompt, partial(app.run_line, line), text=title)


def item_command_lines(app: PideckApp) -> list[tuple[str, str]]:
    """(palette title, command line) for every work item status, milestone and packet."""
    deck = app.deck
    out = []
    for item in deck.state.snapshot()["workItems"]:
        item_id = clean(item["id"])
        for status in STATUSES:
            if status != item["status"]:
                out.append((f"Set work item {item_id} {status}", f"/agent-state set {item['id']} {status}"))
    for milestone in deck.progress.state()["currentMilestones"]:
        out.append((f"Withdraw milestone {clean(milestone)}", f"/agent-progress withdraw {milestone}"))
    for packet in deck.handoff.packets():
        out.append((f"Remove packet {clean(packet['id'])}", f"/agent-handoff remove {packet['id']}"))
    return out
