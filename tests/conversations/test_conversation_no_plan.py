"""A conversation whose agent has made no plan yet says which tool the agent plans with (issue 29,
item 10: a Gemini stub told the person to use "the `todo` tool", which only pi-jtodo has)."""

from __future__ import annotations

import pytest

from core.deck.deck import Deck
from core.sources.log import ConversationLog
from core.views.view import build_view
from transcript_samples import BY_NAME, GEMINI_STUB


def test_the_gemini_stub_names_write_todos() -> None:
    stub = BY_NAME["gemini-resume-next-minute"].home / GEMINI_STUB  # (the real 2-line file, no records)
    view = build_view(Deck(ConversationLog.open_transcript(stub)))
    assert view.todo_overlay == "# Plan\n\nNo plan yet. Gemini CLI makes one with its write_todos tool."
    assert not view.has_todos


@pytest.mark.parametrize("name, tool", [("claude-todowrite", "TodoWrite or TaskCreate"), ("codex-update-plan", "update_plan")])
def test_before_the_first_plan_the_overlay_names_the_agent_s_tool(tmp_path, name: str, tool: str) -> None:
    sample = BY_NAME[name]
    path = tmp_path / sample.path.name
    path.write_bytes(sample.head(1))  # the transcript's first line: no plan yet
    view = build_view(Deck(ConversationLog.open_transcript(path, sample.kind)))
    assert view.todo_overlay.endswith(f"makes one with its {tool} tool.")
    assert "`todo`" not in view.todo_overlay
