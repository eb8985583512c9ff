"""`pideck PATH` never makes a file by mistake (issue 19, bug 12): a path that does not exist needs
`--new` (without it: exit 1, one line naming the nearest session of its folder); a bare word that
is no file is answered as an unknown command; `pideck DIR` opens what `pideck` in DIR would."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from core.cli.main import build_parser
from core.catalog.opening import Opened, Waiting
from core.session.log import SessionLog


def opener(got: list[Opened]):
    """A stand-in for the app that, as the app does once it has a terminal, opens what it is given."""
    return lambda opened, **shown: got.append(opened() if callable(opened) else opened) or 0


def files_under(folder: Path) -> set[Path]:
    return {Path(d) / n for d, _, names in os.walk(folder) for n in names} | {Path(d) for d, _, _ in os.walk(folder)}


@pytest.fixture
def session(isolated: Path) -> Path:
    return SessionLog.create(isolated / "session.jsonl", cwd=isolated).path


@pytest.mark.parametrize("form", [["./sesion.jsonl"], ["--session", "./sesion.jsonl"], ["--write", "./sesion.jsonl"]])
def test_a_mistyped_path_creates_nothing_and_names_the_nearest_session(pideck, session, tmp_path, form):
    before, got = files_under(tmp_path), []
    code, out, err = pideck(*form, tui=opener(got))
    assert (code, out, got) == (1, "", [])
    assert err == ("pideck: ./sesion.jsonl does not exist (the nearest session in its folder: ./session.jsonl); "
                   "`pideck --new ./sesion.jsonl` creates it\n")
    assert files_under(tmp_path) == before


def test_a_path_in_missing_folders_creates_nothing(pideck, isolated, tmp_path):
    before, got = files_under(tmp_path), []
    code, out, err = pideck("notes/2026/today.jsonl", tui=opener(got))
    assert (code, got) == (1, [])
    assert err == ("pideck: notes/2026/today.jsonl does not exist, nor does its folder notes/2026; "
                   "`pideck --new notes/2026/today.jsonl` creates it\n")
    assert files_under(tmp_path) == before


def test_an_empty_path_is_said_to_be_one(pideck, session):
    assert pideck("--session", "", tui=opener([]))[:3:2] == (1, "pideck: an empty path names no session file\n")


def test_without_a_near_name_the_line_only_says_it_does_not_exist(pideck, session):
    code, _, err = pideck("other-thing.jsonl", tui=opener([]))
    assert (code, err) == (1, "pideck: other-thing.jsonl does not exist; `pideck --new other-thing.jsonl` creates it\n")


@pytest.mark.parametrize("form", [["--new", "notes/today.jsonl"], ["notes/today.jsonl", "--new"],
                                  ["--session", "notes/today.jsonl", "--new"]])
def test_new_creates_the_path_and_its_folders(pideck, isolated, form):
    got: list[Opened] = []
    code, _, err = pideck(*form, tui=opener(got))
    assert (code, err) == (0, "")
    path = isolated / "notes" / "today.jsonl"
    assert got[0].deck.log.path.resolve() == path.resolve() and got[0].deck.log.writable
    assert path.read_text().startswith('{"type":"session","version":3')


def test_new_on_an_existing_file_opens_it(pideck, session):
    got: list[Opened] = []
    assert pideck("--new", str(session), tui=opener(got))[0] == 0
    assert got[0].deck.log.path == session


@pytest.mark.parametrize("word", ["stauts", "statuss", "overveiw", "future-command"])
def test_a_bare_word_is_answered_as_an_unknown_command(pideck, tmp_path, capsys, word):
    """`pideck status` used to be the TUI on a new file named `status` (before `status` was a
    command); a mistyped or future command must never become a session file."""
    before, got = files_under(tmp_path), []
    code, out, err = pideck(word, tui=opener(got))
    with pytest.raises(SystemExit) as unknown:
        build_parser(help_lists=False).parse_args([word])
    expected = capsys.readouterr().err
    assert (code, out, got) == (unknown.value.code, "", []) and code == 2
    assert err == expected and f"invalid choice: '{word}'" in err
    assert files_under(tmp_path) == before


def test_a_bare_word_that_is_a_file_opens_it(pideck, isolated):
    path = SessionLog.create(isolated / "notes", cwd=isolated).path
    got: list[Opened] = []
    assert pideck("notes", tui=opener(got))[0] == 0
    assert got[0].deck.log.path.resolve() == path.resolve()


def test_a_word_with_the_jsonl_suffix_is_a_path(pideck, session):
    code, _, err = pideck("sesion.jsonl", tui=opener([]))
    assert code == 1 and "does not exist" in err and "session.jsonl" in err


@pytest.mark.parametrize("form", [["{dir}"], ["--session", "{dir}"], ["{dir}/"]])
def test_pideck_dir_opens_that_directorys_newest_session(pideck, isolated, tmp_path, form):
    other = tmp_path / "other-project"
    other.mkdir()
    older = SessionLog.create_for_cwd(other).path
    newer = SessionLog.create_for_cwd(other).path
    os.utime(older, (1000, 1000))
    SessionLog.create_for_cwd(isolated)  # this directory's own: not the one asked for
    got: list[Opened] = []
    code, _, err = pideck(*[a.format(dir=other) for a in form], tui=opener(got))
    assert (code, err) == (0, "")
    assert got[0].deck.log.path == newer and got[0].why == "the newest of this directory"


def test_pideck_dir_without_sessions_waits_for_one_and_makes_nothing(pideck, tmp_path):
    """As ``pideck`` there would: the app waits for that directory's first session or conversation,
    and no file is made until the person's first command (docs/tui.md#waiting-for-the-first-session)."""
    other = tmp_path / "fresh"
    other.mkdir()
    got: list[Any] = []
    assert pideck(str(other), tui=opener(got))[0] == 0
    assert isinstance(got[0], Waiting) and (got[0].cwd, got[0].follow) == (str(other), True)
    assert not (tmp_path / "pideck-home" / "sessions").exists()


def test_pideck_dir_on_a_folder_of_sessions_opens_its_newest(pideck, tmp_path):
    """pi's or pideck's own per-directory folder: `pideck ~/.pi/agent/sessions/--home-me-project--/`."""
    folder = tmp_path / "kept"
    older = SessionLog.create(folder / "a.jsonl", cwd="/home/me/project").path
    newer = SessionLog.create(folder / "b.jsonl", cwd="/home/me/project").path
    (folder / "notes.txt").write_text("not a session\n")
    os.utime(older, (1000, 1000))
    got: list[Opened] = []
    assert pideck(str(folder), tui=opener(got))[0] == 0
    assert got[0].deck.log.path == newer and got[0].why == "the newest session file in that folder"


def test_new_alone_waits_for_the_first_command_even_when_a_session_exists(pideck, isolated):
    """``--new``: a new session here whatever exists, made by the person's first command; nothing
    is followed meanwhile."""
    existing = SessionLog.create_for_cwd(isolated).path
    got: list[Any] = []
    assert pideck("--new", tui=opener(got))[0] == 0
    assert isinstance(got[0], Waiting) and (got[0].cwd, got[0].follow) == (str(isolated), False)
    assert list(existing.parent.iterdir()) == [existing]


def test_the_headless_commands_still_create_a_named_session(pideck, isolated):
    """Scripts and agents name a new session with --session (README: Commands); only the app's
    PATH, which a person types, needs --new."""
    assert pideck("run", "--session", "made.jsonl", "/agent-state add a Do it")[0] == 0
    assert (isolated / "made.jsonl").exists()


def test_the_apps_own_open_never_creates_a_file(tmp_path):
    """The picker and the overview open the files they list; one deleted meanwhile is an error,
    never a new session."""
    from core.session.errors import NoSession
    from tui.app import default_open_deck

    with pytest.raises(NoSession):
        default_open_deck(tmp_path / "gone.jsonl")
    assert not (tmp_path / "gone.jsonl").exists()


def test_the_hint_for_a_bare_name_is_a_command_that_works(pideck, tmp_path, monkeypatch):
    """`pideck --session foo` names a missing file `foo`; `pideck --new foo` would read foo as a
    command, so the hint names it `./foo`, which --new creates."""
    monkeypatch.chdir(tmp_path)
    code, _, err = pideck("--session", "foo", tui=opener([]))
    assert (code, err) == (1, "pideck: foo does not exist; `pideck --new ./foo` creates it\n")
    got: list[Opened] = []
    assert pideck("--new", "./foo", tui=opener(got))[0] == 0
    assert (tmp_path / "foo").is_file() and got[0].deck.log.path.name == "foo"
