"""pi reads a session file as text (``readFileSync(path, "utf8")``), which turns bytes that
are not UTF-8 into U+FFFD; ``JSON.parse`` then accepts the line. pideck skipped such a line as
"invalid UTF-8", so an entry pi keeps (and restores state from) was missing from pideck's tree, and
its children lost their parent."""

from __future__ import annotations

import pytest

from session_helpers import HEADER, entry, line, message

from core.session.log import SessionLog
from core.session.parse import read_header

pytestmark = pytest.mark.read_three_ways  # (how lines are read: the split scan too, tests/conftest.py)


def test_a_line_with_bytes_that_are_not_utf8_is_read_as_pi_reads_it(tmp_path):
    bad = b'{"type":"custom","customType":"x","data":"a\xff\xfeb","id":"aaaaaaa2","parentId":"aaaaaaa1"}\n'
    data = line(HEADER) + line(entry("aaaaaaa1", None)) + bad + line(entry("aaaaaaa3", "aaaaaaa2"))
    path = tmp_path / "s.jsonl"
    path.write_bytes(data)
    log = SessionLog.open(path)
    assert [r.id for r in log.branch()] == ["aaaaaaa1", "aaaaaaa2", "aaaaaaa3"]
    assert log.entry("aaaaaaa2")["data"] == "a\ufffd\ufffdb"


def test_a_big_message_line_with_such_bytes_is_read_back(tmp_path):
    big = line(message("aaaaaaa2", "aaaaaaa1", "assistant", "y" * 3000)).replace(b"yyy", b"y\xc3y", 1)
    path = tmp_path / "s.jsonl"
    path.write_bytes(line(HEADER) + line(entry("aaaaaaa1", None)) + big)
    log = SessionLog.open(path)
    assert log.leaf_id == "aaaaaaa2" and log.warnings == []
    assert log.entry("aaaaaaa2")["message"]["content"][0]["text"].startswith("y\ufffdy")


def test_a_header_with_such_bytes_is_a_header(tmp_path):
    path = tmp_path / "s.jsonl"
    path.write_bytes(line(HEADER).replace(b"demo-project", b"demo-\xffproject"))
    assert read_header(path)["cwd"] == "/home/user/demo-\ufffdproject"
    assert SessionLog.open(path).cwd == "/home/user/demo-\ufffdproject"
