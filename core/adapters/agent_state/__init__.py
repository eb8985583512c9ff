"""The Agent State pi adapter (``@j1nn0/agent-state-pi`` 0.1.0), split one job per file."""
