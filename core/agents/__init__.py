"""pideck beside other coding agents: the configs that make Claude Code, Codex, Gemini CLI and
Cursor start ``pideck mcp`` and call ``pideck hook`` (``pideck install``)."""
