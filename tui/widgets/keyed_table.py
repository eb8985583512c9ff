"""A DataTable updated by diff: keyed rows, changed cells only, selection kept."""

from __future__ import annotations

from typing import Any, Callable, Generic, Hashable, Sequence, TypeVar

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual import events
from textual.widgets import DataTable

FLASH = Style(bgcolor="#4b4b00")
"""The background of a row that just changed: one flash style for every table and list."""

D = TypeVar("D", bound=Hashable)
"""The plain, comparable value a row is drawn from."""


class KeyedTable(DataTable[Any], Generic[D]):
    """``show(rows, render)`` moves the table to exactly those rows.

    Rows are compared by their plain data, so ``render`` (building the styled cells) runs only for
    new or changed rows: a refresh costs little more on 500 rows than on 5. Never clears for an
    ordinary change (that would reset the cursor and the scroll): rows that went away are removed,
    changed cells updated, new rows appended. Only when the order of the remaining keys changed is
    the table rebuilt, and then the cursor goes back to its key.
    """

    TEXT_SHARE = 0.5
    """The text column keeps what it needs up to this share of the width; the other columns (ids,
    badges, scores) have the rest, so an id is cut only when the text needs the room too."""
    MIN_WIDTH = 8  # a short id stays whole on a narrow pane
    TOP_UNTIL_MOVED = False
    """The cursor stays on the first row until the person moves it (the inbox: the row who needs
    the person most is where the cursor starts, in whatever order the rows were read); after that,
    and in every table without it, the cursor stays on its row wherever the row goes."""

    def __init__(self, columns: Sequence[tuple[str, str]], fill: str, *, stretch: bool = True, **kwargs) -> None:
        kwargs.setdefault("cursor_type", "row")
        kwargs.setdefault("zebra_stripes", True)
        super().__init__(**kwargs)
        self._fill = fill  # the text column: the room the others leave (cut with …)
        self._stretch = stretch  # False: the text column is no wider than its widest cell
        self._shown: dict[str, D] = {}  # key -> data of the row on screen
        self._cells: dict[str, Sequence[Text]] = {}
        self._drawn = False  # shown once: later changes flash
        self._reselect: str | None = None  # the key the cursor was on before ``set_columns``
        self.flash_seconds = 0.0  # how long a new or changed row is highlighted (0: never)
        self._flashing: set[str] = set()
        self._moved = False  # the person moved the cursor (``TOP_UNTIL_MOVED``)
        self._add_columns(columns)

    def _add_columns(self, columns: Sequence[tuple[str, str]]) -> None:
        self._column_keys = [key for _, key in columns]
        self._labels = {key: cell_len(label) for label, key in columns}
        for label, key in columns:
            # explicit keys: add_columns() makes random ones; a Text label is not read as markup
            # (nor for emoji codes, whose table would be loaded while the app starts)
            self.add_column(Text(label), key=key)

    def set_columns(self, columns: Sequence[tuple[str, str]]) -> None:
        """Other columns (the overview's Host column, once a row is on another machine): the rows
        are drawn again at the next ``show``, the cursor kept on its key."""
        selected = self._kept_key()
        self.clear(columns=True)
        self._shown, self._cells = {}, {}
        self._drawn = False  # (the same rows drawn again are no news: no flash)
        self._add_columns(columns)
        self._reselect = selected

    def _kept_key(self) -> str | None:
        """The key the cursor stays on as rows change (``TOP_UNTIL_MOVED``: none until moved)."""
        return self.selected_key() if self._moved or not self.TOP_UNTIL_MOVED else None

    def _person_moves(self) -> None:
        self._moved = True

    def action_cursor_up(self) -> None:
        self._person_moves()
        super().action_cursor_up()

    def action_cursor_down(self) -> None:
        self._person_moves()
        super().action_cursor_down()

    def action_page_up(self) -> None:
        self._person_moves()
        super().action_page_up()

    def action_page_down(self) -> None:
        self._person_moves()
        super().action_page_down()

    def action_scroll_top(self) -> None:
        self._person_moves()
        super().action_scroll_top()

    def action_scroll_bottom(self) -> None:
        self._person_moves()
        super().action_scroll_bottom()

    async def _on_click(self, event: events.Click) -> None:
        self._person_moves()
        await super()._on_click(event)

    @property
    def keys(self) -> list[str]:
        return list(self._shown)

    def selected_key(self) -> str | None:
        if not self._shown or self.cursor_row < 0 or self.cursor_row >= self.row_count:
            return None
        return self.coordinate_to_cell_key(self.cursor_coordinate).row_key.value

    def show(self, rows: Sequence[tuple[str, D]], render: Callable[[D], Sequence[Text]]) -> None:
        wanted = dict(rows)
        if wanted == self._shown and list(wanted) == list(self._shown):
            self._drawn = True
            return
        if self._drawn and self.flash_seconds:
            self.flash([key for key, data in wanted.items() if self._shown.get(key) != data])
        added = [key for key in wanted if key not in self._shown] if self._drawn and self._shown else []
        self._drawn = True
        if added and not self.has_focus:
            # A row added to the rows on screen may land below what a squeezed pane shows: the
            # table scrolls to it (the selection stays; a person in the table keeps their view).
            self.call_after_refresh(self._reveal, added[-1])
        kept = [k for k in self._shown if k in wanted]
        if kept != [k for k in wanted if k in self._shown]:
            self._rebuild(wanted, render)
            return
        selected = self._kept_key()
        for key in list(self._shown):
            if key not in wanted:
                self.remove_row(key)
                del self._shown[key], self._cells[key]
        if selected in self._shown and self.get_row_index(selected) != self.cursor_row:
            self.move_cursor(row=self.get_row_index(selected), animate=False)  # rows above went away
        for key, data in wanted.items():
            if key not in self._shown:
                self._cells[key] = cells = render(data)
                self.add_row(*cells, key=key)
                if key == self._reselect:
                    self._reselect = None
                    self.move_cursor(row=self.get_row_index(key), animate=False)
            elif self._shown[key] != data:
                cells = render(data)
                for column, before, after in zip(self._column_keys, self._cells[key], cells):
                    if (before.plain, before.style, before.spans) != (after.plain, after.style, after.spans):
                        self.update_cell(key, column, after, update_width=True)
                self._cells[key] = cells
            self._shown[key] = data
        if list(self._shown) != list(wanted):  # new keys landed before old ones: order by rebuild
            self._rebuild(wanted, render)
        self.call_after_refresh(self.fit_columns)  # column widths settle on the next refresh

    def _rebuild(self, wanted: dict[str, D], render: Callable[[D], Sequence[Text]]) -> None:
        selected = self._kept_key()
        self.clear()
        self._shown, self._cells = {}, {}
        for key, data in wanted.items():
            self._cells[key] = cells = render(data)
            self.add_row(*cells, key=key)
            self._shown[key] = data
        if selected in self._shown:
            self.move_cursor(row=self.get_row_index(selected), animate=False)
        self.call_after_refresh(self.fit_columns)

    def _reveal(self, key: str) -> None:
        """Scroll so that the row of ``key`` is in view (rows are one line each)."""
        if key not in self._shown or self.has_focus:
            return
        row = self.get_row_index(key)
        room = self.size.height - (self.header_height if self.show_header else 0)
        if room > 0 and not self.scroll_y <= row < self.scroll_y + room:
            self.scroll_to(y=max(0, row - room + 1), animate=False)

    def on_resize(self) -> None:
        self.call_after_refresh(self.fit_columns)

    def flash(self, keys: Sequence[str]) -> None:
        """Highlight these rows for ``flash_seconds`` (htop, k9s): what just changed stands out."""
        if not keys:
            return
        self._flashing.update(keys)
        self.set_timer(self.flash_seconds, lambda: self._unflash(keys))
        self._clear_caches()
        self.refresh()

    def _unflash(self, keys: Sequence[str]) -> None:
        self._flashing.difference_update(keys)
        self._clear_caches()
        self.refresh()

    def _get_row_style(self, row_index: int, base_style: Style) -> Style:
        style = super()._get_row_style(row_index, base_style)
        if self._flashing and 0 <= row_index < self.row_count:
            if self.ordered_rows[row_index].key.value in self._flashing:
                return style + FLASH
        return style

    def column_budget(self) -> dict[str, int]:
        """Content width per column for the rows there now, so nothing scrolls sideways. The text
        column is promised what its widest cell needs, up to ``TEXT_SHARE`` of the room; the other
        columns share what is left, each whole when it fits (a narrow column never gives room to a
        wide one), the widest cut with an ellipsis; the text column gets whatever they leave.
        (A flat cap of 30% per column cut ``tail-truncation`` to ``tail-tru…`` on a 40-column pane
        whose text column had room to spare.)"""
        scrollbar = self.styles.scrollbar_size_vertical if self.row_count > self.size.height - 1 else 0
        room = self.size.width - scrollbar - 2 * self.cell_padding * len(self._column_keys)
        natural = dict(self._labels)
        for cells in self._cells.values():
            for key, cell in zip(self._column_keys, cells):
                natural[key] = max(natural[key], cell.cell_len)
        text = min(natural[self._fill], int(room * self.TEXT_SHARE))
        others = sorted((key for key in self._column_keys if key != self._fill), key=lambda k: natural[k])
        left = room - text
        widths: dict[str, int] = {}
        for n, key in enumerate(others):  # narrowest first: each takes its fair share of what is left
            fair = left // (len(others) - n)
            widths[key] = min(natural[key], max(fair, self.MIN_WIDTH))
            left -= widths[key]
        rest = max(room - sum(widths.values()), 6)
        widths[self._fill] = rest if self._stretch else min(natural[self._fill], rest)
        return {key: widths[key] for key in self._column_keys}

    def fit_columns(self) -> None:
        if not self.size.width:
            return
        changed = False
        for key, width in self.column_budget().items():
            column = self.columns[key]  # type: ignore[index]
            if column.auto_width or column.width != width:
                column.auto_width, column.width = False, width
                changed = True
        if changed:
            self._require_update_dimensions = True
            # Cells drawn before the widths settled are cached at their old width (the cache key
            # has no width): without this they stay cut off with no ellipsis.
            self._clear_caches()
            self.refresh()
