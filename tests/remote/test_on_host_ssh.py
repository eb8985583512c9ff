"""``pideck COMMAND --host NAME`` against a real sshd (tests/remote/sshd.py): the local pideck, run
as a person runs it with ``[[hosts]]`` in its config, answers what the host's own pideck answers,
and a hostile host (names, paths and output holding shell metacharacters and escape sequences, a
``pideck`` that prints garbage or hangs) neither runs anything, nor hangs, nor drives the terminal."""

from __future__ import annotations

import json
import os
import pwd
import signal
import subprocess
import time
from pathlib import Path

import pytest
import tomli_w

from conversations_discovery.discovery_helpers import CLAUDE_TASKS, CODEX, FIRST_PROMPTS, Homes
from private_homes import AGENT_VARIABLES
from remote.sshd import PIDECK, Host

pytestmark = pytest.mark.ssh

ESC = "\x1b"
HOSTILE_PROMPT = "\\u001b]0;owned\\u0007\\u001b[2J"
"""An escape sequence as a transcript's JSON holds it (a title change, a screen clear)."""


@pytest.fixture(autouse=True)
def agents_at_their_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    """The host's pideck, over ssh or run by ``Host.run``, finds the agents' folders under its HOME:
    no variable of the tests' moves them."""
    for name in (*AGENT_VARIABLES, "PIDECK_PROC"):
        monkeypatch.delenv(name, raising=False)


def with_transcripts(host: Host, project: str = "project") -> Homes:
    """Real Claude Code and Codex transcripts on ``host`` (its HOME), of the folder ``project``."""
    homes = Homes(home=host.home, cwd=host.root / project)
    homes.cwd.mkdir(exist_ok=True)
    homes.install(CLAUDE_TASKS)
    homes.install(CODEX)
    return homes


def here(tmp_path: Path, *hosts: dict[str, object]) -> dict[str, str]:
    """The local pideck's environment: a config naming ``hosts``, homes of its own."""
    config = tmp_path / "local-config.toml"
    config.write_text(tomli_w.dumps({"hosts": list(hosts)}))
    return {**os.environ, "PIDECK_CONFIG": str(config), "PIDECK_HOME": str(tmp_path / "local-pideck-home")}


def pideck(env: dict[str, str], *words: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([PIDECK, *words], env=env, capture_output=True, text=True, timeout=timeout, 
                          cwd=Path(env["PIDECK_CONFIG"]).parent)


def test_overview_on_a_host_answers_exactly_what_its_own_pideck_answers(make_host, tmp_path: Path) -> None:
    box = make_host("box")
    with_transcripts(box)
    env = here(tmp_path, box.settings())
    done = pideck(env, "overview", "--host", "box", "--all", "--json")
    own = box.run("overview", "--all", "--json")
    assert (done.returncode, done.stderr) == (0, ""), done.stderr
    assert done.stdout == own.stdout
    assert sorted(row["kind"] for row in json.loads(done.stdout)) == ["claude", "codex"]


def test_status_sessions_and_inspect_on_a_host(make_host, tmp_path: Path) -> None:
    box = make_host("box")
    homes = with_transcripts(box)
    env = here(tmp_path, box.settings())
    for words in (("status", "--all"), ("sessions", "--all"), ("overview", "--all")):
        done = pideck(env, *words, "--host", "box")
        assert (done.returncode, done.stderr, done.stdout) == (0, "", box.run(*words).stdout), words
    transcript = str(homes.path_of(CODEX))
    done = pideck(env, "inspect", "--host", "box", "--session", transcript, "--json")
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == box.run("inspect", "--session", transcript, "--json").stdout
    assert json.loads(done.stdout)["session"]["path"] == transcript


def remote_processes(host: Host, word: str) -> list[int]:
    """The processes of ``host``'s pideck (its PIDECK_HOME in their environment) whose command
    line holds ``word``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            environ = (entry / "environ").read_bytes().split(b"\0")
            command = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if f"PIDECK_HOME={host.pideck_home}".encode() in environ and word.encode() in command:
            found.append(int(entry.name))
    return found


def gone_within(check, seconds: float = 10) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not check():
            return True
        time.sleep(0.1)
    return False


def test_watch_on_a_host_streams_its_lines_and_ctrl_c_ends_it_there_too(make_host, tmp_path: Path) -> None:
    box = make_host("box")
    with_transcripts(box)
    env = here(tmp_path, box.settings())
    process = subprocess.Popen([PIDECK, "watch", "--host", "box", "--all", "--json"], env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        lines = [process.stdout.readline(), process.stdout.readline()]
        assert [line.endswith("\n") for line in lines] == [True, True]
        seen = [json.loads(line) for line in lines]
        rows = json.loads(box.run("overview", "--all", "--json").stdout)
        assert sorted(s["path"] for s in seen) == sorted(row["path"] for row in rows)
        assert remote_processes(box, "watch")  # (the host's pideck runs)
        process.send_signal(signal.SIGINT)
        assert process.wait(20) == 0
        assert gone_within(lambda: remote_processes(box, "watch")), "the host's pideck watch outlived ctrl+c"
    finally:
        process.kill()
        process.wait()


def test_a_host_that_went_away_says_ssh_s_reason(make_host, tmp_path: Path) -> None:
    box = make_host("box")
    env = here(tmp_path, box.settings())
    assert pideck(env, "status", "--all", "--host", "box").returncode == 0  # (a shared connection made)
    box.kill()
    done = pideck(env, "status", "--all", "--host", "box")
    assert (done.returncode, done.stdout) == (255, "")
    assert done.stderr == f"pideck: host 'box' cannot be reached: ssh: connect to host 127.0.0.1 port {box.port}: Connection refused\n"


# -- hostile ----------------------------------------------------------------------------------------


def real_home() -> Path:
    """Where sshd starts the remote command (the account's home): a ``touch`` run there would land here."""
    return Path(pwd.getpwuid(os.getuid()).pw_dir)


def no_file_made(*folders: Path) -> None:
    for folder in folders:
        assert not (folder / "pwned").exists(), f"a command ran on the host (in {folder})"


def test_hostile_paths_and_names_run_nothing_and_show_their_escapes(make_host, tmp_path: Path) -> None:
    box = make_host("box")
    homes = Homes(home=box.home, cwd=box.root / "p $(touch pwned) `touch pwned`; touch pwned")
    homes.cwd.mkdir()
    transcript = homes.install(CLAUDE_TASKS)
    text = transcript.read_text(encoding="utf-8")
    prompt = FIRST_PROMPTS[CLAUDE_TASKS].removesuffix("…")
    transcript.write_text(text.replace(prompt, HOSTILE_PROMPT + prompt), encoding="utf-8")
    os.utime(transcript, (1796109300, 1796109300))
    env = here(tmp_path, box.settings())

    listed = pideck(env, "sessions", "--all", "--host", "box")
    assert listed.returncode == 0, listed.stderr
    assert str(transcript) in listed.stdout
    table = pideck(env, "overview", "--all", "--host", "box")
    assert table.returncode == 0, table.stderr
    assert ESC not in table.stdout and "\a" not in table.stdout
    assert "\u241b]0;owned\u2407\u241b[2J" in table.stdout
    rows = pideck(env, "overview", "--all", "--json", "--host", "box")
    assert (rows.returncode, rows.stdout) == (0, box.run("overview", "--all", "--json").stdout)
    assert ESC not in rows.stdout and "\\u001b]0;owned\\u0007" in rows.stdout
    inspected = pideck(env, "inspect", "--json", "--host", "box", "--session", str(transcript))
    assert (inspected.returncode, inspected.stderr) == (0, "")
    assert json.loads(inspected.stdout)["session"]["path"] == str(transcript)
    missing = pideck(env, "inspect", "--host", "box", "--session", str(box.root / "$(touch pwned).jsonl"))
    assert (missing.returncode, missing.stdout) == (1, "")
    assert missing.stderr == f"pideck: no session file at {box.root}/$(touch pwned).jsonl\n"
    no_file_made(real_home(), box.root, homes.cwd, tmp_path, box.home)


def hostile_pideck(host: Host, body: str) -> dict[str, object]:
    """``host``'s settings whose ``pideck`` is a script of ``body``, in a folder whose name a shell
    would run."""
    folder = host.root / "bin $(touch pwned);`touch pwned`"
    folder.mkdir(exist_ok=True)
    script = folder / "pideck"
    script.write_text("#!/bin/sh\n" + body)
    script.chmod(0o755)
    import shlex

    return host.settings(pideck=shlex.quote(str(script)))


@pytest.mark.parametrize("command", [("overview", "--all", "--json"), ("inspect", "--json"), ("watch", "--all", "--json")])
def test_a_host_that_prints_garbage_where_json_was_asked_is_refused(make_host, tmp_path: Path, command: tuple[str, ...]) -> None:
    box = make_host("box")
    env = here(tmp_path, hostile_pideck(box, r"printf '\033]0;owned\007 not JSON at all\n'; exit 0" + "\n"))
    done = pideck(env, *command, "--host", "box")
    assert (done.returncode, done.stdout) == (255, "")
    assert done.stderr == "pideck: host 'box' answered with what is not pideck's JSON: \u241b]0;owned\u2407 not JSON at all\n"
    no_file_made(real_home(), tmp_path)


def test_a_host_s_text_and_errors_show_their_escapes(make_host, tmp_path: Path) -> None:
    box = make_host("box")
    env = here(tmp_path, hostile_pideck(box, r"printf '\033[2J1 needs you\r\n\033]52;c;cHduZWQ=\007\n'; "
                                             r"printf 'oops \033[31m\n' >&2; exit 3" + "\n"))
    done = pideck(env, "status", "--host", "box")
    assert done.returncode == 3
    assert done.stdout == "\u241b[2J1 needs you\n\u241b]52;c;cHduZWQ=\u2407\n"
    assert done.stderr == "oops \u241b[31m\n"


def test_a_host_without_pideck_says_so(make_host, tmp_path: Path) -> None:
    box = make_host("box")
    env = here(tmp_path, box.settings(pideck="no-such-pideck-here"))
    done = pideck(env, "status", "--host", "box")
    assert (done.returncode, done.stdout) == (127, "")
    assert done.stderr.splitlines()[-1] == (
        "pideck: host 'box' has no such command: is pideck installed there, and does the host's `pideck` setting "
        "of [[hosts]] name it? (README: Agents on other machines)")


def test_a_host_that_hangs_is_stopped_in_bounded_time_and_its_command_ends(make_host, tmp_path: Path) -> None:
    box = make_host("box")
    pid_file = tmp_path / "hung.pid"
    env = here(tmp_path, hostile_pideck(box, f"echo $$ > '{pid_file}'\nexec sleep 1000\n"))
    done = pideck(env, "status", "--all", "--host", "box", "--host-timeout", "2", timeout=30)
    assert (done.returncode, done.stdout) == (255, "")
    assert done.stderr == "pideck: host 'box' gave no answer within 2 s (pideck status there); it was stopped\n"
    pid = int(pid_file.read_text())
    assert gone_within(lambda: Path(f"/proc/{pid}").exists()), "the hung command outlived the timeout"


def test_a_destination_with_shell_words_is_refused_by_ssh(make_host, tmp_path: Path) -> None:
    box = make_host("box")
    env = here(tmp_path, box.settings(ssh="box;touch${IFS}pwned|`touch${IFS}pwned`"))
    done = pideck(env, "status", "--host", "box", timeout=30)
    assert (done.returncode, done.stdout) == (255, "")
    assert done.stderr == "pideck: host 'box' cannot be reached: hostname contains invalid characters\n"
    no_file_made(real_home(), tmp_path, Path.cwd())
