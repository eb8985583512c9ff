"""``pideck watch``: the catalog's changes of state, one line each, until Ctrl+C."""

from __future__ import annotations

import argparse
import os
import sys

from core.cli.common import EXIT_OK, emit, print_json, visible_path


def run(args: argparse.Namespace) -> int:
    """One line per change of state, until interrupted: every session and conversation at the
    start, then each one whose state changed (JSON lines with ``--json``)."""
    import time

    from core.catalog.catalog import Catalog
    from core.clock import ago

    catalog = Catalog(None if args.all else os.getcwd())
    try:
        while True:
            now = int(time.time() * 1000)
            for seen in catalog.look():
                if args.json:
                    print_json(seen.json(), line=True)
                else:
                    since = ago(seen.attention.since_ms, now, short=True).removesuffix(" ago")
                    emit(f"{seen.attention.state:<22} {seen.kind:<7} {since:>4}  {visible_path(seen.name)}: "
                         f"{visible_path(seen.attention.evidence)}")
                sys.stdout.flush()
            time.sleep(args.interval)
    except KeyboardInterrupt:
        return EXIT_OK
