"""Following the conversations of agents that plan with tools of their own: Claude Code (the Task
tools, TodoWrite), Codex (update_plan) and Gemini CLI (write_todos), always read-only
(docs/agent-conversations.md)."""
