"""The one vocabulary of states (docs/attention.md): what every view says of a session or a
conversation, and the flags of a row that are the evidence for one. Nothing else is imported here,
so a view that only names a state (the deck's header) loads nothing more.

- **needs you**: the agent asked for something and nothing happened since;
- **over budget**: it spent more than a budget of ``[budget]`` allows (``budgets.py``);
- **context nearly full**: its last answer filled ``[budget] context_percent`` of the window;
- **unreachable**: it is on another machine (``[[hosts]]``) pideck cannot reach now, or that
  answers with what is not pideck's feed: its last known state is not shown as current
  (docs/hosts.md);
- **stopped with open work**: the turn ended with items open, or the todo gates gave up;
- **working**: a turn is in progress;
- **waiting**: the turn ended and nothing is open;
- **ended**: the agent's process is gone.
"""

NEEDS_YOU, OPEN_WORK, WORKING, WAITING, ENDED = "needs you", "stopped with open work", "working", "waiting", "ended"
OVER_BUDGET, CONTEXT_FULL = "over budget", "context nearly full"
UNREACHABLE = "unreachable"
ORDER = (NEEDS_YOU, OVER_BUDGET, CONTEXT_FULL, UNREACHABLE, OPEN_WORK, WORKING, WAITING, ENDED)
"""Who needs the person first. An unreachable host's rows come right after what asks for the person
and before what only waits: any of them may be asking, and nobody can tell from here."""
FLAG_POKED, FLAG_WAITING, FLAG_GAVE_UP, FLAG_ENDED = "poked", "waiting", "gave up", "ended"
"""A row's flag (``core/catalog/rows.py``, the FLAG column): what the agent left open when it
stopped, the evidence behind OPEN_WORK."""
