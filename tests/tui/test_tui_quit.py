"""ctrl+c as a terminal user expects it (issue 19): a typed line is cleared, as a shell clears it; on
an empty line the first press says in one line how to quit and a second within two seconds quits.
Textual's own ctrl+c only said "Press ctrl+q to quit" and never quit."""

from __future__ import annotations

from tui import app as app_module
from tui.widgets.command_line import CommandLine
from tui_fixtures import demo_deck, make_app, run


def _notices(app) -> list[str]:
    return [str(n.message) for n in app._notifications]


def test_ctrl_c_twice_quits(tmp_path):
    app = make_app(demo_deck(tmp_path))

    async def scenario(pilot):
        await pilot.press("ctrl+c")
        await pilot.pause()
        assert app.is_running and app.return_code is None
        assert "Press ctrl+c again to quit" in _notices(app)
        await pilot.press("ctrl+c")
        await pilot.pause()
        assert app.return_code == 0  # the app is exiting, as after ctrl+q

    run(app, scenario)
    assert app.return_code == 0


def test_ctrl_c_clears_a_typed_line_and_does_not_arm_the_quit(tmp_path):
    app = make_app(demo_deck(tmp_path))

    async def scenario(pilot):
        await pilot.press(*"/agent-state add")
        await pilot.press("ctrl+c")
        await pilot.pause()
        assert app.screen.query_one(CommandLine).value == ""
        assert "Press ctrl+c again to quit" not in _notices(app)
        await pilot.press("ctrl+c")  # now the line is empty: the first press asks
        await pilot.pause()
        assert app.return_code is None and "Press ctrl+c again to quit" in _notices(app)

    run(app, scenario)


def test_a_second_ctrl_c_after_two_seconds_asks_again(tmp_path, monkeypatch):
    now = [1000.0]
    monkeypatch.setattr(app_module, "monotonic", lambda: now[0])  # (not time.monotonic: asyncio runs on it)
    app = make_app(demo_deck(tmp_path))

    async def scenario(pilot):
        await pilot.press("ctrl+c")
        now[0] += 2.5
        await pilot.press("ctrl+c")
        await pilot.pause()
        assert app.return_code is None
        assert _notices(app).count("Press ctrl+c again to quit") == 2
        now[0] += 1.0
        await pilot.press("ctrl+c")
        await pilot.pause()
        assert app.return_code == 0

    run(app, scenario)


def test_ctrl_c_closes_the_palette_and_the_packet_form_as_textual_apps_do(tmp_path):
    """Inside a dialog, ctrl+c closes it (it did nothing there); the app goes on."""
    from textual.command import CommandPalette

    from tui.screens.deck import DeckScreen
    from tui.screens.packet_form import PacketForm
    from tui_fixtures import settled, wait_for

    app = make_app(demo_deck(tmp_path))

    async def scenario(pilot):
        await settled(pilot)
        seen = []
        for key, kind in (("ctrl+p", CommandPalette), ("f7", PacketForm)):
            await pilot.press(key)
            assert await wait_for(pilot, lambda: isinstance(app.screen, kind))
            await pilot.press(*"abc")
            await pilot.press("ctrl+c")
            assert await wait_for(pilot, lambda: isinstance(app.screen, DeckScreen))
            seen.append(app.return_code)
        return seen, "Press ctrl+c again to quit" in _notices(app)

    assert run(app, scenario) == ([None, None], False)


def test_ctrl_c_with_text_selected_copies_it(tmp_path):
    app = make_app(demo_deck(tmp_path))
    copied = []
    app.copy_to_clipboard = copied.append  # type: ignore[method-assign]

    async def scenario(pilot):
        await pilot.press(*"/agent-state status")
        line = app.screen.query_one(CommandLine)
        line.select_all()
        await pilot.press("ctrl+c")
        await pilot.pause()
        return line.value

    assert run(app, scenario) == "/agent-state status" and copied == ["/agent-state status"]
