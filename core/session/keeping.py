"""What a ``SessionLog`` keeps between runs: when an open starts from the saved index, when the
index is saved again, and the results derived from the branch that are kept beside it.

``sidecar.py`` holds the files themselves (their format, where they live, the checks that they
still describe the session); this module holds the log's side of it, the decisions that need the
log's state (``indexing.py``), its tailer (``tail.py``) and its body reader (``bodies.py``). Kept
apart from the log so that reading a file never depends on whether a saved index is on.
"""

from __future__ import annotations

from array import array
from pathlib import Path
from typing import Any, Callable

from core.session import sidecar
from core.session.bodies import BodyReader
from core.session.indexing import Indexer
from core.session.records import EntryRecord, Records
from core.session.tail import Tailer

DERIVED_RESAVE = 2000
"""Branch entries a derived result must have grown by before it is kept again (``keep_derived``)."""


class Keeper:
    """The saved index and the kept results of one log. ``on``: use and keep them at all."""

    def __init__(self, path: Path, on: bool, tail: Tailer, bodies: BodyReader) -> None:
        self._path, self._on, self._tail, self._bodies = path, on, tail, bodies
        self.saved_at: int | None = None  # bytes covered by the saved index this log started from
        self.forget()

    def forget(self) -> None:
        """Drop the derived results of an earlier generation of the file."""
        self._derived: dict[str, sidecar.Kept] = {}  # kept beside the saved index (see keep_derived)
        self._covers: dict[str, int] = {}  # branch entries a saved result is known to cover

    def resume(self) -> Indexer | None:
        """What the saved index knew, when it still describes this file: the tailer then takes up
        where it stopped. None when there is none to start from."""
        if not self._on:
            return None
        if sidecar.mode() != "always" and self._path.stat().st_size < sidecar.MIN_BYTES:
            return None  # none is kept for a small session: not even the state folder is looked at
        saved = sidecar.load(self._path)
        if saved is None:
            return None
        read = Indexer(self._path)
        read.header = saved.header
        read.legacy = read.version < 3
        read.warnings = saved.warnings
        read.cycle_warned = set(saved.cycle_warned)
        read.index = saved.index
        read.branch = saved.branch
        read.name_at = saved.name_at
        self._tail.resume(saved.consumed, saved.lines, saved.first_line, saved.file.st_ino, saved.file.st_mtime_ns)
        self.saved_at = saved.consumed
        return read

    def keeps(self, read: Indexer) -> bool:
        """Whether this log keeps its index and derived results between runs: a saved index is
        on, the session is big enough (or ``PIDECK_INDEX=always``), and no entry failed to be read
        back (its warnings would hold one a fresh read only gives when it reads that entry, and
        results derived since may have met it)."""
        st = self._tail.stat
        if not self._on or read.header is None or st is None or self._bodies.failed:
            return False
        return self.saved_at is not None or sidecar.mode() == "always" or st.st_size >= sidecar.MIN_BYTES

    def save(self, read: Indexer) -> None:
        """Save the index after a full read of a big file, or once enough was appended since."""
        st, consumed = self._tail.stat, self._tail.consumed
        if not self.keeps(read) or st is None or read.header is None or consumed == 0:
            return
        always = sidecar.mode() == "always"
        if self.saved_at is not None and consumed - self.saved_at < (1 if always else sidecar.RESAVE_BYTES):
            return
        if read.branch is None and len(read.index):
            path, cycle_at = read.index.walk(len(read.index) - 1)
            if cycle_at is None:  # (a cycle is left to warn about when the branch is asked for)
                read.branch = path
        saved = sidecar.Saved(
            header=read.header, warnings=list(read.warnings), cycle_warned=sorted(read.cycle_warned),
            index=read.index, branch=read.branch, consumed=consumed, lines=self._tail.lines,
            first_line=self._tail.first_line, file=st, name_at=read.name_at,
        )
        if sidecar.save(self._path, saved):
            self.saved_at = consumed

    def load_kept(self, read: Indexer) -> None:
        """The derived results kept by an earlier run, checked against the file as it was read."""
        st = self._tail.stat
        if self.keeps(read) and st is not None:
            self._derived = sidecar.load_kept(self._path, st, self._tail.consumed)

    def derived(self, name: str, read: Indexer, records: Records) -> tuple[Any, int, EntryRecord] | None:
        """See ``SessionLog.derived``."""
        kept = self._derived.get(name)
        if kept is None:
            return None
        covers, branch = kept["covers"], read.current_branch()
        if covers > len(branch) or _branch_digest(branch, covers) != kept["branch"]:
            return None
        self._covers[name] = covers
        return kept["value"], covers, records.record(branch[covers - 1])

    def keep_derived(self, name: str, covers: int, value: Callable[[], Any], read: Indexer) -> None:
        """See ``SessionLog.keep_derived``."""
        branch = read.current_branch()
        if 0 < covers <= len(branch) and self._due(name, covers):
            self._keep(name, covers, _branch_digest(branch, covers), value, read)

    def derived_in_file(self, name: str, read: Indexer) -> tuple[Any, int] | None:
        """See ``SessionLog.derived_in_file``."""
        kept = self._derived.get(name)
        if kept is None or kept["branch"] != FILE_ORDER or not 0 < kept["covers"] <= len(read.index):
            return None
        self._covers[name] = kept["covers"]
        return kept["value"], kept["covers"]

    def keep_in_file(self, name: str, covers: int, value: Callable[[], Any], read: Indexer) -> None:
        """See ``SessionLog.keep_in_file``."""
        if 0 < covers <= len(read.index) and self._due(name, covers):
            self._keep(name, covers, FILE_ORDER, value, read)

    def _due(self, name: str, covers: int) -> bool:
        """Whether a result covering ``covers`` entries is worth writing: none is kept yet, or the
        kept one covers ``DERIVED_RESAVE`` entries fewer."""
        known = self._covers.get(name)
        return known is None or not 0 <= covers - known < (1 if sidecar.mode() == "always" else DERIVED_RESAVE)

    def _keep(self, name: str, covers: int, branch: str, value: Callable[[], Any], read: Indexer) -> None:
        st = self._tail.stat
        if not self.keeps(read) or st is None:
            return
        self._derived[name] = {"covers": covers, "branch": branch, "value": value()}
        if sidecar.save_kept(self._path, self._derived, self._tail.consumed, self._tail.first_line, st):
            self._covers[name] = covers


FILE_ORDER = "file order"
"""What a result kept by ``keep_in_file`` has where a branch result has its branch's fingerprint."""


def _branch_digest(branch: list[int], covers: int) -> str:
    """What identifies the first ``covers`` positions of a branch of one index."""
    return sidecar.fingerprint(memoryview(array("q", branch[:covers])).cast("B"))
