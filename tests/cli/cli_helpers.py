"""Helpers shared by the CLI tests."""

from __future__ import annotations

import json
from pathlib import Path


def read_lines(path: Path) -> list[dict]:
    """Every line of a session file, parsed."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
