"""The overview as a text table (``pideck overview``): the rows' cells, how long ago, the token
column."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable, Mapping

from core.catalog import attention as att
from core.catalog.rows import OverviewRow
from core.clock import ago
from core.config.places import (
    AGENT_KINDS,
)
from core.untrusted import visible_controls
from core.views.costs import short_count

if TYPE_CHECKING:
    pass


OVERVIEW_COLUMNS = ("KIND", "NAME", "TODOS", "CONF", "ITEMS o/p/b/d", "MILESTONES", "PACKETS", "LAST", "FLAG", "DIRECTORY")


HERE = "here"
"""The HOST cell of this machine's rows."""

INBOX_COLUMNS = ("STATE", "IN")
"""With the rows' states (``overview_table``'s ``attentions``): after NAME (and COST and TOKENS
before DIRECTORY, MESSAGE last)."""


def cost_cell(row: OverviewRow) -> str:
    """What the row's answers cost so far (docs/usage.md): ``$0.0060``; ``—`` when none was priced."""
    from core.sources.plan import cost_text

    return "—" if row.cost is None else cost_text(row.cost)


def token_cell(row: OverviewRow) -> str:
    """The last turn's tokens and, where the log says the window, the share of it in use:
    ``48k 19%``; ``—`` when the log does not say."""
    if row.tokens is None:
        return "—"
    share = "" if row.context_share is None else " <1%" if 0 < row.context_share < 0.01 else f" {row.context_share * 100:.0f}%"
    return short_count(row.tokens) + share


def in_state(attention: att.Attention | None, now_ms: int) -> str:
    """How long a row has been in its state: ``12s``, ``5m``, ``3h``, ``2d``; ``—`` unknown."""
    if attention is None or attention.since_ms is None:
        return "—"
    return ago(attention.since_ms, now_ms, short=True).removesuffix(" ago")


def row_cells(row: OverviewRow, now_ms: int) -> list[str]:
    """A row as table cells; the log's text with control characters made visible. pi's sessions
    and the agents' conversations are read-only by kind, so only a read-only pideck session says
    ``ro``; a conversation not read yet shows ``…`` for its todos."""
    kind = f"{row.kind}{' ro' if row.read_only and row.kind == 'pideck' else ''}"
    return [
        kind,
        visible_controls(row.name),
        "…" if row.pending else f"{row.todos_settled}/{row.todos_total}" if row.todos_total else "—",
        "—" if row.lowest_confidence is None else str(row.lowest_confidence),
        "/".join(map(str, row.work_items)),
        f"{row.milestones} ({row.recorded} rec.)" if row.recorded else str(row.milestones),
        str(row.packets),
        ago(row.last_activity_ms, now_ms),
        row.flag or "",
        visible_controls(row.cwd),
    ]


def overview_table(rows: Iterable[OverviewRow], now_ms: int,
                   attentions: Mapping[str, att.Attention] | None = None, *, hosts: bool = False) -> str:
    """The rows as a text table, in the order given. When an agent's conversation is among them, a
    STATUS column (working, waiting, ended) comes before FLAG, empty for pi's and pideck's
    sessions. With ``attentions`` (``Catalog.attentions``), each row's STATE and how long it has been IN it
    follow NAME, what its answers COST so far and its last turn's TOKENS come before DIRECTORY, and the first line of the agent's
    last MESSAGE ends the line. With ``hosts`` (any ``[[hosts]]`` configured), a HOST column comes
    first: the host's name, ``here`` for this machine's rows."""
    rows = list(rows)
    columns = list(OVERVIEW_COLUMNS)
    lines = [row_cells(r, now_ms) for r in rows]
    if any(r.kind in AGENT_KINDS for r in rows):
        at = columns.index("FLAG")
        columns.insert(at, "STATUS")
        for row, cells in zip(rows, lines):
            cells.insert(at, "…" if row.pending else row.status_text)
    if attentions is not None:
        at = columns.index("NAME") + 1
        columns[at:at] = INBOX_COLUMNS
        columns[-1:-1] = ["COST", "TOKENS"]
        columns.append("MESSAGE")
        for row, cells in zip(rows, lines):
            state = attentions.get(row.path)
            cells[at:at] = ["…" if state is None else state.state, in_state(state, now_ms)]
            cells[-1:-1] = [cost_cell(row), token_cell(row)]
            cells.append(visible_controls(row.last_message or ""))
    if hosts:
        columns.insert(0, "HOST")
        for row, cells in zip(rows, lines):
            cells.insert(0, row.host or HERE)  # (a checked [[hosts]] name: letters, digits, . _ -)
    table = [columns, *lines]
    widths = [max(len(line[i]) for line in table) for i in range(len(columns))]
    return "\n".join("  ".join(cell.ljust(w) for cell, w in zip(line, widths)).rstrip() for line in table)
