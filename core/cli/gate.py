"""``pideck gate``: one turn-end settle of the todo gates, for a harness."""

from __future__ import annotations

import argparse
import os
import sys

from core.cli.common import EXIT_OK, EXIT_USAGE, emit, open_deck


def run(args: argparse.Namespace) -> int:
    """One turn-end settle: the follow-up goes to stdout and to stderr (exit 2: the agent should go
    on; harnesses read one or the other), the display-only notice to stderr; exit 0 when there is
    nothing to say, or no session yet. A session it cannot open is exit 1: exit 2 would tell a
    harness to keep the agent going."""
    from core.session.errors import NoSession

    try:
        deck = open_deck(args, create=False).deck
    except NoSession:
        if args.session is None and not os.environ.get("PIDECK_SESSION"):
            return EXIT_OK  # no session for this directory: nothing to settle
        raise
    followup, notice = deck.settle()
    if notice is not None:
        emit(notice.message, sys.stderr)
    if followup is not None:
        emit(followup)
        emit(followup, sys.stderr)
        return EXIT_USAGE
    return EXIT_OK
