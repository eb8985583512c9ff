"""``pideck run/tool/inspect/sessions``: exact output, exit codes and what lands in the log."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

from cli_helpers import read_lines

from core.config.places import encode_cwd


def test_run_prints_messages_and_exits_0_when_all_are_info(pideck, tmp_path):
    s = tmp_path / "s.jsonl"
    assert pideck("run", "--session", str(s), "/agent-state add a Do it") == (
        0, 'Agent State: added work item "a".\n', "")
    lines = read_lines(s)
    assert lines[0]["type"] == "session" and lines[0]["version"] == 3
    assert lines[1]["customType"] == "agent-state-state"
    assert lines[1]["data"] == {"schemaVersion": 1, "state": {"schemaVersion": 1, "workItems": [
        {"id": "a", "content": "Do it", "status": "open"}], "decisions": []}}
    assert lines[1]["parentId"] is None


def test_run_exits_1_on_a_warning_and_appends_nothing(pideck, tmp_path):
    s = tmp_path / "s.jsonl"
    pideck("run", "--session", str(s), "/agent-state add a Do it")
    size = s.stat().st_size
    assert pideck("run", "--session", str(s), "/agent-state add a Again") == (
        1, 'Agent State: duplicate work item id "a".\n', "")
    assert pideck("run", "--session", str(s), "/agent-state") == (1, (
        "Usage: /agent-state status | objective <text...> | add <id> <content...> | set <id> "
        "<open|in_progress|blocked|done> | remove <id> | decide <id> <content...> | clear --yes\n"), "")
    assert s.stat().st_size == size


def test_run_unknown_command_is_a_warning(pideck, tmp_path):
    code, out, _ = pideck("run", "--session", str(tmp_path / "s.jsonl"), "/nope x")
    assert code == 1
    assert out == 'Unknown command "/nope". Commands: /agent-state, /agent-progress, /agent-handoff, /todos.\n'


def test_tool_prints_result_text_and_errors_are_texts(pideck, tmp_path):
    s = str(tmp_path / "s.jsonl")
    assert pideck("tool", "--session", s, "agent_state_add_work_item", '{"id": "a", "content": "Do it"}') == (
        0, 'Agent State: added work item "a".\n', "")
    assert pideck("tool", "--session", s, "agent_state_add_work_item", '{"id": "", "content": ""}') == (
        0, "Agent State: invalid agent state input.\n", "")
    assert pideck("tool", "--session", s, "agent_state_get") == (0, (
        "Agent State: no objective, 1 work item (1 open, 0 in_progress, 0 blocked, 0 done), 0 decisions.\n"
        "Work items:\n- a [open]: Do it\n"), "")


def test_tool_reads_params_from_stdin(pideck, tmp_path):
    s = str(tmp_path / "s.jsonl")
    assert pideck("tool", "--session", s, "agent_progress_add_milestone", "-",
                  stdin='{"milestone": "first"}') == (0, 'Agent Progress: added milestone "first".\n', "")


def test_tool_unknown_name_and_malformed_json_exit_2(pideck, tmp_path):
    s = tmp_path / "s.jsonl"
    code, out, err = pideck("tool", "--session", str(s), "no_such_tool", "{}")
    assert (code, out) == (2, "")
    assert err.startswith('pideck tool: Unknown tool "no_such_tool". Tools: agent_state_get, ')
    code, out, err = pideck("tool", "--session", str(s), "agent_state_get", "{not json")
    assert (code, out) == (2, "")
    assert err.startswith("pideck tool: malformed JSON parameters: ")


def test_inspect_json_has_the_documented_shape(pideck, tmp_path):
    s = tmp_path / "s.jsonl"
    pideck("run", "--session", str(s), "/agent-state objective Ship it")
    pideck("run", "--session", str(s), "/agent-progress add first")
    pideck("tool", "--session", str(s), "agent_handoff_create",
           '{"schemaVersion": 1, "id": "h1", "source": "me", "goal": "Review"}')
    code, out, err = pideck("inspect", "--session", str(s), "--json")
    assert (code, err) == (0, "")
    got = json.loads(out)
    lines = read_lines(s)
    assert got["session"] == {"path": str(s), "id": lines[0]["id"], "cwd": os.getcwd(), "writable": True,
                              "entries": 3, "leaf": lines[-1]["id"], "branch_length": 3}
    assert got["state"] == {"schemaVersion": 1, "workItems": [], "decisions": [], "objective": "Ship it"}
    assert got["progress"] == {"hasBaseline": False, "currentMilestones": ["first"], "recordedMilestones": []}
    assert got["handoff"] == {"packets": [{"schemaVersion": 1, "id": "h1", "source": "me", "goal": "Review"}]}
    assert got["todo"] is None and got["warnings"] == []
    assert got["usage"] is None  # (no answer was paid for: docs/usage.md#the-usage-object)
    assert list(got) == ["session", "state", "progress", "handoff", "todo", "warnings", "usage"]


def test_inspect_json_state_is_null_and_warns_on_an_invalid_newest_entry(pideck, tmp_path):
    s = tmp_path / "s.jsonl"
    pideck("run", "--session", str(s), "/agent-state objective Ship it")
    with s.open("a", encoding="utf-8") as fh:
        fh.write(json.dumps({"type": "custom", "customType": "agent-state-state", "data": {"schemaVersion": 1},
                             "id": "abcdef01", "parentId": read_lines(s)[-1]["id"],
                             "timestamp": "2026-11-30T10:00:00.000Z"}) + "\n")
    got = json.loads(pideck("inspect", "--session", str(s), "--json")[1])
    assert got["state"] is None
    assert got["warnings"] == ["Agent State: persisted state was invalid; starting with empty state."]


def test_inspect_text_shows_every_status(pideck, tmp_path):
    s = tmp_path / "s.jsonl"
    pideck("run", "--session", str(s), "/agent-state objective Ship it")
    code, out, _ = pideck("inspect", "--session", str(s))
    assert code == 0
    assert "Agent State: objective: Ship it, 0 work items, 0 decisions.\n" in out
    assert "Agent Progress: 0 declared milestones; baseline not established (0 recorded milestones).\n" in out
    assert "Agent Handoff: 0 packets in the current session.\n" in out
    assert "# Todos" in out


def test_a_missing_path_becomes_a_new_private_pideck_session(pideck, tmp_path):
    s = tmp_path / "deep" / "new.jsonl"
    assert pideck("run", "--session", str(s), "/agent-state status")[0] == 0
    header = read_lines(s)
    assert len(header) == 1 and header[0]["type"] == "session" and header[0]["cwd"] == os.getcwd()
    assert stat.S_IMODE(s.stat().st_mode) == 0o600


def test_default_session_is_the_newest_for_the_cwd_else_a_new_one(pideck, tmp_path, isolated):
    assert pideck("sessions") == (0, "No sessions for this directory. `pideck` starts one.\n", "")
    pideck("run", "/agent-state objective First")
    folder = tmp_path / "pideck-home" / "sessions" / encode_cwd(isolated)
    files = list(folder.glob("*.jsonl"))
    assert len(files) == 1
    pideck("run", "/agent-state add a Do it")  # same (newest) session again
    assert len(list(folder.glob("*.jsonl"))) == 1 and len(read_lines(files[0])) == 3
    code, out, _ = pideck("sessions")
    assert code == 0 and out.splitlines()[0].split() == ["KIND", "ENTRIES", "SIZE", "LAST", "CHANGE", "PATH"]
    assert out.splitlines()[1].split()[:2] == ["pideck", "2"] and str(files[0]) in out


def test_pideck_session_env_var_selects_the_file(pideck, tmp_path, monkeypatch):
    s = tmp_path / "env.jsonl"
    monkeypatch.setenv("PIDECK_SESSION", str(s))
    pideck("run", "/agent-progress add m")
    assert read_lines(s)[1]["data"]["currentMilestones"] == ["m"]


def _pi_session(tmp_path: Path, cwd: Path) -> Path:
    folder = tmp_path / "pi-agent" / "sessions" / encode_cwd(cwd)
    folder.mkdir(parents=True)
    path = folder / "2026-11-30T10-00-00-000Z_01a22cf3-ee8a-76c4-ac31-d27625d5469f.jsonl"
    path.write_text(
        '{"type":"session","version":3,"id":"01a22cf3-ee8a-76c4-ac31-d27625d5469f",'
        f'"timestamp":"2026-11-30T10:00:00.000Z","cwd":"{cwd}"}}\n', encoding="utf-8")
    return path


def test_pi_sessions_are_read_only_unless_write(pideck, tmp_path, isolated):
    pi = _pi_session(tmp_path, isolated)
    before = pi.read_bytes()
    code, out, err = pideck("run", "/agent-state objective Mine")
    assert (code, out) == (1, "") and "read-only" in err and "--write" in err
    assert pi.read_bytes() == before
    # a refused write is a failure for a harness too (it was exit 0 from `tool`), the hint on stderr
    code, out, err = pideck("tool", "--session", str(pi), "agent_state_add_work_item", '{"id":"a","content":"x"}')
    assert (code, out) == (1, "") and "read-only" in err and pi.read_bytes() == before
    code, out, _ = pideck("tool", "--session", str(pi), "agent_state_get")  # reads still answer there
    assert code == 0 and out.startswith("Agent State: no objective")
    assert json.loads(pideck("inspect", "--json")[1])["session"]["writable"] is False
    assert pideck("run", "--write", "/agent-state objective Mine") == (0, "Agent State: objective updated.\n", "")
    assert read_lines(pi)[-1]["data"]["state"]["objective"] == "Mine"
    before = pi.read_bytes()
    # an agent's tool call named no session: it goes to a pideck session of the directory, never pi's
    assert pideck("tool", "agent_state_add_work_item", '{"id":"a","content":"x"}') == (
        0, 'Agent State: added work item "a".\n', "")
    (made,) = (tmp_path / "pideck-home" / "sessions" / encode_cwd(isolated)).glob("*.jsonl")
    assert read_lines(made)[-1]["data"]["state"]["workItems"][0]["id"] == "a" and pi.read_bytes() == before


def test_help_and_version(pideck):
    code, out, _ = pideck("--version")
    assert (code, out) == (0, "pideck 0.1.0\n")
    for command in ("run", "tool", "inspect", "sessions", "gate", "config"):
        code, out, _ = pideck(command, "--help")
        assert code == 0 and out.startswith(f"usage: pideck {command}")


def test_usage_errors_are_clear(pideck):
    code, _, err = pideck("run")
    assert code == 2 and "the following arguments are required: LINE" in err


def test_a_file_that_is_not_a_session_gives_a_clear_error(pideck, tmp_path):
    bad = tmp_path / "notes.jsonl"
    bad.write_text('{"hello": "world"}\n', encoding="utf-8")
    code, out, err = pideck("inspect", "--session", str(bad))
    assert (code, out) == (1, "")
    assert err == f"pideck: {bad} is not a pi session file: line 1 is not a session header\n"


class _Terminal:
    """A stdout that says it is a terminal and keeps what was written."""

    def __init__(self) -> None:
        self.text = ""

    def isatty(self) -> bool:
        return True

    def write(self, s: str) -> int:
        self.text += s
        return len(s)

    def flush(self) -> None:
        pass


def test_log_text_cannot_drive_a_terminal_but_is_exact_when_piped(pideck, tmp_path, monkeypatch):
    s = str(tmp_path / "s.jsonl")
    hostile = "\x1b]0;pwned\x07\x1b[2J[red]x[/red]"
    assert pideck("tool", "--session", s, "agent_state_add_decision",
                  json.dumps({"id": "d", "content": hostile}))[0] == 0
    code, out, _ = pideck("tool", "--session", s, "agent_state_get")  # piped: byte-exact upstream text
    assert out.endswith(f"- d: {hostile}\n")
    terminal = _Terminal()
    monkeypatch.setattr("sys.stdout", terminal)
    from core.cli.main import main

    assert main(["tool", "--session", s, "agent_state_get"]) == 0
    assert "\x1b" not in terminal.text and "\x07" not in terminal.text
    assert terminal.text.endswith("- d: ␛]0;pwned␇␛[2J[red]x[/red]\n")
    terminal.text = ""
    assert main(["inspect", "--session", s, "--json"]) == 0
    assert "\x1b" not in terminal.text
    assert json.loads(terminal.text)["state"]["decisions"][0]["content"] == hostile


def test_line_separators_and_c1_controls_never_reach_a_terminal_and_json_stays_json(pideck, tmp_path, monkeypatch):
    """U+2028 and U+2029 would break a line where the log has none; on a terminal they show as
    escapes, as C1 controls do. JSON printed to a terminal (``watch --json`` too) escapes them as
    JSON does, so it still parses to the exact text (``\x9b`` is no JSON escape)."""
    from core.cli.main import main
    from core.config.places import pideck_sessions_dir

    hostile = "one\u2028two\u2029three\x9b[2J\x85end"
    folder = pideck_sessions_dir(os.getcwd())
    folder.mkdir(parents=True)
    s = str(folder / f"{hostile}.jsonl")
    assert pideck("tool", "--session", s, "agent_state_add_decision", json.dumps({"id": "d", "content": hostile}))[0] == 0
    terminal = _Terminal()
    monkeypatch.setattr("sys.stdout", terminal)
    assert main(["inspect", "--session", s]) == 0
    for raw in ("\u2028", "\u2029", "\x9b", "\x85"):
        assert raw not in terminal.text
    assert "one\\u2028two\\u2029three\\x9b[2J\\x85end" in terminal.text

    def interrupted(seconds: float) -> None:
        raise KeyboardInterrupt

    terminal.text = ""
    monkeypatch.setattr("time.sleep", interrupted)
    assert main(["watch", "--json"]) == 0
    (line,) = terminal.text.splitlines()
    assert line.isascii()
    assert json.loads(line)["name"] == f"{hostile}.jsonl"


def test_a_directory_path_longer_than_a_folder_name_gets_its_session(pideck, tmp_path, monkeypatch):
    """pi's folder name for a directory is the whole path; past 255 bytes no system can make it.
    pideck's folder is cut at 200 bytes and ends in a hash of the path: two deep directories with
    the same first 200 characters keep apart."""
    deep = tmp_path / "/".join(["d" * 60] * 5)
    twin = tmp_path / "/".join(["d" * 60] * 4 + ["e" * 60])
    for where in (deep, twin):
        where.mkdir(parents=True)
        monkeypatch.chdir(where)
        code, out, err = pideck("tool", "todo", json.dumps({"todos": [{"id": where.name[0], "content": "Deep work",
                                                                        "status": "pending", "priority": "high",
                                                                        "confidence": 80}]}))
        assert (code, err) == (0, ""), err
    folders = sorted(p.name for p in (tmp_path / "pideck-home" / "sessions").iterdir())
    assert len(folders) == 2 and all(len(name.encode()) <= 200 for name in folders)
    monkeypatch.chdir(deep)
    code, out, _ = pideck("inspect", "--json")
    assert [t["id"] for t in json.loads(out)["todo"]["todos"]] == ["d"]
    assert pideck("overview")[1].count("Deep work") == 0 and len(pideck("overview")[1].splitlines()) == 2
