"""``pideck run LINE``: one slash command line on the session."""

from __future__ import annotations

import argparse
import sys

from core.cli.common import EXIT_OK, EXIT_WARNING, emit, open_deck


def run(args: argparse.Namespace) -> int:
    notices = open_deck(args).deck.apply(args.line)
    for notice in notices:
        emit(notice.message, sys.stderr if notice.level == "refused" else None)
    return EXIT_WARNING if any(n.level != "info" for n in notices) else EXIT_OK
