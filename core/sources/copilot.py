"""GitHub Copilot CLI's session log (``<copilot home>/session-state/<session id>/events.jsonl``)
(docs/agent-conversations.md#github-copilot-cli).

One event a line, appended: ``{"type", "data", "id", "timestamp", "parentId"}``. Read here:
``session.start`` / ``session.resume`` (session id, version, model, cwd), ``user.message`` (the
person's prompt, ``data.content``), ``assistant.turn_start`` / ``assistant.turn_end`` (a model call
begins and ends), ``session.usage_record`` (the tokens of the model call whose answer follows),
``assistant.message`` (the answer, ``data.content``, and the tools it asks for,
``data.toolRequests``), ``tool.execution_start`` / ``tool.execution_complete`` of the ``sql``
tool, and ``session.shutdown`` (the process ended).

Copilot has no todo tool: the model keeps its todos with the ``sql`` tool in the session's
``session.db``, and the log holds them only as the text of the queries. Each ``sql`` call whose
``tool.execution_complete`` says ``success`` is replayed, in order, in an in-memory database of
Copilot's schema (``copilot_sql.py``, guarded so that no query reaches a file); when a call
changed the todos, the plan becomes what the database then holds. What the database file itself
holds is the truth; the conversation's ``Reading`` asks it after a sync (``copilot_db.py``) and
gives it to ``reconcile``: the reader never opens a file.
"""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING

from core.sources.copilot_sql import Replay
from core.sources.plan import text_of
from core.sources.reader import AGENT_ENDED, AGENT_WAITING, AGENT_WORKING, Reader

TOOL = "sql"
DATABASE_CALL = "session.db"
"""The call id of a plan event that comes from the session database rather than a call."""

if TYPE_CHECKING:  # (the type checker's alone: a TypedDict compiles its annotations as it is made)
    from core.sources.plan import PlanItem
    from core.sources.reader import Event, ReaderState

    class CopilotState(ReaderState):
        """What a Copilot reader saves: besides the plan, what the replay database was made of."""

        queries: list[str]  # every sql query replayed with success, in order
        pending: dict[str, str]  # sql calls started and not finished: call id -> query
        calls: bool  # the last answer asked for tools: the turn goes on after it ends


class CopilotReader(Reader):
    KIND = "copilot"

    def __init__(self, saved: CopilotState | None = None) -> None:
        super().__init__(saved)
        self.queries: list[str] = list(saved["queries"]) if saved else []
        self.pending: dict[str, str] = dict(saved["pending"]) if saved else {}
        self.calls: bool = saved["calls"] if saved else False
        self._replay: Replay | None = None  # made again from ``queries`` when first needed

    def save(self) -> CopilotState:
        return {**super().save(), "queries": self.queries, "pending": self.pending, "calls": self.calls}

    def feed(self, line: object) -> list[Event]:
        if not isinstance(line, dict):
            return []
        kind, data = line.get("type"), line.get("data")
        if not isinstance(kind, str) or not isinstance(data, dict):
            return []
        timestamp = line.get("timestamp")
        self.seen_at(timestamp)
        if kind in ("session.start", "session.resume"):
            self._set("sessionId", text_of(data.get("sessionId")))
            self._set("version", text_of(data.get("copilotVersion")))
            self._set("model", text_of(data.get("selectedModel")))
            context = data.get("context")
            if isinstance(context, dict):
                self._set("cwd", text_of(context.get("cwd")))
            self._status(AGENT_WAITING)
        elif kind == "user.message":
            content = text_of(data.get("content"))
            if content is None:
                self.warn("a user.message without content (ignored)")
                return []
            return self.user_prompt(content, timestamp) if content.strip() else []
        elif kind == "assistant.turn_start":
            self._status(AGENT_WORKING)
        elif kind == "assistant.turn_end":
            self._status(AGENT_WORKING if self.calls else AGENT_WAITING)
        elif kind == "session.usage_record":
            usage = data.get("usage")
            if isinstance(usage, dict):
                self._set("model", text_of(usage.get("model")))
                # (its ``cost`` is not in dollars: GitHub's premium requests; the price table prices it)
                self.tokens(usage.get("inputTokens"), usage.get("outputTokens"), usage.get("cacheReadTokens"),
                            usage.get("cacheWriteTokens"), timestamp=timestamp, model=text_of(usage.get("model")),
                            provider=text_of(usage.get("providerType")))
        elif kind == "assistant.message":
            return self._answer(data, timestamp)
        elif kind == "tool.execution_start":
            if data.get("toolName") == TOOL:
                arguments, call_id = data.get("arguments"), text_of(data.get("toolCallId"))
                query = text_of(arguments.get("query")) if isinstance(arguments, dict) else None
                if call_id is not None and query is not None:
                    self.pending[call_id] = query
        elif kind == "tool.execution_complete":
            self._status(AGENT_WORKING)  # a tool's answer going back to the model
            call_id = text_of(data.get("toolCallId"))
            query = self.pending.pop(call_id, None) if call_id is not None else None
            if query is not None and data.get("success") is True:
                return self._replayed(query, timestamp, call_id or "")
        elif kind == "session.shutdown":
            self._status(AGENT_ENDED)
        return []

    def _answer(self, data: dict[str, object], timestamp: object) -> list[Event]:
        model = text_of(data.get("model"))
        self._set("model", model)
        requests = data.get("toolRequests")
        self.calls = isinstance(requests, list) and bool(requests)
        if self.calls:
            self._status(AGENT_WORKING)
        content = data.get("content")
        if not isinstance(content, str):
            self.warn("an assistant.message without content (ignored)")
            return []
        if not content.strip():
            return []
        return self.assistant_text(content, timestamp, model, ends_turn=not self.calls)

    def _database(self) -> Replay:
        if self._replay is None:
            self._replay = Replay()
            for query in self.queries:  # (a reader taken from the cache: the same calls again)
                self._replay.run(query)
        return self._replay

    def _replayed(self, query: str, timestamp: object, call_id: str) -> list[Event]:
        """A successful ``sql`` call, replayed: the plan as the database then holds it."""
        replay = self._database()
        failed = replay.run(query)
        if failed is not None:
            self.warn(f"{TOOL}: a query Copilot ran could not be replayed ({failed}); "
                      "the plan follows the session database")
            return []
        self.queries.append(query)
        try:
            items = replay.plan()
        except sqlite3.Error as exc:  # (the model dropped or remade the todos table)
            self.warn(f"{TOOL}: the todos table cannot be read after a query ({type(exc).__name__}); "
                      "the plan is kept as it was")
            return []
        return self.new_plan(items, timestamp, TOOL, "todo", call_id)

    def reconcile(self, items: list[PlanItem] | None) -> list[Event]:
        """What the session database holds (``copilot_db.read_plan``; None: no database, or it could
        not be read) is the truth: when it differs from the plan read from the log, the plan becomes
        it, as of the last line read."""
        if items is None:
            return []
        return self.new_plan(items, None, TOOL, "todo", DATABASE_CALL)
