"""A session path the CLI cannot use gives a clear usage error (issue 3: "Clear usage
errors"), not a Python traceback."""

from __future__ import annotations

import pytest

from core.cli.main import main


@pytest.fixture
def pideck(capsys):
    def run(*args: str) -> tuple[int, str, str]:
        capsys.readouterr()
        code = main(list(args))
        out, err = capsys.readouterr()
        return code, out, err
    return run


def test_a_directory_given_as_the_session(pideck, tmp_path):
    code, out, err = pideck("inspect", "--session", str(tmp_path))
    assert (code, out) == (1, "")
    assert err.startswith("pideck: ") and str(tmp_path) in err and "directory" in err
    assert "Traceback" not in err


@pytest.mark.parametrize("command", [("run", "/agent-state"), ("tool", "agent_state_get", "{}")])
def test_a_new_session_path_whose_folder_cannot_be_made(pideck, tmp_path, command):
    (tmp_path / "file").write_text("x")
    target = tmp_path / "file" / "s.jsonl"
    code, out, err = pideck(command[0], "--session", str(target), *command[1:])
    assert (code, out) == (1, "")
    assert err.startswith("pideck: ") and "Not a directory" in err
