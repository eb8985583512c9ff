"""Review: a version < 3 file reads the message role ``hookMessage`` as ``custom`` (pi-session.md
§17.1.7) in the index too: a big message line indexed from its head kept ``hookMessage`` as its
role while its body read back as ``custom``."""

from __future__ import annotations

from session_helpers import HEADER, line

from core.session import SessionLog


def test_a_big_hook_message_of_a_version_2_file_is_a_custom_message(tmp_path):
    big = {"type": "message", "id": "aaaaaaa1", "parentId": None, "timestamp": "2026-11-30T14:53:16.480Z",
           "message": {"role": "hookMessage", "customType": "x", "content": "y" * 3000, "display": True}}
    path = tmp_path / "s.jsonl"
    path.write_bytes(line(dict(HEADER, version=2)) + line(big) + line(dict(big, id="aaaaaaa2", parentId="aaaaaaa1")))
    log = SessionLog.open(path)
    assert not log.writable
    assert [(r.id, r.role) for r in log.records] == [("aaaaaaa1", "custom"), ("aaaaaaa2", "custom")]
    assert [r["message"]["role"] for r in log.branch()] == ["custom", "custom"]
