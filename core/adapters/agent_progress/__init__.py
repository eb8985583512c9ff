"""The Agent Progress pi adapter (``@j1nn0/agent-progress-pi``), split one job per file."""
