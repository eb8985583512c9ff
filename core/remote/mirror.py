"""A session or conversation of another machine, as a file here: a local copy kept current over
ssh (``Mirror``), which a Deck opens like any file, and the one way a command is sent to a session
there (``run_remote``) (docs/hosts.md).

The copy is filled and then followed by ``pideck tail PATH --from N`` run on the host (the bytes
from N on, then what is appended), appended here as it arrives. When ssh ends (the host went
away, the network dropped), the copy says since when and why, and a new ``tail`` starts, with a
growing pause, from the copy's own size: nothing already here is fetched again. A file replaced or
cut over there (``tail``'s own status) starts the copy again from nothing; the Deck reading it sees
a file cut and reads it again, as it does for a local one.

Everything the host sends is untrusted: the copy's name is made of safe characters only, and the
texts said of it (ssh's reason, a command's answer) have their control characters made visible.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import threading
from pathlib import Path
from typing import Callable, Iterator, NamedTuple, Sequence

from core.clock import wall_clock_ms
from core.config.settings import HostConfig
from core.remote.ssh import ends_with_input, run_once, runtime_dir, ssh_argv, ssh_reason

TAIL_REPLACED = 3
"""``pideck tail``'s status for a file replaced, removed or cut (core/cli/tail.py)."""
FOLLOWING = re.compile(rb"pideck tail: following at (\d+)")
"""The line ``pideck tail`` writes on stderr once the bytes there were at its start are sent."""
BACKOFF_S = (0.5, 1.0, 2.0, 4.0)
"""The pauses before each new try after ssh ended, the last one repeated: a host back up is
caught up within seconds, and one that stays away costs a try every few seconds."""
CHUNK = 1 << 16
MAX_COPY_BYTES = 1 << 30
"""The largest copy kept (the runtime folder is often in memory): a file there growing past it
stops the copy, said as the reason, rather than fill this machine."""
KEPT_ERRORS = 8 << 10  # of ``tail``'s and ssh's stderr, the end (ssh's reason is its last line)
SAFE_NAME = re.compile(r"[^A-Za-z0-9._-]")


class MirrorState(NamedTuple):
    """Whether the copy follows the file there now (``live``), else since when it cannot
    (``since_ms``, wall clock) and why, in ssh's own words (``reason``, control characters made
    visible); ``caught_up``: the copy holds every byte the file had when ``tail`` last started."""

    live: bool
    since_ms: int | None
    reason: str
    caught_up: bool


class RemoteAnswer(NamedTuple):
    """What a command run on a host answered: its exit status (255: ssh could not reach the host;
    None: no answer in time) and its output, control characters made visible."""

    code: int | None
    out: str
    err: str


def mirror_path(host: HostConfig, remote_path: str) -> Path:
    """Where the copy of ``remote_path`` of ``host`` lives: a folder per remote path (named by a
    hash of it: the remote path may hold any character), holding a file of the remote file's name
    made safe (letters, digits, ``.``, ``_``, ``-``)."""
    digest = hashlib.sha256(remote_path.encode("utf-8", "surrogateescape")).hexdigest()[:20]
    # (this process's own: two apps, or the app and a served page, each keep theirs)
    return runtime_dir() / "hosts" / host.name / f"{os.getpid()}-{digest}" / safe_name(remote_path)


def safe_name(remote_path: str) -> str:
    """The last part of ``remote_path`` with every character but letters, digits, ``.``, ``_``
    and ``-`` replaced by ``_``, at most 100 of them; never empty, ``.`` or ``..``."""
    name = SAFE_NAME.sub("_", remote_path.rstrip("/").rsplit("/", 1)[-1])[:100]
    return name if name.strip(".") else "session.jsonl"


class Mirror:
    """The local copy of ``remote_path`` on ``host``, kept current by a daemon thread from
    ``start`` until ``close``. The copy is made anew at the start (the file there may have changed
    in any way since an earlier one). Only this object writes the copy."""

    def __init__(self, host: HostConfig, remote_path: str, *, clock: Callable[[], int] = wall_clock_ms,
                 backoff: Sequence[float] = BACKOFF_S) -> None:
        self.host = host
        self.remote_path = remote_path
        self.path = mirror_path(host, remote_path)
        self._clock = clock
        self._backoff = tuple(backoff)
        self._closed = threading.Event()
        self._changed = threading.Condition()
        self._state = MirrorState(False, None, "not connected yet", False)
        self._target: int | None = None  # the size ``tail`` said it had sent at its start
        self._size = 0
        self._process: subprocess.Popen[bytes] | None = None
        self._too_big = False  # the file there passed ``MAX_COPY_BYTES``
        self._thread = threading.Thread(target=self._follow, name=f"pideck-mirror {host.name}", daemon=True)
        self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        try:
            self.path.unlink()
        except FileNotFoundError:
            pass
        # (readable by this user alone, and by no one writable: only the fd held here appends)
        self._fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND, 0o400)

    # -- what the front end asks --------------------------------------------------------------------

    def start(self) -> Mirror:
        self._thread.start()
        return self

    @property
    def state(self) -> MirrorState:
        with self._changed:
            return self._state

    @property
    def size(self) -> int:
        """The bytes the copy holds."""
        with self._changed:
            return self._size

    def wait_caught_up(self, timeout: float) -> MirrorState:
        """Wait (at most ``timeout`` seconds) until the copy holds what the file held when it was
        reached, or until it could not be reached; the state then."""
        with self._changed:
            self._changed.wait_for(lambda: self._state.caught_up or self._state.since_ms is not None
                                   or self._closed.is_set(), timeout)
            return self._state

    def close(self) -> None:
        """Stop following (the ssh under way ends) and remove the copy."""
        with self._changed:
            self._closed.set()
            process = self._process
            self._changed.notify_all()
        if process is not None:
            self._stop(process)
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(5)
        if self._thread.is_alive():  # (its ssh would not end: its descriptor stays, never reused under it)
            return
        try:
            os.close(self._fd)
        except OSError:
            pass
        shutil.rmtree(self.path.parent, ignore_errors=True)

    @staticmethod
    def _stop(process: subprocess.Popen[bytes]) -> None:
        """The tail there ends once its input does (``ends_with_input``), then the channel, then
        ssh here; killed if it does not."""
        if process.poll() is not None:
            return
        try:
            if process.stdin is not None:
                process.stdin.close()
            process.wait(2)
        except (OSError, subprocess.TimeoutExpired):
            process.kill()

    # -- the thread ---------------------------------------------------------------------------------

    def _follow(self) -> None:
        tries = 0
        while not self._closed.is_set():
            code, reason, went_live = self._one_tail()
            if self._closed.is_set():
                return
            if code == TAIL_REPLACED:  # the file there is another one now: copied again from nothing
                os.ftruncate(self._fd, 0)
                with self._changed:
                    self._size, self._target = 0, None
                    self._state = self._state._replace(caught_up=False)
                tries = 0
                self._closed.wait(0.2)  # (a file replaced again and again costs no busy loop)
                continue
            if self._too_big:  # (again would copy the same bytes again: the copy stops here)
                with self._changed:
                    self._state = MirrorState(False, self._clock(), reason, self._state.caught_up)
                    self._changed.notify_all()
                return
            tries = 0 if went_live else tries + 1
            with self._changed:
                since = self._state.since_ms if self._state.since_ms is not None else self._clock()
                self._state = MirrorState(False, since, reason, self._state.caught_up)
                self._changed.notify_all()
            self._closed.wait(self._backoff[min(tries, len(self._backoff) - 1)])

    def _one_tail(self) -> tuple[int | None, str, bool]:
        """One ``pideck tail`` from the copy's size, until it ends: its status, why it ended (ssh's
        reason) and whether it reached the file."""
        with self._changed:
            start = self._size
        try:
            # (under ``ends_with_input``, its input kept open: closing it is what ends the tail there,
            # as the shared connection holds the pipes of a killed ssh)
            process = subprocess.Popen(ssh_argv(ends_with_input(self.host), ["tail", "--from", str(start), "--", self.remote_path]),
                                       stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        except OSError as exc:  # (no ssh on this machine)
            return None, f"ssh cannot be started: {exc.strerror or exc}", False
        with self._changed:
            self._process = process
            closed = self._closed.is_set()
        if closed:  # (``close`` came while ssh started: it did not see this one)
            self._stop(process)
        said: list[bytes] = []
        live = threading.Event()
        errors = threading.Thread(target=self._read_errors, args=(process, said, live), daemon=True)
        errors.start()
        assert process.stdout is not None
        out = process.stdout.fileno()
        try:
            while chunk := os.read(out, CHUNK):
                if self._size + len(chunk) > MAX_COPY_BYTES:
                    self._too_big = True
                    self._stop(process)
                    break
                os.write(self._fd, chunk)
                with self._changed:
                    self._size += len(chunk)
                    self._caught_up_now()
        except OSError:
            pass
        code = process.wait()
        errors.join(5)
        process.stdout.close()
        if process.stdin is not None:
            try:
                process.stdin.close()
            except OSError:
                pass
        reason = ssh_reason(b"\n".join(line for line in said if not FOLLOWING.fullmatch(line.strip())))
        if self._too_big:
            reason = f"the file there passed {MAX_COPY_BYTES >> 20} MB, more than a copy here keeps"
        if not reason:
            reason = f"ssh ended the connection (status {code})" if code == 255 else f"pideck tail ended (status {code})"
        return code, reason, live.is_set()

    def _read_errors(self, process: subprocess.Popen[bytes], said: list[bytes], live: threading.Event) -> None:
        """ssh's and ``tail``'s stderr: ``tail``'s line that it follows makes the copy live."""
        assert process.stderr is not None
        for line in bounded_lines(process.stderr.fileno()):
            said.append(line)
            said[:] = said[-20:]
            found = FOLLOWING.fullmatch(line.strip())
            if found is not None:
                live.set()
                with self._changed:
                    self._target = int(found.group(1))
                    self._state = MirrorState(True, None, "", self._state.caught_up)
                    self._caught_up_now()
        process.stderr.close()

    def _caught_up_now(self) -> None:
        """(holding the lock) The copy holds what ``tail`` found at its start: said to the waiters."""
        if self._target is not None and self._size >= self._target and not self._state.caught_up:
            self._state = self._state._replace(caught_up=True)
        self._changed.notify_all()


def bounded_lines(fd: int) -> Iterator[bytes]:
    """The lines read from ``fd`` until it ends, each cut to its last ``KEPT_ERRORS`` bytes (a
    remote writing without a newline costs no more memory than that)."""
    pending = b""
    while chunk := os.read(fd, CHUNK):
        *lines, pending = (pending + chunk).split(b"\n")
        yield from lines
        pending = pending[-KEPT_ERRORS:]
    if pending:
        yield pending


def run_remote(host: HostConfig, words: Sequence[str], timeout: float = 30) -> RemoteAnswer:
    """``pideck WORDS`` run on ``host`` (``core.remote.ssh.run_once``): its status and output, made
    safe to show. A host that does not answer within ``timeout`` seconds: status None."""
    from core.untrusted import visible_controls

    def shown(data: bytes) -> str:
        return visible_controls(data.decode("utf-8", "replace"), multiline=True).rstrip("\n")

    done = run_once(host, words, timeout=timeout)
    if done.code is None:
        return RemoteAnswer(None, "", done.why)
    if done.code == 255:  # ssh's own failure: its one-line reason
        return RemoteAnswer(255, shown(done.out), ssh_reason(done.err) or f"ssh could not reach {host.name}")
    return RemoteAnswer(done.code, shown(done.out), shown(done.err))
