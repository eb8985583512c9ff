"""Untrusted text in the palette, the /todos overlay and export, the message log and the header
(docs/tui.md#untrusted-text-is-literal); test_tui_safety.py covers the panes."""

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


MD_TRAPS = "Fix __init__ and *args [click](https://evil.example) <b>x</b> `tick"


def test_todos_overlay_shows_markdown_in_todo_text_literally(tmp_path):
    # The overlay is Markdown; todo text went in as Markdown source, so `__init__` turned bold,
    # `[click](...)` became a link and a newline + `# ` made a heading.
    from tui.screens.todos import TodosDocument
    from tui_fixtures import demo_deck, drawn_lines, settled

    deck = demo_deck(tmp_path)
    deck.call_tool("todo", {"todos": [{"id": "m`d", "content": MD_TRAPS + "\n# Heading", "status": "in_progress",
                                       "priority": "high", "confidence": 70, "group": "__g__"}],
                            "plan": {"user_intention": "**intent**"},
                            "goals": [{"group": "__g__", "feedback_loop": "run `pytest` on *.py"}]}).text
    app = make_app(deck)

    async def scenario(pilot):
        await pilot.press("f2")
        await pilot.pause()
        md = app.screen.query_one(TodosDocument)
        await pilot.pause()
        shown = " ".join(line.strip() for line in drawn_lines(md))  # (a long line wraps: joined again)
        for literal in (MD_TRAPS + "␊# Heading", "__g__ (0/1)", "**intent**", "run `pytest` on *.py", "#m`d"):
            assert literal in shown, (literal, shown)
        assert "Weighted confidence: 70%" in shown  # the document's own formatting still applies
        app.export_screenshot()

    run(app, scenario)


def test_todos_export_keeps_the_overlay_template_byte_exact(tmp_path):
    from tui_fixtures import demo_deck, settled

    deck = demo_deck(tmp_path)
    deck.call_tool("todo", {"todos": [{"id": "a", "content": "__init__", "status": "pending", "priority": "low",
                                       "confidence": 50}]}).text
    md = deck.todo.overlay_markdown()
    assert "- ○ `#a` [low] __init__" in md


def test_message_log_source_label_is_shown_visibly(tmp_path):
    # The source label is the first word of the run line (a pasted line can hold ESC): it was
    # appended raw while the message beside it was cleaned.
    from tui_fixtures import demo_deck, settled

    app = make_app(demo_deck(tmp_path))

    async def scenario(pilot):
        await pilot.press("ctrl+l")
        await pilot.pause()
        app.deck_screen.run_line("/\x1b]0;T\x07x [red]a")
        await settled(pilot)
        text = "".join(line.text for line in app.query_one("#log").lines)
        assert "\x1b" not in text and "\x07" not in text
        assert "/␛]0;T␇x" in text

    run(app, scenario)


def test_header_shows_a_hostile_session_name_and_cwd_literally(tmp_path):
    import json

    from tui.widgets.header import DeckHeader

    name = "[red]NAME[/red] [/foo] \x1b]0;TITLE\x07 [link=x]l"
    path = tmp_path / "named.jsonl"
    entries = [
        {"type": "session", "version": 3, "id": "s1", "timestamp": "2026-11-30T14:55:13.547Z",
         "cwd": "/tmp/[bold]cwd\x1b[2J"},
        {"type": "session_info", "id": "aaaa0001", "parentId": None, "timestamp": "2026-11-30T14:55:15.000Z",
         "name": name},
    ]
    path.write_text("".join(json.dumps(e) + "\n" for e in entries), encoding="utf-8")
    app = make_app(open_deck(path, writable=False))

    async def scenario(pilot):
        drawn = "".join(segment.text for segment in app.query_one(DeckHeader).render_line(0))
        assert "[red]NAME[/red] [/foo] ␛]0;TITLE␇ [link=x]l" in drawn, drawn
        assert "/tmp/[bold]cwd␛[2J" in drawn and "\x1b" not in drawn

    run(app, scenario, size=(160, 10))
