"""``pideck config show|set``: the configuration file's tables."""

from __future__ import annotations

import argparse
import sys

from core.cli.common import EXIT_OK, EXIT_USAGE


def run(args: argparse.Namespace) -> int:
    from core.config.settings import ConfigError, config_path, set_config_value, show_config

    if args.action == "show":
        print(show_config(), end="")
        return EXIT_OK
    try:
        set_config_value(args.key, args.value)
    except ConfigError as exc:
        print(f"pideck config: {exc}", file=sys.stderr)
        return EXIT_USAGE
    print(f"Set {args.key} = {args.value} in {config_path()}.")
    return EXIT_OK
