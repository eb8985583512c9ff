"""The command line ("editor"): slash commands with completion and Up/Down history, and the
filter's line; both apply every key in the order it was typed."""

from __future__ import annotations

from functools import partial
from typing import Callable

from rich.cells import cell_len
from rich.segment import Segment
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.expand_tabs import expand_tabs_inline
from textual.message import Message
from textual.strip import Strip
from textual.widgets import Input, Static

from core.views.view import DeckView
from tui.completion import CommandSuggester, arguments_hint, complete, completion, offered, words_for
from tui.filtering import Rule
from tui.keys import OPTION_DIGITS
from tui.text import clean, one_to_one


class InOrderInput(Input):
    """An ``Input`` that applies each key the moment the key reaches it.

    Input inserts a character at once but runs its editing keys (home, left, ctrl+u, ctrl+w,
    enter, ...) as bindings, and Textual runs a non-priority binding only after the key has
    bubbled through every ancestor's message queue up to the app. Keys typed behind one (a fast
    typist, a terminal multiplexer that sends a burst in one read) were therefore applied first:
    "hello world" home X gave "hello worldX" (docs/tui.md#keys). Here the
    input's own bindings run on the spot, so every key it takes is applied in order, and none of
    them goes on up."""

    FOCUS_MOVES_IN_KEY_ORDER = False
    """True where every key that moves the focus away does so the moment it is read (a priority
    binding, as in the F7 form): a key that reaches the input was then meant for it, even when the
    focus has moved on by the time the input takes it."""

    async def _on_key(self, event: events.Key) -> None:
        if self.screen.focused is not self and not self.FOCUS_MOVES_IN_KEY_ORDER:
            # Typed before the focus moved on (Enter in the filter, a pane's key): not this input's
            # any more. It goes on up to the screen, which hands it to the input that has the focus.
            event.prevent_default()
            return
        if not event.is_printable and await self._run_own_binding(event):
            self._restart_blink()
            event.stop()
            event.prevent_default()
        # (a printable key: Input._on_key, next in the class order, inserts it at once)

    async def take_key(self, event: events.Key) -> bool:
        """Apply a key that was typed while another widget had focus, as if it had been typed
        here (the deck screen hands them on); False when this input has no use for it."""
        if event.is_printable:
            await Input._on_key(self, event)
            return True
        return await self._run_own_binding(event)

    async def _run_own_binding(self, event: events.Key) -> bool:
        for binding in self._bindings.key_to_bindings.get(event.key, ()):
            if not binding.priority and await self.app.run_action(binding.action, self):
                return True
        return False


class CommandLine(InOrderInput):
    BINDINGS = [
        Binding("up", "history(-1)", "Previous", show=False, tooltip="previous command line (history)"),
        Binding("down", "history(1)", "Next", show=False, tooltip="next command line (history)"),
        Binding("tab", "complete", "Complete", show=False,
                tooltip="complete the command, sub-command or id; with several, their common start, the others "
                        "listed after the cursor (focus never moves)"),
    ]

    PLACEHOLDER = "/agent-state add <id> <content>   (ctrl+p: all commands, tab completes)"

    def check_consume_key(self, key: str, character: str | None) -> bool:
        """alt+digit as most terminals send it (``OPTION_DIGITS``) comes here, not to the screen's
        pane keys: whether it is text is known only once the keys typed before it are on the line
        (``_on_key``). Asked when the key is read, an empty line could still have a burst of keys
        on their way to it ("Costs £3" sent at once focused a pane at the £)."""
        return key in OPTION_DIGITS or super().check_consume_key(key, character)

    async def _on_key(self, event: events.Key) -> None:
        """On an empty line, an ``OPTION_DIGITS`` key does what alt+digit does (the screen's
        ``alt_digit``); on a line being typed it is text (a UK £). Decided here, in the order the
        keys were typed."""
        if event.key in OPTION_DIGITS and not self.value and self.screen.focused is self:
            event.stop()
            event.prevent_default()
            await self.app.run_action(f"screen.alt_digit({OPTION_DIGITS.index(event.key) + 1})")
    READ_ONLY = "read-only session: commands that append are refused · status, show and export work"
    SERVED = "served read-only (pideck serve): commands that append or export are refused · status and show work"
    PASTE_REFUSED = ("Not pasted: it holds {count} lines, and the command line takes one command at a time. "
                     "Paste the commands one by one.")

    def __init__(self, view: Callable[[], DeckView], history: list[str] | None = None, **kwargs) -> None:
        kwargs.setdefault("placeholder", self.PLACEHOLDER)
        # Not Input's select-on-focus: after Enter on a work item or a palette choice fills the line
        # and focuses it, the next key must add to the line, not replace all of it.
        kwargs.setdefault("select_on_focus", False)
        super().__init__(suggester=CommandSuggester(view), **kwargs)
        self._view = view
        self.history = history if history is not None else []  # shared with the app, which keeps it
        # Where Up/Down are in ``history``; None: at the line being typed (which ``_draft`` keeps
        # meanwhile). Not an index past the end: the app appends to ``history`` after a line has
        # left this widget, and an index would then point at that line.
        self._position: int | None = None
        self._draft = ""
        self.candidates: tuple[str, ...] = ()
        """The words Tab found when several fit, shown after the line until it changes."""

    @property
    def _value(self) -> Text:
        """The value as drawn: a work item id from the log (Enter on a row) may hold escape
        sequences; they show as ␛ and friends, one cell each, and never reach the terminal."""
        return Text(one_to_one(self.value), no_wrap=True, overflow="ignore", end="")

    def _position_to_cell(self, position: int) -> int:
        return cell_len(expand_tabs_inline(one_to_one(self.value[:position]), 4))

    def watch_value(self) -> None:
        self.candidates = ()

    def render_line(self, y: int) -> Strip:
        """The line, then, dim after the cursor: the words Tab found when several fit, else the
        arguments of the command still to type (where no inline suggestion is shown)."""
        strip = super().render_line(y)
        if y != 0 or not self.has_focus or not self.value or self.cursor_position != len(self.value):
            return strip
        start = self._position_to_cell(len(self.value)) + 1 - self.scroll_offset.x  # after the cursor's cell
        room = self.scrollable_content_region.width - start
        if self.candidates:
            hint = candidates_hint(self.candidates, room)
        else:
            view = self._view()
            suggested = complete(self.value, partial(words_for, view), partial(offered, view))
            hint = "" if suggested is not None else arguments_hint(self.value).lstrip()
            hint = hint if cell_len(hint) <= room else ""
        if start < 0 or not hint:
            return strip
        style = self.rich_style + self.get_component_rich_style("input--suggestion")
        return Strip.join([strip.crop(0, start), Strip([Segment(hint, style)])]).extend_cell_length(
            strip.cell_length, self.rich_style)

    def rewind(self) -> None:
        """Back to the line being typed, after the last one run (the app added it to ``history``)."""
        self._position = None
        self._draft = ""

    def action_history(self, step: int) -> None:
        if not self.history:
            return
        if self._position is None:
            self._draft = self.value
        position = max(0, min(len(self.history), (len(self.history) if self._position is None else self._position) + step))
        self._position = position if position < len(self.history) else None
        self.value = self.history[position] if self._position is not None else self._draft
        self.cursor_position = len(self.value)

    async def action_submit(self) -> None:
        """Enter: the line leaves at once and the next starts empty. The screen runs the line
        when the message reaches it, and the keys typed after Enter may be on the line by then."""
        line = self.value
        self.value = ""
        self.post_message(self.Submitted(self, line))

    def action_complete(self) -> None:
        """Complete from the registry and the current view right now, not from the inline
        suggestion: that one is computed asynchronously and may not have arrived when a fast
        typist presses tab. When several words fit, the line gets what they start with and lists
        them, as a shell does. With nothing to complete, tab rings the bell and does nothing else
        (focus never moves, so the keys that follow still land here)."""
        view = self._view()
        found = completion(self.value, partial(words_for, view), partial(offered, view))
        if found is None or self.cursor_position != len(self.value):
            self.app.bell()
            return
        self.value = found.line
        self.cursor_position = len(found.line)
        self.candidates = found.candidates  # (after the value: a new value puts them away)
        self.refresh()

    def _on_paste(self, event: events.Paste) -> None:
        """A paste of several lines is refused, and said why: Input would keep the first line and
        drop the rest without a word, and running each line would carry out commands the person
        has not read again (a shell waits for Enter after a paste too; docs/tui.md#keys)."""
        event.stop()
        event.prevent_default()
        lines = [line for line in event.text.splitlines() if line.strip()]
        if len(lines) > 1:
            self.app.bell()
            self.app.notify(self.PASTE_REFUSED.format(count=len(lines)), severity="warning", markup=False)
        elif lines:
            self.replace(lines[0], *self.selection)


def candidates_hint(candidates: tuple[str, ...], room: int) -> str:
    """``"  set · status"``: as many of the words as fit in ``room`` cells, then how many more."""
    words = [clean(word) for word in candidates]
    for shown in range(len(words), 0, -1):
        left = len(words) - shown
        hint = "  " + " · ".join([*words[:shown], *([f"+{left} more"] if left else [])])
        if cell_len(hint) <= room:
            return hint
    return ""


class FilterBar(InOrderInput):
    """The filter's text (ctrl+f): the panes and the activity follow as it is typed; enter keeps it
    and goes back to the command line, escape clears it."""

    BINDINGS = [Binding("escape", "clear_filter", "Clear filter", show=False)]

    class Cleared(Message):
        pass

    def __init__(self, **kwargs) -> None:
        kwargs.setdefault("placeholder", "filter: words to find in ids and text · enter keeps it · esc clears")
        super().__init__(select_on_focus=False, **kwargs)

    def action_clear_filter(self) -> None:
        self.value = ""
        self.post_message(self.Cleared())
        self.back_to_command_line()

    async def action_submit(self) -> None:
        await super().action_submit()
        self.back_to_command_line()

    def back_to_command_line(self) -> None:
        """At once, not when the screen handles the message: the keys typed behind Enter or
        escape belong to the command line."""
        for line in self.screen.query(CommandLine):
            self.screen.set_focus(line)


class FilterRow(Horizontal):
    """The filter's line above the todo strip: what is filtered, then the text being typed."""


    def compose(self) -> ComposeResult:
        yield Static(self.label(Rule()), id="filter-label", markup=False)
        yield FilterBar(id="filter")

    @staticmethod
    def label(rule: Rule) -> str:
        return f"filter · status {rule.status} (ctrl+t) ·"

    def show_rule(self, rule: Rule) -> None:
        self.query_one("#filter-label", Static).update(self.label(rule))
