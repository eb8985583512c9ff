"""``--host NAME`` without a server (core/cli/on_host.py): what is sent to the host, an unknown
name, and how the host's answer is shown (untrusted: JSON printed again, controls made visible).
The runs over a real sshd are in test_on_host_ssh.py."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from core.cli.main import main
from core.cli.on_host import (
    NoAnswer,
    json_documents,
    read_answer,
    read_lines,
    remote_words,
    show_answer,
    show_lines,
    visible_line,
)
from core.remote.ssh import ENDS_WITH_INPUT
from private_homes import use_private_homes

ESC = "\x1b"


@pytest.mark.parametrize(("argv", "sent"), [
    (["overview", "--all", "--json", "--host", "box"], ["overview", "--all", "--json"]),
    (["overview", "--host=box", "--all"], ["overview", "--all"]),
    (["watch", "--host", "box", "--json", "--all", "--host-timeout", "3"], ["watch", "--json", "--all"]),
    (["status", "--host-t=3", "--host", "box"], ["status"]),
    (["inspect", "--host", "box", "--session", "/srv/a b/$(touch x).jsonl", "--json"],
     ["inspect", "--session", "/srv/a b/$(touch x).jsonl", "--json"]),
    (["inspect", "--session=~/s.jsonl", "--host", "box"], ["inspect", "--session", "~/s.jsonl"]),
    (["inspect", "--session=/x=y", "--host", "box"], ["inspect", "--session=/x=y"]),
])
def test_the_host_runs_the_same_words_without_host(argv: list[str], sent: list[str]) -> None:
    assert remote_words(argv) == sent


def write_hosts(root: Path, monkeypatch: pytest.MonkeyPatch, text: str) -> Path:
    use_private_homes(root, monkeypatch)
    config = root / "config.toml"
    config.write_text(text)
    return config


@pytest.mark.parametrize("command", ["overview", "status", "watch", "sessions", "inspect"])
def test_an_unknown_host_is_a_usage_error_naming_the_configured_ones(
        command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    config = write_hosts(tmp_path, monkeypatch, '[[hosts]]\nname = "box"\nssh = "me@box"\n'
                         '[[hosts]]\nname = "vm-2"\nssh = "vm"\n')
    assert main([command, "--host", "bx"]) == 2
    assert capsys.readouterr() == ("", f"pideck: no host named 'bx' in the [[hosts]] of {config} (configured: box, vm-2)\n")


def test_with_no_hosts_the_error_says_none_and_a_hostile_name_shows_visibly(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    config = write_hosts(tmp_path, monkeypatch, '[[hosts]]\nname = "bad name"\nssh = "x"\n')
    assert main(["status", "--host", f"{ESC}]0;owned\a"]) == 2
    assert capsys.readouterr().err == (
        f"pideck: config: {config}: [[hosts]]: name must be 1 to 40 letters, digits, '.', '_' or '-', starting with a "
        "letter or digit (got 'bad name'); that host is left out.\n"
        f"pideck: no host named '\u241b]0;owned\u2407' in the [[hosts]] of {config} (configured: none)\n")


def test_a_bad_timeout_is_a_usage_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    write_hosts(tmp_path, monkeypatch, '[[hosts]]\nname = "box"\nssh = "me@box"\n')
    assert main(["status", "--host", "box", "--host-timeout", "0"]) == 2
    assert capsys.readouterr().err == "pideck: --host-timeout must be a number of seconds above 0\n"


def test_a_command_without_host_runs_here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    write_hosts(tmp_path, monkeypatch, "")
    monkeypatch.chdir(tmp_path)
    assert main(["sessions"]) == 0
    assert capsys.readouterr().out.startswith("No sessions for this directory.")


@pytest.mark.parametrize(("raw", "shown"), [
    (b"needs you  claude  2m  fix it\n", "needs you  claude  2m  fix it"),
    (f"{ESC}[2J{ESC}]52;c;cHduZWQ=\a title\n".encode(), "\u241b[2J\u241b]52;c;cHduZWQ=\u2407 title"),
    (b"over\rwritten\r\n", "over\u240dwritten"),
    ("crlf\r", "crlf"),
    (b"a\tb \xff\xfe\n", "a    b \\udcff\\udcfe"),
    (b"no newline at the end", "no newline at the end"),
])
def test_a_text_line_of_the_host_shows_its_controls(raw: bytes, shown: str) -> None:
    assert visible_line(raw) == shown


def test_text_answers_keep_their_lines_and_show_the_rest(capsys: pytest.CaptureFixture[str]) -> None:
    show_answer(f"one\x0btwo\u2028three\nfour{ESC}c\n", False, "box", "pideck status", required=True)
    assert capsys.readouterr().out == "one\u240btwo\\u2028three\nfour\u241bc\n"


def test_json_is_printed_again_by_pideck_s_printer(capsys: pytest.CaptureFixture[str]) -> None:
    rows = [{"name": f"{ESC}[31mred{ESC}[0m", "path": "/p/$(touch x)", "todos": [1, 2]}]
    show_answer(json.dumps(rows, indent=2) + "\n", True, "box", "pideck overview", required=True)
    out = capsys.readouterr().out
    assert ESC not in out
    assert json.loads(out) == rows
    assert out == json.dumps(rows, indent=2, ensure_ascii=False) + "\n"  # (what the local overview prints, piped)


@pytest.mark.parametrize(("answer", "said"), [
    ('[{"a": 1}]\nTraceback (most recent call last):\n', "Traceback (most recent call last):"),
    (f'{{"name": "{ESC}[31m"}}\n', '{"name": "\u241b[31m"}'),  # (a raw control inside a string is no JSON)
    (f"{ESC}]0;title\a garbage\n", "\u241b]0;title\u2407 garbage"),
    ('[1,\n 2,\n oops]\n', " oops]"),
    ("x" * 500, "x" * 200 + "…"),
])
def test_what_is_not_json_is_refused_quoting_its_first_bad_line_visibly(answer: str, said: str) -> None:
    with pytest.raises(NoAnswer) as caught:
        list(json_documents(answer, "box"))
    assert str(caught.value) == f"host 'box' answered with what is not pideck's JSON: {said}"


def test_nothing_where_json_was_asked_is_refused_when_the_remote_said_it_succeeded(
        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(NoAnswer) as caught:
        show_answer("\n", True, "box", "pideck overview", required=True)
    assert str(caught.value) == "host 'box' answered nothing where JSON was asked for (pideck overview there)"
    show_answer("", True, "box", "pideck inspect", required=False)  # (the remote failed: its stderr says why)
    assert capsys.readouterr().out == ""


def test_watch_lines_are_printed_one_by_one(capsys: pytest.CaptureFixture[str]) -> None:
    lines = [b'{"state":"needs you","name":"\\u001b[2J"}\n', b"\n", b'{"type":"tick"}\n']
    show_lines(iter(lines), True, "box")
    assert capsys.readouterr().out == '{"state":"needs you","name":"\\u001b[2J"}\n{"type":"tick"}\n'
    with pytest.raises(NoAnswer) as caught:
        show_lines(iter([b'{"a":1} {"b":2}\n']), True, "box")
    assert str(caught.value) == "host 'box' answered with what is not one JSON document per line: {\"a\":1} {\"b\":2}"
    show_lines(iter([f"working {ESC}[1mx\n".encode()]), False, "box")
    assert capsys.readouterr().out == "working \u241b[1mx\n"


def local(script: str) -> subprocess.Popen[bytes]:
    """A local process in place of ssh, its pideck replaced by ``script``, run under the remote's
    wrapper as the host would run it."""
    return subprocess.Popen(["sh", "-c", ENDS_WITH_INPUT, "sh", "sh", "-c", script], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def test_an_answer_is_read_with_the_status_and_the_errors() -> None:
    process = local("printf 'a\\nb'; echo oops >&2; exit 3")
    errors = bytearray()
    try:
        assert read_answer(process, 20, errors, "box") == ("a\nb", 3)
    finally:
        process.stdin.close()  # type: ignore[union-attr]
    process.wait(10)


def test_a_host_that_answers_nothing_is_stopped_at_the_deadline_and_its_command_ends(tmp_path: Path) -> None:
    """The wrapper ends the command once its input closes: the hung script is gone, not orphaned."""
    pid_file = tmp_path / "pid"
    process = local(f"echo $$ > {pid_file}; exec sleep 1000")
    with pytest.raises(TimeoutError):
        read_answer(process, 0.5, bytearray(), "box")
    pid = int(pid_file.read_text())
    process.stdin.close()  # type: ignore[union-attr]
    assert process.wait(10) == 143  # (the wrapper's status: its command ended by SIGTERM)
    assert not Path(f"/proc/{pid}").exists() or "zombie" in Path(f"/proc/{pid}/status").read_text()


def test_an_endless_answer_is_refused() -> None:
    process = local("exec yes")
    try:
        with pytest.raises(NoAnswer) as caught:
            read_answer(process, 60, bytearray(), "box")
        assert str(caught.value) == "host 'box' answered more than 64 MB; it was stopped"
    finally:
        process.stdin.close()  # type: ignore[union-attr]
        process.wait(10)


def test_an_endless_line_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    import core.cli.on_host as on_host

    monkeypatch.setattr(on_host, "MAX_LINE_BYTES", 1 << 20)
    process = local("exec cat /dev/zero")
    try:
        with pytest.raises(NoAnswer) as caught:
            list(read_lines(process, None, bytearray(), "box"))
        assert str(caught.value) == "host 'box' printed a line longer than 1 MB; it was stopped"
    finally:
        process.stdin.close()  # type: ignore[union-attr]
        process.wait(10)
