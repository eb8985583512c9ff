"""The JSON shapes of the derived state, as the adapters hand them out (copies, never the live
state). Front ends and ``pideck inspect`` read these; the keys are upstream's, camelCase included.
Also the JSON Schema a tool declares its parameters with.

The primitives name these for the type checker alone (``if TYPE_CHECKING``): a TypedDict made at
run time compiles its string annotations, which no headless command may do (core/slotted.py)."""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

WorkItemStatus = Literal["open", "in_progress", "blocked", "done"]


class WorkItem(TypedDict):
    id: str
    content: str
    status: WorkItemStatus


class Decision(TypedDict):
    id: str
    content: str


class StateSnapshot(TypedDict):
    """Agent State: ``objective`` is absent until one is set."""

    schemaVersion: int
    objective: NotRequired[str]
    workItems: list[WorkItem]
    decisions: list[Decision]


class ProgressState(TypedDict):
    """Agent Progress: the declared set and the cumulative baseline a judge compares it with."""

    hasBaseline: bool
    currentMilestones: list[str]
    recordedMilestones: list[str]


class Verdict(TypedDict):
    """A judge's outcome: ``progress``/``no_progress`` carry ``newMilestones`` (and
    ``withdrawnMilestones`` when any were), ``unknown`` carries ``reason``."""

    outcome: Literal["progress", "no_progress", "unknown"]
    recordedMilestones: list[str]
    newMilestones: NotRequired[list[str]]
    withdrawnMilestones: NotRequired[list[str]]
    reason: NotRequired[str]


class Packet(TypedDict):
    """An Agent Handoff packet: optional keys are absent, never null."""

    schemaVersion: int
    id: str
    source: str
    destination: NotRequired[str]
    goal: str
    constraints: NotRequired[list[str]]
    openItems: NotRequired[list[str]]
    evidenceReferences: NotRequired[list[str]]


class HandoffState(TypedDict):
    """Agent Handoff: the packets in insertion order."""

    packets: list[Packet]


class Schema(TypedDict, total=False):
    """A JSON Schema as a tool declares its parameters (pi's ``parameters``, MCP's ``inputSchema``):
    the keywords pideck's tools use."""

    type: str
    description: str
    properties: dict[str, Schema]
    required: list[str]
    items: Schema
    enum: list[str]
    const: object  # any JSON value
    minimum: int
    maximum: int
    additionalProperties: bool


# The todo state as ``TodoState.to_json()`` writes it (core/primitives/todo/model.py): what pi-jtodo
# keeps in its entries and tool results, and what ``pideck inspect`` shows. A field that is not
# set is left out (never null), and so is an empty history.


class TodoItemJson(TypedDict, total=False):
    """One todo: ``content``, ``status`` and ``id`` are always there. An item of an agent's own plan
    has a ``priority`` only where the agent's tool gives one (opencode's) and may carry the agent
    tool's ``activeForm``, ``description``, ``blocks`` and ``blockedBy``, and ``madeBy`` when a
    subagent made it."""

    content: str
    status: str
    priority: str
    id: str
    group: str
    confidence: int
    completion_confidence: int
    confidence_history: list[int]
    activeForm: str
    description: str
    blocks: list[str]
    blockedBy: list[str]
    madeBy: str  # a subagent's item: the subagent's description


class TodoPlanJson(TypedDict, total=False):
    user_intention: str
    understands_user_intent: int
    understands_user_intent_history: list[int]


class TodoGoalJson(TypedDict, total=False):
    group: str
    closed_feedback_loop: int
    closed_feedback_loop_history: list[int]
    feedback_loop: str
    end_to_end_ownership: int
    end_to_end_ownership_history: list[int]


class AgentPlanJson(TypedDict, total=False):
    """Where the todos are an agent's own plan (docs/agent-conversations.md): the ``agent`` and its
    plan ``tool`` when they were strings, the ``noun`` an item is called by (always there), and the
    agent's ``explanation`` where it gave one."""

    agent: str
    tool: str
    noun: Literal["task", "step", "todo"]
    explanation: str


class TodoStateJson(TypedDict):
    todos: list[TodoItemJson]
    plan: TodoPlanJson
    goals: list[TodoGoalJson]
    agentPlan: NotRequired[AgentPlanJson]


class TodoCycleJson(TypedDict):
    """The turn-end machine's flags (``CycleFlags.to_json()``)."""

    armed: bool
    digest_delivered: bool
    spike_challenged: bool
    attempts: int
    last_signature: list[str] | None
    unchanged_settles: int
    targets: list[str]
    last_disarm_reason: str | None


class TodoSnapshot(TodoStateJson):
    """``pideck inspect --json``'s todo: the state and the turn-end flags."""

    cycle: TodoCycleJson
