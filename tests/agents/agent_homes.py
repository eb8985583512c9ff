"""Where the MCP server and hook tests keep pideck's and pi's folders (the ``homes`` fixture)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass
class Homes:
    """pideck's and pi's folders and a project directory, all under one temporary folder."""

    root: Path
    project: Path
