"""``pideck hook claude|codex``: an agent's hook input on stdin, answered in its own JSON."""

from __future__ import annotations

import argparse
import sys


def run(args: argparse.Namespace) -> int:
    from core.agents.hooks import run_hook

    stdin = getattr(sys.stdin, "buffer", sys.stdin)  # bytes: the agent's text is UTF-8 whatever the locale
    return run_hook(args.agent, stdin.read(), session=args.session, write=args.write,
                    out=sys.stdout, err=sys.stderr)
