"""The primitives: Agent State, Agent Progress, Agent Handoff and the pi-jtodo todos, one package
each (the upstream core beside its pi adapter, one job per file), and what their adapters share:
the adapter shape, the state controller, command grammar and parsing, dispatch."""
