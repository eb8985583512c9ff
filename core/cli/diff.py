"""``pideck diff FROM TO``: what changed in the derived state between two entries (any branches)."""

from __future__ import annotations

import argparse
import sys

from core.cli.common import EXIT_OK, EXIT_USAGE, emit, open_time_machine, print_json


def run(args: argparse.Namespace) -> int:
    """``diff FROM TO``: what changed in the derived state between two entries (any branches)."""
    from core.views.diff import change_json, diff_points, diff_text, plan_noun
    from core.views.timetravel import UnknownEntry

    machine = open_time_machine(args)
    try:
        points = [(machine.as_of(e), machine.point_at(e)) for e in (args.start, args.end)]
    except UnknownEntry as exc:
        print(f"pideck diff: {exc}", file=sys.stderr)
        return EXIT_USAGE
    (a, before), (b, after) = points
    changes = diff_points(before, after)
    warnings = list(machine.log.warnings)  # (the file's, as inspect gives them: every read path says the same)
    if args.json:
        print_json({"from": a.json(), "to": b.json(), "changes": [change_json(c) for c in changes],
                    "warnings": warnings})
    else:
        said = "".join(f"\n- {w}" for w in warnings)
        emit(f"From {a.entry_id}, {a.banner}\nto {b.entry_id}, {b.banner}:\n{diff_text(changes, plan_noun(before, after))}"
             + (f"\nWarnings:{said}" if said else ""))
    return EXIT_OK
