"""``pideck sessions``: the session files and conversations of a directory, newest first."""

from __future__ import annotations

import argparse
import os

from core.cli.common import EXIT_OK, emit, human_size, visible_path


def run(args: argparse.Namespace) -> int:
    import time

    from core.catalog.sessions import list_sessions

    # (the counts of files it lists: a conversation's are its transcript's lines, as every view
    # says; nothing is read further, so listing creates nothing, not even pideck's home)
    sessions = list_sessions(None if args.all else os.getcwd())
    if not sessions:
        print("No sessions yet." if args.all else "No sessions for this directory. `pideck` starts one.")
        return EXIT_OK
    print(f"{'KIND':<8} {'ENTRIES':>7} {'SIZE':>9}  {'LAST CHANGE':<19}  PATH")
    for s in sessions:
        changed = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(s.mtime))
        # a file name is anyone's text: never let it drive the terminal (or fail to encode)
        # (a conversation in a database has no file of its own to give the size of)
        size = "—" if s.kind == "opencode" else human_size(s.size)
        emit(f"{s.kind:<8} {s.entries:>7} {size:>9}  {changed:<19}  {visible_path(s.path)}"
             + (f"  (of {s.conversation['agent']} {visible_path(s.conversation['agentSessionId'][:8])})"
                if s.conversation is not None else ""))
    if not args.all:
        emit(f"`pideck` here opens {opens_here()}")
    return EXIT_OK


def opens_here() -> str:
    """Which session ``pideck`` opens in this directory and why (``core.catalog.opening.default_choice``)."""
    from core.catalog.opening import default_choice
    from core.config.settings import load_tui_config

    named = os.environ.get("PIDECK_SESSION")
    if named:
        return f"{visible_path(named)}: $PIDECK_SESSION names it"
    chosen, why = default_choice(os.getcwd(), load_tui_config()[0].prefer_kind)
    return f"{visible_path(chosen.path)}: {visible_path(why)}" if chosen is not None else why
