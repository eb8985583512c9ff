"""Review tests: untrusted text in places the first safety tests did not reach."""

from __future__ import annotations

from textual.command import CommandList, CommandPalette

from tui_fixtures import injected_session, make_app, open_deck, run


def test_palette_item_commands_on_hostile_ids_show_literally_without_a_crash(tmp_path):
    # "Set work item [/bold] ..." carries the command line as its help text; the palette parsed
    # that help as markup, and the unmatched [/bold] raised MarkupError in the palette's worker.
    app = make_app(open_deck(injected_session(tmp_path)))

    async def scenario(pilot):
        await pilot.press("ctrl+p", *"set work item")
        await app.screen.workers.wait_for_complete()
        await pilot.pause()
        assert CommandPalette.is_open(app)
        prompts = [str(o.prompt) for o in app.screen.query_one(CommandList).options]
        assert any("/agent-state set [/bold] done" in p for p in prompts), prompts
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("ctrl+p", *"withdraw milestone")
        await app.screen.workers.wait_for_complete()
        await pilot.pause()
        prompts = [str(o.prompt) for o in app.screen.query_one(CommandList).options]
        assert any("/agent-progress withdraw [link=https://example.com]m[/link]" in p for p in prompts), prompts

    run(app, scenario)
