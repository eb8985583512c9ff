"""Enter on a remote row of the overview, over a real sshd: the same deck screen on the session
there, live (what is appended there appears here), and with the host's ``write = true`` a typed
command runs there and its entry comes back through the copy."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tui"))  # (the TUI tests' helpers)

from core.catalog.attention import Attention  # noqa: E402
from core.config.settings import check_host  # noqa: E402
from remote.host_rows import FixedCatalog, remote_row  # noqa: E402
from tui.screens.deck import DeckScreen  # noqa: E402
from tui.widgets.header import DeckHeader  # noqa: E402
from tui.widgets.message_log import MessageLog  # noqa: E402
from tui_fixtures import FIXED_MS, make_app, run, settled, type_line, wait_for  # noqa: E402

pytestmark = [pytest.mark.ssh, pytest.mark.usefixtures("runtime")]
BOUND_S = 20.0


def todo(box, session: Path, *contents: str) -> None:
    params = {"todos": [{"id": str(n), "content": c, "status": "pending", "priority": "high", "confidence": 80}
                        for n, c in enumerate(contents, 1)]}
    done = box.run("tool", "--session", str(session), "todo", json.dumps(params))
    assert (done.returncode, done.stderr) == (0, "")


@pytest.mark.parametrize("write", [False, True], ids=["read-only", "write"])
def test_enter_on_a_remote_row_opens_its_live_deck(make_host, write: bool) -> None:
    box = make_host("box")
    host = check_host(box.settings(write=write))
    session = box.home / "project" / "s.jsonl"
    session.parent.mkdir()
    todo(box, session, "Write the parser")
    row = remote_row("box", str(session), "remote work")
    catalog = FixedCatalog([row], {row.path: Attention("working", FIXED_MS, "a turn is in progress")})
    app = make_app(None, cwd=str(box.home), catalog=lambda scope: catalog, overview_poll=0.05, follow=True,
                   hosts=lambda: [host])

    async def scenario(pilot):
        assert await wait_for(pilot, lambda: len(app.screen.rows) == 1)
        await pilot.press("enter")
        assert await wait_for(pilot, lambda: isinstance(app.screen, DeckScreen), BOUND_S), "no deck"
        await settled(pilot, BOUND_S)
        screen = app.screen
        header = screen.query_one(DeckHeader)
        assert header.info is not None and header.info.name == "box: s.jsonl"
        assert [t.content for t in screen.view.todo_state.todos] == ["Write the parser"]

        todo(box, session, "Write the parser", "Test it")  # (appended there)
        assert await wait_for(pilot, lambda: [t.content for t in screen.view.todo_state.todos]
                              == ["Write the parser", "Test it"], BOUND_S), "the append did not appear"

        await type_line(pilot, "/agent-state add parse Write the parser")
        if not write:
            assert screen.query_one(MessageLog).messages[-1][::2] == (
                "refused", "box is read-only here: commands to its sessions are sent there only when its "
                "[[hosts]] entry says write = true. Nothing was changed.")
            box.kill()  # (the host goes away: the deck says so, and keeps what it showed)
            assert await wait_for(pilot, lambda: (screen.problem or "").startswith("box cannot be reached since "),
                                  BOUND_S), screen.problem
            assert [t.content for t in screen.view.todo_state.todos] == ["Write the parser", "Test it"]
            from tui.widgets.header import badges

            assert await wait_for(pilot, lambda: header.info is not None and header.info.problem is not None, BOUND_S)
            assert badges(header.info)[0] == (" UNREACHABLE ", "bold white on red")
            return
        assert await wait_for(pilot, lambda: screen.model_thread.busy is False, BOUND_S)
        assert screen.query_one(MessageLog).messages[-1][::2] == ("info", 'Agent State: added work item "parse".')
        assert await wait_for(pilot, lambda: [w["id"] for w in screen.view.state["workItems"]] == ["parse"],
                              BOUND_S), "the entry written there did not come back"
        assert b'"agent-state-state"' in session.read_bytes()

    run(app, scenario)
