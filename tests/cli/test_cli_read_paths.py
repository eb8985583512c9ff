"""The read-only boundary (issue 9, item 6): the read paths (`inspect`, `sessions`, `gate`) never
create anything; a new file inside pi's folders needs --write; a file is pi's whatever the link it
is reached by."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from cli_helpers import read_lines
from core.session.log import SessionLog
from core.session.errors import PI_SESSION_READ_ONLY


def everything_under(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*"))


def pi_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "pi-agent" / "sessions" / "--home-ana-project--"
    folder.mkdir(parents=True)
    return folder


def test_inspect_on_a_mistyped_path_creates_nothing(pideck, tmp_path):
    before = everything_under(tmp_path)
    missing = tmp_path / "typo" / "deeper" / "s.jsonl"
    for argv in (["inspect", "--session", str(missing)], ["inspect", "--json", "--session", str(missing)]):
        assert pideck(*argv) == (1, "", f"pideck: no session file at {missing}\n")
    assert everything_under(tmp_path) == before


def test_inspect_inside_pi_folders_creates_nothing_and_says_there_is_no_file(pideck, tmp_path):
    missing = pi_folder(tmp_path) / "typo.jsonl"
    assert pideck("inspect", "--session", str(missing)) == (1, "", f"pideck: no session file at {missing}\n")
    assert not missing.exists()


def test_inspect_with_no_session_for_the_directory_creates_nothing(pideck, tmp_path, isolated):
    before = everything_under(tmp_path)
    assert pideck("inspect") == (1, "", f"pideck: no session for {isolated} yet\n")
    assert pideck("sessions")[0] == 0
    assert everything_under(tmp_path) == before


def test_gate_creates_nothing(pideck, tmp_path):
    before = everything_under(tmp_path)
    assert pideck("gate") == (0, "", "")  # no session for this directory: nothing to settle
    missing = tmp_path / "typo.jsonl"
    # a wrong path is an error, but not exit 2: that would tell a harness to keep the agent going
    assert pideck("gate", "--session", str(missing)) == (1, "", f"pideck: no session file at {missing}\n")
    assert everything_under(tmp_path) == before


def test_a_new_file_inside_pi_folders_needs_write(pideck, tmp_path):
    new = pi_folder(tmp_path) / "new.jsonl"
    for argv in (["run", "--session", str(new), "/agent-state add a Do it"],
                 ["tool", "--session", str(new), "agent_state_get"]):
        code, out, err = pideck(*argv)
        assert (code, out) == (1, "")  # a refusal, as every write refused (docs/session-format.md)
        assert err == (f"pideck: no session file at {new}, and pideck creates files inside pi's session "
                       "folders only with --write. Nothing was changed.\n")
        assert not new.exists()
    assert pideck("run", "--session", str(new), "--write", "/agent-state add a Do it")[0] == 0
    assert [e["type"] for e in read_lines(new)] == ["session", "custom"]


def test_a_new_file_elsewhere_is_still_a_new_pideck_session(pideck, tmp_path):
    new = tmp_path / "elsewhere" / "new.jsonl"
    assert pideck("run", "--session", str(new), "/agent-state add a Do it")[0] == 0
    assert [e["type"] for e in read_lines(new)] == ["session", "custom"]


@pytest.mark.parametrize("link", ["hard", "symbolic"])
def test_a_link_to_a_pi_session_is_pi_s(pideck, tmp_path, link):
    real = pi_folder(tmp_path) / "2026-11-30T14-55-13-547Z_s.jsonl"
    SessionLog.create(real, cwd="/home/ana/project")
    before = real.read_bytes()
    alias = tmp_path / "alias.jsonl"
    (os.link if link == "hard" else os.symlink)(real, alias)
    code, out, err = pideck("run", "--session", str(alias), "/agent-state add a Do it")
    assert (code, out, err) == (1, "", PI_SESSION_READ_ONLY + "\n")
    assert pideck("tool", "--session", str(alias), "agent_state_add_work_item", '{"id":"a","content":"x"}') == (
        1, "", PI_SESSION_READ_ONLY + "\n")
    assert pideck("gate", "--session", str(alias)) == (0, "", PI_SESSION_READ_ONLY + "\n")
    assert real.read_bytes() == before
    assert pideck("run", "--session", str(alias), "--write", "/agent-state add a Do it")[0] == 0
    assert len(read_lines(real)) == 2


@pytest.mark.parametrize("folder, status, lines", [("pi's flat folder", 1, 1), ("anywhere else", 0, 2)])
def test_a_hard_link_is_pi_s_only_to_a_file_in_pi_s_folders(pideck, tmp_path, monkeypatch, folder, status, lines):
    flat = tmp_path / "flat"
    flat.mkdir()
    if folder == "pi's flat folder":
        monkeypatch.setenv("PI_CODING_AGENT_SESSION_DIR", str(flat))
    real = flat / "s.jsonl"
    SessionLog.create(real, cwd=tmp_path)
    os.link(real, tmp_path / "alias.jsonl")
    assert pideck("run", "--session", str(tmp_path / "alias.jsonl"), "/agent-state add a b")[0] == status
    assert len(read_lines(real)) == lines


def test_a_dangling_symbolic_link_is_never_created_through(pideck, tmp_path):
    target = tmp_path / "nowhere" / "s.jsonl"
    link = tmp_path / "link.jsonl"
    link.symlink_to(target)
    code, out, err = pideck("run", "--session", str(link), "/agent-state add a b")
    assert (code, out, err) == (1, "", f"pideck: no session file at {link}\n")
    assert not target.parent.exists()
