"""pi's tree read from the log: every branch leaf, labels, branch summaries and session names.
Expected values follow the generator's drawing of the tree (tests/fixtures/make_pi_sessionmanager_fixture.mjs)."""

from __future__ import annotations

from core.session.log import SessionLog
from core.views.tree import Branch, Label, Summary, read_tree
from history_helpers import BRANCHED, BRANCHED_084, SPEC_15_2, PiSession


def test_branched_fixture_1_6_0():
    tree = read_tree(SessionLog.open(BRANCHED, writable=False))
    assert tree.branches == (
        Branch("83e8628a", 36, 27, None, 0, None, True),  # T1..T12, B1..B10, F1..F5: the current branch
        Branch("b6231bac", 16, 17, "fa8ee7f1", 12, 0, False),  # A1..A5 off T12
        Branch("bab39169", 31, 27, "69bb99f3", 22, 0, False),  # L1..L5 off B10
    )
    # F5 cleared T4's label checkpoint-1; F2's label on B1 stands
    assert tree.labels == (Label("505aa600", "streaming-start", "80f95293", 0),)
    # 1.6.0 records the leaf it left as fromId
    assert tree.summaries == (Summary("9b75b179", "bab39169", "Tried a late experiment and abandoned it.", 0),)
    assert tree.names == (("35491fb0", "Parser work"), ("fd78b857", "Streaming parser"))
    assert tree.name == "Streaming parser"


def test_branched_fixture_0_84_2():
    tree = read_tree(SessionLog.open(BRANCHED_084, writable=False))
    assert [(b.leaf, b.length, b.fork, b.current) for b in tree.branches] == [
        ("9b11c5bc", 27, None, True), ("037610f5", 17, "38df7292", False), ("900f5503", 27, "f8b3da8d", False)]
    assert tree.labels == (Label("8a08b012", "streaming-start", "8f9484ce", 0),)
    # 0.84.2 records the entry it branches from
    assert tree.summaries == (Summary("6eae3f9a", "f8b3da8d", "Tried a late experiment and abandoned it.", 0),)


def test_spec_example_two_leaves():
    tree = read_tree(SessionLog.open(SPEC_15_2, writable=False))
    assert [(b.leaf, b.length, b.fork, b.parent, b.current) for b in tree.branches] == [
        ("73a3a127", 4, None, None, True), ("3e22ee9e", 4, "e5933a35", 0, False)]
    assert tree.labels == () and tree.summaries == () and tree.names == ()


def test_nested_branches_and_relabels(tmp_path):
    s = PiSession(tmp_path / "t.jsonl")
    root = s.user("a")
    b = s.user("b")
    s.user("c")  # leaf 1 (abandoned)
    s.user("d", parent=b)
    d2 = s.user("e")
    s.user("f", parent=root)  # leaf 3 (abandoned)
    s.user("g", parent=d2)  # leaf 2
    s.put({"type": "label", "targetId": b, "label": "one"})
    s.put({"type": "label", "targetId": root, "label": "zero"})
    s.put({"type": "label", "targetId": b, "label": "two"})  # relabelled: moves to the end
    tree = read_tree(SessionLog.open(s.path, writable=False))
    assert [(b.leaf, b.length, b.fork, b.parent) for b in tree.branches] == [
        ("e0000010", 8, None, None), ("e0000003", 3, "e0000002", 0), ("e0000006", 2, "e0000001", 0)]
    assert [(lab.target, lab.label) for lab in tree.labels] == [("e0000001", "zero"), ("e0000002", "two")]
