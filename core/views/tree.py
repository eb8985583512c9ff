"""The entry tree and the current branch, as pi computes them (docs/session-format.md#the-branch-rule).

- The leaf is the last entry of the file (file order), not a pointer stored anywhere.
- The branch is the ``parentId`` chain from the leaf up to a root: it ends at a ``null`` parent or at
  a parent id that names no entry.
- Duplicate ids: pi indexes entries in a map filled in file order, so the **later** entry with an id
  wins when a ``parentId`` is resolved. pideck does the same and warns.
- A cycle (pi would loop forever) ends the branch at the first id seen twice; pideck warns.
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Mapping, Sequence, TypeVar

from core.session.records import EntryRecord

if TYPE_CHECKING:
    from core.session.interface import IndexedLog

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


# -- every branch of a session, with pi's labels, branch summaries and names ------------------------


@dataclass(frozen=True)
class Branch:
    """One branch of the tree: the path from the root to ``leaf`` (an entry without children).
    ``fork`` is the entry where it leaves the branch it hangs off (``parent``, an index into
    ``SessionTree.branches``), None for the first branch, the one ending at the file's last entry."""

    leaf: str
    leaf_position: int
    length: int  # entries from the root to the leaf
    fork: str | None
    fork_length: int  # entries from the root to the fork (0 without one)
    parent: int | None
    current: bool


@dataclass(frozen=True)
class Label:
    """A label pi shows on an entry (the newest ``label`` entry for it; a cleared one is gone)."""

    target: str
    label: str
    entry: str  # the label entry that set it
    branch: int | None  # the branch the target sits on (index into ``branches``), None if unknown


@dataclass(frozen=True)
class Summary:
    """A ``branch_summary`` entry: pi's summary of the branch it left (``from_id``)."""

    entry: str
    from_id: str | None
    summary: str
    branch: int | None  # the branch the summary entry sits on


@dataclass(frozen=True)
class SessionTree:
    branches: tuple[Branch, ...]  # the current branch first, then the others by leaf, in file order
    labels: tuple[Label, ...]  # in the order they were set
    summaries: tuple[Summary, ...]
    names: tuple[tuple[str, str], ...]  # (session_info entry, name), in file order

    @property
    def name(self) -> str | None:
        return self.names[-1][1] if self.names else None


def read_tree(log: IndexedLog) -> SessionTree:
    """Every branch of ``log`` with the labels, summaries and names its entries hold. Costs one pass
    over the index plus the bodies of those few entries."""
    index = log.index
    count = len(index)
    if not count:
        return SessionTree((), (), (), ())
    if index.pending or index.duplicates:
        parent_of = [index.parent_position(i) for i in range(count)]
    else:
        parent_of = list(index.parents)
    with_children = set(parent_of)
    leaves = [i for i in range(count - 1) if i not in with_children]
    depth = array("q", [-1]) * count  # entries from the root, once walked
    owner = array("q", [-1]) * count  # the branch an entry was first walked for
    branches: list[Branch] = []
    for leaf in [count - 1, *leaves]:
        steps: list[int] = []
        i = leaf
        while i >= 0 and depth[i] < 0 and len(steps) <= count:  # (a cycle cannot outrun the count)
            steps.append(i)
            parent = parent_of[i]
            i = parent if parent != i else -1
        fork = i if i >= 0 and depth[i] >= 0 else -1
        base = depth[fork] if fork >= 0 else 0
        for n, step in enumerate(reversed(steps), 1):
            depth[step], owner[step] = base + n, len(branches)
        branches.append(Branch(
            leaf=index.ids[leaf], leaf_position=leaf, length=base + len(steps),
            fork=index.ids[fork] if fork >= 0 else None, fork_length=base,
            parent=owner[fork] if fork >= 0 else None, current=leaf == count - 1,
        ))

    def branch_of(entry_id: Any) -> int | None:
        position = index.positions.get(entry_id) if isinstance(entry_id, str) else None
        return owner[position] if position is not None and owner[position] >= 0 else None

    labels: dict[str, Label] = {}
    summaries: list[Summary] = []
    names: list[tuple[str, str]] = []
    codes = index.codes(lambda kind, ct, role, tool: kind in ("label", "branch_summary", "session_info"))
    kinds = index.kinds
    for i in (i for i in range(count) if kinds[i] in codes):
        entry = log.records.record(i)
        kind = entry.get("type")
        if kind == "label":
            target, label = entry.get("targetId"), entry.get("label")
            if not isinstance(target, str):
                continue
            labels.pop(target, None)  # a label set again moves to the end, as a new one
            if isinstance(label, str) and label:  # pi clears a label with an empty or missing one
                labels[target] = Label(target, label, entry.id, branch_of(target))
        elif kind == "branch_summary":
            from_id, summary = entry.get("fromId"), entry.get("summary")
            summaries.append(Summary(entry.id, from_id if isinstance(from_id, str) else None,
                                     summary if isinstance(summary, str) else "", owner[i] if owner[i] >= 0 else None))
        elif isinstance(name := entry.get("name"), str):
            names.append((entry.id, name))
    return SessionTree(tuple(branches), tuple(labels.values()), tuple(summaries), tuple(names))
