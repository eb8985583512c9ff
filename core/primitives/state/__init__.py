"""The Agent State pi adapter (``@j1nn0/agent-state-pi`` 0.1.0), split one job per file."""

ENTRY_TYPE = "agent-state-state"
"""The ``customType`` of its persisted entries, declared here so that telling them apart (the Deck
does, for every entry it reads) loads nothing of the adapter."""
