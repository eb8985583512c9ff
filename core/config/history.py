"""The command lines a person typed, kept beside the config file between runs
(docs/tui.md#settings).

One JSON string per line (a pasted line may hold any character), appended as each command runs;
reading keeps the newest ``limit`` and rewrites the file when it has grown past twice that, so it
never grows without bound. Problems reading or writing are ignored: history is a convenience.
"""

from __future__ import annotations

import json
from pathlib import Path

from core.config.settings import config_path


def history_path() -> Path:
    return config_path().with_name("command-history.jsonl")


def load_history(limit: int, path: Path | None = None) -> list[str]:
    path = path or history_path()
    try:
        raw = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return []
    lines: list[str] = []
    for text in raw:
        try:
            line = json.loads(text)
        except ValueError:
            continue
        if isinstance(line, str) and line.strip():
            lines.append(line)
    kept = lines[-limit:] if limit > 0 else []
    if len(raw) > 2 * max(limit, 1):
        _write(path, kept)
    return kept


def append_history(line: str, path: Path | None = None) -> None:
    path = path or history_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("a", encoding="utf-8") as fh:
            fh.write(json.dumps(line, ensure_ascii=False) + "\n")
    except OSError:
        pass


def _write(path: Path, lines: list[str]) -> None:
    try:
        path.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines), encoding="utf-8")
    except OSError:
        pass
