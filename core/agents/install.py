"""``pideck install AGENT [--scope project|user] [--dry-run]``: write the configs that make an agent
start ``pideck mcp`` and call ``pideck hook`` at the start and end of each conversation and the end
of each turn.

Every file is read and merged before the first one is written, so a malformed file stops the
install with nothing written. A second run changes no byte and makes no backup.
"""

from __future__ import annotations

import argparse
import copy
import os
import stat
import sys
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TextIO

from core.agents.command import pideck_command, shell_line
from core.agents.files import (
    ConfigFileError,
    backup,
    diff,
    dump_json,
    dump_toml,
    parse_json,
    parse_toml,
    read_text,
    write_atomically,
)
from core.agents.merge import ConfigShapeError, Outcome
from core.agents.targets import AGENTS, SHARED_VARIABLES, Agent, ConfigFile, Places, Scope
from core.session.writer import utc_now

EXIT_OK, EXIT_FAILED = 0, 1


@dataclass(frozen=True)
class Planned:
    """One file: its text now (None: no file), its new text (None: unchanged), what each edit did,
    and whether the new text is a whole rewrite (TOML whose pideck entries change)."""

    file: ConfigFile
    before: str | None
    after: str | None
    outcomes: tuple[Outcome, ...]
    rewritten: bool


def plan(file: ConfigFile, dry_run: bool) -> Planned:
    text = read_text(file.path, follow_links=dry_run)
    parse = parse_json if file.format == "json" else parse_toml
    old = parse(file.path, text)
    doc = copy.deepcopy(old)
    try:
        outcomes = tuple(edit.apply(doc) for edit in file.edits)
    except ConfigShapeError as exc:
        raise ConfigFileError(f"{file.path}: {exc}") from None
    if all(o == "unchanged" for o in outcomes):
        return Planned(file, text, None, outcomes, False)
    if text is not None and not dry_run and not stat.S_IMODE(os.stat(file.path).st_mode) & 0o222:
        # (a rename would replace it, and root may write it anyway: the person's chmod is the answer)
        raise ConfigFileError(f"{file.path} is read-only (it has no write bits); pideck does not "
                              "write a file made read-only. Give it write permission (chmod u+w) to install")
    if file.format == "json":
        return Planned(file, text, dump_json(doc, text), outcomes, False)
    after, rewritten = dump_toml(old, doc, text)
    return Planned(file, text, after, outcomes, rewritten)


def install(agent_key: str, scope: Scope | None, dry_run: bool, *, places: Places,
            command: list[str], now: datetime, out: TextIO, err: TextIO) -> int:
    agent = AGENTS[agent_key]
    scope = scope or agent.default_scope
    files = agent.files(scope, places, command)
    try:
        planned = [plan(file, dry_run) for file in files]
    except ConfigFileError as exc:
        print(f"pideck install: {exc}; nothing was written.", file=err)
        return EXIT_FAILED
    print(f"pideck install {agent_key}, {scope} scope: pideck runs as {shell_line(command)}", file=out)
    written: list[Path] = []
    for item in planned:
        try:
            backup_path = None if dry_run else _write(item, now)
        except OSError as exc:
            done = "".join(f"\n  {path} was written" for path in written)
            print(f"pideck install: could not write {item.file.path}: {exc}{done}", file=err)
            return EXIT_FAILED
        if item.after is not None and not dry_run:
            written.append(item.file.path)
        _report(item, backup_path, dry_run, out)
    print(file=out)
    _closing(agent, scope, places, command, planned, dry_run, out)
    return EXIT_OK


def _write(item: Planned, now: datetime) -> Path | None:
    if item.after is None:
        return None
    saved = backup(item.file.path, now) if item.before is not None else None
    write_atomically(item.file.path, item.after, item.file.private)
    return saved


_VERBS = {  # (dry run, file existed) -> how the change is said
    (False, False): "created", (False, True): "updated",
    (True, False): "would create", (True, True): "would update",
}


def _report(item: Planned, backup_path: Path | None, dry_run: bool, out: TextIO) -> None:
    path = item.file.path
    if item.after is None:
        print(f"unchanged {path}", file=out)
    else:
        kept = f" (backup: {backup_path})" if backup_path else ""
        print(f"{_VERBS[dry_run, item.before is not None]} {path}{kept}", file=out)
    for edit, outcome in zip(item.file.edits, item.outcomes):
        said = "already there" if outcome == "unchanged" else ("would be " if dry_run else "") + outcome
        print(f"  {edit.label}: {said}", file=out)
    if item.rewritten:
        why = ("an existing pideck entry changes" if "updated" in item.outcomes
               else "its tables cannot take pideck's as new ones")
        done = "would rewrite" if dry_run else "rewrote"
        print(f"  note: {why}, so tomli-w {done} the whole file: its comments and layout are gone "
              "(the backup keeps them)", file=out)
    if dry_run and path.is_symlink():
        print("  note: a symbolic link; pideck does not write through it", file=out)
    if dry_run and item.after is not None:
        print(diff(path, item.before, item.after), end="", file=out)


def _closing(agent: Agent, scope: Scope, places: Places, command: list[str],
             planned: list[Planned], dry_run: bool, out: TextIO) -> None:
    where = str(places.cwd) if scope == "project" else "your project's directory"
    watch = f"Watch the session live: run `pideck` in {where}, beside {agent.name}."
    if dry_run:
        print("Dry run: nothing was written.", file=out)
        return
    if all(item.after is None for item in planned):
        print(f"Nothing changed: pideck is already set up for {agent.name} ({scope} scope).", file=out)
        print(watch, file=out)
        return
    steps = [*agent.next_steps(scope, places), watch]
    if scope == "project" and places.shared:
        names = ", ".join(name for name, _ in places.shared)
        steps.append(f"The project's files now name {names} as set here: paths of this machine. Keep "
                     "them out of version control, or install with --scope user.")
    if f"{os.sep}.venv{os.sep}" in command[0]:
        steps.append(f"{command[0]} lies in a project's virtual environment: the agent cannot start "
                     "pideck once it is gone. `uv tool install` installs pideck once for every "
                     "project; then run this again.")
    print("Next:", file=out)
    for step in steps:
        print(f"  - {step}", file=out)


def cmd_install(args: argparse.Namespace) -> int:
    codex_home = os.environ.get("CODEX_HOME") or str(Path.home() / ".codex")
    shared = tuple((name, os.path.abspath(os.path.expanduser(os.environ[name])))
                   for name in SHARED_VARIABLES if os.environ.get(name))
    qwen_home, copilot_home = os.environ.get("QWEN_HOME"), os.environ.get("COPILOT_HOME")
    places = Places(cwd=Path.cwd(), home=Path.home(), codex_home=Path(os.path.abspath(codex_home)), shared=shared,
                    qwen_home=Path(os.path.abspath(os.path.expanduser(qwen_home))) if qwen_home else None,
                    copilot_home=Path(os.path.abspath(os.path.expanduser(copilot_home))) if copilot_home else None)
    return install(args.agent, args.scope, args.dry_run, places=places, command=pideck_command(),
                   now=utc_now(), out=sys.stdout, err=sys.stderr)
