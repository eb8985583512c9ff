"""Every entry pideck writes says who had it written (docs/session-format.md#who-wrote-an-entry),
and the activity view names that writer: a person's ``pideck run``, an agent's ``pideck tool``."""

from __future__ import annotations

import json
from pathlib import Path

from core.session.log import SessionLog
from core.views.activity import Activity


def test_run_is_the_persons_and_tool_the_agents(pideck, tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    assert pideck("run", "--session", str(path), "/agent-state add parse Write the parser")[0] == 0
    assert pideck("tool", "--session", str(path), "agent_state_add_work_item",
                  '{"id": "tail", "content": "Tail the file"}')[0] == 0
    assert pideck("run", "--session", str(path), "/agent-progress judge")[0] == 0
    lines = [json.loads(line) for line in path.read_text().splitlines()[1:]]
    assert [(line["customType"], line["pideckBy"]) for line in lines] == [
        ("agent-state-state", "person"), ("agent-state-state", "agent"),
        ("agent-progress-state", "person"), ("pideck/progress-verdict", "person")]
    events = Activity(SessionLog.open(path, writable=False)).update().new
    assert [(e.source, e.text) for e in events] == [
        ("command", "work item parse added"), ("tool", "work item tail added"),
        ("command", "verdict: baseline set (0 milestones)")]
