"""The catalog: which sessions and conversations are in scope (a directory, or every one pideck
knows), one record each with one state from one vocabulary, kept current by one watch. Every view
of a state (the deck's header, the inbox, notifications, ``status``, ``watch``, ``overview``,
``sessions``) reads it (docs/architecture.md)."""
