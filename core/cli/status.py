"""``pideck status``: who needs you, in one line, fast enough for a shell prompt (docs/attention.md).

Working the states out reads every session and conversation of the directory (``attention.py``
over the overview), which takes longer than a prompt may wait. So the line is kept under pideck's
home with a fingerprint of what it was worked out from: every folder it depends on (pi's and
pideck's session folders, the agents' transcript folders, Claude Code's live-session files, the
hooks' records) with its modification time and the size and time of each file in it. While the
fingerprint is the same and no state can have changed by the clock alone, the kept line is the
answer; this path imports nothing of the overview.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
from pathlib import Path

from core.cli.common import EXIT_OK

MAX_AGE_MS = 60_000
"""A kept line is worked out again after this long anyway: an agent that died without a trace
(no file changed) is seen as ended within a minute."""


def folders(cwd: str | None) -> list[Path]:
    """Every folder the states of ``cwd``'s sessions and conversations (None: of all) depend on."""
    from core.config.places import pi_sessions_dir, pi_sessions_root, pideck_home, pideck_sessions_dir
    from core.sources.discovery import AgentFolders, claude_config_dir

    if cwd is not None:
        sessions = [pi_sessions_dir(cwd), pideck_sessions_dir(cwd)]
    else:
        sessions = [p for root in (pi_sessions_root(), pideck_home() / "sessions") for p in _subfolders(root)]
    records = [p for p in _subfolders(pideck_home() / "attention") if p.name != "status"]  # (not the kept lines)
    return [*sessions, *(place.folder for place in AgentFolders().places(cwd)), claude_config_dir() / "sessions",
            *records]


def _subfolders(root: Path) -> list[Path]:
    try:
        with os.scandir(root) as entries:
            return sorted(Path(e.path) for e in entries if e.is_dir(follow_symlinks=False))
    except OSError:
        return []


def fingerprint(paths: list[Path]) -> str:
    """A digest of each folder's modification time and of the size and time of its files, and of
    the config file (its idle time and budgets are in the rule) and the rates saved (what prices
    the answers a log does not: core/usage/prices.py)."""
    from core.config.places import pideck_home
    from core.config.settings import config_path
    from core.usage.prices import SAVED

    digest = hashlib.sha256()
    for name, path in (("config", config_path()), ("prices", pideck_home() / SAVED)):
        try:
            st = os.stat(path)
            digest.update(f"{name}\0{st.st_size}\0{st.st_mtime_ns}\0".encode())
        except OSError:
            digest.update(f"{name}\0-\0".encode())
    for folder in paths:
        try:
            with os.scandir(folder) as entries:
                files = sorted((e.name, e.stat(follow_symlinks=False)) for e in entries if e.is_file(follow_symlinks=False))
            digest.update(f"{folder}\0{os.stat(folder).st_mtime_ns}\0".encode("utf-8", "surrogateescape"))
        except OSError:
            digest.update(f"{folder}\0-\0".encode("utf-8", "surrogateescape"))
            continue
        for name, st in files:
            digest.update(f"{name}\0{st.st_size}\0{st.st_mtime_ns}\0".encode("utf-8", "surrogateescape"))
    return digest.hexdigest()


def kept_path(cwd: str | None) -> Path:
    from core.config.places import pideck_home

    key = hashlib.sha256((cwd if cwd is not None else "\0all").encode("utf-8", "surrogateescape")).hexdigest()[:24]
    return pideck_home() / "attention" / "status" / f"{key}.json"


def status_line(cwd: str | None, now_ms: int) -> str:
    """The line for ``cwd`` (None: every directory): the kept one when nothing it depends on
    changed, else worked out again and kept."""
    return kept_counts(cwd, now_ms)[0]


def kept_counts(cwd: str | None, now_ms: int) -> tuple[str, dict[str, int]]:
    """The line for ``cwd`` (None: every directory) and its count per state: the kept ones when
    nothing they depend on changed, else worked out again and kept."""
    seen = fingerprint(folders(cwd))
    path = kept_path(cwd)
    try:
        kept = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        kept = None
    if isinstance(kept, dict) and kept.get("fingerprint") == seen and isinstance(kept.get("until"), int) \
            and now_ms < kept["until"] and isinstance(kept.get("line"), str) and isinstance(kept.get("counts"), dict):
        return kept["line"], kept["counts"]
    line, until, counts = work_out(cwd, now_ms)
    from core.sources.binding import write_json

    try:
        # the fingerprint taken before the states were read: a change meanwhile is read next time
        write_json(path, {"fingerprint": seen, "until": until, "line": line, "counts": counts})
    except OSError:
        pass  # (a home pideck cannot write: the answer is still right, only slower next time)
    return line, counts


def work_out(cwd: str | None, now_ms: int) -> tuple[str, int, dict[str, int]]:
    """The line, from the catalog of every session and conversation, and until when the clock
    alone cannot change it (a pideck session counts as working only until its idle time passed; a
    day's budget starts again at midnight). What the logs do not price is priced with the rates
    saved by earlier runs alone: the price table is never loaded here (core/usage/prices.py)."""
    from core.catalog.attention import summary
    from core.catalog.budgets import next_day_ms
    from core.catalog.catalog import Catalog
    from core.catalog.states import WORKING

    catalog = Catalog(cwd, now_ms=lambda: now_ms, sweep=False, table=False, hosts=())
    catalog.look()
    until = now_ms + MAX_AGE_MS
    if catalog.budget.day_usd or catalog.budget.day_tokens:
        until = min(until, next_day_ms(now_ms))
    for record in catalog.records.values():
        row = record.row
        if record.attention.state == WORKING and row is not None and row.status is None \
                and row.last_activity_ms is not None:
            until = min(until, row.last_activity_ms + catalog.config.watchdog_idle_ms)
    attentions = [r.attention for r in catalog.records.values()]
    counts: dict[str, int] = {}
    for attention in attentions:
        counts[attention.state] = counts.get(attention.state, 0) + 1
    return summary(attentions) or "nothing here", until, counts


def run(args: argparse.Namespace) -> int:
    """One short line: how many sessions and conversations are in each state, who needs you first
    (``core/cli/status.py`` keeps it while nothing it depends on changed); with ``--all``, the
    hosts of ``[[hosts]]`` too (``--local``: this machine only); ``--json``: the counts."""
    import time

    from core.cli.status import kept_counts

    cwd = None if args.all else os.getcwd()
    line, counts = kept_counts(cwd, int(time.time() * 1000))
    from core.config.settings import load_hosts  # (the settings module is loaded already: kept_counts)

    hosts, problems = load_hosts() if cwd is None and not args.local else ([], [])
    for problem in problems:
        print(f"pideck: config: {problem}", file=sys.stderr)
    if not hosts:
        if args.json:
            from core.cli.common import print_json

            print_json({"line": line, "states": counts, "here": counts, "hosts": {}})
        else:
            print(line)
        return EXIT_OK
    from core.cli.status_hosts import host_counts, merged_line

    there = host_counts(hosts)
    line = merged_line(counts, there)
    if args.json:
        from core.cli.common import print_json
        from core.cli.status_hosts import total

        print_json({"line": line, "states": total(counts, there), "here": counts, "hosts": there})
    else:
        print(line)
    return EXIT_OK
