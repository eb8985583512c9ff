"""The session picker: pideck's and pi's sessions for this directory, newest first."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from core.catalog.sessions import SessionInfo
from core.jsutil import plural
from tui.text import clean


def session_label(info: SessionInfo, stamp: bool = True) -> Text:
    text = Text(no_wrap=True, overflow="ellipsis")
    text.append(f"{info.kind:<7}", "bold cyan" if info.kind == "pideck" else "bold magenta")
    entries = "" if info.entries is None else f"{info.entries} {plural(info.entries, 'entry', 'entries')}"
    text.append(f"{entries:>14}  ")
    if stamp:
        text.append(time.strftime("%Y-%m-%d %H:%M  ", time.localtime(info.mtime)), "dim")
    text.append(clean(info.path.name))
    return text


class SessionPicker(ModalScreen[Path | None]):
    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel")]

    def __init__(self, sessions: Sequence[SessionInfo], stamps: bool = True) -> None:
        super().__init__()
        self.sessions = list(sessions)
        self.stamps = stamps

    def compose(self) -> ComposeResult:
        with Vertical(id="picker-box", classes="dialog"):
            if self.sessions:
                yield OptionList(*(Option(session_label(s, self.stamps), id=str(i))
                                   for i, s in enumerate(self.sessions)), id="sessions")
            else:
                yield Static("No sessions for this directory yet.", classes="dialog-hint")
            yield Static("enter opens · esc cancels · pi's sessions open read-only", classes="dialog-hint")

    def on_mount(self) -> None:
        self.query_one("#picker-box").border_title = "Open session"

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self.sessions[int(event.option.id or 0)].path)
