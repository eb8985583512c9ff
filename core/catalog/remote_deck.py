"""A deck of a session or conversation on another machine (docs/hosts.md): a Deck over the local
copy the host's ``pideck tail`` keeps current (core/remote/mirror.py), whose writes go to the
host's own pideck (``pideck run`` and ``pideck tool`` there) and are answered as a local deck
answers them. What they append comes back through the copy, as any other writer's entries do.

Its host decides whether it writes at all: off unless its ``[[hosts]]`` entry says ``write =
true``; a write refused here says so, naming the host and the setting.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Callable

from core.catalog.opening import Opened, open_log
from core.config.settings import HostConfig, load_config
from core.deck.deck import Deck
from core.primitives.host import Notice, ToolResult
from core.remote.mirror import Mirror, RemoteAnswer, run_remote
from core.session.access import every_write_refused
from core.session.log import SessionLog
from core.session.writer import AGENT

if TYPE_CHECKING:
    from core.catalog.opening import OpenLog

FIRST_COPY_S = 15.0
"""How long opening waits for the copy to hold what the file there holds."""
COMMAND_S = 30.0
"""How long a command sent to the host may take before it is said to have no answer."""


def read_only_text(host: str) -> str:
    """The refusal of a write to a deck of ``host`` whose writes are off."""
    return (f"{host} is read-only here: commands to its sessions are sent there only when its "
            "[[hosts]] entry says write = true. Nothing was changed.")


class RemoteDeck(Deck["OpenLog"]):
    """The Deck of ``mirror``'s copy; commands and tool calls go to the session on its host."""

    def __init__(self, log: OpenLog, mirror: Mirror, *, todo_config: Any = None,
                 clock: Callable[[], int] | None = None) -> None:
        super().__init__(log, todo_config=todo_config, clock=clock)
        self.mirror = mirror
        self.host_config: HostConfig = mirror.host
        self.host = mirror.host.name
        self.remote_path = mirror.remote_path

    @property
    def writable(self) -> bool:
        """The host allows writes, this process writes at all (not an app ``pideck serve`` runs
        read-only), and this is a session (an agent's conversation there is written by its agent
        alone)."""
        return self.host_config.write and every_write_refused() is None and isinstance(self.log, SessionLog)

    @property
    def read_only_reason(self) -> str | None:
        if (served := every_write_refused()) is not None:  # (the copy here refuses; so must the host there)
            return served
        if not self.host_config.write:
            return read_only_text(self.host_config.name)
        return None if self.writable else self.log.read_only_reason

    def apply(self, line: str) -> list[Notice]:
        if (why := self.read_only_reason) is not None:
            return [Notice(why, "refused")]
        # (``--session=PATH`` and ``--``: a path or a line starting with '-' is never an option there)
        answer = self._send(["run", f"--session={self.mirror.remote_path}", "--", line])
        return answered_notices(self.host_config.name, answer)

    def call_tool(self, name: str, params: Any, by: str = AGENT) -> ToolResult:
        if (why := self.read_only_reason) is not None:
            return ToolResult(why, rejected=True, refused=True)
        answer = self._send(["tool", f"--session={self.mirror.remote_path}", "--", name,
                             json.dumps(params, ensure_ascii=False)])
        if answer.code == 0:
            return ToolResult(answer.out)
        return ToolResult(unreached_text(self.host_config.name, answer) if answer.code in (None, 255)
                          else "\n".join(t for t in (answer.out, answer.err) if t), rejected=True,
                          refused=answer.code == 1)

    def settle(self, *, continued: bool = False, record: tuple[str, Any] | None = None) -> tuple[str | None, Notice | None]:
        """The gates of a session there are settled there (its agent's hooks), never from here."""
        return None, Notice(read_only_text(self.host_config.name) if not self.host_config.write
                            else f"the todo gates of a session on {self.host_config.name} are settled there", "refused")

    def watchdog_tick(self, now_ms: int | None = None) -> list[Notice]:
        return []

    def close(self) -> None:
        self.mirror.close()

    def problem(self) -> str | None:
        state = self.mirror.state
        if state.live or state.since_ms is None:
            return None
        from core.clock import iso_from_ms

        return f"{self.host_config.name} cannot be reached since {iso_from_ms(state.since_ms)}: {state.reason}"

    def _send(self, words: list[str]) -> RemoteAnswer:
        return run_remote(self.host_config, words, COMMAND_S)


def answered_notices(host: str, answer: RemoteAnswer) -> list[Notice]:
    """What ``pideck run`` answered there, as the notices of a local run: its messages (exit 0:
    all info; 1: one was not, a refusal on stderr), or why the host did not answer."""
    if answer.code in (None, 255):
        return [Notice(unreached_text(host, answer), "refused")]  # (refilled on the command line: sent again at will)
    notices = [Notice(answer.out, "info" if answer.code == 0 else "warning")] if answer.out else []
    if answer.err:
        notices.append(Notice(answer.err, "refused" if answer.code == 1 else "warning"))
    return notices


def unreached_text(host: str, answer: RemoteAnswer) -> str:
    return f"{host} did not take the command: {answer.err}. Nothing was sent." if answer.code == 255 else (
        f"{answer.err}; it may still have run there.")


def open_remote_deck(host: HostConfig, remote_path: str, *, wait_s: float = FIRST_COPY_S,
                     clock: Callable[[], int] | None = None) -> Opened:
    """The deck of ``remote_path`` on ``host``, once its copy holds what the file there holds.
    A host that cannot be reached raises ``OSError`` with ssh's reason; the copy is then let go."""
    mirror = Mirror(host, remote_path).start()
    try:
        state = mirror.wait_caught_up(wait_s)
        if not state.caught_up:
            why = state.reason if state.since_ms is not None else f"no copy within {wait_s:g} s"
            raise OSError(f"{host.name} cannot be reached: {why}")
        log = open_log(mirror.path, writable=False)
        config, problems = load_config()
        deck = RemoteDeck(log, mirror, todo_config=config, clock=clock)
    except BaseException:
        mirror.close()
        raise
    return Opened(deck, [f"config: {p}" for p in problems])
