"""What the readers of agent conversations share: the agent's own plan as todo items, what a
conversation is called, and the words a plan change is told in
(docs/agent-conversations.md).

An agent's plan has no confidence scores and no groups: an item holds only what the agent's tool
gave it (text, status, and where the tool has them the id, the in-progress wording, a description,
the items it blocks or waits for, and opencode's priority).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Literal, Mapping, Sequence

if TYPE_CHECKING:  # (the type checker's alone: a TypedDict compiles its annotations as it is made)
    from typing import Required, TypedDict

    class PlanItem(TypedDict, total=False):
        """One item of an agent's plan in the todo model's JSON (``plan_item`` makes them): its text,
        status and id, then what the agent's tool adds, left out when absent."""

        content: Required[str]
        status: Required[str]
        id: Required[str]
        activeForm: str  # the wording while it is in progress
        description: str
        blocks: list[str]  # ids of the items that wait for this one
        blockedBy: list[str]  # ids of the items this one waits for
        priority: str  # opencode's high, medium or low
        madeBy: str  # a subagent's item: the subagent's description (none: the conversation's own agent)

AGENT_NAMES = {"claude": "Claude Code", "codex": "Codex", "gemini": "Gemini CLI", "qwen": "Qwen Code",
               "opencode": "opencode", "copilot": "GitHub Copilot CLI"}
"""The agents whose conversations pideck follows, by the kind a reader detects."""

NAME_LIMIT = 60
"""A conversation's name is the first line of its first prompt, cut at this many characters."""

_STATUS_WORDS = {"in_progress": "in progress"}

Link = Literal["blocks", "blockedBy"]
"""The two ends of a dependency between plan items."""
LINKS: tuple[Link, Link] = ("blocks", "blockedBy")


def plan_title(agent_plan: Mapping[str, Any]) -> str:
    """What the strip, the goal table and the overlay call an agent's plan: ``Claude Code tasks``,
    ``Codex plan``, ``Gemini CLI todos``."""
    agent = AGENT_NAMES.get(str(agent_plan.get("agent")), str(agent_plan.get("agent")))
    noun = agent_plan.get("noun")
    return f"{agent} {'tasks' if noun == 'task' else 'plan' if noun == 'step' else 'todos'}"


NO_SCORES = "no confidence scores: the agent's plan tool has none, so the gates that need them do not apply"


def plan_item(item_id: str, content: str, status: str, *, activeForm: str | None = None,
              description: str | None = None, blocks: list[str] | None = None,
              blockedBy: list[str] | None = None, priority: str | None = None,
              madeBy: str | None = None) -> PlanItem:
    """One item in the todo model's JSON (``content``, ``status``, ``id``), then what the agent's
    tool adds (``activeForm``, ``description``, ``blocks``, ``blockedBy``, ``priority``) and, for an
    item a subagent made, who made it (``madeBy``: the subagent's description), left out when
    absent."""
    item: PlanItem = {"content": content, "status": status, "id": item_id}
    if activeForm is not None:
        item["activeForm"] = activeForm
    if description is not None:
        item["description"] = description
    if blocks is not None:
        item["blocks"] = blocks
    if blockedBy is not None:
        item["blockedBy"] = blockedBy
    if priority is not None:
        item["priority"] = priority
    if madeBy is not None:
        item["madeBy"] = madeBy
    return item


def tidy(item: PlanItem) -> PlanItem:
    """``item`` with its keys in ``plan_item``'s order, however it was built up."""
    return plan_item(item["id"], item["content"], item["status"], activeForm=item.get("activeForm"),
                     description=item.get("description"), blocks=item.get("blocks"), blockedBy=item.get("blockedBy"),
                     priority=item.get("priority"), madeBy=item.get("madeBy"))


def describe_change(before: Sequence[PlanItem], after: Sequence[PlanItem], noun: str) -> str:
    """The change from one plan to the next in a few words, the text of the plan event's tool result
    (the activity view words its events from the diff of the two plans): ``task #4 added: Document the flag``, ``step #2 completed``,
    ``plan: 2 todos changed``; ``plan unchanged`` when nothing moved."""
    old = {str(i.get("id")): i for i in before}
    new = {str(i.get("id")): i for i in after}
    parts: list[str] = []
    added = [i for key, i in new.items() if key not in old]
    removed = [i for key, i in old.items() if key not in new]
    changed = [(old[key], i) for key, i in new.items() if key in old and old[key] != i]
    if len(added) == 1 and not removed and not changed:
        return f"{noun} #{added[0]['id']} added: {added[0].get('content', '')}"
    if len(removed) == 1 and not added and not changed:
        return f"{noun} #{removed[0]['id']} removed: {removed[0].get('content', '')}"
    if len(changed) == 1 and not added and not removed:
        was, now = changed[0]
        if was.get("status") != now.get("status"):
            return f"{noun} #{now['id']} {status_words(str(now.get('status')))}"
        return f"{noun} #{now['id']} changed: {now.get('content', '')}"
    for count, verb in ((len(added), "added"), (len(removed), "removed"), (len(changed), "changed")):
        if count:
            parts.append(f"{count} {noun}{'' if count == 1 else 's'} {verb}")
    return "plan: " + ", ".join(parts) if parts else "plan unchanged"


def status_words(status: str) -> str:
    return _STATUS_WORDS.get(status, status)


def numbered(items: Iterable[PlanItem]) -> list[PlanItem]:
    """Items of a tool that sends its whole list each call (TodoWrite, update_plan, write_todos)
    get their place in the list as their id, counted from 1."""
    return [{**item, "id": str(n)} for n, item in enumerate(items, 1)]


def text_of(value: object) -> str | None:
    """A string field as given, or None for anything else (a hostile line may put a number, a list
    or null where a string belongs)."""
    return value if isinstance(value, str) else None


def first_line(text: str, limit: int = 200) -> str:
    """The first non-blank line of an agent's message, cut at ``limit`` characters."""
    for line in text.splitlines():
        if line.strip():
            line = line.strip()
            return line if len(line) <= limit else line[: limit - 1] + "…"
    return ""


def token_text(tokens: Mapping[str, Any]) -> str:
    """A turn's token use as the header, the Conversation pane and ``inspect`` say it."""
    text = (f"tokens in {tokens.get('input', 0):,} out {tokens.get('output', 0):,} "
            f"cache {tokens.get('cacheRead', 0):,} read {tokens.get('cacheWrite', 0):,} written")
    if isinstance(tokens.get("contextWindow"), int) and isinstance(tokens.get("contextShare"), (int, float)):
        text += f", {tokens['contextShare'] * 100:.1f}% of a {tokens['contextWindow']:,} window"
    return text


def subagents_text(subagents: object) -> str:
    """A Claude Code conversation's subagents (the agent object's ``subagents``) as ``inspect`` and
    the Conversation pane say them: ``Add the --session flag (running), Find the tests (finished)``."""
    if not isinstance(subagents, list):
        return ""
    return ", ".join(f"{s.get('description') or s.get('id')} ({s.get('status')})" for s in subagents
                     if isinstance(s, Mapping))


def cost_text(cost: float) -> str:
    """``$0.0123`` under a dollar (four places: a few answers often cost less than a cent), ``$5.12``
    from a dollar on: the one way every view writes dollars."""
    return f"${cost:,.2f}" if cost >= 1 else f"${cost:.4f}"


def running_count(subagents: object) -> int:
    """How many of an agent object's ``subagents`` run."""
    return sum(1 for s in subagents if isinstance(s, Mapping) and s.get("status") == "running") \
        if isinstance(subagents, list) else 0


def running_text(subagents: object) -> str:
    """``1 subagent running`` (the header's badge says it after the status); ``""`` when none runs."""
    n = running_count(subagents)
    return f"{n} subagent{'' if n == 1 else 's'} running" if n else ""


def int_or_none(value: object) -> int | None:
    return value if type(value) is int and value >= 0 else None
