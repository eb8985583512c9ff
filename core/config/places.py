"""Where sessions live: pi's folders and pideck's own (docs/session-format.md#where-session-files-live).

- pi: ``$PI_CODING_AGENT_DIR`` (else ``~/.pi/agent``) ``/sessions/<encoded cwd>/``; when
  ``$PI_CODING_AGENT_SESSION_DIR`` is set, pi keeps every session flat in that folder instead and
  they are matched by the header's ``cwd``.
- pideck: ``$PIDECK_HOME`` (else the platform's user state dir for "pideck") ``/sessions/<encoded cwd>/``.

The bottom of the tree: the log, the sources and the catalog all find their folders here, and this
module imports nothing of pideck's.
"""

# (No ``from __future__ import annotations`` here: typing would compile the string annotations,
# and the first compile() of a process costs every command ~1 ms; see core/slotted.py.)

import os
import re
from pathlib import Path
from typing import Literal

Kind = Literal["pi", "pideck", "claude", "codex", "gemini", "qwen", "opencode", "copilot"]
"""pi's and pideck's sessions, and the agents' own conversations (always read-only)."""
AGENT_KINDS: tuple[Kind, ...] = ("claude", "codex", "gemini", "qwen", "opencode", "copilot")


def normalise_cwd(cwd: str | os.PathLike[str]) -> str:
    """``~`` expanded and made absolute, symlinks not resolved (as pi does)."""
    return os.path.abspath(os.path.expanduser(os.fspath(cwd)))


def encode_cwd(cwd: str | os.PathLike[str]) -> str:
    """pi's per-cwd folder name: ``/home/ana/src/project`` -> ``--home-ana-src-project--``."""
    s = re.sub(r"^[/\\]", "", normalise_cwd(cwd))
    return "--" + re.sub(r"[/\\:]", "-", s) + "--"


def pi_agent_dir() -> Path:
    value = os.environ.get("PI_CODING_AGENT_DIR")
    return Path(os.path.expanduser(value)) if value else Path.home() / ".pi" / "agent"


def pi_custom_session_dir() -> Path | None:
    """pi's flat session folder when ``$PI_CODING_AGENT_SESSION_DIR`` is set."""
    value = os.environ.get("PI_CODING_AGENT_SESSION_DIR")
    return Path(os.path.expanduser(value)) if value else None


def pi_sessions_root() -> Path:
    return pi_agent_dir() / "sessions"


def pideck_home() -> Path:
    value = os.environ.get("PIDECK_HOME")
    if value:
        return Path(os.path.expanduser(value))
    import platformdirs  # (only here: a command given PIDECK_HOME does not load it)

    return Path(platformdirs.user_state_dir("pideck"))


FOLDER_NAME_MAX = 200
"""The longest name (in bytes) of pideck's folder for a directory; systems allow 255."""


def pideck_sessions_dir(cwd: str | os.PathLike[str]) -> Path:
    """pideck's folder for the sessions of ``cwd``: named as pi names its own, except that a name
    over ``FOLDER_NAME_MAX`` bytes (a directory path of about 200 characters or more) is cut there
    and ends in a hash of the whole path, so that a deep directory still gets a folder of its own."""
    name = encode_cwd(cwd)
    if len(os.fsencode(name)) > FOLDER_NAME_MAX:
        import hashlib  # (only here: ``gate`` and the hooks load this module and start lean)

        digest = hashlib.sha256(os.fsencode(normalise_cwd(cwd))).hexdigest()[:16]
        keep = name[: FOLDER_NAME_MAX - len(digest) - 3]
        while len(os.fsencode(keep)) > FOLDER_NAME_MAX - len(digest) - 3:
            keep = keep[:-1]
        name = f"{keep}-{digest}--"
    return pideck_home() / "sessions" / name


def pi_sessions_dir(cwd: str | os.PathLike[str]) -> Path:
    custom = pi_custom_session_dir()
    return custom if custom is not None else pi_sessions_root() / encode_cwd(cwd)


def _under(path: Path, folder: Path) -> bool:
    for a, b in ((os.path.abspath(path), os.path.abspath(folder)), (os.path.realpath(path), os.path.realpath(folder))):
        if a == b or a.startswith(b.rstrip(os.sep) + os.sep):
            return True
    return False


def is_pi_session_path(path: str | os.PathLike[str]) -> bool:
    """True for a file inside pi's session folders (opened read-only unless asked to write)."""
    path = Path(path)
    folders = [pi_sessions_root()]
    if (custom := pi_custom_session_dir()) is not None:
        folders.append(custom)
    return any(_under(path, folder) for folder in folders)


def is_pi_session_file(path: str | os.PathLike[str]) -> bool:
    """True for one of pi's session files, whatever the link it is reached by: inside pi's session
    folders (``is_pi_session_path``, which sees through symbolic links), or a hard link to a file
    in them (same device and inode; looked for only when the file has more than one link)."""
    if is_pi_session_path(path):
        return True
    try:
        st = os.stat(path)
    except OSError:
        return False
    if st.st_nlink < 2:
        return False
    custom = pi_custom_session_dir()
    folders = [custom] if custom is not None else []
    try:
        folders += [Path(e.path) for e in os.scandir(pi_sessions_root()) if e.is_dir(follow_symlinks=False)]
    except OSError:
        pass
    for folder in folders:
        try:
            with os.scandir(folder) as entries:
                for e in entries:
                    if e.inode() == st.st_ino and e.is_file(follow_symlinks=False) and e.stat(follow_symlinks=False).st_dev == st.st_dev:
                        return True
        except OSError:
            continue
    return False
