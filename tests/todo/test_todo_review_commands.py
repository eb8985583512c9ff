"""``/todos`` words are split by JavaScript's whitespace rule, like every other command parser."""

from __future__ import annotations

from memory_log import MemoryLog
from core.todo.adapter import TodoAdapter
from core.todo import commands as cmd


def test_todos_words_split_on_javascript_whitespace_only():
    adapter = TodoAdapter(MemoryLog())
    # U+0085 is not JavaScript whitespace: "poke\x85status" is one unknown word
    assert [(n.message, n.level) for n in adapter.command("poke\x85status")] == [(cmd.USAGE, "warning")]
    # U+FEFF is: the same words as "poke status"
    assert adapter.command("poke\ufeffstatus")[0].message.startswith("Auto-poke: ON.")
