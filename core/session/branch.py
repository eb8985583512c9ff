"""The current branch as positions in the entry index: kept up to date as entries are indexed, and
the questions every log answers about it (docs/session-format.md#the-branch-rule).

``follow_leaf`` is how the indexer (``indexing.py``) keeps the branch without walking the tree
each time the leaf moves. The queries below take the branch as a list of positions, so a live
session (``log.py``) and the session as it was at one entry (``cut.py``) answer them with the
same code over their own branch. Each finds what it wants from the index alone (``index.py``) and
reads only the bodies of the entries it returns. The whole tree (every branch, labels, names)
is ``tree.py``'s.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import compress
from typing import TYPE_CHECKING, Any, Callable, Literal

from core.session.index import PENDING, EntryIndex, Kind
from core.session.records import EntryRecord, Records

if TYPE_CHECKING:
    from core.session.entry import Entry, Tokens

FORK_REACH = 256
"""How far back from the leaf a new entry's parent is looked for on the branch (see ``follow_leaf``)."""

Wanted = Callable[[str | None, str | None, str | None, str | None], bool]
"""``wanted(type, customType, role, toolName)``: picks entries by what the index knows of them."""

Picked = tuple[list[tuple[int, Kind, int]], int, Callable[[int], EntryRecord], "EntryRecord | None"]
"""What ``select`` returns: (branch position, kind, key) triples, the branch length,
``record_at(key)`` and the branch's last record."""


def follow_leaf(branch: list[int], index: EntryIndex, i: int, parent_at: int, entry_id: str) -> list[int] | None:
    """The branch once entry ``i`` became the leaf (no walk from the leaf): it grows by one,
    starts anew at a root, or forks off an entry a little before the old leaf (a /tree jump);
    anything else gives None, for the branch to be walked again when asked for. ``branch`` is
    changed in place."""
    if parent_at == PENDING:  # a parent id not seen before it, maybe its own: pi decides by id
        return None
    if parent_at < 0:
        return [i]
    if not branch or branch[-1] != parent_at:
        for k in range(len(branch) - 2, max(len(branch) - FORK_REACH, 0) - 1, -1):
            if branch[k] == parent_at:
                del branch[k + 1:]
                break
        else:
            return None
    branch.append(i)
    if index.pending.get(branch[0]) == entry_id:
        # The root pointed at this id: a cycle. Leave it to the walk, which warns of the cycles
        # of the branch as it is when asked for, as a fresh read does (an entry appended later
        # may leave this one off the branch; a warning now would tell of a state that passed).
        return None
    return branch


def select(
    index: EntryIndex, records: Records, branch: list[int], wanted: Wanted, start: int = 0,
    anchor: Mapping[str, Any] | None = None,
) -> Picked | None:
    """The entries of ``branch`` from position ``start`` on that ``wanted`` picks (see
    ``SessionLog.branch_select``); None when the entry at ``start - 1`` is no longer ``anchor``."""
    if start and (len(branch) < start or records.record(branch[start - 1]) is not anchor):
        return None
    codes, kinds, table = index.codes(wanted), index.kinds, index.kind_table
    # the positions are found in C (a map over the branch); only the picked ones cost a step
    hits = compress(range(start, len(branch)), map(codes.__contains__, map(kinds.__getitem__, branch[start:])))
    picked = [(p, table[kinds[branch[p]]], branch[p]) for p in hits]
    return picked, len(branch), records.record, records.record(branch[-1]) if branch else None


def newest(index: EntryIndex, records: Records, positions: Sequence[int], wanted: Wanted) -> EntryRecord | None:
    """The record of the last of ``positions`` whose entry ``wanted`` picks, or None."""
    codes, kinds = index.codes(wanted), index.kinds
    if codes:
        for i in reversed(positions):
            if kinds[i] in codes:
                return records.record(i)
    return None


def newest_custom(index: EntryIndex, records: Records, branch: list[int], custom_type: str) -> Entry | None:
    """The newest ``custom`` entry of ``custom_type`` on ``branch``, or None."""
    found = newest(index, records, branch, lambda kind, ct, role, tool: kind == "custom" and ct == custom_type)
    return found.load() if found is not None else None


def last_turn_tokens(index: EntryIndex, records: Records, branch: list[int]) -> Tokens | None:
    """The token use of the newest answer on ``branch``: an assistant message's ``usage`` (pi's:
    input, output, cacheRead, cacheWrite, totalTokens), or a ``usage`` entry's (what a followed
    agent's answer is, core/sources/reader.py); None when it says none."""
    found = newest(index, records, branch,
                   lambda kind, ct, role, tool: kind == "usage" or (kind == "message" and role == "assistant"))
    if found is not None and found.type == "usage":
        return usage_tokens(found.get("usage"))
    message = found.get("message") if found is not None else None
    return usage_tokens(message.get("usage")) if isinstance(message, dict) else None


_USAGE_COUNTS: tuple[Literal["input", "output", "cacheRead", "cacheWrite", "totalTokens"], ...] = (
    "input", "output", "cacheRead", "cacheWrite", "totalTokens")
"""The counts of pi's ``usage`` that pideck shows, in pi's order."""


def usage_tokens(usage: Any) -> Tokens | None:
    """pi's ``usage`` of an assistant message as the token counts pideck shows; None when it holds
    none (a count that is not a whole number of 0 or more is left out)."""
    if not isinstance(usage, dict):
        return None
    counts: Tokens = {}
    for key in _USAGE_COUNTS:
        if type(count := usage.get(key)) is int and count >= 0:
            counts[key] = count
    return counts or None
