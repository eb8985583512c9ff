"""Create a handoff packet: a form whose submit goes through the same core validation as the
`agent_handoff_create` tool; the core's error text is shown in the form."""

from __future__ import annotations

from typing import Callable, Collection

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static, TextArea

from core.jsutil import is_blank
from core.deck.packet_problems import packet_problems
from tui.text import safe
from tui.widgets.command_line import InOrderInput

PacketParams = dict[str, int | str | list[str]]
"""The ``agent_handoff_create`` parameters the form sends: ``schemaVersion``, texts and lists of them."""
Create = Callable[[PacketParams, Callable[[bool, str], None]], None]
"""``create(params, done)``: runs the tool off the UI thread, then ``done(created, core text)``."""

SINGLE = (("id", "Id"), ("source", "Source"), ("destination", "Destination?"), ("goal", "Goal"))
MULTI = (("constraints", "Constraints"), ("openItems", "Open items"), ("evidenceReferences", "Evidence refs"))
"""The list fields take one value per line; Destination is the only optional single field."""
LABELS = {key: label.rstrip("?") for key, label in (*SINGLE, *MULTI)}
"""Each field's name as the form shows it, in the form's order."""


def form_params(values: dict[str, str]) -> PacketParams:
    """Tool parameters from the form: optional fields left out when empty, lists split on lines
    (only ``\n``; blank lines, by JavaScript's whitespace rule, are left out)."""
    params: PacketParams = {"schemaVersion": 1}
    for key, _ in SINGLE:
        if values.get(key, "") != "" or key in ("id", "source", "goal"):
            params[key] = values.get(key, "")
    for key, _ in MULTI:
        text = values.get(key, "").replace("\r\n", "\n")
        lines = [line for line in text.split("\n") if not is_blank(line)]
        if lines:
            params[key] = lines
    return params


class FieldInput(InOrderInput):
    """A field whose editing keys (home, end, ctrl+u, ...) apply in the order typed, among the
    characters; the form's Tab moves the focus at once, so each key the app hands it is its own."""

    FOCUS_MOVES_IN_KEY_ORDER = True


class PacketForm(ModalScreen[str | None]):
    BINDINGS = [
        Binding("escape", "dismiss(None)", "Cancel"), Binding("ctrl+s", "create", "Create"),
        # Priority: Tab moves the focus the moment it is read, so keys typed right behind it land in
        # the next field (as a binding of the app's, it ran after they had reached this one).
        Binding("tab", "app.focus_next", "Next field", show=False, priority=True),
        Binding("shift+tab", "app.focus_previous", "Previous field", show=False, priority=True),
    ]

    def __init__(self, create: Create, existing: Collection[str] = ()) -> None:
        super().__init__()
        self.create = create
        self.existing = existing  # the packets' ids now: a duplicate is said of the Id field

    def compose(self) -> ComposeResult:
        # The buttons sit below the fields' scroll, so they are on screen at any height (80x24).
        with Vertical(id="form-box", classes="dialog"):
            yield Static("", id="form-error", markup=False)
            with VerticalScroll(id="form-fields"):
                for key, label in SINGLE:
                    with Horizontal(classes="form-row"):
                        yield Label(label)
                        yield FieldInput(id=f"f-{key}")
                for key, label in MULTI:
                    with Horizontal(classes="form-row multi"):
                        yield Label(label)
                        yield TextArea(id=f"f-{key}", soft_wrap=True, show_line_numbers=False)
            with Horizontal(id="form-buttons"):
                yield Button("Create (ctrl+s)", id="create", variant="primary")
                yield Button("Cancel (esc)", id="cancel")

    def on_mount(self) -> None:
        self.query_one("#form-box").border_title = "New handoff packet"
        self.query_one("#f-id", Input).focus()

    def values(self) -> dict[str, str]:
        out = {key: self.query_one(f"#f-{key}", Input).value for key, _ in SINGLE}
        out.update({key: self.query_one(f"#f-{key}", TextArea).text for key, _ in MULTI})
        return out

    def action_create(self) -> None:
        self.create(form_params(self.values()), self._created)

    def _created(self, created: bool, message: str) -> None:
        if not self.is_attached:
            return  # closed meanwhile
        if created:
            self.dismiss(message)
            return
        problems = packet_problems(form_params(self.values()), self.existing)
        error = Text.assemble(("✗ ", "bold red"), safe(message, multiline=True))
        for key, what in problems:
            error.append(f"\n  {LABELS.get(key, key)}: ", "bold")
            error.append(safe(what))
        self.query_one("#form-error", Static).update(error)
        wrong = {key for key, _ in problems}
        for key in LABELS:
            self.query_one(f"#f-{key}").set_class(key in wrong, "-wrong")
        first = next((key for key in LABELS if key in wrong), None)
        if first is not None:
            self.query_one(f"#f-{first}").focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "create":
            self.action_create()
        else:
            self.dismiss(None)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.action_create()
