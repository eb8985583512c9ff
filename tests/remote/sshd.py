"""A real OpenSSH server for the hosts tests: Debian's ``sshd`` on a free loopback port, with a
host key and a client key made for the test, and an ssh config file that trusts only them.

Each ``Host`` is one such server standing in for a machine: its remote pideck runs with homes of
its own (``HOME``, ``PIDECK_HOME`` and the agents' folders under ``root``), set by the host's
``pideck`` command (``env NAME=VALUE ... pideck``), so two hosts on this machine see different
sessions. ``.ci/run`` installs the server (``openssh-server``); the tests carry the ``ssh`` marker.
"""

from __future__ import annotations

import getpass
import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

SSHD = "/usr/sbin/sshd"
PIDECK = str(Path(sys.executable).parent / "pideck")  # the console script of this checkout's venv


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def keygen(path: Path) -> str:
    """A new ed25519 key pair at ``path``; the public key's line."""
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(path)], check=True)
    return (path.with_suffix(".pub")).read_text().strip()


@dataclass
class Host:
    """One sshd standing in for a machine. ``start``/``kill`` it as a test needs; ``settings`` is
    its ``[[hosts]]`` table for the local pideck's config."""

    name: str
    root: Path  # its homes and the server's files
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None

    @property
    def home(self) -> Path:
        return self.root / "home"

    @property
    def pideck_home(self) -> Path:
        return self.root / "pideck-home"

    @property
    def ssh_config(self) -> Path:
        return self.root / "sshd" / "ssh_config"

    def environment(self) -> dict[str, str]:
        """What the remote pideck runs with: this host's homes, no agent variable of the test's."""
        return {"HOME": str(self.home), "PIDECK_HOME": str(self.pideck_home),
                "PIDECK_CONFIG": str(self.root / "config.toml"), "PI_CODING_AGENT_DIR": str(self.root / "pi-agent")}

    def pideck_words(self) -> list[str]:
        return ["env", *(f"{k}={v}" for k, v in self.environment().items()), PIDECK]

    def settings(self, **extra: object) -> dict[str, object]:
        import shlex

        return {"name": self.name, "ssh": "127.0.0.1", "port": self.port,
                "pideck": " ".join(shlex.quote(w) for w in self.pideck_words()), "ssh_config": str(self.ssh_config),
                **extra}

    def prepare(self) -> None:
        folder = self.root / "sshd"
        folder.mkdir(parents=True, exist_ok=True)
        self.home.mkdir(exist_ok=True)
        self.pideck_home.mkdir(exist_ok=True)
        host_key = folder / "host_key"
        client_key = folder / "client_key"
        host_public = keygen(host_key)
        (folder / "authorized_keys").write_text(keygen(client_key) + "\n")
        (folder / "known_hosts").write_text(f"[127.0.0.1]:{self.port} {host_public}\n")
        user = getpass.getuser()
        (folder / "sshd_config").write_text("\n".join([
            f"Port {self.port}", "ListenAddress 127.0.0.1", f"HostKey {host_key}",
            f"AuthorizedKeysFile {folder / 'authorized_keys'}", f"PidFile {folder / 'sshd.pid'}",
            "StrictModes no", "UsePAM no", "PasswordAuthentication no", "KbdInteractiveAuthentication no",
            "PermitRootLogin prohibit-password", f"AllowUsers {user}", "PrintMotd no", "PrintLastLog no",
            "LogLevel ERROR", "MaxSessions 50", "MaxStartups 50", ""]))
        self.ssh_config.write_text("\n".join([
            "Host *", f"  User {user}", f"  IdentityFile {client_key}", "  IdentitiesOnly yes",
            f"  UserKnownHostsFile {folder / 'known_hosts'}", "  StrictHostKeyChecking yes",
            "  GlobalKnownHostsFile /dev/null", "  LogLevel ERROR", ""]))

    def start(self) -> None:
        """The server, listening once this returns."""
        if not os.path.exists(SSHD):
            raise RuntimeError(f"{SSHD} is missing: install Debian's openssh-server (.ci/run does)")
        if os.geteuid() == 0:
            os.makedirs("/run/sshd", exist_ok=True)  # (its privilege separation folder)
        self.process = subprocess.Popen([SSHD, "-D", "-e", "-f", str(self.root / "sshd" / "sshd_config")],
                                        stderr=subprocess.PIPE, start_new_session=True)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"sshd ended: {self.process.stderr.read().decode() if self.process.stderr else ''}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("sshd did not listen within 10 s")

    def kill(self) -> None:
        """The server and every connection it serves, at once, as a machine that goes away: sshd
        gives each connection a session of its own, so its whole tree is killed, not its group."""
        if self.process is not None:
            for pid in [self.process.pid, *descendants(self.process.pid)]:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            self.process.wait()
            if self.process.stderr is not None:
                self.process.stderr.close()
            self.process = None
        unlock_pyenv()

    def run(self, *words: str, timeout: float = 30) -> subprocess.CompletedProcess[str]:
        """``pideck WORDS`` as this host runs it (its homes), here, without ssh."""
        return subprocess.run([PIDECK, *words], env={**os.environ, **self.environment()}, text=True,
                              capture_output=True, timeout=timeout)


def descendants(pid: int) -> list[int]:
    """Every process under ``pid``, children first."""
    listing = subprocess.run(["ps", "-e", "-o", "pid=,ppid="], capture_output=True, text=True, check=True).stdout
    children: dict[int, list[int]] = {}
    for line in listing.splitlines():
        child, parent = (int(n) for n in line.split())
        children.setdefault(parent, []).append(child)
    found: list[int] = []
    todo = list(children.get(pid, []))
    while todo:
        child = todo.pop()
        found.append(child)
        todo.extend(children.get(child, []))
    return found


def unlock_pyenv() -> None:
    """The login shell of a connection sources ``~/.bashrc``, which on these machines runs
    ``pyenv init`` and so ``pyenv rehash`` under a lock file; a connection killed in the middle
    leaves the lock, and every later login waits up to a minute on it. No rehash runs any more
    once the server is gone, so a lock left is stale."""
    root = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv"))
    lock = root / "shims" / ".pyenv-shim"
    if lock.exists() and subprocess.run(["pgrep", "-f", "pyenv-rehash"], capture_output=True).returncode != 0:
        lock.unlink(missing_ok=True)
