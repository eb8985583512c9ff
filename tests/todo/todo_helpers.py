"""Builders shared by the todo tests."""

from __future__ import annotations

from typing import Any


def item(id: str, status: str = "pending", conf: int = 70, **extra: Any) -> dict[str, Any]:
    d: dict[str, Any] = {
        "content": extra.pop("content", f"Task {id}"),
        "status": status,
        "priority": extra.pop("priority", "high"),
        "id": id,
        "confidence": conf,
    }
    d.update(extra)
    return d
