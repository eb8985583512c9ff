"""Where the agents keep their conversations, and which of them belong to a directory
(docs/agent-conversations.md#finding-them). Only ever read: nothing here writes, locks or creates a thing in
an agent's folders.

- Claude Code: ``<config>/projects/<cwd, every character that is not a letter or a digit as
  ->/<session id>.jsonl``; ``<config>`` is ``$CLAUDE_CONFIG_DIR``, else ``~/.claude``. A folder name
  longer than 200 characters is cut at 200 and given a hash of the path (which hash depends on the
  Claude build), so such folders are matched by their first 200 characters and the transcript's
  own ``cwd``.
- Codex: ``$CODEX_HOME`` (else ``~/.codex``) ``/sessions/YYYY/MM/DD/rollout-*.jsonl``; the
  directory is only in the first line (``session_meta``), so every rollout's head is read.
- Gemini CLI: ``<home>/.gemini/tmp/<project name>/chats/session-*.jsonl``, ``<home>`` being
  ``$GEMINI_CLI_HOME`` (the CLI's documented override) else the home folder; the project name comes
  from ``.gemini/projects.json`` (``{"projects": {"/abs/cwd": "name"}}``; older releases named the
  folder by the sha256 of the path). ``--resume`` may leave a stub file (a header and one ``$set``,
  no record) beside the real one: files are grouped by ``sessionId`` and a file without a record is
  never listed.
- opencode: one SQLite database holds every session (``opencode.py`` says where); a session is
  named ``<database>#<session id>`` and belongs to the directory its row names. A subagent's
  session (one with a parent) is not listed.
- Qwen Code: ``<qwen>/projects/<cwd, every character that is not an ASCII letter or digit as
  ->/chats/<session id>.jsonl``; ``<qwen>`` is ``$QWEN_RUNTIME_DIR``, else ``$QWEN_HOME``, else
  ``~/.qwen`` (the runtime folder is where Qwen keeps its sessions; both are looked in when they
  differ). The chat file's own ``cwd`` tells two directories that share a folder apart.
- GitHub Copilot CLI: ``<copilot>/session-state/<session id>/events.jsonl``; ``<copilot>`` is
  ``$COPILOT_HOME``, else ``~/.copilot``. Every session of every directory shares
  ``session-state``: a session's directory is its ``session.start`` event's ``context.cwd``, else
  the ``cwd`` of ``workspace.yaml`` beside it.

Every file is told by its content (``detect.py``), never by its name: a file of another format in
these folders is not listed.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Protocol, cast

from core.config.places import AGENT_KINDS, normalise_cwd
from core.files import jsonl_files, read_small_file
from core.session.parse import loads_line
from core.sources.detect import detect_kind, kind_of_line
from core.sources.in_database import split

if TYPE_CHECKING:
    from core.sources.reader import Reader


class Read(Protocol):
    """What ``conversation_status`` asks of a conversation's reading (``reading.py``, which imports
    this module: a protocol keeps the two apart)."""

    kind: str
    source: Path
    reader: Reader

CLAUDE_NAME_MAX = 200
HEAD_BYTES = 1 << 16
"""Bytes read first from a transcript to learn its kind, session id and directory."""
HEAD_MAX = 1 << 20
"""How far a head is read for a first line that is longer (Codex's holds the agent's instructions)."""
PROJECTS_JSON_MAX = 4 << 20
_CWD = re.compile(rb'"cwd"\s*:\s*("(?:[^"\\]|\\.)*")')
_DAY = re.compile(r"\d+")


# -- the folders ------------------------------------------------------------------------------------


def _expand(value: str) -> Path:
    return Path(os.path.expanduser(value))


def claude_config_dir() -> Path:
    value = os.environ.get("CLAUDE_CONFIG_DIR")
    return _expand(value) if value else Path.home() / ".claude"


def claude_projects_dir() -> Path:
    return claude_config_dir() / "projects"


def codex_home() -> Path:
    value = os.environ.get("CODEX_HOME")
    return _expand(value) if value else Path.home() / ".codex"


def codex_sessions_dir() -> Path:
    return codex_home() / "sessions"


def gemini_dir() -> Path:
    """``$GEMINI_CLI_HOME/.gemini``, else ``~/.gemini``."""
    value = os.environ.get("GEMINI_CLI_HOME")
    return (_expand(value) if value else Path.home()) / ".gemini"


def qwen_home() -> Path:
    """``$QWEN_HOME`` (Qwen Code's own folder, not a home that holds it), else ``~/.qwen``."""
    value = os.environ.get("QWEN_HOME")
    return _expand(value) if value else Path.home() / ".qwen"


def qwen_projects_dirs() -> list[Path]:
    """Where Qwen Code's ``projects`` folder may be: under ``$QWEN_RUNTIME_DIR`` (its runtime data,
    the sessions among them) when set, and under its home."""
    value = os.environ.get("QWEN_RUNTIME_DIR")
    roots = [_expand(value)] if value else []
    return [root / "projects" for root in dict.fromkeys([*roots, qwen_home()])]


def qwen_folder_name(cwd: str | os.PathLike[str]) -> str:
    """Qwen Code's folder name for ``cwd``: every character that is not an ASCII letter or digit
    becomes ``-`` (``/home/user/project`` -> ``-home-user-project``)."""
    return "".join(ch if ch.isascii() and ch.isalnum() else "-" for ch in normalise_cwd(cwd))


def qwen_chats_dirs(cwd: str | os.PathLike[str]) -> list[Path]:
    """The folders of ``cwd``'s Qwen Code chat files (the first is where a new one goes)."""
    name = qwen_folder_name(cwd)
    return [projects / name / "chats" for projects in qwen_projects_dirs()]


def copilot_home() -> Path:
    """``$COPILOT_HOME`` (GitHub Copilot CLI's own folder), else ``~/.copilot``."""
    value = os.environ.get("COPILOT_HOME")
    return _expand(value) if value else Path.home() / ".copilot"


def copilot_sessions_dir() -> Path:
    """Where Copilot keeps a folder per session (``<id>/events.jsonl``, ``session.db``...)."""
    return copilot_home() / "session-state"


WORKSPACE_MAX = 1 << 16
_YAML_CWD = re.compile(r"^cwd:[ \t]*(.*?)[ \t]*$", re.MULTILINE)


def copilot_workspace_cwd(session: Path) -> str | None:
    """The ``cwd`` that ``<session>/workspace.yaml`` names (``cwd: /home/user/project``; a quoted
    value is unquoted), when there is one. Only that key is read: no YAML parser is needed."""
    try:
        text = read_small_file(session / "workspace.yaml", WORKSPACE_MAX).decode("utf-8")
    except (OSError, ValueError):
        return None
    match = _YAML_CWD.search(text)
    if match is None:
        return None
    value = match.group(1)
    if len(value) >= 2 and value[0] == value[-1] == "'":
        value = value[1:-1].replace("''", "'")
    elif len(value) >= 2 and value[0] == value[-1] == '"':
        try:
            value = json.loads(value)
        except ValueError:
            return None
    return value if isinstance(value, str) and os.path.isabs(value) else None


def claude_folder_name(cwd: str | os.PathLike[str]) -> str:
    """Claude Code's folder name for ``cwd`` before any cut: every UTF-16 code unit that is not an
    ASCII letter or digit becomes ``-`` (a character beyond the BMP is two of them)."""
    return "".join(ch if ch.isascii() and ch.isalnum() else "--" if ord(ch) > 0xFFFF else "-"
                   for ch in normalise_cwd(cwd))


def _listdir(folder: Path) -> list[os.DirEntry[str]]:
    try:
        with os.scandir(folder) as entries:
            return list(entries)
    except OSError:
        return []


def _is_dir(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir()
    except OSError:
        return False


@dataclass(frozen=True)
class Place:
    """A folder where an agent keeps transcripts, and how its files are matched to a directory."""

    folder: Path
    kind: str
    cwd: str | None
    """The directory a transcript's own ``cwd`` must name (None: any)."""
    strict: bool = False
    """A transcript that names no directory is left out (else the folder vouches for it)."""
    hint: str | None = None
    """The directory its transcripts belong to when they do not say (Gemini's never do)."""


def _mtime(path: Path) -> int | None:
    try:
        return os.stat(path).st_mtime_ns
    except OSError:
        return None


class AgentFolders:
    """The places of every agent for one directory (or for all, ``cwd`` None). A long-lived
    instance lists a folder again only when its modification time changed, so a tick of the
    overview costs a few ``stat`` calls when nothing moved."""

    def __init__(self) -> None:
        self._lists: dict[Path, tuple[int | None, list[tuple[str, bool]]]] = {}
        self._projects: tuple[tuple[int, int] | None, dict[str, str]] = (None, {})
        self._roots: dict[Path, str | None] = {}

    def _entries(self, folder: Path) -> list[tuple[str, bool]]:
        """(name, is a folder) of ``folder``'s entries, listed again only when it changed."""
        mtime = _mtime(folder)
        listed = self._lists.get(folder)
        if listed is not None and mtime is not None and listed[0] == mtime:
            return listed[1]
        entries = sorted((e.name, _is_dir(e)) for e in _listdir(folder)) if mtime is not None else []
        self._lists[folder] = (mtime, entries)
        return entries

    def _subfolders(self, folder: Path) -> list[Path]:
        return [folder / name for name, is_dir in self._entries(folder) if is_dir]

    def places(self, cwd: str | os.PathLike[str] | None) -> list[Place]:
        target = normalise_cwd(cwd) if cwd is not None else None
        return [*self.claude(target), *self.codex(target), *self.gemini(target), *self.qwen(target),
                *self.opencode(target), *self.copilot(target)]

    def claude(self, cwd: str | None) -> list[Place]:
        root = claude_projects_dir()
        if cwd is None:
            return [Place(p, "claude", None) for p in self._subfolders(root)]
        name = claude_folder_name(cwd)
        places = [Place(root / name, "claude", cwd, hint=cwd)]
        if len(name) > CLAUDE_NAME_MAX:  # cut and hashed: every folder of that prefix, by the transcript's cwd
            prefix = name[:CLAUDE_NAME_MAX] + "-"
            places += [Place(p, "claude", cwd, strict=True)
                       for p in self._subfolders(root) if p.name.startswith(prefix)]
        return places

    def codex(self, cwd: str | None) -> list[Place]:
        days: list[Place] = []
        for year in self._subfolders(codex_sessions_dir()):
            if not _DAY.fullmatch(year.name):
                continue
            for month in self._subfolders(year):
                if _DAY.fullmatch(month.name):
                    days += [Place(day, "codex", cwd, strict=cwd is not None)
                             for day in self._subfolders(month) if _DAY.fullmatch(day.name)]
        return days

    def gemini(self, cwd: str | None) -> list[Place]:
        tmp = gemini_dir() / "tmp"
        projects = self.gemini_projects()
        if cwd is not None:
            names = [projects[cwd]] if cwd in projects else []
            names.append(hashlib.sha256(cwd.encode("utf-8", "surrogateescape")).hexdigest())  # before projects.json
            return [Place(tmp / n / "chats", "gemini", None, hint=cwd) for n in dict.fromkeys(names)
                    if _safe_name(n)]
        by_name = {name: path for path, name in projects.items()}
        return [Place(p / "chats", "gemini", None, hint=by_name.get(p.name) or self._project_root(p))
                for p in self._subfolders(tmp)]

    def qwen(self, cwd: str | None) -> list[Place]:
        if cwd is not None:
            return [Place(folder, "qwen", cwd, hint=cwd) for folder in qwen_chats_dirs(cwd)]
        return [Place(p / "chats", "qwen", None) for root in qwen_projects_dirs() for p in self._subfolders(root)]

    def opencode(self, cwd: str | None) -> list[Place]:
        from core.sources.opencode import databases

        return [Place(db, "opencode", cwd, strict=True) for db in databases()]

    def copilot(self, cwd: str | None) -> list[Place]:
        """Each session's folder; its log says its directory (or its ``workspace.yaml``: ``read_head``)."""
        return [Place(p, "copilot", cwd, strict=cwd is not None) for p in self._subfolders(copilot_sessions_dir())]

    def gemini_projects(self) -> dict[str, str]:
        """``projects.json``'s map of directory to project name (read again when it changed)."""
        path = gemini_dir() / "projects.json"
        try:
            st = os.stat(path)
            key: tuple[int, int] | None = (st.st_mtime_ns, st.st_size)
        except OSError:
            key = None
        if key is not None and key == self._projects[0]:
            return self._projects[1]
        projects: dict[str, str] = {}
        if key is not None:
            try:
                data = json.loads(read_small_file(path, PROJECTS_JSON_MAX))
            except (OSError, ValueError, RecursionError):
                data = None
            table = data.get("projects") if isinstance(data, dict) else None
            if isinstance(table, dict):
                projects = {normalise_cwd(k): v for k, v in table.items()
                            if isinstance(k, str) and isinstance(v, str) and os.path.isabs(k)}
        self._projects = (key, projects)
        return projects

    def _project_root(self, project: Path) -> str | None:
        """The directory Gemini wrote into ``tmp/<project>/.project_root``, when there is one."""
        if project not in self._roots:
            self._roots[project] = project_root(project)
        return self._roots[project]


def project_root(project: Path) -> str | None:
    """The directory Gemini CLI wrote into ``tmp/<project>/.project_root`` (its chat files hold
    only a hash of it), when there is one."""
    try:
        text = read_small_file(project / ".project_root", 1 << 12).decode("utf-8").strip()
    except (OSError, ValueError):
        return None
    return text if os.path.isabs(text) else None


def _safe_name(name: str) -> bool:
    return bool(name) and name not in (".", "..") and "/" not in name and "\0" not in name


def transcript_files(folder: Path) -> list[Path]:
    """The ``.jsonl`` regular files directly in ``folder`` (Claude's sub-agents live in folders);
    of a database's place (opencode's), its conversations, each named ``<database>#<session id>``."""
    if is_database_place(folder):
        from core.sources import opencode

        return opencode.table(folder).listed
    return jsonl_files(folder)


def is_database_place(folder: Path) -> bool:
    """Whether a place's "folder" is an agent's database (no agent's folder of transcripts has a
    name ending so; ``opencode.is_database`` asks the file itself)."""
    return folder.name.endswith(".db")


def source_stat(path: str | os.PathLike[str]) -> os.stat_result:
    """``os.stat`` of a conversation: of its transcript, or for one inside a database what
    ``opencode.stat`` says of it (the session's last change, its count of parts)."""
    if split(path) is not None:
        from core.sources import opencode

        return cast(os.stat_result, opencode.stat(path))
    return os.stat(path)


# -- a transcript's head ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Head:
    """What the first lines of a transcript say."""

    kind: str | None  # claude, codex, gemini, qwen or copilot; None: not a transcript pideck reads (yet)
    session_id: str | None = None
    cwd: str | None = None
    records: bool = True  # Gemini: the file holds a message record (a stub from --resume does not)
    complete: bool = True  # False: what is missing may still come as the file grows


NOTHING = Head(None, complete=False)


def _read_head(path: Path, limit: int) -> bytes:
    """Up to ``limit`` bytes of the start of a regular file, opened without blocking (a FIFO put
    where a transcript belongs never hangs pideck; ``read_small_file`` reads a whole small one)."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise ValueError("not a regular file")
        data = b""
        while len(data) < limit and (chunk := os.read(fd, limit - len(data))):
            data += chunk
    finally:
        os.close(fd)
    return data


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def _lines(data: bytes) -> Iterable[Any]:
    """The complete lines of ``data``, parsed (a bad one is None)."""
    for raw in data.split(b"\n")[:-1]:
        if not raw.strip():
            continue
        try:
            yield loads_line(raw)
        except (ValueError, RecursionError):
            yield None


def read_head(path: str | os.PathLike[str]) -> Head:
    """The kind, session id and directory of the transcript at ``path`` from its first lines (and,
    for Gemini, whether it holds a record yet). Never raises: an unreadable file is ``NOTHING``."""
    path = Path(path)
    if split(path) is not None:
        from core.sources import opencode

        session = opencode.session_of(path)
        return Head("opencode", session.id, session.directory) if session is not None else NOTHING
    try:
        asked = HEAD_BYTES
        data = _read_head(path, asked)
        while b"\n" not in data and len(data) == asked and asked < HEAD_MAX:
            asked = min(HEAD_MAX, asked * 4)
            data = _read_head(path, asked)
    except (OSError, ValueError):
        return NOTHING
    if b"\n" not in data:
        try:
            kind = detect_kind(path) if data.strip() else None  # one long line so far: told by how it starts
        except OSError:
            kind = None
        return Head(kind, cwd=_cwd_in(data) if kind else None, complete=False)
    lines = iter(_lines(data))
    first = next(lines, None)
    kind = kind_of_line(first)
    if not isinstance(first, dict):
        return Head(None, complete=False)
    if kind == "codex":
        payload = first.get("payload") if first.get("type") == "session_meta" else None
        meta = payload if isinstance(payload, dict) else {}
        return Head(kind, _text(meta.get("id")) or _text(meta.get("session_id")), _text(meta.get("cwd")))
    if kind == "gemini":
        session_id = _text(first.get("sessionId"))
        for line in lines:
            if isinstance(line, dict) and "$set" not in line and "$rewindTo" not in line and _text(line.get("id")):
                return Head(kind, session_id, records=True)
        truncated = len(data) >= HEAD_BYTES
        return Head(kind, session_id, records=truncated, complete=truncated)
    if kind == "copilot":
        start = first.get("data")
        said: dict[str, object] = start if isinstance(start, dict) else {}
        context = said.get("context")
        cwd = _text(context.get("cwd")) if isinstance(context, dict) else None
        return Head(kind, _text(said.get("sessionId")), cwd or copilot_workspace_cwd(path.parent))
    if kind in ("claude", "qwen"):
        session_id, cwd = _text(first.get("sessionId")), _text(first.get("cwd"))
        for line in lines:
            if cwd is not None:
                break
            if isinstance(line, dict):
                session_id = session_id or _text(line.get("sessionId"))
                cwd = _text(line.get("cwd"))
        if cwd is None:
            cwd = _cwd_in(data)  # a first prompt longer than the head
        return Head(kind, session_id, cwd, complete=cwd is not None)
    return Head(None, complete=False)


def _cwd_in(data: bytes) -> str | None:
    """The first ``"cwd":"..."`` member in raw bytes (a quote inside a JSON string is escaped, so
    this is always a key), for a line too long to parse from its head."""
    match = _CWD.search(data)
    if match is None:
        return None
    try:
        value = json.loads(match.group(1))
    except ValueError:
        return None
    return _text(value)


def belongs(head: Head, place: Place) -> bool:
    """Whether a transcript with this head is one of ``place``'s conversations."""
    if head.kind != place.kind or not head.records:
        return False
    if place.cwd is None:
        return True
    if head.cwd is None:
        return not place.strict
    return (_absolute(head.cwd) if os.path.isabs(head.cwd) else normalise_cwd(head.cwd)) == place.cwd


@lru_cache(maxsize=4096)
def _absolute(cwd: str) -> str:
    """An absolute directory as ``normalise`` makes it, remembered: an overview's tick asks for
    every file's."""
    return normalise_cwd(cwd)


def one_per_session(found: Iterable[tuple[Path, str, Head, float]]) -> list[tuple[Path, str, Head, float]]:
    """Gemini's files grouped by session id, the most recently changed of each kept (``--resume``
    can start a second file for a session); other agents' files as they are."""
    out: list[tuple[Path, str, Head, float]] = []
    newest: dict[str, int] = {}  # Gemini session id -> its place in out
    for item in found:
        path, kind, head, mtime = item
        if kind != "gemini" or not head.session_id:
            out.append(item)
            continue
        at = newest.get(head.session_id)
        if at is None:
            newest[head.session_id] = len(out)
            out.append(item)
        elif (mtime, str(path)) > (out[at][3], str(out[at][0])):
            out[at] = item
    return out


def conversations(cwd: str | os.PathLike[str] | None, folders: AgentFolders | None = None
                  ) -> list[tuple[Path, str, Head, float]]:
    """Every agent conversation of ``cwd`` (None: of every directory): (path, kind, head, mtime)."""
    folders = folders or AgentFolders()
    found: list[tuple[Path, str, Head, float]] = []
    seen: set[Path] = set()
    for place in folders.places(cwd):
        for path in transcript_files(place.folder):
            if path in seen:
                continue
            head = read_head(path)
            if not belongs(head, place):
                continue
            if place.hint is not None and head.cwd is None:
                head = Head(head.kind, head.session_id, place.hint, head.records, head.complete)
            try:
                mtime = source_stat(path).st_mtime
            except OSError:
                continue
            seen.add(path)
            found.append((path, place.kind, head, mtime))
    return one_per_session(found)


# -- Claude Code's live-session files ---------------------------------------------------------------

LIVE_FILE_BYTES = 1 << 16


def claude_live_folder(transcript: Path) -> Path | None:
    """``<config>/sessions`` for a transcript at ``<config>/projects/<cwd>/<id>.jsonl``."""
    if transcript.parent.parent.name != "projects":
        return None
    return transcript.parent.parent.parent / "sessions"


def conversation_status(reading: Read, live: LiveSessions) -> str:
    """What the agent of a conversation (its ``Reading``) is doing: the reader's word (waiting
    until it says another), overruled for Claude Code by its live-session file; and working, not
    waiting, while one of its subagents runs (a background subagent goes on after the turn ended;
    a subagent's own turn end is not the conversation's)."""
    from core.sources.reader import AGENT_WAITING, AGENT_WORKING, SUBAGENT_RUNNING

    info = reading.reader.info
    status = str(info.get("status") or AGENT_WAITING)
    if reading.kind == "claude":
        status = live.status(reading.source, info.get("sessionId")) or status
    if status == AGENT_WAITING and any(s["status"] == SUBAGENT_RUNNING for s in info.get("subagents", [])):
        status = AGENT_WORKING
    return status


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # someone else's process: it exists
    return True


class LiveSessions:
    """What each running Claude Code says in ``<config>/sessions/<pid>.json`` (``sessionId``,
    ``status`` busy or idle; deleted at exit), for any number of transcripts: each folder is looked
    at once per ``tick()``, a file is parsed again only when it changed, and a file caught half
    rewritten keeps its last good copy. A conversation's log asks it too (``log.py``)."""

    def __init__(self) -> None:
        self._tick = 0
        self._seen: dict[Path, tuple[int, dict[str, str] | None]] = {}  # folder -> (tick, session id -> status)
        self._files: dict[Path, tuple[tuple[int, int, int], Any]] = {}  # live file -> (key, parsed)
        self._folder_of: dict[Path, Path | None] = {}

    def tick(self, folders: Iterable[Path] = ()) -> bool:
        """A new look; ``folders`` are read now. True when what one of them says changed."""
        self._tick += 1
        moved = False
        for folder in folders:
            before = self._seen.get(folder)
            if self._table(folder) != (before[1] if before is not None else None):
                moved = True
        return moved

    def folder(self, transcript: Path) -> Path | None:
        """The live-session folder of a transcript's Claude config (None: not in one)."""
        if transcript not in self._folder_of:
            self._folder_of[transcript] = claude_live_folder(transcript)
        return self._folder_of[transcript]

    def forget(self, transcript: Path) -> None:
        """A transcript no longer followed: what was kept of it goes (a catalog runs for days)."""
        self._folder_of.pop(transcript, None)

    def status(self, transcript: Path, session_id: Any) -> str | None:
        """``working`` (busy), ``waiting`` (idle), ``ended`` (no live file for the session, or its
        process is gone); None when the transcript is not in a Claude config folder, or the folder
        has no ``sessions`` folder to ask."""
        from core.sources.reader import AGENT_ENDED

        folder = self.folder(transcript)
        if folder is None or not isinstance(session_id, str):
            return None
        table = self._table(folder)
        return None if table is None else table.get(session_id, AGENT_ENDED)

    def _table(self, folder: Path) -> dict[str, str] | None:
        seen = self._seen.get(folder)
        if seen is None or seen[0] != self._tick:
            seen = (self._tick, self._read(folder))
            self._seen[folder] = seen
        return seen[1]

    def _read(self, folder: Path) -> dict[str, str] | None:
        from core.sources.reader import AGENT_WAITING, AGENT_WORKING

        try:
            entries = [e for e in os.scandir(folder) if e.name.endswith(".json")]
        except OSError:
            return None
        table: dict[str, str] = {}
        for entry in entries:
            path = Path(entry.path)
            try:
                st = entry.stat()
            except OSError:
                continue
            key = (st.st_ino, st.st_size, st.st_mtime_ns)
            cached = self._files.get(path)
            if cached is None or cached[0] != key:
                try:
                    live = json.loads(read_small_file(path, LIVE_FILE_BYTES))
                except (OSError, ValueError, RecursionError):
                    live = cached[1] if cached is not None else None  # rewritten in place under us: the last good copy
                self._files[path] = (key, live)
            else:
                live = cached[1]
            if not isinstance(live, dict) or not isinstance(live.get("sessionId"), str):
                continue
            pid = live.get("pid")
            if type(pid) is int and pid > 0 and not _alive(pid):
                continue  # a Claude that died without cleaning up
            status = AGENT_WORKING if live.get("status") == "busy" else AGENT_WAITING
            if table.get(live["sessionId"]) != AGENT_WORKING:
                table[live["sessionId"]] = status
        listed = {Path(e.path) for e in entries}
        for gone in [p for p in self._files if p.parent == folder and p not in listed]:
            del self._files[gone]
        return table


def newest_conversation(cwd: str | os.PathLike[str], kinds: Iterable[str] = AGENT_KINDS
                        ) -> tuple[Path, str, Head, float] | None:
    """The most recently changed conversation of ``cwd`` among ``kinds``, reading heads only from
    the newest file down until one belongs (``pideck`` at start-up need not read every rollout's)."""
    wanted = set(kinds)
    candidates: list[tuple[float, str, Path, Place]] = []
    for place in AgentFolders().places(cwd):
        if place.kind not in wanted:
            continue
        for path in transcript_files(place.folder):
            try:
                candidates.append((source_stat(path).st_mtime, str(path), path, place))
            except OSError:
                continue
    candidates.sort(reverse=True)
    for mtime, _, path, place in candidates:
        head = read_head(path)
        if belongs(head, place):
            if head.cwd is None and place.hint is not None:
                head = Head(head.kind, head.session_id, place.hint, head.records, head.complete)
            return path, place.kind, head, mtime
    return None
