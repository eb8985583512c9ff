"""``pideck cache``: how much pideck keeps to read faster, and sweeping or clearing it."""

from __future__ import annotations

import argparse

from core.cli.common import EXIT_OK, emit, human_size, print_json, visible_path

_WORDS = {"mirrors": "caches of conversations", "indexes": "saved indexes of sessions",
          "status": "status lines and saved rows"}


def run(args: argparse.Namespace) -> int:
    from core.catalog import cache
    from core.config.places import pideck_home

    if args.clear or args.sweep:
        n, size = cache.clear() if args.clear else cache.sweep()
        done = {"removed": {"items": n, "bytes": size}}
        if args.json:
            print_json({**done, **cache.usage().json()})
            return EXIT_OK
        print(f"Removed {n:,} item{'s' if n != 1 else ''} ({human_size(size)}).")
    used = cache.usage()
    if args.json:
        print_json(used.json())
        return EXIT_OK
    emit(f"pideck keeps, to read faster, in {visible_path(pideck_home())}:")
    for kind, (n, size) in used.kinds.items():
        print(f"  {_WORDS[kind]:<28} {n:>7,}  {human_size(size):>9}")
    print(f"  {'total':<28} {'':>7}  {human_size(used.total):>9}  (at most {human_size(cache.MAX_BYTES)})")
    if used.gone[0]:
        print(f"  of it, of files that are gone {used.gone[0]:>6,}  {human_size(used.gone[1]):>9}  "
              "(`pideck cache --sweep` removes them; a running pideck does so hourly)")
    print("Any of it can go: the next read makes it again. `pideck cache --clear` removes all of it.")
    return EXIT_OK
