"""The turn-end machine: settle, watchdog tick and idle nudge as pure decisions
(docs/todo-gates.md#the-turn-end-machine).

Each function looks at a Replay and returns the Step to take; the adapter appends it. Keeping the
decision pure makes "replay equals live" hold by construction.
"""

# (No ``from __future__ import annotations`` here: typing would compile the string annotations of
# the NamedTuples below, and the first compile() of a process costs every command ~1 ms; see
# core/slotted.py.)

from typing import NamedTuple

from core.config.settings import TodoConfig
from core.primitives.host import Notice
from core.primitives.todo import constants as c
from core.primitives.todo.followups import build_gate_digest, completion_text, digest_ids, poke_text, spike_text
from core.primitives.todo.gate_checks import confidence_summary, signature
from core.primitives.todo.model import open_items
from core.primitives.todo.replay import Replay


class Followup(NamedTuple):  # (NamedTuples, as in core/primitives/host.py: made quickly at start-up)
    kind: str
    content: str
    ids: list[str]

    def details(self) -> dict[str, object]:
        return {"kind": self.kind, "ids": list(self.ids)}


class Step(NamedTuple):
    """At most one follow-up or one cycle change, plus an optional display notice."""

    notice: Notice | None = None
    followup: Followup | None = None
    cycle: dict[str, object] | None = None  # {"armed": bool, "reason": str}


def disarm(reason: str, notice: Notice | None = None) -> Step:
    return Step(notice=notice, cycle={"armed": False, "reason": reason})


def arm(reason: str) -> dict[str, object]:
    return {"armed": True, "reason": reason}


def poke_notice(n: int) -> Notice:
    return Notice(c.NOTICE_POKE.format(n=n, s=c.plural_s(n)))


def poke_followup(kind: str, replay: Replay) -> Followup:
    opened = open_items(replay.state.todos)
    return Followup(kind, poke_text(len(opened)), [t.id for t in opened])


def settle_step(replay: Replay, config: TodoConfig, continued: bool = False) -> Step:
    """One settle of the agent's turn; an empty Step when disabled or disarmed
    (docs/todo-gates.md#the-turn-end-machine).

    ``continued``: the harness says this turn was one a Stop hook sent the agent back into. With
    the no-progress limit off, such a turn that left the todos as they were at the last poke ends
    the cycle, so a harness that obeys every block cannot loop forever (docs/todo-gates.md).
    """
    flags, state = replay.flags, replay.state
    if not config.enabled or not flags.armed:
        return Step()
    todos = state.todos
    incomplete = open_items(todos)
    if incomplete:  # (A)
        limit = config.max_consecutive_pokes_without_progress
        same = flags.poke_state is not None and flags.poke_state == state.to_json()
        if limit > 0:
            prospective = flags.unchanged_settles + 1 if same else 0
            if prospective >= limit:
                notice = Notice(c.NOTICE_NO_PROGRESS.format(n=limit), "warning")
                return disarm("no_progress", notice)
        elif continued and same:
            return disarm("no_progress", Notice(c.NOTICE_HOOK_NO_PROGRESS, "warning"))
        return Step(notice=poke_notice(len(incomplete)), followup=poke_followup("poke", replay))
    if not todos:  # (B)
        return disarm("no_todos")
    text = build_gate_digest(replay.observations, state.plan, state.goals)
    if not flags.digest_delivered and text is not None:  # (C): there are observations
        ids = digest_ids(replay.observations, todos)
        return Step(notice=Notice(c.NOTICE_DIGEST_QUEUED), followup=Followup("digest", text, ids))
    s = confidence_summary(todos)  # (D)
    needs_spike = s.spike_detected and not flags.spike_challenged
    if s.needs_validation or needs_spike:
        if flags.attempts < config.completion_gate_max_attempts:
            if flags.last_signature is not None and signature(todos) == flags.last_signature:
                return disarm("unchanged", Notice(c.NOTICE_GATE_UNCHANGED, "warning"))
            if s.needs_validation:
                return Step(
                    notice=Notice(c.NOTICE_COMPLETION_CHALLENGED),
                    followup=Followup("completion", completion_text(s), s.missing + s.weak),
                )
            return Step(
                notice=Notice(c.NOTICE_SPIKE_CHALLENGED),
                followup=Followup("spike", spike_text(s), s.spiked),
            )
        return disarm("stalled", Notice(c.NOTICE_GATE_STALLED, "warning"))
    label = "unknown" if s.completion_average is None else f"{s.completion_average}%"
    return disarm("passed", Notice(c.NOTICE_DONE.format(label=label)))  # (E)


def watchdog_due_at(replay: Replay, config: TodoConfig, newest_ms: int | None) -> int | None:
    """From when the watchdog's condition holds: the tool and the watchdog are enabled, the cycle
    is armed, an item is open, and the newest entry (at ``newest_ms``) is ``watchdog_idle_ms``
    old. None when it cannot hold however long the agent stays idle (docs/todo-gates.md#the-watchdog).

    The terminal app shows the person this state (the agent idle with open todos); it never sends
    the follow-up ``watchdog_step`` would."""
    if not (config.enabled and config.watchdog and replay.flags.armed):
        return None
    if not open_items(replay.state.todos) or newest_ms is None:
        return None
    return newest_ms + config.watchdog_idle_ms


def watchdog_step(replay: Replay, config: TodoConfig, now_ms: int, newest_ms: int | None) -> Step:
    """Re-poke an agent that sits idle with open todos; give up after the configured re-pokes
    (the model of pi-jtodo's own watchdog, which pi delivers; no pideck front end sends it)."""
    due = watchdog_due_at(replay, config, newest_ms)
    if due is None or now_ms < due:
        return Step()
    if replay.dead_watchdog_pokes >= config.watchdog_max_re_pokes:
        notice = Notice(c.NOTICE_WATCHDOG_STOPPED.format(n=config.watchdog_max_re_pokes), "warning")
        return disarm("watchdog", notice)
    opened = open_items(replay.state.todos)
    return Step(notice=poke_notice(len(opened)), followup=poke_followup("watchdog", replay))


def idle_nudge_step(replay: Replay, config: TodoConfig) -> Step:
    if not (config.enabled and config.idle_nudge and replay.flags.armed):
        return Step()
    opened = open_items(replay.state.todos)
    if not opened or replay.assistant_turns_since_write < config.idle_nudge_after_assistant_turns:
        return Step()
    return Step(followup=Followup("nudge", c.NUDGE_TEXT, [t.id for t in opened]))


def rearm_on_new_work(
    replay: Replay, config: TodoConfig, has_open_work: bool
) -> dict[str, object] | None:
    """The cycle entry that re-arms a disarmed cycle, unless the user turned it off
    (docs/todo-gates.md#arming-and-the-todos-poke-commands)."""
    flags = replay.flags
    if not config.enabled or flags.armed or not config.auto_poke:
        return None
    if flags.last_disarm_reason == "user":
        return None
    return arm("new_work") if has_open_work else None
