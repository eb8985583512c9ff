"""The one way pideck reaches another machine: the system's ``ssh`` client, with the person's keys,
agent, jump hosts and ``~/.ssh/config``, running pideck there (docs/hosts.md#the-transport).

Nothing goes through a local shell: ``ssh`` is started from a list of words. ssh itself hands the
remote command to the remote user's shell as one string, so each word is quoted here
(``remote_command``). All commands to a host share one connection (ssh's ControlMaster, its socket
in pideck's runtime folder), so a look costs a round trip, not a handshake.
"""

from __future__ import annotations

import os
import shlex
import tempfile
from pathlib import Path
from typing import NamedTuple, Sequence

from core.config.settings import HostConfig

CONNECT_TIMEOUT_S = 5
"""How long ssh waits for a host to answer before it gives up (its ``ConnectTimeout``)."""
ALIVE_INTERVAL_S = 2
ALIVE_COUNT = 2
"""A connection whose host stops answering is ended after ``ALIVE_INTERVAL_S * ALIVE_COUNT``
seconds of silence (ssh's ``ServerAliveInterval`` and ``ServerAliveCountMax``): a dropped network
shows within seconds, not when TCP gives up."""
PERSIST_S = 60
"""How long the shared connection outlives its last command (``ControlPersist``)."""


def runtime_dir() -> Path:
    """pideck's runtime folder, private to the user: ``$XDG_RUNTIME_DIR/pideck``, else
    ``/tmp/pideck-UID``. Kept short: a socket's path has room for about 100 bytes."""
    base = os.environ.get("XDG_RUNTIME_DIR")
    folder = Path(base) / "pideck" if base else Path(tempfile.gettempdir()) / f"pideck-{os.getuid()}"
    folder.mkdir(mode=0o700, exist_ok=True)
    info = folder.lstat()
    if info.st_uid != os.getuid() or info.st_mode & 0o077:  # (another user's, or open to others)
        raise OSError(f"{folder} is not a private folder of this user")
    return folder


def remote_command(host: HostConfig, words: Sequence[str]) -> str:
    """The command line the remote shell runs: the host's ``pideck`` words, then ``words``, each
    quoted, so no word (a path, a session name, an argument from a setting) is ever read by that
    shell as more than one word. ``~/`` at the start of a word still means the remote home."""
    def quoted(word: str) -> str:
        if word.startswith("~/"):
            return "~/" + shlex.quote(word[2:])
        return shlex.quote(word)

    return " ".join(quoted(w) for w in (*host.pideck, *words))


ENDS_WITH_INPUT = 'exec 3<&0; "$@" 3<&- & p=$!; { cat >/dev/null; kill "$p"; } <&3 >/dev/null 2>&1 & exec 3<&-; wait "$p"'
"""The remote's pideck runs under this sh script, which stops it when its input ends: sshd does
not signal a command whose connection closed, and with a shared connection not even killing the
local ssh closes it (the shared master holds the pipes). Closing ssh's input, which pideck does on
ctrl+c, at a timeout, or by exiting, is what ends the remote command (docs/on-host.md#stopping). Whoever runs a command this way keeps ssh's input open while it wants the command to run: ``stdin=PIPE``, never ``DEVNULL``."""

def ends_with_input(host: HostConfig) -> HostConfig:
    """``host`` whose pideck runs under ``ENDS_WITH_INPUT``."""
    return host._replace(pideck=("sh", "-c", ENDS_WITH_INPUT, "sh", *host.pideck))


def ssh_argv(host: HostConfig, words: Sequence[str], *, shared: bool = True) -> list[str]:
    """The ``ssh`` command that runs pideck with ``words`` on ``host``. ``BatchMode``: ssh never
    asks for a password or a passphrase (nobody would see the prompt); a host that needs one is
    unreachable, with ssh's reason. ``shared``: over the host's one shared connection."""
    argv = ["ssh", "-T", "-o", "BatchMode=yes", "-o", f"ConnectTimeout={CONNECT_TIMEOUT_S}",
            "-o", f"ServerAliveInterval={ALIVE_INTERVAL_S}", "-o", f"ServerAliveCountMax={ALIVE_COUNT}"]
    if shared:
        argv += ["-o", "ControlMaster=auto", "-o", f"ControlPath={runtime_dir() / 'ssh-%C'}",
                 "-o", f"ControlPersist={PERSIST_S}"]
    if host.port is not None:
        argv += ["-p", str(host.port)]
    if host.ssh_config is not None:
        argv += ["-F", host.ssh_config]
    return [*argv, "--", host.ssh, remote_command(host, words)]


def ssh_reason(stderr: bytes | str) -> str:
    """ssh's own one-line reason from what it wrote on stderr (its last non-empty line), control
    characters made visible: it may quote the remote's words."""
    from core.untrusted import visible_controls

    text = stderr.decode("utf-8", "replace") if isinstance(stderr, bytes) else stderr
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return visible_controls(lines[-1][:300]) if lines else ""


MAX_ANSWER_BYTES = 64 << 20
"""A one-shot answer larger than this is no pideck answer (a remote printing without end)."""
KEPT_ERRORS = 64 << 10
"""How much of a command's stderr is kept (its end: ssh's reason is its last line)."""


class Answer(NamedTuple):
    """What a one-shot command on a host answered: its exit status (255: ssh could not reach the
    host; None: stopped, ``why`` says why), its stdout and the end of its stderr, as bytes."""

    code: int | None
    out: bytes
    err: bytes
    why: str = ""


def run_once(host: HostConfig, words: Sequence[str], *, timeout: float, limit: int = MAX_ANSWER_BYTES) -> Answer:
    """``pideck WORDS`` on ``host`` over its shared connection, under ``ends_with_input``: its
    answer, or stopped (there too, its input closed) after ``timeout`` seconds or ``limit`` bytes
    of output: a hostile or hung host costs a bounded time and memory."""
    import selectors
    import subprocess
    import time

    try:
        process = subprocess.Popen(ssh_argv(ends_with_input(host), words), stdin=subprocess.PIPE,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    except OSError as exc:
        return Answer(None, b"", b"", f"ssh cannot be started: {exc.strerror or exc}")
    assert process.stdout is not None and process.stderr is not None
    deadline = time.monotonic() + timeout
    out, err = bytearray(), bytearray()
    why = ""
    with selectors.DefaultSelector() as selector:
        selector.register(process.stdout, selectors.EVENT_READ, out)
        selector.register(process.stderr, selectors.EVENT_READ, err)
        # (until stdout ends: a shared connection's master may hold stderr open after the command)
        while not why and process.stdout in [k.fileobj for k in selector.get_map().values()]:
            left = deadline - time.monotonic()
            ready = selector.select(left) if left > 0 else []
            if not ready:
                why = f"{host.name} did not answer within {timeout:g} s"
            for key, _ in ready:
                chunk = os.read(key.fd, 1 << 16)
                if not chunk:
                    selector.unregister(key.fileobj)
                    continue
                key.data.extend(chunk)
                if key.data is err:
                    del err[:-KEPT_ERRORS]
                elif len(out) > limit:
                    why = f"{host.name} answered more than {limit >> 20} MB"
    try:
        process.stdin.close()  # type: ignore[union-attr]  # (the command there ends, if it still runs)
    except OSError:
        pass
    try:
        code: int | None = process.wait(max(0.0, deadline - time.monotonic()) if not why else 2)
    except subprocess.TimeoutExpired:
        code = None
        why = why or f"{host.name} did not answer within {timeout:g} s"
    if why:
        process.kill()
        process.wait()
        code = None
    for stream in (process.stdout, process.stderr):
        stream.close()
    return Answer(code, bytes(out), bytes(err), why)
