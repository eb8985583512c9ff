"""The Agent Progress pi adapter (``@j1nn0/agent-progress-pi``), split one job per file."""

ENTRY_TYPE = "agent-progress-state"
"""The ``customType`` of its persisted entries, declared here so that telling them apart (the Deck
does, for every entry it reads) loads nothing of the adapter."""
