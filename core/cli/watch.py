"""``pideck watch``: the catalog's changes of state, one line each, until Ctrl+C; ``--feed``: the
lines another machine's pideck follows this one by (docs/hosts.md#the-feed)."""

from __future__ import annotations

import argparse
import os
import sys

from core.cli.common import EXIT_OK, emit, print_json, visible_path

FEED_BUDGET_S = 1.0
"""How long one look of the feed reads conversations before it ticks (the rest at the next looks):
the reader takes a silence of a few seconds for a hung host."""


def run(args: argparse.Namespace) -> int:
    """One line per change of state, until interrupted: every session and conversation at the
    start, then each one whose state changed (JSON lines with ``--json``)."""
    import time

    from core.catalog.catalog import Catalog
    from core.clock import ago

    if args.feed:
        return feed(args)
    catalog = Catalog(None if args.all else os.getcwd())
    for problem in catalog.warnings:
        print(f"pideck: config: {problem}", file=sys.stderr)
    try:
        while True:
            now = int(time.time() * 1000)
            for seen in catalog.look():
                if args.json:
                    print_json(seen.json(), line=True)
                else:
                    since = ago(seen.attention.since_ms, now, short=True).removesuffix(" ago")
                    host = f"{seen.host}: " if seen.host is not None else ""  # (a checked [[hosts]] name)
                    emit(f"{seen.attention.state:<22} {seen.kind:<7} {since:>4}  {host}{visible_path(seen.name)}: "
                         f"{visible_path(seen.attention.evidence)}")
                sys.stdout.flush()
            time.sleep(args.interval)
    except KeyboardInterrupt:
        return EXIT_OK
    finally:
        catalog.close()


def feed(args: argparse.Namespace) -> int:
    """``watch --feed``: a hello with this pideck's version first (before anything is read, so the
    reader knows at once that it reached pideck), then after every look one line per record whose
    state or row changed, one per record that went, and a tick. This machine's records only: a
    remote pideck's own ``[[hosts]]`` are not followed (no chains, no loops). ASCII JSON, one line
    each, so no locale on either side changes a byte."""
    import json
    import time

    from core import __version__

    out = sys.stdout.buffer

    def line(value: object) -> None:
        out.write(json.dumps(value, ensure_ascii=True, separators=(",", ":")).encode("ascii") + b"\n")

    try:
        line({"type": "hello", "version": __version__})
        out.flush()
        from core.catalog.catalog import Catalog

        catalog = Catalog(None if args.all else os.getcwd(), hosts=(), budget_s=FEED_BUDGET_S)
        sent: dict[str, object] = {}
        while True:
            catalog.look()
            for path, record in catalog.records.items():
                if record.row is None:
                    continue
                now = (record.json(), record.row.json())
                if sent.get(path) != now:
                    sent[path] = now
                    line({"type": "record", "record": now[0], "row": now[1]})
            for path in [p for p in sent if p not in catalog.records]:
                del sent[path]
                line({"type": "gone", "path": path})
            line({"type": "tick", "pending": catalog.pending})
            out.flush()
            time.sleep(args.interval)
    except (KeyboardInterrupt, BrokenPipeError):
        # (the reader went: nothing more to say, and nothing to flush at exit)
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except OSError:
            pass
        return EXIT_OK
