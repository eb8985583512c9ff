"""Exceptions raised by the session log."""

from __future__ import annotations


class SessionError(Exception):
    """Base class of every session-log error."""


class NotASession(SessionError):
    """The file is not a pi session: its first parsed line is not a session header."""


class ReadOnlySession(SessionError):
    """A write was attempted on a log opened read-only; nothing was written."""
