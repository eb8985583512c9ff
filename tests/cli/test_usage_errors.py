"""A word a command does not take is answered with that command's usage, not pideck's (issue 29,
item 6: ``pideck watch --bogus`` printed the top-level usage)."""

from __future__ import annotations

import pytest

from core.cli.main import main


@pytest.mark.parametrize("argv, usage", [
    (["watch", "--bogus"], "usage: pideck watch [-h] [--all] [--json]"),
    (["run", "--session", "s.jsonl", "/a", "/b"], "usage: pideck run [-h] [--session PATH] [--write] LINE"),
    (["config", "set", "tui.theme", "nord", "extra"], "usage: pideck config set [-h] KEY VALUE"),
    (["status", "--jsn"], "usage: pideck status [-h] [--all]"),
])
def test_an_unknown_word_gets_the_command_s_own_usage(capsys, argv: list[str], usage: str) -> None:
    with pytest.raises(SystemExit) as exited:
        main(argv)
    err = capsys.readouterr().err
    assert exited.value.code == 2
    assert err.startswith(usage), err
    assert "unrecognized arguments: " + argv[-1] in err


def test_a_hook_given_a_word_it_does_not_take_never_blocks_the_agent(capsys) -> None:
    """(exit 2 is "block" to an agent: a mistyped hook command says so with 1)"""
    assert main(["hook", "claude", "--bogus"]) == 1
    assert "usage: pideck hook" in capsys.readouterr().err
