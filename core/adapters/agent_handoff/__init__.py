"""The Agent Handoff pi adapter (``@j1nn0/agent-handoff-pi``) ported to pideck."""

from core.adapters.agent_handoff.adapter import AgentHandoffAdapter

__all__ = ["AgentHandoffAdapter"]
