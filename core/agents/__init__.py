"""pideck beside other coding agents: the configs that make Claude Code, Codex, Gemini CLI, Qwen
Code, GitHub Copilot CLI and Cursor start ``pideck mcp`` or call ``pideck hook`` (``pideck install``)."""

NAMES = ("claude", "codex", "gemini", "qwen", "copilot", "cursor")
"""The agents ``pideck install`` knows (``targets.AGENTS`` describes each), named here so that the
command line's grammar does not load their descriptions."""
