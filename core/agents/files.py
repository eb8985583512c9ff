"""Reading and writing agents' config files without losing what the user wrote.

JSON is written back in the file's own indentation and line endings. TOML is read with tomllib;
what pideck adds is appended as text made by tomli-w, so the user's comments and layout stay byte
for byte; only a change to an existing pideck entry rewrites the whole file (tomli-w cannot keep
comments). Every write goes through a temporary file and a rename and keeps the file's mode; a
changed file is first copied to a backup beside it.
"""

from __future__ import annotations

import difflib
import json
import os
import re
import stat
import tempfile
import time
import tomllib
from datetime import datetime
from glob import escape as glob_escape
from pathlib import Path
from typing import Any

import tomli_w

from core.files import write_all


class ConfigFileError(ValueError):
    """A config file pideck cannot merge into without losing or risking something."""


def read_text(path: Path, *, follow_links: bool) -> str | None:
    """The file's text, or None when there is no file. A symbolic link is refused unless
    ``follow_links`` (a dry run only reads): renaming over the link would cut it, writing through
    it would change a file somewhere else, and neither is what a user expects from an installer."""
    if path.is_symlink() and not follow_links:
        raise ConfigFileError(f"{path} is a symbolic link (to {os.readlink(path)}); pideck does not "
                              "write through links. Run with --dry-run to see the change and make "
                              "it in the linked file yourself")
    if not path.exists():
        return None
    if not path.is_file():
        raise ConfigFileError(f"{path} is not a regular file")
    try:
        return path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigFileError(f"{path} is not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    except OSError as exc:
        raise ConfigFileError(f"{path} cannot be read ({exc.strerror})") from None


# -- JSON ------------------------------------------------------------------------------------------

def _no_duplicate_keys(pairs: list[tuple[str, object]]) -> dict[str, object]:
    seen: dict[str, object] = {}
    for key, value in pairs:
        if key in seen:
            raise ConfigFileError(f'has the key "{key}" twice in one object (writing it back would '
                                  "drop one)")
        seen[key] = value
    return seen


class _WrittenInt(int):
    """An integer whose JSON text Python would write otherwise (``-0``): kept as written."""

    text: str


class _WrittenFloat(float):
    """A number whose JSON text Python would write otherwise (``1.50``, ``1e400``, which Python reads
    as infinity and would write as ``Infinity``, no JSON at all): kept as written."""

    text: str


def _number(text: str, kind: type) -> Any:
    """A number of the person's file, equal to its value, that is written back as it was written."""
    try:
        value = kind(text)
    except ValueError:  # an integer of more digits than Python converts
        value, kind = float(text), float
    if json.dumps(value) == text:
        return value
    kept = (_WrittenInt if kind is int else _WrittenFloat)(value)
    kept.text = text
    return kept


def _not_json(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON value")


def parse_json(path: Path, text: str | None) -> dict[str, object]:
    """The file's top-level object ({} for a missing or blank file). Every number keeps the text
    it was written with, so that ``dump_json`` gives it back unchanged. A value is whatever the
    person wrote: ``merge.py`` checks each one it changes."""
    if text is None or not text.strip():
        return {}
    try:
        doc = json.loads(text, object_pairs_hook=_no_duplicate_keys, parse_constant=_not_json,
                         parse_int=lambda t: _number(t, int), parse_float=lambda t: _number(t, float))
    except ValueError as exc:
        if isinstance(exc, ConfigFileError):
            raise ConfigFileError(f"{path} {exc}") from None
        if not isinstance(exc, json.JSONDecodeError):
            raise ConfigFileError(f"{path} is not valid JSON ({exc})") from None
        raise ConfigFileError(f"{path} is not valid JSON (line {exc.lineno}, column {exc.colno}: "
                              f"{exc.msg})") from None
    if not isinstance(doc, dict):
        raise ConfigFileError(f"{path} does not hold a JSON object")
    return doc


def dump_json(doc: dict[str, object], original: str | None) -> str:
    """``doc`` as JSON in the style of ``original``: its indentation (the first indented line's
    whitespace: spaces or a tab), its line endings and its final newline. A new or unindented file
    gets two spaces, as the agents write them."""
    indent: str = "  "
    newline, final = "\n", "\n"
    if original and original.strip():
        found = re.search(r"\n([ \t]+)\S", original)
        if found:
            indent = found.group(1)
        if "\r\n" in original:
            newline = "\r\n"
        final = newline if original.endswith("\n") else ""
    written: list[str] = []
    mark = f"pideck-number-{os.urandom(8).hex()}-"

    def kept_as_written(value: Any) -> Any:
        # (the encoder would write a float subclass as its value: each is swapped for a mark first)
        if isinstance(value, (_WrittenInt, _WrittenFloat)):
            written.append(value.text)
            return f"{mark}{len(written) - 1}"
        if isinstance(value, dict):
            return {key: kept_as_written(item) for key, item in value.items()}
        if isinstance(value, list):
            return [kept_as_written(item) for item in value]
        return value

    text = json.dumps(kept_as_written(doc), indent=indent, ensure_ascii=False, allow_nan=False)
    if written:
        text = re.sub(f'"{mark}(\\d+)"', lambda m: written[int(m.group(1))], text)
    return text.replace("\n", newline) + final


# -- TOML ------------------------------------------------------------------------------------------

def parse_toml(path: Path, text: str | None) -> dict[str, object]:
    """The file's tables ({} for a missing file), each value checked as ``parse_json``'s are."""
    if text is None:
        return {}
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigFileError(f"{path} is not valid TOML ({exc})") from None


def _additions(old: Any, new: Any) -> Any:
    """What ``new`` adds to ``old`` (new keys, list items appended at the end), or None when
    ``new`` also changes or removes something."""
    if isinstance(old, dict) and isinstance(new, dict):
        if not old.keys() <= new.keys():
            return None
        added: dict[str, object] = {}
        for key, value in new.items():
            if key not in old:
                added[key] = value
            elif value != old[key]:
                part = _additions(old[key], value)
                if part is None:
                    return None
                added[key] = part
        return added
    if isinstance(old, list) and isinstance(new, list) and new[: len(old)] == old:
        return new[len(old):]
    return None


def dump_toml(old_doc: dict[str, object], new_doc: dict[str, object], original: str | None) -> tuple[str, bool]:
    """The new text of a TOML file and whether it was rewritten whole (False: the original text
    is kept and the additions are appended as tables, which is checked by reading it back)."""
    if original is None:
        return tomli_w.dumps(new_doc), False
    added = _additions(old_doc, new_doc)
    if added is not None:
        head = original if not original or original.endswith("\n") else original + "\n"
        text = head + ("\n" if head.strip() else "") + tomli_w.dumps(added)
        try:
            if tomllib.loads(text) == new_doc:
                return text, False
        except tomllib.TOMLDecodeError:
            pass  # e.g. the user's Stop hooks are an inline array, which a new table cannot extend
    return tomli_w.dumps(new_doc), True


# -- writing ---------------------------------------------------------------------------------------

def diff(path: Path, before: str | None, after: str) -> str:
    """A unified diff of one file (``/dev/null`` as the old side of a new file)."""
    lines = difflib.unified_diff(
        (before or "").splitlines(keepends=True), after.splitlines(keepends=True),
        fromfile=str(path) if before is not None else "/dev/null", tofile=str(path),
    )
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n"
                   for line in lines)


def backup(path: Path, now: datetime) -> Path:
    """Copy ``path`` to ``<name>.pideck-backup-<UTC time>`` beside it, with the same mode from the
    first byte (the file may hold tokens), never over an existing file."""
    data = path.read_bytes()
    mode = stat.S_IMODE(path.stat().st_mode)
    stem = f"{path.name}.pideck-backup-{now.strftime('%Y%m%dT%H%M%SZ')}"
    for n in range(1, 100):
        target = path.with_name(stem if n == 1 else f"{stem}-{n}")
        try:
            fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
        except FileExistsError:
            continue
        try:
            os.fchmod(fd, mode)
            write_all(fd, data)
        finally:
            os.close(fd)
        return target
    raise FileExistsError(f"too many backups of {path} at {stem}")


def _umask_mode() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def write_atomically(path: Path, text: str, private: bool) -> None:
    """Write ``text`` to a temporary file beside ``path`` and rename it over ``path``: a crash
    leaves the old file or the new one, never half of one. An existing file keeps its mode; a new
    one gets 0600 when ``private`` (user-scope files, next to the agents' tokens), else the
    umask's default; a missing folder is created (0700 when ``private``)."""
    if path.exists():
        mode = stat.S_IMODE(path.stat().st_mode)
    else:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700 if private else 0o777)
        mode = 0o600 if private else _umask_mode()
    fd, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        try:
            os.fchmod(fd, mode)
            write_all(fd, text.encode("utf-8"))
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
    _sweep_temporaries(path)


def _sweep_temporaries(path: Path, older_than: float = 60.0) -> None:
    """Remove the temporary files of earlier writes of ``path`` that were killed before their
    rename (a minute old at least: another install may be writing one now)."""
    limit = time.time() - older_than
    ours = re.compile(rf"\.{re.escape(path.name)}\.[a-z0-9_]{{8}}\.tmp")  # (mkstemp's names, as made above)
    for temp in path.parent.glob(f".{glob_escape(path.name)}.*.tmp"):
        if not ours.fullmatch(temp.name):
            continue  # a file of the person's that only looks like ours
        try:
            if temp.lstat().st_mtime < limit and stat.S_ISREG(temp.lstat().st_mode):
                temp.unlink()
        except OSError:
            continue
