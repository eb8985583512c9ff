"""The Stop hooks' gate on the agent's own plan (docs/mcp-and-hooks.md#the-agents-own-plan).

Claude Code plans with its Task tools or TodoWrite, Codex with update_plan; none of that reaches
pideck's todo list. When the agent stops with items of its own plan still open and pideck's own
todo list is empty, ``pideck hook`` pokes it the way pi-jtodo pokes for open todos, in the words of
the agent's own plan tool, with the same limits: a turn a Stop hook sent the agent back into that
left the plan as it was ends the cycle, and a configured
``max_consecutive_pokes_without_progress`` holds as for pideck's own todos.

The plan is read from the hook input's ``transcript_path`` through the conversation readers
(``core/conversations``), which never write, lock or create anything beside the transcript. What
the gate remembers between stops (the plan at the last poke, how many pokes in a row saw it
unchanged, the plan it stopped at) is derived from ``pideck/plan-poke`` custom entries in the
conversation's own pideck session, appended after the stop's ``pideck/stop`` record.

Decisions are pure (``remember`` folds the entries, ``decide`` answers one stop); ``settle_plan``
wires them to a Deck under its session's lock.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterable, Mapping, NotRequired, TypedDict

from core.jsutil import plural
from core.sources.plan import AGENT_NAMES

if TYPE_CHECKING:
    from core.config.settings import TodoConfig
    from core.deck.deck import Deck

PLAN_POKE_ENTRY_TYPE = "pideck/plan-poke"
"""The custom entry the gate appends when it pokes the agent on its own plan (``kind`` ``poke``)
or stops poking (``kind`` ``stop``)."""

_CYCLE_ENTRY_TYPE = "pi-jtodo/cycle"  # core.primitives.todo.constants.CYCLE_CUSTOM_TYPE (not imported: start-up)

POKE_TEXT = "You have {n} incomplete {noun}{s}. Continue working, or update {them} with {tool}."
"""pi-jtodo's poke (``You have N incomplete todos. Continue working, or update the todo tool.``)
naming the agent's own items and the tool it updates them with."""

NOTICE_POKE = (
    "👉 {n} incomplete {noun}{s} in {agent}'s own plan. We poked it for you. pideck config set "
    "agent_plan_poke false to stop."
)
"""(Not pideck's ``/todos poke off to stop.``: with pideck's own list empty its cycle is disarmed
after the first stop, and ``/todos poke off`` records nothing on a disarmed cycle.)"""
NOTICE_HOOK_NO_PROGRESS = (
    "⚠️ The agent stopped again after a Stop hook sent it back, without changing its own plan. We "
    "stopped poking; review the remaining {noun}s yourself. /todos poke on in the conversation's pideck session to resume."
)
NOTICE_NO_PROGRESS = (
    "⚠️ The agent stopped {limit} times in a row without changing its own plan. We stopped poking; "
    "review the remaining {noun}s yourself. /todos poke on in the conversation's pideck session to resume."
)


@dataclass(frozen=True)
class Wording:
    """What a plan tool's items are called and the tool the agent changes them with."""

    noun: str
    tool: str


WORDINGS = {
    "TaskCreate/TaskUpdate": Wording("task", "TaskUpdate"),
    "TodoWrite": Wording("todo", "TodoWrite"),
    "update_plan": Wording("plan step", "update_plan"),
    "write_todos": Wording("todo", "write_todos"),
    "todo_write": Wording("todo", "todo_write"),
    "todowrite": Wording("todo", "todowrite"),
    "sql": Wording("todo", "your sql tool"),
}
"""By the ``tool`` of the plan's ``agentPlan`` (core/sources): Claude Code's Task tools and
TodoWrite, Codex's update_plan, Qwen Code's todo_write; and the plans of agents whose stop pideck
does not answer (docs/mcp-and-hooks.md#which-agents-stops-pideck-answers), so that ``pideck gate``
words them too: Gemini CLI's write_todos, opencode's todowrite, GitHub Copilot CLI's todos kept
with its sql tool."""


def poke_text(tool: str, n: int) -> str:
    """The follow-up for ``n`` open items of a plan kept with ``tool``."""
    words = WORDINGS[tool]
    return POKE_TEXT.format(n=n, noun=words.noun, s=plural(n, "", "s"), them="it" if n == 1 else "them", tool=words.tool)


@dataclass(frozen=True)
class AgentPlan:
    """The agent's own plan as its transcript has it at the stop."""

    agent: str  # the conversation's agent kind (core/sources/plan.py AGENT_NAMES)
    tool: str  # a key of WORDINGS
    open_ids: tuple[str, ...]  # the items not completed or cancelled, in list order
    digest: str  # sha256 of the whole list: equal digests are an unchanged plan
    session_id: str | None = None  # the agent's session id, as the transcript says it

    @property
    def words(self) -> Wording:
        return WORDINGS[self.tool]


def plan_digest(todos: Iterable[Mapping[str, Any]]) -> str:
    text = json.dumps(list(todos), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def read_plan(transcript_path: str) -> AgentPlan | None:
    """The plan in the agent's transcript at ``transcript_path``; None when the file is missing,
    unreadable, not an agent's transcript pideck reads, or holds no plan. Only reads
    the transcript (what pideck keeps of it lives in pideck's home)."""
    from core.primitives.todo.adapter import TodoAdapter
    from core.primitives.todo.model import is_open
    from core.session.errors import NotASession
    from core.sources.log import ConversationLog

    try:
        log = ConversationLog.open_transcript(transcript_path)
    except (OSError, NotASession, ValueError):  # (ValueError: a NUL or a lone surrogate in the path)
        return None
    state = TodoAdapter(log).state
    agent_plan = state.agent_plan
    if agent_plan is None or agent_plan.get("tool") not in WORDINGS or not state.todos:
        return None
    return AgentPlan(
        agent=str(agent_plan.get("agent")),
        tool=str(agent_plan["tool"]),
        open_ids=tuple(str(t.id) for t in state.todos if is_open(t)),
        digest=plan_digest(t.to_json() for t in state.todos),
        session_id=log.session_id,
    )


# -- what the gate remembers ------------------------------------------------------------------


@dataclass
class Memory:
    """The gate's memory for one conversation, derived from the session's entries (the
    counterpart of pi-jtodo's ``poke_state`` and ``unchanged_settles``)."""

    last_poke: str | None = None  # the plan's digest at the last poke of the cycle
    unchanged: int = 0  # pokes in a row that saw the plan unchanged
    stopped_at: str | None = None  # the plan's digest when the gate stopped poking, or None


class ConversationKey(TypedDict):
    """Which conversation a ``pideck/plan-poke`` entry is about (``conversation_key``)."""

    agent: str
    agentSessionId: NotRequired[str]
    transcript: NotRequired[str]  # when the hook input names no session id


class PlanPoke(ConversationKey):
    """The ``data`` of a ``pideck/plan-poke`` entry."""

    kind: str  # poke or stop
    tool: str  # the agent's plan tool (a key of WORDINGS)
    ids: list[str]  # the plan's open items
    plan: str  # the plan's digest
    reason: NotRequired[str]  # no_progress, on a stop


def conversation_key(agent: str, session_id: str | None, transcript: str) -> ConversationKey:
    """The fields that say which conversation an entry is about: the agent and its session id,
    else (an input without one) the transcript's path."""
    if session_id is not None:
        return {"agent": agent, "agentSessionId": session_id}
    return {"agent": agent, "transcript": transcript}


def remember(entries: Iterable[tuple[str, Any]], key: ConversationKey) -> Memory:
    """Fold ``(customType, data)`` of the branch's ``pideck/plan-poke`` and ``pi-jtodo/cycle``
    entries, in order, into the memory for the conversation ``key``. An arm entry
    (``/todos poke on``) starts a fresh cycle; entries of other conversations and malformed ones
    are skipped."""
    memory = Memory()
    for custom_type, data in entries:
        if not isinstance(data, dict):
            continue
        if custom_type == _CYCLE_ENTRY_TYPE:
            if data.get("armed") is True:
                memory = Memory()
            continue
        if custom_type != PLAN_POKE_ENTRY_TYPE or any(data.get(k) != v for k, v in key.items()):
            continue
        digest = data.get("plan")
        if not isinstance(digest, str):
            continue
        if data.get("kind") == "poke":  # (after a stop, last_poke is None: a fresh count)
            memory = Memory(digest, memory.unchanged + 1 if memory.last_poke == digest else 0)
        elif data.get("kind") == "stop":
            memory = Memory(stopped_at=digest)
    return memory


@dataclass(frozen=True)
class Step:
    """What the gate does at one stop: an entry to append, and the hook's follow-up and notice."""

    entry: PlanPoke | None = None
    followup: str | None = None
    notice: str | None = None


def decide(memory: Memory, plan: AgentPlan, continued: bool, config: TodoConfig,
           key: ConversationKey) -> Step:
    """One stop of the agent with its plan as ``plan`` (pi-jtodo's settle step A on the agent's
    plan, docs/mcp-and-hooks.md#the-agents-own-plan)."""
    n = len(plan.open_ids)
    if n == 0:
        return Step()
    if memory.stopped_at is not None:
        if memory.stopped_at == plan.digest:
            return Step()  # stopped: quiet until the plan changes or /todos poke on
        memory = Memory()  # the plan changed since: new work starts a fresh cycle

    def entry(kind: str) -> PlanPoke:
        data: PlanPoke = {**key, "kind": kind, "tool": plan.tool, "ids": list(plan.open_ids), "plan": plan.digest}
        return data if kind == "poke" else {**data, "reason": "no_progress"}

    noun = plan.words.noun
    same = memory.last_poke == plan.digest
    limit = config.max_consecutive_pokes_without_progress
    if limit > 0:
        prospective = memory.unchanged + 1 if same else 0
        if prospective >= limit:
            return Step(entry("stop"), None, NOTICE_NO_PROGRESS.format(limit=limit, noun=noun))
    elif continued and same:
        return Step(entry("stop"), None, NOTICE_HOOK_NO_PROGRESS.format(noun=noun))
    agent = AGENT_NAMES.get(plan.agent, plan.agent)
    return Step(entry("poke"), poke_text(plan.tool, n),
                NOTICE_POKE.format(n=n, noun=noun, s=plural(n, "", "s"), agent=agent))


# -- wiring -----------------------------------------------------------------------------------


def applies(deck: Deck) -> bool:
    """The gate may run on this session: the todo tool, auto-poke and ``agent_plan_poke`` are on,
    pideck may write the session, pideck's own todo list is empty, and the person did not turn
    poking off there (``/todos poke off``)."""
    config = deck.todo.config
    if not (config.enabled and config.auto_poke and config.agent_plan_poke):
        return False
    if deck.log.read_only_reason is not None:
        return False
    replay = deck.todo.replay()
    if replay.state.todos:
        return False
    flags = replay.flags
    return flags.armed or flags.last_disarm_reason != "user"


def _entries(deck: Deck) -> list[tuple[str, Any]]:
    """(customType, data) of the branch's plan-poke and cycle entries, found from the index."""
    wanted = (PLAN_POKE_ENTRY_TYPE, _CYCLE_ENTRY_TYPE)
    picked = deck.log.branch_select(lambda kind, ct, role, tool: kind == "custom" and ct in wanted)
    if picked is None:
        return []
    found, _, record_at, _ = picked
    out: list[tuple[str, Any]] = []
    for _, _, at in found:
        record = record_at(at)
        out.append((str(record.custom_type), record.get("data")))
    return out


class PlanUnreadable(Exception):
    """The transcript could not be read for a reason other than not being one (a reader's fault);
    the hook says so on stderr and answers as it would without the plan."""


def settle_plan(deck: Deck, agent: str, transcript_path: str | None, session_id: str | None,
                continued: bool) -> tuple[str | None, str | None]:
    """The gate at one stop, after pideck's own settle found nothing to say: (follow-up, notice).
    A transcript it cannot read, or a plan with nothing open, is (None, None) and appends nothing.
    A follow-up is only answered once its entry is in the session, so the limits always hold."""
    from core.session.errors import ReadOnlySession

    if transcript_path is None or not os.path.isabs(transcript_path) or not applies(deck):
        return None, None
    try:
        plan = read_plan(transcript_path)
    except Exception as exc:  # a transcript a reader chokes on: the hook answers as without it
        raise PlanUnreadable(f"{transcript_path}: {' '.join(str(exc).split()) or type(exc).__name__}") from exc
    if plan is None or not plan.open_ids:
        return None, None
    key = conversation_key(agent, session_id or plan.session_id, os.path.abspath(transcript_path))
    log = deck.log
    try:
        with log.locked():
            log.refresh()  # decide on everything written so far (another stop may have landed)
            if not applies(deck):
                return None, None
            step = decide(remember(_entries(deck), key), plan, continued, deck.todo.config, key)
            if step.entry is not None:
                log.append_custom(PLAN_POKE_ENTRY_TYPE, step.entry)
    except ReadOnlySession:
        return None, None  # nothing recorded: no block, so no loop
    return step.followup, step.notice
