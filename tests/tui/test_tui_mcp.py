"""The TUI beside an agent: tool calls made by a real ``pideck mcp`` process show up in the panes."""

from __future__ import annotations

from core.catalog.opening import open_deck
from mcp_client import client_session, server_params
from tui.widgets.keyed_table import KeyedTable
from tui.widgets.todos import TodoStrip
from tui_fixtures import make_app, run, wait_for


def test_calls_by_an_mcp_server_process_appear_in_every_pane(tmp_path):
    path = tmp_path / "beside.jsonl"
    deck = open_deck(path).deck
    app = make_app(deck, follow=True, poll=0.02)

    async def scenario(pilot):
        work, packets = app.query_one("#work-items", KeyedTable), app.query_one("#packets", KeyedTable)
        progress, strip = app.query_one("#progress-body"), app.query_one(TodoStrip)
        assert (work.keys, packets.keys, strip.display) == ([], [], False)

        async def agent(session):
            texts = [(await session.call_tool(name, arguments)).content[0].text for name, arguments in [
                ("agent_state_add_work_item", {"id": "mcp-w1", "content": "Added by the agent"}),
                ("agent_progress_add_milestone", {"milestone": "parser-green"}),
                ("agent_handoff_create", {"schemaVersion": 1, "id": "to-review", "source": "agent",
                                          "goal": "Review the parser"}),
                ("todo", {"todos": [{"id": "t1", "content": "Wire the parser", "status": "in_progress",
                                     "priority": "high", "confidence": 80}]}),
            ]]
            assert texts[0] == 'Agent State: added work item "mcp-w1".'
            assert await wait_for(pilot, lambda: work.keys == ["mcp-w1"])
            assert await wait_for(pilot, lambda: "parser-green" in str(progress.render()))
            assert await wait_for(pilot, lambda: packets.keys == ["to-review"])
            assert await wait_for(pilot, lambda: "Wire the parser" in str(strip.render()))
            await session.call_tool("agent_state_set_work_item_status", {"id": "mcp-w1", "status": "done"})
            assert await wait_for(pilot, lambda: str(work.get_row("mcp-w1")[0]) == "✓")  # the done badge

        await client_session(server_params(tmp_path, "--session", str(path)), tmp_path / "server-stderr.txt", agent)

    run(app, scenario)
