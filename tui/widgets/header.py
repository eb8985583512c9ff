"""The one-line header: session name, cwd, entry count, and the badges on the right."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.widget import Widget

from tui.text import clean


@dataclass(frozen=True)
class HeaderInfo:
    name: str
    cwd: str
    entries: int
    following: bool
    writable: bool
    warnings: int
    clock: str = ""  # "HH:MM" when the clock is shown
    problem: str | None = None  # why the file cannot be read now (deleted, unreadable)
    past: bool = False  # the deck as it was at an earlier entry (the timeline's)


class DeckHeader(Widget):
    DEFAULT_CSS = """
    DeckHeader { height: 1; background: $panel; }
    """

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.info: HeaderInfo | None = None

    def show(self, info: HeaderInfo) -> None:
        if info != self.info:
            self.info = info
            self.refresh()

    def render(self) -> Text:
        return render_header(self.info, self.size.width) if self.info else Text()


def badges(info: HeaderInfo) -> list[tuple[str, str]]:
    """(label, style) of every badge that applies."""
    if info.problem is not None:
        out = [(" FILE GONE " if "gone" in info.problem else " UNREADABLE ", "bold white on red")]
    elif info.past:
        out = [(" PAST ", "bold black on yellow")]
    elif info.following:
        out = [(" LIVE ", "bold black on green")]
    else:
        out = [(" PAUSED ", "bold black on yellow")]
    if not info.writable:
        out.append((" READ-ONLY ", "bold white on blue"))
    if info.warnings:
        out.append((f" WARNINGS ({info.warnings}) ", "bold white on red"))
    return out


def render_header(info: HeaderInfo, width: int) -> Text:
    right = Text()
    for label, style in badges(info):
        right.append(" ")
        right.append(label, style)
    if info.clock:
        right.append(f" {info.clock}", "dim")
    left = Text(no_wrap=True, overflow="ellipsis")
    left.append(" pideck ", "bold reverse")
    left.append(" ")
    left.append(clean(info.name), "bold")
    left.append(f"  {info.entries} entries  ")
    left.append(clean(info.cwd), "dim")
    room = max(width - right.cell_len, 0)
    left.truncate(room, overflow="ellipsis", pad=True)
    return Text.assemble(left, right, no_wrap=True)
