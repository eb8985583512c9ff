"""pideck's record of Agent Progress verdicts (docs/session-format.md#what-pideck-adds-to-the-log).

Upstream, a judge's verdict is only the text the caller reads: the ``agent-progress-state`` entry
holds the baseline, not the outcome, so a judge made by another process left nothing a viewer
could show. When a pideck process judges (a command, a tool call from the CLI, MCP or the TUI), the
Deck appends one ``pideck/progress-verdict`` custom entry after the adapter's own entry (if any);
pi ignores custom types it does not know. The adapter's texts and entries stay as upstream writes
them. Text from the log is untrusted: an entry that is not a verdict reads as none.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, Mapping, cast

ENTRY_TYPE = "pideck/progress-verdict"
SCHEMA_VERSION = 1
Via = Literal["command", "tool"]

_OUTCOMES = ("progress", "no_progress", "unknown")
_LISTS = ("recordedMilestones", "newMilestones", "withdrawnMilestones")


if TYPE_CHECKING:  # (for the type checker alone: a TypedDict made at run time compiles its annotations)
    from typing import TypedDict

    from core.shapes import Verdict

    class VerdictData(TypedDict):
        """A ``pideck/progress-verdict`` entry's data."""

        schemaVersion: int
        via: Via
        verdict: Verdict


def verdict_data(verdict: Verdict, via: Via) -> VerdictData:
    return {"schemaVersion": SCHEMA_VERSION, "via": via, "verdict": verdict.copy()}


def read_verdict(entry: Mapping[str, Any] | None) -> tuple[Verdict, str | None] | None:
    """(verdict, the entry's timestamp) of a ``pideck/progress-verdict`` entry, or None when it is
    absent or not one pideck wrote (wrong shape)."""
    data = entry.get("data") if entry is not None else None
    verdict = data.get("verdict") if isinstance(data, dict) else None
    if not isinstance(verdict, dict) or verdict.get("outcome") not in _OUTCOMES:
        return None
    if not isinstance(verdict.get("recordedMilestones"), list):
        return None
    for key in _LISTS:
        values = verdict.get(key, [])
        if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
            return None
    if "reason" in verdict and not isinstance(verdict["reason"], str):
        return None
    timestamp = entry.get("timestamp") if entry is not None else None
    return cast("Verdict", verdict), timestamp if isinstance(timestamp, str) else None
