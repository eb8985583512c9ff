"""The Agent Handoff pi adapter (``@j1nn0/agent-handoff-pi``), split one job per file."""
