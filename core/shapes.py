"""The JSON shapes of the derived state, as the adapters hand them out (copies, never the live
state). Front ends and ``pideck inspect`` read these; the keys are upstream's, camelCase included."""

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
