"""One inbox over every host (docs/hosts.md), against real sshd servers (tests/remote/sshd.py): two
hosts with real Claude Code and Codex transcripts, their rows merged with this machine's, a
Notification hook there reaching the inbox and the notifier here, and a host that goes away shown
unreachable, then back, without a restart."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import subprocess
import time
from pathlib import Path
from typing import Iterator

import pytest

from conversations_discovery.discovery_helpers import BETWEEN_TURNS, CLAUDE_TASKS, CODEX, SESSION_IDS, Homes, sample_input
from private_homes import AGENT_VARIABLES
from remote.sshd import PIDECK

from core.catalog.catalog import Catalog, Record
from core.catalog.notify import Notifier, notification_text
from core.config.settings import NotifyConfig

pytestmark = pytest.mark.ssh

PROJECT = "/srv/project"
"""The directory the agents ran in on each host (as their transcripts say)."""


@pytest.fixture(autouse=True)
def this_machine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """This machine's homes are empty temporary ones, and the agents' folders are found the way
    they are over ssh (no variable moves them), so ``host.run`` sees what the feed sees."""
    home = tmp_path / "local-home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    for name in AGENT_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("PIDECK_CONFIG", str(tmp_path / "local-config.toml"))
    run = tempfile.mkdtemp(prefix="pd")  # (short: ssh's socket path there has room for ~100 bytes)
    monkeypatch.setenv("XDG_RUNTIME_DIR", run)
    yield home
    shutil.rmtree(run, ignore_errors=True)


def configure(tmp_path: Path, *hosts) -> None:
    import tomli_w

    (tmp_path / "local-config.toml").write_text(tomli_w.dumps({"hosts": [h.settings() for h in hosts]}))


def with_agents(host) -> Homes:
    """The host's Claude Code conversation between its turns (its process alive and idle: stopped
    with open work) and its Codex conversation, as those agents keep them under its home."""
    homes = Homes(home=host.home, cwd=Path(PROJECT))
    homes.install(CLAUDE_TASKS, lines=BETWEEN_TURNS[CLAUDE_TASKS])
    homes.claude_live(os.getpid(), SESSION_IDS[CLAUDE_TASKS], "idle")
    homes.install(CODEX)
    return homes


def states_of(records) -> dict[tuple[str | None, str], str]:
    return {(r.host, r.kind): r.attention.state for r in records}


def until(predicate, seconds: float, step: float = 0.05):
    """Poll ``predicate`` until it gives something true, for at most ``seconds``; its last value."""
    deadline = time.monotonic() + seconds
    while True:
        got = predicate()
        if got or time.monotonic() > deadline:
            return got
        time.sleep(step)


def test_two_hosts_in_one_inbox(make_host, tmp_path: Path) -> None:
    box, vm = make_host("box"), make_host("vm")
    with_agents(box), with_agents(vm)
    configure(tmp_path, box, vm)
    catalog = Catalog(None)
    try:
        catalog.wait_hosts(20)
        expected = {("box", "claude"): "stopped with open work", ("box", "codex"): "waiting",
                    ("vm", "claude"): "stopped with open work", ("vm", "codex"): "waiting"}
        until(lambda: catalog.look() is not None and states_of(catalog.records.values()) == expected, 20)
        assert states_of(catalog.records.values()) == expected, [r.attention for r in catalog.records.values()]
        paths = sorted(r.path for r in catalog.records.values())
        assert paths == sorted(f"{host}:{Homes(home=h.home, cwd=Path(PROJECT)).path_of(s)}"
                               for host, h in (("box", box), ("vm", vm)) for s in (CLAUDE_TASKS, CODEX))
        assert {row.host for row in catalog.rows} == {"box", "vm"}
    finally:
        catalog.close()
    done = subprocess.run([PIDECK, "overview", "--json", "--all"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    listed = {(r["host"], r["kind"]): (r["attention"]["state"], r["path"].partition(":")[0])
              for r in json.loads(done.stdout)}
    assert listed == {key: (state, key[0]) for key, state in expected.items()}


def test_a_notification_hook_there_needs_you_here_within_2_s(make_host, tmp_path: Path) -> None:
    box = make_host("box")
    homes = with_agents(box)
    configure(tmp_path, box)
    catalog = Catalog(None)
    notifier = Notifier(NotifyConfig())
    try:
        catalog.wait_hosts(20)
        notifier.take(catalog.look(), catalog.records, 0, lambda path: False)
        stdin = json.dumps(sample_input("claude-notification.json", homes, CLAUDE_TASKS))
        done = subprocess.run([PIDECK, "hook", "claude"], input=stdin, text=True, capture_output=True, timeout=30,
                              env={**os.environ, **box.environment()})
        hooked = time.monotonic()
        assert (done.returncode, done.stdout) == (0, ""), done.stderr
        told: list[Record] = []

        def asked() -> bool:
            told.extend(notifier.take(catalog.look(), catalog.records, 1, lambda path: False))
            return bool(told)

        assert until(asked, 10)
        elapsed = time.monotonic() - hooked
        (seen,) = told
        assert (seen.host, seen.kind, seen.attention.state, seen.previous) == (
            "box", "claude", "needs you", "stopped with open work")
        assert notification_text(seen) == (
            "Claude Code conversation 2aa06482 needs you: Claude needs your permission to use Bash")
        print(f"hook to needs you here: {elapsed:.2f} s")
        assert elapsed < 2.0
    finally:
        catalog.close()


def test_a_host_gone_is_unreachable_within_5_s_and_comes_back(make_host, tmp_path: Path) -> None:
    box = make_host("box")
    with_agents(box)
    configure(tmp_path, box)
    catalog = Catalog(None)
    notifier = Notifier(NotifyConfig())
    try:
        catalog.wait_hosts(20)
        notifier.take(catalog.look(), catalog.records, 0, lambda path: False)
        box.kill()
        killed = time.monotonic()
        told: list[Record] = []

        def unreachable() -> bool:
            told.extend(notifier.take(catalog.look(), catalog.records, 1, lambda path: False))
            return {r.attention.state for r in catalog.records.values()} == {"unreachable"}

        assert until(unreachable, 10)
        gone_after = time.monotonic() - killed
        evidence = {r.attention.evidence for r in catalog.records.values()}
        (said,) = evidence
        assert said.removeprefix(said[:len("unreachable since 00:00: ")]) in (
            "Connection to 127.0.0.1 closed by remote host.",
            f"ssh: connect to host 127.0.0.1 port {box.port}: Connection refused"), said
        assert said.startswith("unreachable since ")
        (once,) = told  # once for the host, not once per row
        assert notification_text(once).startswith("host box unreachable since ")
        box.start()
        started = time.monotonic()
        assert until(lambda: catalog.look() is not None and states_of(catalog.records.values()) == {
            ("box", "claude"): "stopped with open work", ("box", "codex"): "waiting"}, 15)
        back_after = time.monotonic() - started
        print(f"unreachable after {gone_after:.2f} s, back after {back_after:.2f} s")
        assert gone_after < 5.0
        assert back_after < 5.0
    finally:
        catalog.close()


def test_status_counts_each_host_and_a_dead_one_as_unreachable(make_host, tmp_path: Path) -> None:
    box, vm = make_host("box"), make_host("vm")
    homes = with_agents(box)
    with_agents(vm)
    configure(tmp_path, box, vm)
    stdin = json.dumps(sample_input("claude-notification.json", homes, CLAUDE_TASKS))
    subprocess.run([PIDECK, "hook", "claude"], input=stdin, text=True, capture_output=True, timeout=30,
                   env={**os.environ, **box.environment()}, check=True)
    vm.kill()
    started = time.monotonic()
    done = subprocess.run([PIDECK, "status", "--all"], capture_output=True, text=True, timeout=30)
    took = time.monotonic() - started
    assert (done.returncode, done.stdout, done.stderr) == (
        0, "1 needs you (1 on box) · 1 unreachable (1 on vm) · 1 waiting (1 on box)\n", "")
    done = subprocess.run([PIDECK, "status", "--all", "--json"], capture_output=True, text=True, timeout=30)
    assert json.loads(done.stdout) == {
        "line": "1 needs you (1 on box) · 1 unreachable (1 on vm) · 1 waiting (1 on box)",
        "states": {"needs you": 1, "unreachable": 1, "waiting": 1}, "here": {},
        "hosts": {"box": {"states": {"needs you": 1, "waiting": 1}},
                  "vm": {"states": {}, "unreachable": f"ssh: connect to host 127.0.0.1 port {vm.port}: Connection refused"}}}
    print(f"status --all over a live and a dead host: {took:.2f} s")
