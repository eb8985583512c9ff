"""``[[hosts]]`` and the ssh command built from it (docs/hosts.md): nothing from a setting reaches a
shell as more than the one word it is, and a bad entry is left out with a clear warning."""

from __future__ import annotations

import shlex
import subprocess
from pathlib import Path

import pytest

from core.config.settings import HostConfig, load_hosts
from core.remote.ssh import remote_command, ssh_argv, ssh_reason


def test_hosts_are_read_with_their_defaults(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[[hosts]]\nname = "box"\nssh = "me@box"\n\n'
                      '[[hosts]]\nname = "vm-2"\nssh = "vm"\nport = 2222\npideck = "uv run --project \'~/my pideck\' pideck"\n'
                      'ssh_config = "~/ssh.conf"\nwrite = true\n')
    hosts, warnings = load_hosts(config)
    assert warnings == []
    assert hosts[0] == HostConfig("box", "me@box")
    assert hosts[1].port == 2222 and hosts[1].write
    assert hosts[1].pideck == ("uv", "run", "--project", "~/my pideck", "pideck")
    assert hosts[1].ssh_config == str(Path.home() / "ssh.conf")


@pytest.mark.parametrize(("entry", "said"), [
    ({"name": "a b", "ssh": "x"}, "name must be 1 to 40 letters, digits, '.', '_' or '-', starting with a letter or digit (got 'a b')"),
    ({"name": "box", "ssh": "-oProxyCommand=touch /tmp/x"},
     "host 'box': ssh must be a destination such as user@box, without spaces, not starting with '-' (got '-oProxyCommand=touch /tmp/x')"),
    ({"name": "box", "ssh": "a;b c"}, "host 'box': ssh must be a destination such as user@box, without spaces, not starting with '-' (got 'a;b c')"),
    ({"name": "box", "ssh": "box", "port": 70000}, "host 'box': port must be an integer from 1 to 65535 (got 70000)"),
    ({"name": "box", "ssh": "box", "pideck": "a 'b"}, "host 'box': pideck cannot be split into words (No closing quotation)"),
    ({"name": "box", "ssh": "box", "pideck": " "}, "host 'box': pideck must be a command such as pideck or \"uv run pideck\" (got ' ')"),
    ({"name": "box", "ssh": "box", "write": "yes"}, "host 'box': write must be true or false (got 'yes')"),
    ({"name": "box", "ssh": "box", "colour": 1, "prot": 2}, "host 'box': unknown keys 'colour', 'prot'"),
])
def test_a_bad_host_is_left_out_and_said(tmp_path: Path, entry: dict[str, object], said: str) -> None:
    import tomli_w

    config = tmp_path / "config.toml"
    config.write_text(tomli_w.dumps({"hosts": [entry, {"name": "ok", "ssh": "ok"}]}))
    hosts, warnings = load_hosts(config)
    assert [h.name for h in hosts] == ["ok"]
    assert warnings == [f"{config}: [[hosts]]: {said}; that host is left out."]


def test_a_second_host_of_a_name_is_left_out(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[[hosts]]\nname = "box"\nssh = "a"\n[[hosts]]\nname = "box"\nssh = "b"\n')
    hosts, warnings = load_hosts(config)
    assert [h.ssh for h in hosts] == ["a"]
    assert warnings == [f"{config}: [[hosts]]: a second host named 'box' is left out."]


HOSTILE = ["$(touch pwned)", "`touch pwned`", "a; touch pwned", "a' b", "x\ny", "~/$(touch pwned)", "*", ""]


@pytest.mark.parametrize("word", HOSTILE)
def test_each_word_reaches_the_remote_shell_as_one_word(tmp_path: Path, word: str) -> None:
    """The remote command line, run by a real shell (as sshd runs it), gives back exactly the
    words it was made of, and runs nothing else."""
    host = HostConfig("box", "box", pideck=("printf", "%s\\0"))
    line = remote_command(host, ["inspect", word])
    out = subprocess.run(["sh", "-c", line], cwd=tmp_path, capture_output=True, text=True, check=True).stdout
    expected = word if not word.startswith("~/") else str(Path.home()) + word[1:]
    assert out.split("\0")[:-1] == ["inspect", expected]
    assert not (tmp_path / "pwned").exists()


def test_the_ssh_command_holds_the_options_and_the_destination_after_a_double_dash() -> None:
    host = HostConfig("box", "me@box", port=2222, ssh_config="/etc/x.conf", pideck=("pideck",))
    argv = ssh_argv(host, ["watch", "--feed", "--all"])
    assert argv[:2] == ["ssh", "-T"]
    assert "BatchMode=yes" in argv and "ControlMaster=auto" in argv and "ControlPersist=60" in argv
    assert argv[argv.index("-p") + 1] == "2222" and argv[argv.index("-F") + 1] == "/etc/x.conf"
    assert argv[-3:] == ["--", "me@box", "pideck watch --feed --all"]
    assert shlex.split(argv[-1]) == ["pideck", "watch", "--feed", "--all"]


def test_ssh_s_reason_is_its_last_line_made_visible() -> None:
    assert ssh_reason(b"Warning: x\r\nssh: connect to host box port 22: Connection refused\r\n") == \
        "ssh: connect to host box port 22: Connection refused"
    assert ssh_reason(b"\x1b[31mevil\x1b[0m\n") == "\u241b[31mevil\u241b[0m"
    assert ssh_reason(b"") == ""


@pytest.mark.parametrize("command", [["status", "--all"], ["overview", "--all"]])
def test_a_command_reading_the_hosts_says_what_was_wrong(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys,
                                                          command: list[str]) -> None:
    from core.cli.main import main
    from private_homes import use_private_homes

    use_private_homes(tmp_path, monkeypatch)
    config = tmp_path / "config.toml"
    config.write_text('[[hosts]]\nname = "box"\nssh = "-oProxyCommand=x"\n')
    main(command)
    assert capsys.readouterr().err == (f"pideck: config: {config}: [[hosts]]: host 'box': ssh must be a destination "
                                       "such as user@box, without spaces, not starting with '-' (got "
                                       "'-oProxyCommand=x'); that host is left out.\n")
