"""Other machines in the inbox (docs/hosts.md): one ``Follower`` per ``[[hosts]]`` entry runs
``pideck watch --feed --all`` there over ssh (core/remote/ssh.py) on a thread of its own and keeps
what the feed last said: that host's records, and whether it is reachable now.

A host is unreachable, since when and why, when ssh cannot reach it or drops (ssh's own one-line
reason), when it is silent for ``SILENCE_S`` (the feed ticks after every look, so silence is a hung
host, not an idle one), when what it prints is not the feed (``parse_line``), or when its pideck is
another version. Then the follower ends that ssh and tries again after ``BACKOFF_S``; a new
connection's records replace the old ones at its first tick (the catch-up).

Everything a host sends is untrusted: each line is read whole only up to ``MAX_LINE`` bytes, parsed
as JSON, checked field by field (``core.catalog.rows.row_from_json``), and its texts stay as sent
(shown with their control characters made visible, like any log's text). Nothing of it is run.
"""

from __future__ import annotations

import json
import os
import selectors
import subprocess
import threading
import time
from dataclasses import replace
from typing import Callable, Mapping, NamedTuple, Sequence

from core import __version__
from core.catalog.attention import Attention
from core.catalog.record import Record
from core.catalog.rows import BadRow, OverviewRow, row_from_json
from core.catalog.states import ORDER, UNREACHABLE
from core.clock import iso_ms, wall_clock_ms
from core.config.settings import HostConfig
from core.primitives.state.core import WORK_ITEM_STATUSES
from core.untrusted import visible_controls

MAX_LINE = 4 * 1024 * 1024
"""A feed line longer than this (bytes) is not pideck's feed: a row's JSON is a few kilobytes."""
MAX_RECORDS = 20_000
"""The most sessions and conversations one host may list: a feed naming more is not pideck's (a
hostile one would fill this machine's memory, and every look would copy them all)."""
SILENCE_S = 4.0
"""A host whose feed printed nothing for this long is taken as hung (the feed ticks every 0.5 s)."""
FIRST_LINE_S = 10.0
"""How long the first line may take: ssh's connect (``ConnectTimeout``, 5 s), then pideck's start."""
BACKOFF_S = (1.0, 2.0)
"""The waits before each new try after a failure, the last one repeated: a host back up is seen
again within a few seconds, and a dead one costs one ssh every two seconds."""
FEED = ("watch", "--feed", "--all")
"""The remote command (after the host's ``pideck`` words)."""
PREVIEW = 60


class FeedError(ValueError):
    """A line that is not pideck's feed; says what it was, with its control characters visible."""


class Hello(NamedTuple):
    version: str


class Seen(NamedTuple):
    record: Record  # its path and its row's path ``HOST:PATH``


class Gone(NamedTuple):
    path: str  # ``HOST:PATH``


class Tick(NamedTuple):
    pending: int  # conversations the remote has listed but not read yet


Line = Hello | Seen | Gone | Tick


def preview(line: bytes) -> str:
    text = line[:PREVIEW * 4].decode("utf-8", "replace")
    return visible_controls(text[:PREVIEW]) + ("…" if len(text) > PREVIEW or len(line) > PREVIEW * 4 else "")


def _no_constant(name: str) -> object:
    raise ValueError(f"{name} is not JSON")


def parse_line(host: str, line: bytes) -> Line:
    """One line of ``host``'s feed (docs/hosts.md#the-feed); raises ``FeedError`` for anything else:
    too long, not JSON (NaN and Infinity included), not an object, an unknown type, a field of the
    wrong type."""
    if len(line) > MAX_LINE:
        raise FeedError(f"a line of {len(line)} bytes")
    try:
        value = json.loads(line, parse_constant=_no_constant)
    except (ValueError, RecursionError):
        raise FeedError(f"not JSON: {preview(line)}") from None
    if not isinstance(value, dict):
        raise FeedError(f"not a JSON object: {preview(line)}")
    kind = value.get("type")
    try:
        if kind == "hello":
            version = value.get("version")
            if not isinstance(version, str):
                raise BadRow("version is not str")
            return Hello(visible_controls(version[:40]))
        if kind == "tick":
            pending = value.get("pending", 0)
            return Tick(pending if isinstance(pending, int) and not isinstance(pending, bool) and pending >= 0 else 0)
        if kind == "gone":
            path = value.get("path")
            if not isinstance(path, str):
                raise BadRow("path is not str")
            return Gone(f"{host}:{path}")
        if kind == "record":
            record, row = value.get("record"), value.get("row")
            if not isinstance(record, dict) or not isinstance(row, dict):
                raise BadRow("record or row is not an object")
            return Seen(record_from_json(record, row, host))
    except BadRow as exc:
        raise FeedError(f"a {visible_controls(str(kind))[:20]} line whose {exc}") from None
    raise FeedError(f"not a line of the feed: {preview(line)}")


def record_from_json(record: Mapping[str, object], row: Mapping[str, object], host: str) -> Record:
    """A remote record (``Record.json``) with its row, as a record of ``host``: its state is the
    remote pideck's own judgement (its hooks' records are there), one of this version's states."""
    parsed = row_from_json(row, host)
    state, since, evidence = record.get("state"), record.get("since"), record.get("evidence")
    if not isinstance(state, str) or state not in ORDER or state == UNREACHABLE:
        raise BadRow("state is not one of pideck's")
    if not isinstance(evidence, str):
        raise BadRow("evidence is not str")
    since_ms = iso_ms(since)
    if since is not None and since_ms is None:
        raise BadRow("since is not a time")
    if record.get("path") != row.get("path"):
        raise BadRow("path is not its row's")
    conversation = record.get("conversation")
    return Record(parsed.path, parsed.kind, parsed.name, Attention(state, since_ms, evidence[:1000]),
                  (parsed.todos_settled, parsed.todos_total), None,
                  conversation[:200] if isinstance(conversation, str) else None, parsed.entries, parsed)


class HostView(NamedTuple):
    """What a follower knows of its host at one moment (``Follower.view``)."""

    name: str
    records: dict[str, Record]  # by ``HOST:PATH``: the live ones when reachable, else the last known
    reachable: bool
    since_ms: int  # reachable: since the feed's first tick; else unreachable since
    reason: str  # why it is unreachable (ssh's words, or what the feed was instead)
    settled: bool  # it caught up (a tick with nothing pending) or failed at least once
    ever: bool  # it was reached once

    @property
    def evidence(self) -> str:
        """``unreachable since 14:02: ssh: connect to host box port 22: Connection refused``."""
        at = time.strftime("%H:%M", time.localtime(self.since_ms / 1000))
        return f"unreachable since {at}: {self.reason}"


class Follower:
    """One host's feed on a daemon thread (``start``, ``close``); ``view`` is what it knows now,
    taken under a lock, so a look never waits for the network. ``argv``: the command to run
    instead of ssh's (the tests' hostile remotes); ``now_ms``: the clock."""

    def __init__(self, host: HostConfig, *, argv: Sequence[str] | None = None,
                 now_ms: Callable[[], int] = wall_clock_ms) -> None:
        self.host = host
        self._argv = list(argv) if argv is not None else None
        self._now_ms = now_ms
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._changed = threading.Condition(self._lock)
        self._records: dict[str, Record] = {}
        self._view = HostView(host.name, {}, False, now_ms(), "not reached yet", False, False)
        self._process: subprocess.Popen[bytes] | None = None
        self._thread = threading.Thread(target=self._run, name=f"pideck-host-{host.name}", daemon=True)

    def start(self) -> Follower:
        self._thread.start()
        return self

    def view(self) -> HostView:
        with self._lock:
            return self._view._replace(records=dict(self._view.records))

    def wait_settled(self, deadline: float) -> None:
        """Until the host caught up or failed once, or ``deadline`` (``time.monotonic``)."""
        with self._changed:
            while not self._view.settled and not self._stop.is_set():
                left = deadline - time.monotonic()
                if left <= 0:
                    return
                self._changed.wait(left)

    def close(self, timeout: float = 2.0) -> None:
        """End the thread and its ssh (a command's end, the app's)."""
        self._stop.set()
        self._kill()
        with self._changed:
            self._changed.notify_all()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(timeout)

    # -- the thread ---------------------------------------------------------------------------

    def _run(self) -> None:
        tries = 0
        while not self._stop.is_set():
            reached = self._follow_once()
            if self._stop.is_set():
                break
            tries = 0 if reached else tries + 1
            self._stop.wait(BACKOFF_S[min(tries, len(BACKOFF_S) - 1)])

    def _command(self) -> list[str]:
        if self._argv is not None:
            return self._argv
        from core.remote.ssh import ssh_argv

        # (a connection of its own: the feed lives as long as the follower, so sharing saves no
        # handshake, and a first ssh that becomes the shared master with ControlPersist was seen to
        # hold the feed's first lines back until its timeout)
        return ssh_argv(self.host, FEED, shared=False)

    def _follow_once(self) -> bool:
        """One ssh, until it fails (or the follower closes); whether it reached the feed."""
        try:
            process = subprocess.Popen(self._command(), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                       stderr=subprocess.PIPE, start_new_session=True)
        except OSError as exc:
            self._fail(f"ssh: {visible_controls(exc.strerror or str(exc))}")
            return False
        with self._lock:
            self._process = process
        if self._stop.is_set():
            self._kill()
        reached = False
        try:
            reached, reason = self._read(process)
        finally:
            self._kill()
            assert process.stdout is not None and process.stderr is not None
            process.stdout.close()
            process.stderr.close()
        if not self._stop.is_set():
            self._fail(reason)
        return reached

    def _read(self, process: subprocess.Popen[bytes]) -> tuple[bool, str]:
        """Read the feed until something ends it: (reached the feed, why it ended)."""
        assert process.stdout is not None and process.stderr is not None
        out, err = process.stdout.fileno(), process.stderr.fileno()
        selector = selectors.DefaultSelector()
        selector.register(out, selectors.EVENT_READ)
        selector.register(err, selectors.EVENT_READ)
        buffer, said = bytearray(), bytearray()
        deadline = time.monotonic() + FIRST_LINE_S
        hello: bool = False
        live: bool = False
        incoming: dict[str, Record] = {}
        try:
            while not self._stop.is_set():
                left = deadline - time.monotonic()
                if left <= 0:
                    return live, (f"no answer for {SILENCE_S:.0f} s" if hello
                                  else f"no answer within {FIRST_LINE_S:.0f} s")
                for key, _ in selector.select(min(left, 0.25)):
                    chunk = os.read(key.fd, 65536)
                    if key.fd == err:
                        said += chunk
                        del said[:-8192]  # (ssh's reason is its last line)
                        if not chunk:
                            selector.unregister(err)
                        continue
                    if not chunk:
                        return live, self._ended(process, said, hello)
                    buffer += chunk
                    while (end := buffer.find(b"\n")) >= 0:
                        line = bytes(buffer[:end])
                        del buffer[:end + 1]
                        deadline = time.monotonic() + SILENCE_S
                        try:
                            parsed = parse_line(self.host.name, line)
                        except FeedError as exc:
                            return live, f"not pideck's feed: {exc}"
                        if not hello:
                            if not isinstance(parsed, Hello):
                                return live, f"not pideck's feed: {preview(line)}"
                            if parsed.version != __version__:
                                return live, f"pideck {parsed.version} there, {__version__} here"
                            hello = True
                            continue
                        if isinstance(parsed, Hello):
                            return live, "not pideck's feed: a second hello"
                        live = self._take(parsed, incoming, live)
                        if len(self._records if live else incoming) > MAX_RECORDS:
                            return live, f"not pideck's feed: more than {MAX_RECORDS} records"
                    if len(buffer) > MAX_LINE:
                        return live, f"not pideck's feed: a line over {MAX_LINE // (1024 * 1024)} MB"
            return live, "closed"
        finally:
            selector.close()

    def _take(self, line: Line, incoming: dict[str, Record], live: bool) -> bool:
        """Apply one line: before the connection's first tick into ``incoming`` (the catch-up),
        then into the records seen; whether the connection is live now."""
        with self._changed:
            records = self._records if live else incoming
            if isinstance(line, Seen):
                records[line.record.path] = line.record
            elif isinstance(line, Gone):
                records.pop(line.path, None)
            elif isinstance(line, Tick):
                if not live:
                    self._records = incoming
                    self._view = HostView(self.host.name, self._records, True, self._now_ms(), "", False, True)
                    live = True
                if line.pending == 0 and not self._view.settled:
                    self._view = self._view._replace(settled=True)
                self._changed.notify_all()
            if live:
                self._view = self._view._replace(records=self._records)
        return live

    def _ended(self, process: subprocess.Popen[bytes], said: bytearray, hello: bool) -> str:
        """Why the feed ended: ssh's own last line, else its exit status."""
        from core.remote.ssh import ssh_reason

        try:
            code = process.wait(2)
        except subprocess.TimeoutExpired:
            code = None
        try:  # (what ssh wrote after closing its stdout; never waiting for more)
            fd = process.stderr.fileno() if process.stderr else -1
            os.set_blocking(fd, False)
            while chunk := os.read(fd, 65536):
                said += chunk
                del said[:-8192]
        except OSError:
            pass
        reason = ssh_reason(bytes(said))
        if reason:
            return reason
        if code == 255:  # (ssh's own failure; it said nothing at its LogLevel)
            return "ssh: the connection ended (exit status 255)"
        return f"the feed ended (exit status {code})" if hello else f"no feed (exit status {code})"

    def _fail(self, reason: str) -> None:
        """Unreachable from now (or since it already was), with ``reason``; the records kept are
        the last known, shown as unreachable (the catalog)."""
        with self._changed:
            view = self._view
            since = self._now_ms() if view.reachable else view.since_ms
            self._view = HostView(self.host.name, dict(self._records), False, since, reason or "unreachable",
                                  True, view.ever)
            self._changed.notify_all()

    def _kill(self) -> None:
        with self._lock:
            process = self._process
        if process is not None and process.poll() is None:
            process.kill()
            try:
                process.wait(2)
            except subprocess.TimeoutExpired:
                pass


def followers(hosts: Sequence[HostConfig]) -> list[Follower]:
    """A started follower per host."""
    return [Follower(host).start() for host in hosts]


HOST_KIND = "host"
"""The kind of the row that stands for a host itself (one unreachable with no row known)."""


def host_row(name: str, since_ms: int | None, reason: str | None = None) -> OverviewRow:
    """The row standing for host ``name`` itself, its path ``NAME:``; its last message says why it
    is unreachable (ssh's words), where a list shows a row's last message."""
    return OverviewRow(path=f"{name}:", name=name, cwd="", kind=HOST_KIND, read_only=True,  # type: ignore[arg-type]
                       entries=0, todos_settled=0, todos_total=0, lowest_confidence=None,
                       work_items=(0,) * len(WORK_ITEM_STATUSES), milestones=0, recorded=0, packets=0,
                       last_activity_ms=since_ms, flag=None, warnings=0, host=name, last_message=reason)


def records_of(view: HostView) -> dict[str, Record]:
    """The records a host's rows show now, by path: as its feed says while it is reachable; else
    every last known row unreachable (its status too: never its last state as current), and a
    host with no row known one row standing for itself."""
    if view.reachable:
        return view.records
    if not view.ever and not view.settled:  # (its first connection is still under way: nothing known yet)
        return {}
    attention = Attention(UNREACHABLE, view.since_ms, view.evidence)
    rows = [r.row for r in view.records.values() if r.row is not None] or [host_row(view.name, view.since_ms, view.reason)]
    out: dict[str, Record] = {}
    for row in rows:
        row = replace(row, status=UNREACHABLE if row.kind != HOST_KIND else None, flag=None, subagents=0)
        out[row.path] = Record(row.path, row.kind, row.name, attention, (row.todos_settled, row.todos_total),
                               None, row.session_id, row.entries, row)
    return out
