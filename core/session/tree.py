"""The entry tree and the current branch, as pi computes them (docs/session-format.md#the-branch-rule).

- The leaf is the last entry of the file (file order), not a pointer stored anywhere.
- The branch is the ``parentId`` chain from the leaf up to a root: it ends at a ``null`` parent or at
  a parent id that names no entry.
- Duplicate ids: pi indexes entries in a map filled in file order, so the **later** entry with an id
  wins when a ``parentId`` is resolved. pideck does the same and warns.
- A cycle (pi would loop forever) ends the branch at the first id seen twice; pideck warns.
"""

from __future__ import annotations

from typing import Mapping, Sequence, TypeVar

from .records import EntryRecord

R = TypeVar("R", bound=EntryRecord)


def branch_path(leaf: R | None, by_id: Mapping[str, R]) -> tuple[list[R], str | None]:
    """Entries from the root to ``leaf``, and the id where a cycle cut the walk (or None)."""
    path: list[R] = []
    seen: set[str] = set()
    node = leaf
    while node is not None:
        if node.id in seen:
            path.reverse()
            return path, node.id
        seen.add(node.id)
        path.append(node)
        parent = node.parent_id
        node = by_id.get(parent) if parent is not None else None
    path.reverse()
    return path, None


def children(records: Sequence[R], parent_id: str | None) -> list[R]:
    """Entries whose parent is ``parent_id`` (roots for None), in file order."""
    return [r for r in records if r.parent_id == parent_id]
