"""The live state of one primitive adapter and the one way it changes (upstream's ``StateController``).

Each upstream extension (``extension.ts`` of agent-state-pi, agent-progress-pi, agent-handoff-pi)
holds its state in one variable behind a controller, restores it on ``session_start`` and persists
the whole state as one entry after a change. The three adapters here are wired the same way: the
command and tool modules are pure (parse, then call the core through ``mutations.py``) and answer
with an ``Outcome``; ``Controller.settle`` then appends the one entry a change needs and only then
moves the live state, so the state never runs ahead of the log.

The append sits outside every catch-all of the command and tool modules: a host's refusal to
append (a read-only session) is not an input error, so it propagates to the host and nothing
changed.
"""

# (No ``from __future__ import annotations``: ``Outcome`` is a NamedTuple, not a frozen dataclass,
# because inspect, run and tool load this module and dataclasses costs them some 5 ms; typing would
# compile a NamedTuple's string annotations: core/slotted.py.)

from typing import TYPE_CHECKING, Any, Callable, Generic, Iterable, Mapping, NamedTuple, Protocol, TypeVar

from core.primitives.host import AppendCustom, Notice

if TYPE_CHECKING:
    from core.shapes import Verdict
else:  # (a NamedTuple's annotations are evaluated: a plain dict at run time, and core.shapes unloaded)
    Verdict = dict

S = TypeVar("S")
S_co = TypeVar("S_co", covariant=True)
R = TypeVar("R")

Entries = Iterable[Mapping[str, Any]]


class Outcome(NamedTuple, Generic[R, S]):
    """What a command or a tool call decided, before anything is written: ``reply`` (a command's
    notices, a tool's result) and the whole new ``state`` to persist, None when nothing changed.
    ``verdict`` is a judge's (Agent Progress keeps the last one: its ``controller.py``), None for
    every other outcome."""

    reply: R
    state: S | None = None
    verdict: Verdict | None = None


class Mutation(Protocol[S_co]):
    """What a pure mutation of ``mutations.py`` returns, as upstream's do: ``{changed, state}``."""

    @property
    def changed(self) -> bool: ...

    @property
    def state(self) -> S_co | None: ...


def changed_state(mutation: Mutation[S] | None) -> S | None:
    """The state a mutation asks to persist: its state when it changed, else None (also for no
    mutation at all)."""
    return mutation.state if mutation is not None and mutation.changed else None


class Controller(Generic[S]):
    """One adapter's live state: restored strictly from the branch, changed only by ``settle``.

    ``restore(entries)`` finds the newest entry of the adapter's type and gives the state it holds,
    the empty state when there is none, and None when it is invalid (docs/primitives.md#restore-rules;
    each adapter keeps its own rules there). ``payload(state)`` is the entry's data."""

    def __init__(
        self,
        append_custom: AppendCustom,
        entry_type: str,
        *,
        empty: Callable[[], S],
        restore: Callable[[Entries], S | None],
        payload: Callable[[S], Any],
        invalid: str,
    ) -> None:
        self._append_custom = append_custom
        self._entry_type = entry_type
        self._empty, self._restore, self._payload, self._invalid = empty, restore, payload, invalid
        self.state: S = empty()

    def load(self, entries: Entries) -> list[Notice]:
        """session_start: restore from the newest matching entry only. An invalid one gives one
        warning and the empty state, never a fallback to an older entry. Never appends."""
        self.state = self._empty()
        restored = self._restore(entries)
        if restored is None:
            return [Notice(self._invalid, "warning")]
        self.state = restored
        return []

    def settle(self, outcome: Outcome[R, S]) -> R:
        """Persist the outcome's new state, if any, then give its reply."""
        if outcome.state is not None:
            self.commit(outcome.state)
        return outcome.reply

    def commit(self, state: S) -> None:
        """Append the whole new state as one entry, then make it the live state: when the host
        refuses the append, its error propagates and nothing changed."""
        self._append_custom(self._entry_type, self._payload(state))
        self.state = state
