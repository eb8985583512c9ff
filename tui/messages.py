"""Messages posted to the app (the tail worker runs in a thread and only ever posts these)."""

from __future__ import annotations

from textual.message import Message


class LogChanged(Message):
    """The session file changed on disk (size, inode or mtime). A newer one replaces a queued one."""

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, LogChanged)
