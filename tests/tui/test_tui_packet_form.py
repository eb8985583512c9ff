"""The F7 form with the keyboard alone (issue 29, item 5): keys typed right behind Tab landed in
the field before; at 80x24 the buttons were below the fold; in 256 colours the fields could not be
told from the dialog; a packet the core turned down said only upstream's one text."""

from __future__ import annotations

from typing import Any

import pytest
from rich.color import ColorSystem
from textual import events
from textual.widgets import Button, Input, Static, TextArea

from core.deck.packet_problems import packet_problems
from tui.screens.packet_form import PacketForm
from tui_fixtures import demo_deck, make_app, run, settled


def burst(app: Any, *keys: str) -> None:
    """Keys queued one behind the other, as a terminal hands a fast typist's keys to the app."""
    for key in keys:
        app.post_message(events.Key(key, key if len(key) == 1 else None))


async def open_form(pilot: Any) -> PacketForm:
    await settled(pilot)
    await pilot.press("f7")
    await pilot.pause()
    assert isinstance(pilot.app.screen, PacketForm)
    return pilot.app.screen


def test_keys_typed_right_behind_tab_land_in_the_next_field(tmp_path) -> None:
    app = make_app(demo_deck(tmp_path))

    async def scenario(pilot: Any) -> list[str]:
        form = await open_form(pilot)
        burst(app, *"p1", "tab", *"me", "tab", "tab", *"Go", "tab", "x", "shift+tab", "end", "!")
        await pilot.pause()
        await pilot.pause()
        return [form.query_one(f"#f-{key}", Input).value for key in ("id", "source", "destination", "goal")] + [
            form.query_one("#f-constraints", TextArea).text]

    assert run(app, scenario, size=(80, 24)) == ["p1", "me", "", "Go!", "x"]


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_the_buttons_are_on_screen_at_every_size(tmp_path, size) -> None:
    app = make_app(demo_deck(tmp_path))

    async def scenario(pilot: Any) -> None:
        form = await open_form(pilot)
        for button in form.query(Button):
            assert form.region.contains_region(button.region) and button.region.height > 0, button.id

    run(app, scenario, size=size)


@pytest.mark.parametrize("system", [ColorSystem.TRUECOLOR, ColorSystem.EIGHT_BIT, ColorSystem.STANDARD],
                         ids=["true colours", "256 colours", "16 colours"])
def test_a_field_is_drawn_apart_from_the_dialog_in_every_colour_depth(tmp_path, system) -> None:
    app = make_app(demo_deck(tmp_path))

    async def scenario(pilot: Any) -> None:
        form = await open_form(pilot)
        dialog = form.query_one("#form-box").background_colors[1].rich_color.downgrade(system)
        for field in (form.query_one("#f-source", Input), form.query_one("#f-openItems", TextArea)):
            own = field.background_colors[1].rich_color.downgrade(system)
            assert own != dialog, (field.id, own, dialog)

    run(app, scenario)


def test_a_packet_turned_down_names_the_field_and_focuses_it(tmp_path) -> None:
    app = make_app(demo_deck(tmp_path))

    async def scenario(pilot: Any) -> None:
        form = await open_form(pilot)
        burst(app, *"review-parser", "tab", *"me", "tab", "tab", " ", "ctrl+s")  # a duplicate id, a blank goal
        await pilot.pause()
        await settled(pilot)
        await pilot.pause()
        error = str(form.query_one("#form-error", Static).render()).splitlines()
        assert error[0].startswith("✗ Agent Handoff: change rejected as invalid;")  # upstream's text, kept
        assert error[-2:] == ["  Goal: required, but empty", "  Id: a packet 'review-parser' exists already"]
        assert form.focused is form.query_one("#f-id")  # the first wrong field in the form's order
        assert form.query_one("#f-goal").has_class("-wrong") and form.query_one("#f-id").has_class("-wrong")
        assert not form.query_one("#f-source").has_class("-wrong")

    run(app, scenario, size=(80, 24))


@pytest.mark.parametrize("packet, expected", [
    ({"schemaVersion": 1, "id": "a", "source": "s", "goal": "g"}, []),
    ({"schemaVersion": 1, "id": " ", "source": "s", "goal": "g", "owner": "x"},
     [("owner", "not a field of a packet"), ("id", "required, but empty")]),
    ({"schemaVersion": 2, "id": "a", "source": 3, "goal": "g", "destination": ""},
     [("schemaVersion", "must be 1"), ("source", "required: a text"), ("destination", "empty: leave it out or name one")]),
    ({"schemaVersion": 1, "id": "a", "source": "s", "goal": "g", "constraints": "one", "evidenceReferences": ["x", "x", " "]},
     [("constraints", "must be a list of texts"), ("evidenceReferences", "holds an empty or non-text item"),
      ("evidenceReferences", "repeats 'x'")]),
    ([], [("", "the packet must be a JSON object")]),
])
def test_what_the_core_turns_down_said_per_field(packet, expected) -> None:
    assert packet_problems(packet) == expected
