"""The Deck: one session log joined with the derived state of every primitive, the registry of
commands and tools declared by the primitives, and the entries a deck tells apart by type."""
