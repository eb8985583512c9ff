"""``pideck install AGENT``: the agent's config (``core/agents/install.py``)."""

from __future__ import annotations

import argparse


def run(args: argparse.Namespace) -> int:
    from core.agents.install import cmd_install as install

    return install(args)
