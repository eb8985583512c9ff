"""The Agent Progress pi adapter, ported (spec/primitives.md §8)."""

from core.adapters.agent_progress.adapter import AgentProgressAdapter

__all__ = ["AgentProgressAdapter"]
