"""The pi-jtodo model: a quality-gated todo list with write-time and turn-end gates.

Pure Python; never imports Textual. ``core.primitives.todo.adapter.TodoAdapter`` is the entry point for the
Deck; ``core.config.settings`` backs ``pideck config``. Nothing is imported here, so that reading one
declaration (the tool schema, the command grammar) does not load the model.
"""
