"""`/todos export` writes only where it may (issue 9, item 2; issue 11, item 7): never onto a
session file nor into a sessions folder, never through a symbolic link, never over an existing
file unless asked (--force), always a whole file (a temporary file renamed into place), mode 0600,
and every string a session can hold."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from core.primitives.host import Notice
from core.deck.deck import Deck
from core.session.log import SessionLog
from core.config.places import pideck_sessions_dir
from core.primitives.todo import commands as cmd


def deck_in(tmp_path: Path, todo_text: str = "Write the parser") -> Deck:
    log = SessionLog.create(tmp_path / "s.jsonl", cwd=tmp_path)
    deck = Deck(log)
    deck.todo.cwd = tmp_path
    deck.call_tool("todo", {"todos": [{"id": "a", "content": todo_text, "status": "pending", "priority": "high",
                                       "confidence": 70}]})
    return deck


def export(deck: Deck, args: str) -> Notice:
    [notice] = deck.apply(f"/todos export {args}")
    return notice


def could_not(target: Path, why: str) -> Notice:
    return Notice(f"Could not export todos to {target}: {why}.", "warning")


def no_temporary_files(folder: Path) -> bool:
    return not [p for p in folder.iterdir() if p.name.endswith(".tmp")]


def test_never_onto_the_session_file_itself(tmp_path):
    deck = deck_in(tmp_path)
    before = deck.log.path.read_bytes()
    for args in (str(deck.log.path), f"md {deck.log.path} --force", f"json {deck.log.path} --force"):
        assert export(deck, args) == could_not(deck.log.path, "it is a session file, and pideck never writes over one")
    assert deck.log.path.read_bytes() == before


def test_never_onto_a_pi_session_nor_into_a_sessions_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(tmp_path / "agent"))
    folder = tmp_path / "agent" / "sessions" / "--x--"
    folder.mkdir(parents=True)
    pi_file = folder / "pi.jsonl"
    pi_file.write_bytes(b'{"type":"session","version":3,"id":"p","timestamp":"t","cwd":"/x"}\n')
    os.chmod(pi_file, 0o444)
    deck = deck_in(tmp_path)
    why = "it is inside a folder of session files, which pideck never writes exports into"
    assert export(deck, f"md {pi_file} --force") == could_not(pi_file, why)
    assert export(deck, f"{folder}/todos.md") == could_not(folder / "todos.md", why)
    mine = pideck_sessions_dir(tmp_path)
    mine.mkdir(parents=True)
    assert export(deck, f"{mine}/todos.md") == could_not(mine / "todos.md", why)
    assert pi_file.read_bytes().startswith(b'{"type":"session"') and sorted(p.name for p in folder.iterdir()) == ["pi.jsonl"]


def test_never_through_a_symbolic_link(tmp_path):
    deck = deck_in(tmp_path)
    precious = tmp_path / "precious.txt"
    precious.write_text("keep me\n")
    (tmp_path / "todos.md").symlink_to(precious)
    why = "it is a symbolic link, and pideck does not write through one"
    assert export(deck, "") == could_not(tmp_path / "todos.md", why)
    assert export(deck, "--force") == could_not(tmp_path / "todos.md", why)
    assert precious.read_text() == "keep me\n"


def test_an_existing_file_is_replaced_only_when_asked(tmp_path):
    deck = deck_in(tmp_path)
    target = tmp_path / "todos.md"
    target.write_text("mine\n")
    assert export(deck, "") == could_not(target, "the file exists; add --force to replace it")
    assert target.read_text() == "mine\n"
    assert export(deck, "--force") == Notice(cmd.EXPORTED.format(path=target))
    assert target.read_text() == deck.todo.overlay_markdown() + "\n"
    assert no_temporary_files(tmp_path)


def test_exports_are_private(tmp_path):
    deck = deck_in(tmp_path)
    umask = os.umask(0o022)  # a usual umask would give 0644
    try:
        assert export(deck, "json out.json") == Notice(cmd.EXPORTED.format(path=tmp_path / "out.json"))
    finally:
        os.umask(umask)
    assert stat.S_IMODE((tmp_path / "out.json").stat().st_mode) == 0o600
    assert json.loads((tmp_path / "out.json").read_text())["todos"][0]["id"] == "a"


@pytest.mark.parametrize("fmt", ["md", "json"])
def test_a_lone_surrogate_is_written_escaped_and_nothing_is_truncated(tmp_path, fmt):
    deck = deck_in(tmp_path, "lone \ud800 here")
    target = tmp_path / f"todos.{fmt}"
    target.write_text("mine\n")
    assert export(deck, f"{fmt} {target}") == could_not(target, "the file exists; add --force to replace it")
    assert target.read_text() == "mine\n"
    assert export(deck, f"{fmt} {target} --force").level == "info"
    text = target.read_text(encoding="utf-8")
    assert "lone \\ud800 here" in text
    if fmt == "json":
        assert json.loads(text)["todos"][0]["content"] == "lone \ud800 here"


def test_a_failed_write_leaves_the_old_file_whole(tmp_path, monkeypatch):
    deck = deck_in(tmp_path)
    target = tmp_path / "todos.md"
    target.write_text("mine\n")

    def full_disk(fd, data):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("core.files.write_all", full_disk)
    assert export(deck, "--force") == could_not(target, "No space left on device")
    assert target.read_text() == "mine\n" and no_temporary_files(tmp_path)


def test_a_fifo_or_a_folder_is_never_written(tmp_path):
    deck = deck_in(tmp_path)
    os.mkfifo(tmp_path / "pipe.md")
    assert export(deck, "pipe.md --force") == could_not(tmp_path / "pipe.md", "it is a FIFO (named pipe)")
    (tmp_path / "dir.md").mkdir()
    assert export(deck, "dir.md --force") == could_not(tmp_path / "dir.md", "it is a directory")


@pytest.mark.parametrize("args", ["xml", "pdf", "md xml", "a.md b.md", "--force --force"])
def test_a_bare_word_is_not_a_path_but_a_usage_error(tmp_path, args):
    deck = deck_in(tmp_path)
    assert export(deck, args) == Notice(cmd.USAGE, "warning")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.jsonl"]


def test_the_default_name_and_a_json_path_still_work(tmp_path):
    deck = deck_in(tmp_path)
    assert export(deck, "") == Notice(cmd.EXPORTED.format(path=tmp_path / "todos.md"))
    assert export(deck, "json") == Notice(cmd.EXPORTED.format(path=tmp_path / "todos.json"))
    assert export(deck, "./plain.JSON").level == "info"
    assert json.loads((tmp_path / "plain.JSON").read_text())["todos"][0]["id"] == "a"
