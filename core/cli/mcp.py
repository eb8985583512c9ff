"""``pideck mcp``: the stdio MCP server (``core/agents/mcp_server.py``)."""

from __future__ import annotations

import argparse


def run(args: argparse.Namespace) -> int:
    from core.agents.mcp_server import main as serve

    return serve(args.session, args.write)
