"""``pideck usage``: what the answers of this directory's sessions and conversations used and cost,
by day, agent or conversation, or one conversation's by plan item (docs/usage-report.md)."""

from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from core.cli.common import EXIT_OK, UsageError, emit, print_json, visible_path

if TYPE_CHECKING:
    from core.usage.report import By, Conversation, ReportJson

DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def local_date(value: str | None, option: str) -> str | None:
    """A ``YYYY-MM-DD`` date as given (the ledger's days are local dates in that form)."""
    if value is None:
        return None
    import datetime

    try:
        if DATE.fullmatch(value):
            datetime.date.fromisoformat(value)
            return value
    except ValueError:
        pass
    raise UsageError(f"{option} {value!r} is not a date (YYYY-MM-DD)")


def run(args: argparse.Namespace) -> int:
    since, until = local_date(args.since, "--since"), local_date(args.until, "--until")
    if since and until and since > until:
        raise UsageError(f"--since {since} is after --until {until}")
    if args.by == "item":
        if args.session is None:
            raise UsageError("--by item reports one conversation: name it with --session PATH")
        if since or until:
            raise UsageError("--by item reports the whole conversation: --since and --until do not apply")
    if args.session is not None and args.all:
        raise UsageError("give --session PATH or --all, not both")
    from core.usage.report import report
    from core.views.usage_report import usage_text

    if args.session is not None:
        found = [one(args.session)]
        scope = None
    else:
        scope = None if args.all else os.getcwd()
        found = collect(scope)
    result = report(found, args.by, scope=scope, since=since, until=until, session=args.session)
    if args.json:
        print_json(result)
    else:
        emit(usage_text(result))
    return EXIT_OK


def report_of(scope: str | None, by: By = "day", since: str | None = None, until: str | None = None) -> ReportJson:
    """The report of ``scope``'s sessions and conversations (None: of every directory)."""
    from core.usage.report import report

    return report(collect(scope), by, scope=scope, since=since, until=until)


def collect(cwd: str | None) -> list[Conversation]:
    """The usage of every session and conversation ``pideck sessions`` lists for ``cwd`` (None:
    of every directory) whose answers said their tokens, each log opened read-only; one that
    cannot be read is said on stderr and left out."""
    from core.catalog.sessions import list_sessions
    from core.session.errors import SessionError

    found = []
    for info in list_sessions(cwd, count=False):
        try:
            conversation = one(info.path, info.kind, info.id, info.cwd)
        except (SessionError, OSError, ValueError) as exc:
            print(f"pideck: {visible_path(info.path)}: {exc}", file=sys.stderr)
            continue
        if conversation.ledger.total["answers"]:
            found.append(conversation)
    return found


def one(path: str | os.PathLike[str], kind: str | None = None, session_id: str | None = None,
        cwd: str | None = None) -> Conversation:
    """The usage of the session or conversation at ``path``, opened read-only (what cannot be
    read raises as opening it does: ``SessionError``, ``OSError``)."""
    from core.catalog.opening import open_log
    from core.usage.of_log import ledger_of
    from core.usage.report import Conversation

    log = open_log(path, writable=False)
    ledger = ledger_of(log)
    from core.sources.log import ConversationLog

    if isinstance(log, ConversationLog):  # an agent's conversation: named by its first prompt
        kind = kind or log.kind
        name = log.reading.name or Path(path).name
    else:
        kind = kind or ("pideck" if _under_pideck_home(Path(path)) else "pi")
        name = log.name or Path(path).name
    return Conversation(os.fspath(path), kind, name, session_id or str(log.session_id or ""),
                        cwd if cwd is not None else log.cwd, ledger)


def _under_pideck_home(path: Path) -> bool:
    from core.config.places import pideck_home

    try:
        return path.resolve().is_relative_to(pideck_home().resolve())
    except OSError:
        return False
