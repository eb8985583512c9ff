"""The thread side of the screens: one ``Model`` per screen on a ``ModelThread`` (thread.py)."""
