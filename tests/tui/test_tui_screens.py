"""Packet detail, the packet form (core validation in the form), the session picker."""

from __future__ import annotations

from textual.widgets import Input, OptionList, Static, TextArea

from tui.screens.packet_form import form_params
from tui.widgets.keyed_table import KeyedTable
from core.catalog.opening import Opened
from tui_fixtures import demo_deck, make_app, open_deck, run, settled, wait_for


def test_enter_on_a_packet_opens_its_detail(tmp_path):
    app = make_app(demo_deck(tmp_path))

    async def scenario(pilot):
        table = app.query_one("#packets", KeyedTable)
        table.focus()
        await pilot.press("down", "enter")
        await pilot.pause()
        assert type(app.screen).__name__ == "PacketScreen"
        assert app.screen.packet["id"] == "bench-handover"
        assert "runner disk quota" in str(app.screen.query_one("#detail-body", Static).render())
        await pilot.press("escape")
        await pilot.pause()
        assert table.selected_key() == "bench-handover"

    run(app, scenario)


def test_packet_form_shows_the_core_error_then_creates(tmp_path):
    app = make_app(demo_deck(tmp_path))

    async def scenario(pilot):
        await pilot.press("f7")
        await pilot.pause()
        form = app.screen
        form.query_one("#f-id", Input).value = "review-parser"  # a duplicate id
        form.query_one("#f-source", Input).value = "me"
        form.query_one("#f-goal", Input).value = "Check it"
        await pilot.press("ctrl+s")
        await pilot.pause()
        error = str(form.query_one("#form-error", Static).render())
        assert "review-parser" in error and app.screen is form
        form.query_one("#f-id", Input).value = "new-one"
        form.query_one("#f-openItems", TextArea).text = "first\n\nsecond\n"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.screen is not form
        packets = app.deck_screen.model.deck.handoff.packets()
        assert packets[-1]["id"] == "new-one" and packets[-1]["openItems"] == ["first", "second"]
        assert "new-one" in app.query_one("#packets", KeyedTable).keys

    run(app, scenario)


def test_form_params_leave_out_empty_optionals():
    assert form_params({"id": "a", "source": "", "goal": "g", "destination": "", "constraints": " \n"}) == {
        "schemaVersion": 1, "id": "a", "source": "", "goal": "g"}


def test_session_picker_opens_the_chosen_session(tmp_path):
    other = demo_deck(tmp_path / "other")
    other.apply("/agent-state add picked From the picked session")
    opened = []

    def open_path(path):
        opened.append(path)
        return Opened(open_deck(other.log.path))

    app = make_app(demo_deck(tmp_path), open_deck=open_path)

    async def scenario(pilot):
        await pilot.press("f6")
        await pilot.pause()
        assert app.screen.query_one(OptionList).option_count == 2
        await pilot.press("down", "enter")
        await pilot.pause()
        assert await wait_for(pilot, lambda: opened and app.screen.view.path == str(other.log.path))
        await pilot.pause()
        assert opened[0].name.endswith("_b.jsonl")
        assert "picked" in app.screen.query_one("#work-items", KeyedTable).keys

    run(app, scenario)


def test_enter_on_a_work_item_opens_its_detail_and_e_fills_the_set_command(tmp_path):
    app = make_app(demo_deck(tmp_path))

    async def scenario(pilot):
        app.query_one("#work-items", KeyedTable).focus()
        await pilot.press("down", "enter")
        await pilot.pause()
        assert type(app.screen).__name__ == "DetailScreen"
        assert "Wire the --follow CLI flag" in str(app.screen.query_one("#detail-body", Static).render())
        await pilot.press("e")
        await pilot.pause()
        await pilot.pause()
        line = app.query_one("#cmd", Input)
        assert line.value == "/agent-state set flag " and app.focused is line

    run(app, scenario)


def test_form_lists_split_on_newlines_only_with_javascript_blankness():
    got = form_params({"id": "a", "source": "s", "goal": "g",
                       "constraints": "one\x1ctwo\r\n\x85\n\ufeff\n  keep  \n", "openItems": "", "evidenceReferences": ""})
    # U+001C and U+0085 are not JavaScript whitespace: kept as text; a U+FEFF-only line is blank
    assert got["constraints"] == ["one\x1ctwo", "\x85", "  keep  "]


def test_help_explains_the_screen_and_lists_every_key_from_the_bindings(tmp_path):
    from textual.binding import Binding

    from tui.app import PideckApp
    from tui.screens.help import shown_key
    from tui.screens.deck import DeckScreen

    app = make_app(demo_deck(tmp_path))

    async def scenario(pilot):
        await settled(pilot)
        await pilot.press("f1")
        await pilot.pause()
        text = str(app.screen.query_one("#help-body").render())
        for words in ("Settled", "Conf", "Own", "Feedback", "👉", "the poke marker", "○ open  ▶ in progress",
                      "▶ ○ ✓ ✗", "⏸ idle", "writes go to", "READ-ONLY", "● agent"):
            assert words in text, words
        assert ("Idle state: paused (f4). The header says \"⏸ idle 3 min · 3 open todos\" when the agent has "
                "sat idle with open todos past the watchdog's idle time; pideck sends the agent nothing. [tui] "
                "watchdog is \"own\" (pideck's own sessions)") in text
        for binding in Binding.make_bindings([*DeckScreen.BINDINGS, *PideckApp.BINDINGS]):
            assert binding.tooltip and binding.tooltip in text, binding.key
            assert shown_key(binding.key) in text

    run(app, scenario)


def test_the_readme_key_table_is_the_one_the_bindings_give():
    """The README's key table is generated from the bindings (``uv run python -m tui.readme_keys``):
    a key added, moved or reworded in its Binding must reach the README, and every binding is in it."""
    from tui.app import PideckApp
    from tui.readme_keys import README, key_table, with_table
    from tui.screens.deck import DeckScreen
    from tui.screens.help import shown_key

    readme = README.read_text()
    assert with_table(readme) == readme, "run `uv run python -m tui.readme_keys`"
    rows = {row.split(" | ")[0].removeprefix("| ") for row in key_table().splitlines()}
    for binding in [*DeckScreen.BINDINGS, *PideckApp.BINDINGS]:
        assert " / ".join(shown_key(k) for k in binding.key.split(",")) in rows, binding.key


def test_help_opens_on_what_the_screen_is_and_puts_a_toast_away(tmp_path):
    """Issue 29, item 10: f1 opened on "Idle state: shown here." under the start-up toast."""
    from tui.screens.help import INTRODUCTION

    app = make_app(demo_deck(tmp_path))

    async def scenario(pilot):
        await settled(pilot)
        app.notify("a toast at start-up")
        await pilot.pause()
        await pilot.press("f1")
        await pilot.pause()
        text = str(app.screen.query_one("#help-body").render())
        assert text.startswith(INTRODUCTION[:40]) and text.index("This session") > text.index(INTRODUCTION[-20:])
        assert "Idle state" in text[text.index("This session"):]
        assert not app._notifications  # (the toast would cover the help's first lines)

    run(app, scenario, size=(80, 24))


def test_the_footer_names_every_key_it_shows_at_80_columns(tmp_path):
    """Issue 29, item 10: at 80 columns the footer cut "^f Filter" to "^f"."""
    from textual.widgets import Footer

    app = make_app(demo_deck(tmp_path))

    async def scenario(pilot):
        await settled(pilot)
        footer = app.screen.query_one(Footer)
        drawn = "".join(s.text for s in app.screen._compositor.render_strips()[footer.region.y])
        for words in ("f1 Help", "f2 Todos", "f3 Activity", "f4 Live", "f7 Packet", "^f Filter", "^p palette"):
            assert words in drawn, (words, drawn)

    run(app, scenario, size=(80, 24))
