"""A conversation's mirror: the agent's transcript told again as a pi-format log, kept in pideck's
home (docs/agent-conversations.md#the-mirror).

Everything pideck shows of a session (the strip, the goal table, the activity, the timeline, the
deck as of an entry, ``diff``) is read from a pi-format log. An agent's transcript is not one, and
pideck never writes beside it; so each conversation gets a small log of its own under
``<pideck home>/conversations/``, holding the person's prompts, the agent's answers and one ``todo``
tool result per change of the agent's plan, each with the time of the transcript line it comes
from. The mirror only grows while the transcript grows: a sync reads the transcript's whole lines
appended since the last one (a partial last line waits for its newline), hands them to the agent's
reader and appends what it answers. The reader's state, the transcript bytes read and a digest of
the last 4 KiB before that point are saved beside the mirror, so the next sync, in this process or
another, goes on from there; a transcript that was replaced, truncated or rewritten is read again
from its start into a new mirror. Syncs hold a lock, so two pidecks following one conversation
append each line once.
"""

from __future__ import annotations

import atexit
import hashlib
import json
import os
import re
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Iterator, cast

from core.config import places
from core.files import make_private_dirs, replace_private_file, write_all
from core.session.parse import TooDeep, loads_line
from core.session.writer import header_entry, serialise
from core.sources.claude import ClaudeReader
from core.sources.codex import CodexReader
from core.sources.gemini import GeminiReader
from core.sources.reader import Reader

if TYPE_CHECKING:  # (the type checker's alone: a TypedDict compiles its annotations as it is made)
    from typing import TypedDict

    from core.session.entry import Entry
    from core.sources.reader import AgentInfo, ReaderState

    class SyncState(TypedDict, total=False):
        """How far a mirror has read its transcript, saved beside the mirror as JSON so that the next
        sync, in this process or another, goes on from there. Empty until the first sync; ``reader``,
        ``tail`` and ``mirror_size`` are added as it is saved, ``long`` only while a too-long line is
        being passed over."""

        format: int  # FORMAT
        source: str  # the transcript's path (second: ``source_of`` reads it from the file's head)
        kind: str  # the agent's
        identity: list[int]  # the transcript's device and inode: another file at the path is read anew
        offset: int  # transcript bytes read: the end of the last whole line
        long: int  # bytes passed over of a too-long line starting at the offset
        lines: int  # transcript lines read
        entries: int  # entries in the mirror after its header
        leaf: str | None  # the id of the mirror's last entry
        warnings: list[str]  # about the transcript's lines, the first MAX_WARNINGS
        reader: ReaderState
        tail: str | None  # the digest of the BLOCK bytes before the offset
        mirror_size: int  # the mirror's size in bytes when the state was saved

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

READERS: dict[str, type[Reader]] = {"claude": ClaudeReader, "codex": CodexReader, "gemini": GeminiReader}
FORMAT = 3  # of the saved state and the mirror; another number is read again from the transcript's start
# (3: each reader saves what it keeps besides the plan under keys of its own, no longer in ``extra``)
BLOCK = 4096
CHUNK = 8 << 20  # transcript bytes read at a time
MAX_LINE_BYTES = 32 << 20
"""The longest transcript line read (docs/agent-conversations.md#how-pideck-reads-them): a longer one,
finished or not, is passed over without being held, and skipped with a warning."""
MAX_WARNINGS = 200

_WANTED: dict[str, re.Pattern[bytes]] = {
    # Claude's transcript is mostly request shapes and prompt snapshots (~100 KB lines) that say
    # nothing about the conversation: only lines that can be a user or assistant line are parsed.
    # Any JSON writer's spacing is read; the compact form agents write costs nothing more.
    "claude": re.compile(rb'"type"\s*:\s*"(?:user|assistant)"'),
}


@dataclass
class Synced:
    """What one sync did."""

    entries: int = 0  # entries appended to the mirror
    rebuilt: bool = False  # the mirror was written anew from the transcript's start
    warnings: list[str] = field(default_factory=list)  # about lines of the transcript read now


class Mirror:
    """The mirror of the transcript at ``source`` (an agent conversation of ``kind``)."""

    def __init__(self, source: str | os.PathLike[str], kind: str, home: Path | None = None) -> None:
        self.source = Path(os.path.abspath(source))
        self.kind = kind
        digest = hashlib.sha256(os.fsencode(self.source)).hexdigest()[:32]
        folder = mirror_home(home)
        self.path = folder / f"{digest}.jsonl"
        self._state_path = folder / f"{digest}.state"
        self._lock_path = folder / f"{digest}.lock"
        self.state: SyncState = {}
        self.reader: Reader = READERS[kind]()
        self._synced_at: tuple[int, int, int, int] | None = None  # the transcript as this object last read it

    @property
    def info(self) -> AgentInfo:
        """The agent object as the reader has it so far (kind, session id, cwd, version, model,
        status, last message, tokens)."""
        return self.reader.info

    def last_activity_ms(self, mtime_ms: int | None) -> tuple[int | None, bool]:
        """When the agent last wrote, and whether that is the time of a line (True) or only the
        file's modification time (False: no line said when, docs/agent-conversations.md#the-agent-object).
        A line's own time wins: a transcript copied, synced or restored is as old as its lines. It
        is never later than the file's last change (a clock ahead of the disk's)."""
        from core.clock import iso_ms

        line_ms = iso_ms(self.reader.last_ts)
        if line_ms is None:
            return mtime_ms, False
        return (line_ms if mtime_ms is None else min(line_ms, mtime_ms)), True

    @property
    def warnings(self) -> list[str]:
        """Every warning about the transcript's lines read so far, in file order."""
        return list(self.state.get("warnings", []))

    def forget(self) -> None:
        """Remove the mirror and its state, the transcript being gone (docs/caches.md): kept, they
        would only take room, as nothing reads them again. A pideck still following the transcript
        finds no file to read and says it is gone."""
        with self._locked():
            for path in (self.path, self._state_path):
                try:
                    path.unlink()
                except OSError:
                    pass
        try:
            self._lock_path.unlink()
        except OSError:
            pass

    def sync(self) -> Synced:
        """Read what the transcript gained since the last sync into the mirror. A transcript this
        object read as it is now costs one stat (a follower asks at every refresh)."""
        st = os.stat(self.source)
        if (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns) == self._synced_at:
            return Synced()
        make_private_dirs(self.path.parent)
        with self._locked():
            st = os.stat(self.source)
            state = self._saved_state(st)
            if state is None:
                synced = self._rebuild(st)
            elif state["offset"] == st.st_size:
                self.state = state
                self.reader = READERS[self.kind](state["reader"])
                synced = Synced()
            else:
                synced = self._extend(state, st)
        self._synced_at = (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)
        return synced

    # -- state ----------------------------------------------------------------------------------

    def _saved_state(self, st: os.stat_result) -> SyncState | None:
        """The saved state when it still describes the transcript and the mirror, else None. (The
        reader's part is taken as this FORMAT's readers saved it: the file is pideck's own.)"""
        try:
            state = json.loads(self._state_path.read_bytes())
            mirror_size = os.stat(self.path).st_size
        except (OSError, ValueError):
            return None
        if not isinstance(state, dict) or state.get("format") != FORMAT or state.get("source") != os.fsdecode(self.source) \
                or state.get("kind") != self.kind or state.get("identity") != [st.st_dev, st.st_ino] \
                or not isinstance(state.get("offset"), int) or not isinstance(state.get("long", 0), int) \
                or state["offset"] + state.get("long", 0) > st.st_size \
                or state.get("mirror_size") != mirror_size or state.get("tail") != self._tail_digest(state["offset"]):
            return None
        return cast("SyncState", state)

    def _tail_digest(self, offset: int) -> str | None:
        try:
            with open(self.source, "rb") as f:
                f.seek(max(0, offset - BLOCK))
                return hashlib.sha256(f.read(min(offset, BLOCK))).hexdigest()
        except OSError:
            return None

    def _save(self, state: SyncState) -> None:
        state["reader"] = self.reader.save()
        state["tail"] = self._tail_digest(state["offset"])
        state["mirror_size"] = os.stat(self.path).st_size
        replace_private_file(self._state_path, json.dumps(state, ensure_ascii=True).encode())
        self.state = state

    # -- reading the transcript -----------------------------------------------------------------

    def _rebuild(self, st: os.stat_result) -> Synced:
        self.reader = READERS[self.kind]()
        state: SyncState = {"format": FORMAT, "source": os.fsdecode(self.source), "kind": self.kind,
                            "identity": [st.st_dev, st.st_ino], "offset": 0, "lines": 0, "entries": 0,
                            "leaf": None, "warnings": []}
        body = bytearray()
        synced = self._read(state, body)
        info = self.reader.info
        header = header_entry(str(info.get("sessionId") or self.source.stem),
                              self.reader.first_ts or "1970-01-01T00:00:00.000Z", str(info.get("cwd") or self._cwd()))
        data = serialise(header) + bytes(body)
        replace_private_file(self.path, data)
        self._save(state)
        synced.rebuilt = True
        return synced

    def _cwd(self) -> str:
        """The directory where the transcript names none: Gemini CLI keeps it beside its chats."""
        if self.kind == "gemini":
            from core.sources.discovery import project_root

            return project_root(self.source.parent.parent) or ""
        return ""

    def _extend(self, state: SyncState, st: os.stat_result) -> Synced:
        self.reader = READERS[self.kind](state["reader"])
        body = bytearray()
        synced = self._read(state, body)
        if body:
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND)
            try:
                write_all(fd, bytes(body))
            finally:
                os.close(fd)
        self._save(state)
        return synced

    def _read(self, state: SyncState, out: bytearray) -> Synced:
        """Whole lines of the transcript from ``state["offset"]`` on, told to the reader; what it
        answers is serialised into ``out``. ``state`` moves past every line read.

        Time and memory stay linear in what is read: an unfinished line is held as its pieces (never
        copied again per chunk), and a line longer than ``MAX_LINE_BYTES`` is not held at all but
        passed over to its newline, where it is skipped with a warning. ``state["long"]`` keeps how
        much of such a line has been passed over, so the next sync goes on from there."""
        synced = Synced()
        wanted = _WANTED.get(self.kind)
        long = state.pop("long", 0)  # bytes passed over of a too-long line starting at the offset
        with open(self.source, "rb") as f:
            at = f.seek(state["offset"] + long)
            size = os.fstat(f.fileno()).st_size  # (what grows meanwhile is the next sync's)
            pieces: list[bytes] = []  # an unfinished line's bytes so far
            held = 0
            # Never ask for more than the file holds: ``read(n)`` allocates n bytes first, and a
            # follower syncing small files 8 MiB at a time would grow its heap for nothing.
            while at < size and (chunk := f.read(min(CHUNK, size - at))):
                at += len(chunk)
                end = chunk.rfind(b"\n")
                if end < 0:
                    if long:
                        long += len(chunk)
                    elif held + len(chunk) > MAX_LINE_BYTES:
                        long, held = held + len(chunk), 0
                        pieces.clear()
                    else:
                        pieces.append(chunk)
                        held += len(chunk)
                    continue
                if long:
                    cut = chunk.find(b"\n") + 1
                    self._warn(state, synced, f"line {state['lines'] + 1}: longer than {MAX_LINE_BYTES >> 20} MiB (skipped)")
                    state["lines"] += 1
                    state["offset"] += long + cut
                    long = 0
                    chunk, end = chunk[cut:], end - cut
                    if end < 0:
                        pieces, held = [chunk], len(chunk)
                        continue
                data = b"".join((*pieces, chunk)) if pieces else chunk
                end += held
                tail = data[end + 1:]
                pieces, held = ([tail], len(tail)) if tail else ([], 0)
                first = state["lines"]
                state["lines"] += data.count(b"\n", 0, end + 1)
                state["offset"] += end + 1
                self._feed_lines(data, end, first, wanted, state, synced, out)
        if long:
            state["long"] = long
        return synced

    def _feed_lines(self, data: bytes, end: int, first: int, wanted: re.Pattern[bytes] | None,
                    state: SyncState, synced: Synced, out: bytearray) -> None:
        """Tell the reader the lines of ``data[:end]`` (line ``first + 1`` on)."""
        for number, raw in _numbered_lines(data, end, first, wanted):
            if not raw.strip():
                continue
            if len(raw) > MAX_LINE_BYTES:
                self._warn(state, synced, f"line {number}: longer than {MAX_LINE_BYTES >> 20} MiB (skipped)")
                continue
            try:
                line = loads_line(raw)
            except (ValueError, RecursionError) as exc:
                self._warn(state, synced, f"line {number}: {_why(exc)} (skipped)")
                continue
            try:
                entries = self.reader.feed(line)
                if isinstance(line, dict):
                    self.reader.seen_at(line.get("timestamp"))
            except (TypeError, KeyError, AttributeError, ValueError) as exc:  # a shape no reader foresaw
                self.reader.notes.clear()
                self._warn(state, synced, f"line {number}: not understood ({type(exc).__name__}; skipped)")
                continue
            for note in self.reader.notes:
                self._warn(state, synced, f"line {number}: {note}")
            self.reader.notes.clear()
            for entry in entries:
                state["entries"] += 1
                entry_id = f"{state['entries']:08x}"
                # (the entry's own keys after its id and parent; its type stays first)
                out += mirror_line({"type": entry["type"], "id": entry_id, "parentId": state["leaf"], **entry})
                state["leaf"] = entry_id
                synced.entries += 1

    def _warn(self, state: SyncState, synced: Synced, text: str) -> None:
        synced.warnings.append(text)
        if len(state["warnings"]) < MAX_WARNINGS:
            state["warnings"].append(text)

    def _locked(self) -> _Lock:
        return _Lock(self._lock_path)


class _Lock:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.fd: int | None = None

    def __enter__(self) -> None:
        self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        if fcntl is not None:
            fcntl.flock(self.fd, fcntl.LOCK_EX)

    def __exit__(self, *exc: object) -> None:
        if self.fd is not None:
            os.close(self.fd)  # releases the lock
            self.fd = None


def _numbered_lines(data: bytes, end: int, first: int, wanted: re.Pattern[bytes] | None) -> Iterator[tuple[int, bytes]]:
    """The lines of ``data[:end]`` (line ``first + 1`` on) with their numbers; with ``wanted``, only
    those it finds something in, looked for in the whole chunk at once (a Claude transcript's ~100 KB
    lines of request shapes are then never split off, let alone parsed)."""
    if wanted is None:
        for number, raw in enumerate(data[:end].split(b"\n"), first + 1):
            yield number, raw
        return
    number, counted, last = first, 0, -1
    for match in wanted.finditer(data, 0, end):
        start = data.rfind(b"\n", 0, match.start()) + 1
        if start == last:
            continue  # (another hit in a line already given)
        last = start
        number += data.count(b"\n", counted, start)
        counted = start
        stop = data.find(b"\n", match.end(), end + 1)
        yield number + 1, data[start:stop if stop >= 0 else end]


_SOURCE = re.compile(rb'"source"\s*:\s*("(?:[^"\\]|\\.)*")')


def source_of(state_file: Path) -> str | None:
    """The transcript a mirror's saved state names, from the state's head (``_rebuild`` writes
    ``source`` second), without reading the reader's state after it: a sweep asks this of every
    mirror."""
    try:
        with open(state_file, "rb") as fh:
            head = fh.read(4096)
        match = _SOURCE.search(head)
        value = json.loads(match.group(1)) if match else None
    except (OSError, ValueError):
        return None
    return value if isinstance(value, str) else None


def mirror_line(entry: Entry) -> bytes:
    """One mirror line. Not pi's serialiser (which writes JavaScript's number forms and keeps
    non-ASCII as is, so that pi reads pideck's own entries back unchanged): the mirror is read only
    by pideck, holds no floats of the agent's, and ASCII escapes keep any lone surrogate a
    transcript held; the C encoder is many times faster on a plan restated at every change."""
    return (json.dumps(entry, separators=(",", ":"), ensure_ascii=True) + "\n").encode("ascii")


def _why(exc: BaseException) -> str:
    if isinstance(exc, RecursionError):
        return "nested too deep"
    return str(exc) if isinstance(exc, TooDeep) else "not JSON"


def mirror_home(home: Path | None = None) -> Path:
    """Where mirrors live: ``<pideck home>/conversations``; a temporary folder of this process when
    pideck's home cannot be written (a read-only home still lets a person look)."""
    folder = (home or places.pideck_home()) / "conversations"
    try:
        make_private_dirs(folder)
        if os.access(folder, os.W_OK):
            return folder
    except OSError:
        pass
    global _FALLBACK
    if _FALLBACK is None:
        _FALLBACK = Path(tempfile.mkdtemp(prefix="pideck-conversations-"))
        atexit.register(shutil.rmtree, _FALLBACK, True)  # (this process's mirrors, of no use to another)
    return _FALLBACK


_FALLBACK: Path | None = None
