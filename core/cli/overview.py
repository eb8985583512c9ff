"""``pideck overview``: one row per session and conversation, who needs you first, from the catalog."""

from __future__ import annotations

import argparse
import os
import sys

from core.cli.common import EXIT_OK, print_json

HOSTS_WAIT_S = 12.0
"""How long the overview waits for the hosts of ``[[hosts]]`` to catch up: one that has not
answered by then is listed unreachable (docs/hosts.md)."""

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def _catalog(args: argparse.Namespace) -> Any:
    """The catalog of this directory (``--all``: of every folder pideck knows), read in full once
    (config problems on stderr)."""
    from core.catalog.catalog import Catalog
    from core.config.settings import load_config

    config, problems = load_config()
    for problem in problems:
        print(f"pideck: config: {problem}", file=sys.stderr)
    catalog = Catalog(None if args.all else os.getcwd(), todo_config=config)
    for problem in catalog.warnings:
        print(f"pideck: config: {problem}", file=sys.stderr)
    try:
        catalog.overview.refresh()  # (this machine's rows while the hosts answer)
        catalog.wait_hosts(HOSTS_WAIT_S)
        catalog.look()
    finally:
        catalog.close()
    return catalog


def run(args: argparse.Namespace) -> int:
    """One row per session of this directory (``--all``: of every folder pideck knows), who needs
    you first."""
    import time

    from core.catalog.catalog import ranked
    from core.views.overview_table import overview_table

    catalog = _catalog(args)
    now = int(time.time() * 1000)
    attentions = catalog.attentions()
    rows = ranked(catalog.rows, attentions)
    if args.json:
        print_json([{**row.json(), "attention": attentions[row.path].json()} for row in rows])
    elif not rows:
        print("No sessions for this directory. `pideck` starts one." if not args.all else "No sessions yet.")
    else:
        print(overview_table(rows, now, attentions, hosts=bool(catalog.hosts)))
    return EXIT_OK
