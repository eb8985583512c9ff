"""Writing a `/todos export` file (docs/todo-views.md#the-todos-commands).

The path comes from whoever typed the command (or an agent that can run commands), so the write
keeps pideck's promises about files: it never lands on a session file, pi's or pideck's, nor in
their folders; it never follows a symbolic link; it replaces an existing file only when asked
(``--force``); and it goes to a temporary file first, renamed into place, so a failure never
leaves a truncated file behind. Exports are private (mode 0600), as everything pideck writes.
"""

from __future__ import annotations

import os
from pathlib import Path

from core.config.places import is_pi_session_path, pideck_home
from core.files import not_regular, write_private_file
from core.jsutil import escape_lone_surrogates
from core.session.access import every_write_refused
from core.session.parse import read_header

EXISTS = "the file exists; add --force to replace it"


def write_export(target: Path, text: str, force: bool) -> str | None:
    """Write ``text`` (every string a session can hold: a lone surrogate is written as its
    ``\\udxxx`` escape) to ``target``; returns why it could not, or None."""
    problem = refusal(target, force)
    if problem is not None:
        return problem
    try:
        write_private_file(target, (escape_lone_surrogates(text) + "\n").encode("utf-8"), replace=force)
    except FileExistsError:
        return EXISTS  # it appeared between the check and the write
    except OSError as exc:
        return exc.strerror or str(exc)
    return None


def refusal(target: Path, force: bool) -> str | None:
    """Why ``target`` must not be written, or None."""
    if every_write_refused() is not None:  # (a browser's visitor writes no file on this machine: docs/serve.md)
        return "this deck is served read-only (start pideck serve with --write to allow writes)"
    if is_pi_session_path(target) or _under(target, pideck_home() / "sessions"):
        return "it is inside a folder of session files, which pideck never writes exports into"
    try:
        st = os.lstat(target)
    except FileNotFoundError:
        return None
    except OSError as exc:
        return exc.strerror or str(exc)
    if os.path.islink(target):
        return "it is a symbolic link, and pideck does not write through one"
    if (kind := not_regular(st.st_mode)) is not None:
        return f"it is {kind}"
    if read_header(target) is not None:
        return "it is a session file, and pideck never writes over one"
    return None if force else EXISTS


def _under(path: Path, folder: Path) -> bool:
    real, top = os.path.realpath(path), os.path.realpath(folder)
    return real == top or real.startswith(top.rstrip(os.sep) + os.sep)
