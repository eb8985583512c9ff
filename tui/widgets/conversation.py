"""The pane of a followed agent conversation (docs/agent-conversations.md#what-the-deck-shows):
who the agent is and what it last said, its pideck session (or that it has none yet), then its own
plan in its own order, with what the plan tool gave each item.

The agent's own log is read-only and holds no Agent State, Progress or Handoff: those come from
the conversation's pideck session, whose panes stand beside this one once it exists
(docs/tui.md#one-screen-per-conversation).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from core.catalog.opening import gets_a_session
from core.jsutil import plural
from core.views.items import NO_SCORES, TodoState, cost_text, icon, plan_title, status_words, subagents_text, token_text
from core.views.costs import item_of, item_words, usage_words
from core.views.view import DeckView
from tui.text import clean

if TYPE_CHECKING:
    from core.views.costs import UsageJson

_STYLES = {"in_progress": "bold cyan", "completed": "dim", "cancelled": "dim strike", "blocked": "dark_orange"}


def not_written_yet(agent: Mapping[str, Any]) -> str:
    return (f"{agent.get('name')} has not written to pideck yet: its Agent State, Progress, Handoff "
            "and pideck todos show beside this pane from its first pideck tool call.")


def conversation_text(agent: Mapping[str, Any], state: TodoState, session: DeckView | None = None,
                      usage: UsageJson | None = None) -> Text:
    """The pane's text: every value from the log goes through ``clean`` (shown literally).
    ``session``: the conversation's pideck session, once there is one; ``usage``: what the
    conversation's answers used (each plan item says its share)."""
    text = Text()

    def fact(label: str, value: Any) -> None:
        if value is None or value == "":
            return
        text.append(f"{label:<11}", "bold")
        text.append(clean(str(value)))
        text.append("\n")

    fact("Agent", " ".join(str(v) for v in (agent.get("name"), agent.get("version")) if v))
    fact("Model", agent.get("model"))
    fact("Session", agent.get("sessionId"))
    fact("Folder", agent.get("cwd"))
    fact("Transcript", home_relative(agent.get("transcript")))
    tokens = agent.get("tokens")
    if isinstance(tokens, Mapping):
        fact("Last turn", token_text(tokens))
    if isinstance(cost := agent.get("cost"), float):
        fact("Cost", f"{cost_text(cost)} so far, as {agent.get('name')} counts it")
    if usage is not None:
        fact("Spent", usage_words(usage))
    fact("Last said", agent.get("lastMessage"))
    fact("Subagents", subagents_text(agent.get("subagents")))
    if session is not None:
        short = Path(session.path).stem.rpartition("_")[2][:8]  # (pideck names its files <time>_<session id>)
        fact("pideck", f"session {short}, {session.entries} {plural(session.entries, 'entry', 'entries')}")
    elif agent.get("host") is not None:  # (a remote deck copies the transcript alone)
        text.append(f"{'pideck':<11}", "bold")
        text.append(clean(f"its pideck session on {agent['host']}, if any, is not shown here: a deck of "
                          "another machine copies the agent's transcript alone") + "\n", "dim italic")
    elif gets_a_session(agent.get("kind")):
        text.append(f"{'pideck':<11}", "bold")
        text.append(clean(not_written_yet(agent)) + "\n", "dim italic")
    text.append("\n")
    if state.agent_plan is None:
        text.append("No plan yet: the agent has not called its plan tool.", "dim italic")
        return text
    text.append(clean(plan_title(state.agent_plan)), "bold")
    text.append(f"  from its {clean(str(state.agent_plan.get('tool')))} tool, read-only\n", "dim")
    text.append(NO_SCORES + ".\n", "dim italic")
    explanation = state.agent_plan.get("explanation")
    if isinstance(explanation, str) and explanation.strip():
        text.append("Why: ", "bold")
        text.append(clean(explanation) + "\n")
    if not state.todos:
        text.append("The plan is empty.", "dim italic")
    for item in state.todos:
        style = _STYLES.get(item.status, "")
        text.append(f"{icon(item.status, True)} ", style)
        text.append(f"#{clean(item.id)} ", "bold")
        text.append(clean(item.content), style)
        text.append(f"  {clean(status_words(item.status))}", "dim")
        if item.priority:  # (opencode's todos have one)
            text.append(f" · {clean(item.priority)} priority", "dim")
        if item.status == "in_progress" and item.active_form:
            text.append(f" · {clean(item.active_form)}", "italic")
        text.append("\n")
        if item.description:
            text.append(f"    {clean(item.description)}\n", "dim")
        if item.made_by:
            text.append(f"    made by {clean(item.made_by)}\n", "dim italic")
        if item.blocked_by:
            text.append(f"    waits for {', '.join('#' + clean(i) for i in item.blocked_by)}\n", "dark_orange")
        if item.blocks:
            text.append(f"    blocks {', '.join('#' + clean(i) for i in item.blocks)}\n", "dim")
        if spent := item_words(item_of(usage, item.id, item.content)):
            text.append(f"    spent {spent}\n", "dim cyan")
    text.rstrip()
    return text


def home_relative(path: Any) -> Any:
    """``~/.claude/...`` for a path in the person's home: shorter, and the part they know."""
    home = os.path.expanduser("~")
    if isinstance(path, str) and home not in ("", "/") and path.startswith(home.rstrip("/") + "/"):
        return "~" + path[len(home.rstrip("/")):]
    return path


class ConversationPane(VerticalScroll):
    """The agent and its plan, scrollable when the plan is long."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._body = Static("", markup=False)
        self._shown: Text | None = None

    def compose(self) -> ComposeResult:
        yield self._body

    def show(self, agent: Mapping[str, Any] | None, state: TodoState, session: DeckView | None = None,
             usage: UsageJson | None = None) -> None:
        if agent is None:
            return
        text = conversation_text(agent, state, session, usage)
        if self._shown is None or text.plain != self._shown.plain or text.spans != self._shown.spans:
            self._shown = text
            self._body.update(text)
