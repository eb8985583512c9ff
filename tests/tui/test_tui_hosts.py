"""Sessions of other machines in the TUI (docs/hosts.md): the overview's Host column and its
unreachable rows, the deck of a remote session (the same screen, the header naming the host,
read-only unless the host's ``write = true``), and ``pideck --host NAME``.

The rows are the ones the merged catalog lists (tests/remote/host_rows.py); the deck of a remote
row over a real sshd is tested in tests/remote/test_mirror_deck.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.catalog.attention import Attention
from core.catalog.remote_deck import RemoteDeck, read_only_text
from core.catalog.rows import OverviewRow
from core.cli.main import main
from core.config.settings import HostConfig
from core.session.log import SessionLog
from remote.host_rows import FixedCatalog, remote_row
from tui.screens.overview import OverviewScreen
from tui.widgets.command_line import CommandLine
from tui.widgets.header import DeckHeader
from tui.widgets.keyed_table import KeyedTable
from tui.widgets.message_log import MessageLog
from tui_fixtures import CWD, FIXED_MS, demo_deck, fixed_clock, make_app, run, settled, type_line, wait_for

SIZES = pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
MINUTE = 60_000


def inbox() -> FixedCatalog:
    """A local session, one on ``box`` working, two on ``vm-2``, which cannot be reached."""
    local = remote_row("x", f"{CWD}/local.jsonl", "here-and-now")
    local = OverviewRow(**{**local.__dict__, "path": f"{CWD}/local.jsonl", "host": None})
    rows = [local,
            remote_row("box", "/home/me/.pideck/a.jsonl", "refactor the parser"),
            remote_row("vm-2", "/srv/b.jsonl", "evil\x1b[31m [b]name[/b]"),
            remote_row("vm-2", "/srv/c.jsonl", "nightly build", todos_settled=0)]
    down = "ssh: connect to host vm2 port 22: Connection refused"
    attentions = {rows[0].path: Attention("waiting", FIXED_MS - 5 * MINUTE, "the turn ended, nothing open"),
                  rows[1].path: Attention("working", FIXED_MS - 2 * MINUTE, "a turn is in progress"),
                  rows[2].path: Attention("unreachable", FIXED_MS - MINUTE, down),
                  rows[3].path: Attention("unreachable", FIXED_MS - MINUTE, down)}
    return FixedCatalog(rows, attentions)


def overview_app(**options):
    catalog = inbox()
    return make_app(None, cwd=CWD, catalog=lambda scope: catalog, overview_poll=0.05, **options)


async def overview_ready(pilot, rows: int) -> OverviewScreen:
    screen = pilot.app.screen
    assert isinstance(screen, OverviewScreen)
    table = screen.query_one("#overview-rows", KeyedTable)
    assert await wait_for(pilot, lambda: len(table.keys) == rows), "no rows"
    await pilot.pause()
    return screen


def cells(screen: OverviewScreen, key: str) -> list[str]:
    table = screen.query_one("#overview-rows", KeyedTable)
    return [str(cell) for cell in table.get_row(key)]


def test_the_host_column_names_each_rows_machine() -> None:
    app = overview_app()

    async def scenario(pilot):
        screen = await overview_ready(pilot, 4)
        table = screen.query_one("#overview-rows", KeyedTable)
        assert [str(c.label) for c in table.columns.values()][:5] == ["", "State", "In", "Host", "Kind"]
        assert cells(screen, f"{CWD}/local.jsonl")[1:4] == ["waiting", "5m", "here"]
        assert cells(screen, "box:/home/me/.pideck/a.jsonl")[1:4] == ["working", "2m", "box"]
        assert cells(screen, "vm-2:/srv/b.jsonl")[1:5] == ["unreachable", "1m", "vm-2", "pideck"]
        assert cells(screen, "vm-2:/srv/b.jsonl")[5].startswith("evil␛[31m [b]name[/b]")
        table.move_cursor(row=table.get_row_index("vm-2:/srv/c.jsonl"))
        await pilot.pause()
        assert str(screen.query_one("#overview-detail").render()) == (
            "unreachable for 1m: ssh: connect to host vm2 port 22: Connection refused")

    run(app, scenario)


def test_without_remote_rows_there_is_no_host_column() -> None:
    catalog = FixedCatalog([], {})
    app = make_app(None, cwd=CWD, catalog=lambda scope: catalog, overview_poll=0.05)

    async def scenario(pilot):
        await pilot.pause()
        table = app.screen.query_one("#overview-rows", KeyedTable)
        assert "Host" not in [str(c.label) for c in table.columns.values()]

    run(app, scenario)


def test_on_one_host_only_its_rows_are_listed() -> None:
    app = overview_app(host="vm-2")

    async def scenario(pilot):
        screen = await overview_ready(pilot, 2)
        assert screen.query_one("#overview-rows", KeyedTable).keys == ["vm-2:/srv/b.jsonl", "vm-2:/srv/c.jsonl"]
        title = str(screen.query_one("#overview-title").render())
        assert " Who needs you on vm-2 " in title and "2 sessions" in title

    run(app, scenario)


@SIZES
def test_overview_with_hosts(snap_compare, size) -> None:
    async def run_before(pilot):
        await overview_ready(pilot, 4)

    assert snap_compare(overview_app(), terminal_size=size, run_before=run_before)


class StandInMirror:
    """A mirror whose copy is the file given (no host is reached)."""

    def __init__(self, host: HostConfig, remote_path: str) -> None:
        self.host, self.remote_path, self.closed = host, remote_path, False

    def close(self) -> None:
        self.closed = True

    @property
    def state(self):
        from core.remote.mirror import MirrorState

        return MirrorState(True, None, "", True)


def remote_deck(tmp_path: Path, write: bool = False) -> tuple[RemoteDeck, StandInMirror]:
    path = demo_deck(tmp_path).log.path
    mirror = StandInMirror(HostConfig("box", "me@box", write=write), "/home/me/.pideck/demo.jsonl")
    log = SessionLog.open(path, writable=False, clock=fixed_clock)
    return RemoteDeck(log, mirror, clock=lambda: FIXED_MS), mirror  # type: ignore[arg-type]


@SIZES
def test_remote_deck(snap_compare, tmp_path, size) -> None:
    async def run_before(pilot):
        await settled(pilot)

    assert snap_compare(make_app(remote_deck(tmp_path)[0]), terminal_size=size, run_before=run_before)


def test_a_remote_decks_header_names_its_host_and_a_write_is_refused_naming_the_setting(tmp_path) -> None:
    deck, mirror = remote_deck(tmp_path)
    app = make_app(deck)

    async def scenario(pilot):
        await settled(pilot)
        header = app.query_one(DeckHeader)
        assert header.info is not None and header.info.name == "box: demo.jsonl" and not header.info.writable
        assert app.query_one(CommandLine).placeholder.startswith("read-only session")
        await type_line(pilot, "/agent-state add parse Write the parser")
        assert app.query_one(MessageLog).messages[-1][::2] == ("refused", read_only_text("box"))
        assert read_only_text("box") == ("box is read-only here: commands to its sessions are sent there only "
                                         "when its [[hosts]] entry says write = true. Nothing was changed.")
        assert app.query_one(CommandLine).value == "/agent-state add parse Write the parser"

    run(app, scenario)
    from tui.models.thread import join_all

    join_all(5)  # (the screen's thread lets its Deck go as it ends)
    assert mirror.closed  # (the screen went away with the app: its copy is no longer followed)


def test_a_remote_deck_of_a_host_that_writes_is_writable(tmp_path) -> None:
    deck, _ = remote_deck(tmp_path, write=True)
    assert (deck.writable, deck.read_only_reason) == (True, None)
    assert deck.log.writable is False  # (the copy itself is never written here)


def test_pideck_host_opens_the_overview_of_that_host(tmp_path, monkeypatch, capsys) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[[hosts]]\nname = "box"\nssh = "me@box"\n')
    monkeypatch.setenv("PIDECK_CONFIG", str(config))
    asked = []

    def tui(opened, **options):
        asked.append((opened, options))
        return 0

    assert main(["--host", "box"], tui=tui) == 0
    assert asked == [(None, {"show_all": True, "host": "box"})]
    assert main(["--host", "vm\x1b[2J"], tui=tui) == 2
    assert capsys.readouterr().err == f"pideck: no host named vm␛[2J in the [[hosts]] of {config} (it names box)\n"
    assert main(["--host", "box", "some.jsonl"], tui=tui) == 2
    assert capsys.readouterr().err == "pideck: --host opens the overview of that host's sessions, not one session\n"


def test_a_remote_conversation_says_what_it_shows_and_where_its_transcript_is() -> None:
    """A deck of another machine copies the transcript alone: its pane names the file there and
    does not claim the agent never wrote to pideck (its pideck session there is not copied)."""
    from core.primitives.todo.model import TodoState
    from tui.widgets.conversation import conversation_text

    agent = {"kind": "claude", "name": "Claude Code", "sessionId": "2aa06482", "cwd": "/srv/app",
             "transcript": "box:/home/u/.claude/projects/-srv-app/2aa06482.jsonl", "host": "box"}
    text = conversation_text(agent, TodoState()).plain
    assert "Transcript box:/home/u/.claude/projects/-srv-app/2aa06482.jsonl\n" in text
    assert ("pideck     its pideck session on box, if any, is not shown here: a deck of another machine copies "
            "the agent's transcript alone\n") in text
    assert "has not written to pideck yet" not in text
