"""pideck beside other coding agents: the configs that make Claude Code, Codex, Gemini CLI, Qwen
Code and Cursor start ``pideck mcp`` and call ``pideck hook`` (``pideck install``)."""

NAMES = ("claude", "codex", "gemini", "qwen", "cursor")
"""The agents ``pideck install`` knows (``targets.AGENTS`` describes each), named here so that the
command line's grammar does not load their descriptions."""
