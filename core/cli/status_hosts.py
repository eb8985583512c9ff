"""``pideck status --all`` over the hosts of ``[[hosts]]`` (docs/hosts.md#status): each host's own
``pideck status --json --all --local`` run over ssh, all at once, each for at most
``STATUS_WAIT_S``; a host that did not answer by then, or answered with what is not that JSON,
counts as one unreachable. A shell prompt waits for the slowest host, never longer."""

from __future__ import annotations

import json
import threading
from typing import NotRequired, Sequence, TypedDict

from core.catalog.states import NEEDS_YOU, ORDER, UNREACHABLE
from core.config.settings import HostConfig

STATUS_WAIT_S = 3.0
"""How long ``status`` waits for a host (over a shared connection an answer takes a round trip
and pideck's start there)."""


class HostCountsJson(TypedDict):
    """One host in ``status --json``: its count per state, or why it is unreachable."""

    states: dict[str, int]
    unreachable: NotRequired[str]


def ask(host: HostConfig) -> HostCountsJson:
    """``host``'s counts per state, or unreachable with ssh's reason (or what came instead)."""
    from core.remote.ssh import run_once, ssh_reason
    from core.untrusted import visible_controls

    done = run_once(host, ["status", "--json", "--all", "--local"], timeout=STATUS_WAIT_S, limit=1 << 20)
    if done.code is None:
        return {"states": {}, "unreachable": done.why}
    if done.code != 0:
        return {"states": {}, "unreachable": ssh_reason(done.err) or f"exit status {done.code}"}
    try:
        value = json.loads(done.out, parse_constant=lambda name: None)
    except (ValueError, RecursionError):
        value = None
    states = value.get("states") if isinstance(value, dict) else None
    if not isinstance(states, dict) or not all(
            k in ORDER and k != UNREACHABLE and type(n) is int and n >= 0 for k, n in states.items()):
        text = done.out[:60].decode("utf-8", "replace")
        return {"states": {}, "unreachable": f"not pideck's status: {visible_controls(text)}"}
    return {"states": dict(states)}


def host_counts(hosts: Sequence[HostConfig]) -> dict[str, HostCountsJson]:
    """Every host's answer, asked all at once (threads: each waits on its own ssh)."""
    answers: dict[str, HostCountsJson] = {}

    def one(host: HostConfig) -> None:
        answers[host.name] = ask(host)

    threads = [threading.Thread(target=one, args=(host,), daemon=True) for host in hosts]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(STATUS_WAIT_S + 1)
    return {h.name: answers.get(h.name, {"states": {}, "unreachable": "no answer"}) for h in hosts}


def per_host(there: dict[str, HostCountsJson]) -> dict[str, dict[str, int]]:
    """Each host's count per state, an unreachable one counted as one unreachable."""
    return {name: {UNREACHABLE: 1} if "unreachable" in answer else answer["states"]
            for name, answer in there.items()}


def total(here: dict[str, int], there: dict[str, HostCountsJson]) -> dict[str, int]:
    """The count per state over this machine and every host."""
    out = dict(here)
    for counts in per_host(there).values():
        for state, n in counts.items():
            out[state] = out.get(state, 0) + n
    return {state: out[state] for state in ORDER if out.get(state)}


def merged_line(here: dict[str, int], there: dict[str, HostCountsJson]) -> str:
    """``2 need you (1 on box) · 1 unreachable (1 on vm) · 3 working``: every state's count over
    every machine, who needs you first, with how many of it are on each host."""
    hosts = per_host(there)
    parts = []
    for state, n in total(here, there).items():
        word = ("needs you" if n == 1 else "need you") if state == NEEDS_YOU else state
        remote = [f"{counts[state]} on {name}" for name, counts in hosts.items() if counts.get(state)]
        parts.append(f"{n} {word}" + (f" ({', '.join(remote)})" if remote else ""))
    return " · ".join(parts) or "nothing here"
