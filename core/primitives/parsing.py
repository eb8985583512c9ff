"""Command-line parsing shared by the three primitive adapters (docs/primitives.md#command-parsing)."""

from __future__ import annotations

import re

from core.jsutil import ANY, NON_WS, WS, js_trim, js_trim_start

# Patterns, not compiled ones: re compiles each at its first use and keeps it, so a command that
# parses no command line (inspect) pays nothing for them (some 0.4 ms at import).
_TOP = f"({NON_WS}+)(?:{WS}+({ANY}*))?"
_TOKEN = f"{NON_WS}+"


def split_subcommand(args: str) -> tuple[str, str] | None:
    """``(sub, rest)`` of a command's args, or None (the caller answers with USAGE)."""
    m = re.fullmatch(_TOP, js_trim_start(args))
    if m is None:
        return None
    return m.group(1), m.group(2) or ""


def single_argument(rest: str) -> str | None:
    """The one ``\\S+`` token of ``rest`` (trimmed), or None when it is blank or has several."""
    t = js_trim(rest)
    return t if re.fullmatch(_TOKEN, t) else None


def is_blank_rest(rest: str) -> bool:
    return js_trim(rest) == ""


def is_confirmed(rest: str) -> bool:
    """``clear`` is confirmed only by exactly ``--yes`` (after trimming)."""
    return js_trim(rest) == "--yes"
