"""The hostile-input matrix (issue 9): every CLI command over every hostile case (session files,
paths, tool parameters, stdin, config, environment). For each run: no exception escapes, no
traceback is printed, the exit status is 0, 1 or 2, nothing hangs, every byte of every pi file is
unchanged and no file appears in pi's folders (unless the command was given --write, and then pi's
files only grow), and every other session file only grows (no byte lost or rewritten).

Each case is one test; its commands run in-process one after the other in a fresh sandbox, and the
test reports every failing (command, problem) pair at once.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import resource
import signal
import sys
import tempfile
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator

import pytest

from core.cli.main import main
from disk_faults import disk_full, read_only_filesystem
from core.session.errors import PI_SESSION_READ_ONLY
from core.config.places import encode_cwd
from core.session.writer import serialise

SECONDS_PER_RUN = 30  # a run that takes longer hangs (a FIFO read, /dev/zero read without end)


# -- the sandbox ------------------------------------------------------------------------------------


@dataclass
class Box:
    """A fresh world per case: the project folder (the cwd), pi's and pideck's folders, a config."""

    root: Path
    project: Path
    pi_agent: Path
    pideck_home: Path
    config: Path

    @property
    def pi_folder(self) -> Path:
        return self.pi_agent / "sessions" / encode_cwd(self.project)

    @property
    def pideck_folder(self) -> Path:
        return self.pideck_home / "sessions" / encode_cwd(self.project)


@dataclass
class Case:
    session: Path | str | None = None  # --session (None: the default choice for the cwd)
    params: str = '{"id":"a","content":"Hostile item"}'
    stdin: bytes = b'{"todos":[{"id":"t1","content":"Do it","status":"pending","confidence":70}]}'
    env: dict[str, str | None] = field(default_factory=dict)
    cwd: Path | None = None
    fault: Callable[[pytest.MonkeyPatch], None] | None = None  # the disk's trouble, set for every command
    each: Callable[[], None] | None = None  # what happens to the file before each command


HEADER = {"type": "session", "version": 3, "id": "01a22cf2-253f-70fd-b26f-f043e48c877f",
          "timestamp": "2026-11-30T14:53:16.479Z", "cwd": "/home/user/project"}


def line(value: object) -> bytes:
    return serialise(value)  # type: ignore[arg-type]


def custom(id: str, parent: str | None, custom_type: str, data: object) -> dict:
    return {"type": "custom", "customType": custom_type, "data": data, "id": id, "parentId": parent,
            "timestamp": "2026-11-30T14:53:16.480Z"}


def state(id: str, parent: str | None, objective: object = "Ship it", items: object = ()) -> dict:
    return custom(id, parent, "agent-state-state", {"schemaVersion": 1, "state": {
        "schemaVersion": 1, "objective": objective, "workItems": list(items), "decisions": []}})


def message(id: str, parent: str | None, role: str, text: str) -> dict:
    return {"type": "message", "id": id, "parentId": parent, "timestamp": "2026-11-30T14:53:16.480Z",
            "message": {"role": role, "content": [{"type": "text", "text": text}], "timestamp": 1}}


def session_file(*entries: dict, header: dict = HEADER) -> bytes:
    return b"".join(line(e) for e in (header, *entries))


GOOD = session_file(message("00000001", None, "user", "hi"), state("00000002", "00000001"),
                    message("00000003", "00000002", "assistant", "ok"))
HOSTILE_TEXT = "\x1b]0;pwned\x07\x1b[2J[red]x[/red] \u202e\x00\ud800 \udcff"
DEEP = b"[" * 5000 + b"]" * 5000

FILES: dict[str, bytes] = {
    "deep line between good lines": GOOD + DEEP + b"\n" + line(state("00000004", "00000003")),
    "deep data in a state entry": GOOD + line(custom("00000004", "00000003", "agent-state-state",
                                                     json.loads("[" * 300 + "]" * 300))),
    "deep message content": GOOD + b'{"type":"message","id":"00000004","parentId":"00000003","timestamp":"t",'
                            b'"message":{"role":"user","content":' + DEEP + b"}}\n",
    "lone surrogates and escapes everywhere": session_file(
        state("00000001", None, HOSTILE_TEXT, [{"id": "w\ud800", "content": HOSTILE_TEXT, "status": "open"}]),
        custom("00000002", "00000001", "agent-handoff-state", {"schemaVersion": 1, "packets": [
            {"schemaVersion": 1, "id": "p\ud800", "source": HOSTILE_TEXT, "goal": HOSTILE_TEXT}]}),
        custom("00000003", "00000002", "pi-jtodo/state", {"schemaVersion": 1, "todos": [
            {"id": "t\ud800", "content": HOSTILE_TEXT, "status": "pending", "priority": "high"}], "plan": {},
            "goals": []}),
        {"type": "session_info", "id": "00000004", "parentId": "00000003", "timestamp": "t", "name": HOSTILE_TEXT}),
    "bytes that are not UTF-8": GOOD.replace(b'"hi"', b'"h\xff\xfei"') + b"\xff\xfe\x00garbage\n",
    "duplicate keys on a big line": GOOD + message("00000004", "00000003", "user", "y" * 3000).__repr__().encode()[:0]
    + line(message("00000004", "00000003", "user", "y" * 3000))[:-2] + b',"parentId":"00000001"}\n',
    "format version 99": session_file(state("00000001", None), header={**HEADER, "version": 99}),
    "format version 1 without ids": session_file(
        {"type": "message", "timestamp": "t", "message": {"role": "hookMessage", "customType": "x", "content": "n"}},
        header={k: v for k, v in HEADER.items() if k != "version"}),
    "not a session": b'{"hello":"world"}\n' + GOOD,
    "empty": b"",
    "header only": session_file(),
    "torn last line": GOOD + b'{"type":"custom","customType":"agent-state-state","data":{"schemaVersion":1',
    "NaN and Infinity": GOOD + b'{"type":"custom","id":"00000004","parentId":"00000003","data":NaN}\n'
                        + b'{"type":"custom","id":"00000005","parentId":"00000004","data":-Infinity}\n',
    "a 3 MB line": GOOD + line(message("00000004", "00000003", "assistant", "z" * (3 << 20))),
    "foreign lines and parent cycles": GOOD + b'{"type":"custom"}\n[1,2]\n"text"\n'
                                       + line(state("0000000a", "0000000b")) + line(state("0000000b", "0000000a"))
                                       + line(state("0000000c", "0000000c")),
    "header with wrong types": session_file(state("00000001", None), header={
        "type": "session", "version": "3", "id": "x", "timestamp": 5, "cwd": ["/"]}),
    "binary garbage": bytes(range(256)) * 4,
    "open todos with the gates armed": session_file(
        custom("00000001", None, "pi-jtodo/state", {"schemaVersion": 1, "todos": [
            {"id": "t1", "content": "Do it", "status": "in_progress", "priority": "high", "confidence": 40}],
            "plan": {}, "goals": []}),
        custom("00000002", "00000001", "pi-jtodo/cycle", {"armed": True, "reason": "user"}),
        message("00000003", "00000002", "assistant", "done?")),
}


def file_case(name: str, where: str) -> Callable[[Box], Case]:
    def setup(box: Box) -> Case:
        folder = box.pi_folder if where == "pi" else box.pideck_folder
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / "2026-11-30T14-53-16-479Z_hostile.jsonl"
        path.write_bytes(FILES[name])
        return Case(session=path)
    return setup


def pi_session(box: Box) -> Path:
    box.pi_folder.mkdir(parents=True, exist_ok=True)
    path = box.pi_folder / "2026-11-30T14-53-16-479Z_real.jsonl"
    path.write_bytes(GOOD)
    return path


def pideck_session(box: Box) -> Path:
    box.pideck_folder.mkdir(parents=True, exist_ok=True)
    path = box.pideck_folder / "2026-11-30T14-53-16-479Z_mine.jsonl"
    path.write_bytes(GOOD)
    return path


def on_a_faulty_disk(fault: Callable[[pytest.MonkeyPatch, Path], None]) -> Callable[[Box], Case]:
    """pideck's session and the one pi's folder holds, both on a disk with ``fault``."""
    def setup(box: Box) -> Case:
        mine = pideck_session(box)
        return Case(session=mine, fault=lambda monkeypatch: fault(monkeypatch, mine))
    return setup


def growing_tail(box: Box) -> Case:
    """Before each command a lock-free writer writes half a line, and the rest a moment later:
    every command runs while the file's last line is being written (pideck must not tear it)."""
    mine = pideck_session(box)
    line_of = lambda n: line(state(f"9{n:07d}", None))  # noqa: E731  (a whole entry of its own chain)
    count, writing = [0], []

    def each() -> None:
        for previous in writing:  # (the writer ends one line before it starts the next)
            previous.join()
        count[0] += 1
        whole = line_of(count[0])
        with mine.open("ab") as out:
            out.write(whole[: len(whole) // 2])

        def rest() -> None:
            time.sleep(0.1)
            with mine.open("ab") as out:
                out.write(whole[len(whole) // 2:])

        writing[:] = [threading.Thread(target=rest, daemon=True)]
        writing[0].start()

    return Case(session=mine, each=each)


def fifo(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(path)
    return path


def with_sessions(**case: object) -> Callable[[Box], Case]:
    """A case on the usual sessions (one of pi's, one of pideck's), with a hostile detail."""
    def setup(box: Box) -> Case:
        pi_session(box)
        pideck_session(box)
        return Case(**case)  # type: ignore[arg-type]
    return setup


def path_case(make: Callable[[Box], Path | str]) -> Callable[[Box], Case]:
    def setup(box: Box) -> Case:
        pi_session(box)
        return Case(session=make(box))
    return setup


def linked(kind: str) -> Callable[[Box], Case]:
    def setup(box: Box) -> Case:
        alias = box.root / "alias.jsonl"
        (os.link if kind == "hard" else os.symlink)(pi_session(box), alias)
        return Case(session=alias)
    return setup


def hostile_name(box: Box) -> Path:
    box.pideck_folder.mkdir(parents=True, exist_ok=True)
    path = box.pideck_folder / os.fsdecode(b"x\x1b]0;t\x07\n\xff.jsonl")
    path.write_bytes(GOOD)
    return path


def env_case(make: Callable[[Box], dict[str, str | None]]) -> Callable[[Box], Case]:
    def setup(box: Box) -> Case:
        pi_session(box)
        pideck_session(box)
        return Case(env=make(box))
    return setup


def deleted_cwd(box: Box) -> Case:
    gone = box.root / "gone"
    gone.mkdir()
    return Case(cwd=gone)  # removed once the process is in it (see run_case)


def hostile_cwd(box: Box) -> Case:
    cwd = box.root / os.fsdecode(b"proj\x1b[2J\xff")
    cwd.mkdir()
    folder = box.pi_agent / "sessions" / encode_cwd(cwd)
    folder.mkdir(parents=True)
    (folder / "s.jsonl").write_bytes(GOOD)
    return Case(cwd=cwd)


def config_text(text: bytes) -> Callable[[Box], dict[str, str | None]]:
    def make(box: Box) -> dict[str, str | None]:
        box.config.write_bytes(text)
        return {}
    return make


def pi_jtodo_config(data: bytes | None) -> Callable[[Box], dict[str, str | None]]:
    def make(box: Box) -> dict[str, str | None]:
        path = box.pi_agent / "state" / "pi-jtodo" / "config.json"
        path.parent.mkdir(parents=True)
        if data is None:
            os.mkfifo(path)
        else:
            path.write_bytes(data)
        return {}
    return make


def a_file(box: Box) -> str:
    (box.root / "plain").write_text("x")
    return str(box.root / "plain")


CASES: dict[str, Callable[[Box], Case]] = {
    **{f"file {where}: {name}": file_case(name, where) for name in FILES for where in ("pi", "pideck")},
    # paths
    "path: missing inside pi's folder": path_case(lambda box: box.pi_folder / "typo.jsonl"),
    "path: missing, folders missing too": path_case(lambda box: box.root / "no" / "such" / "s.jsonl"),
    "path: a FIFO": path_case(lambda box: fifo(box.root / "pipe.jsonl")),
    "path: a FIFO inside pi's folder": path_case(lambda box: fifo(box.pi_folder / "pipe.jsonl")),
    "path: /dev/zero": path_case(lambda box: "/dev/zero"),
    "path: a directory": path_case(lambda box: box.root),
    "path: the empty string": path_case(lambda box: ""),
    "path: a dangling symbolic link": path_case(lambda box: (box.root / "dangling.jsonl").symlink_to(box.root / "x" / "y")
                                                or box.root / "dangling.jsonl"),
    "path: a symbolic link to a pi session": linked("symbolic"),
    "path: a hard link to a pi session": linked("hard"),
    "path: a file name with escapes and bytes that are not UTF-8": path_case(hostile_name),
    "path: through a plain file": path_case(lambda box: box.root / "plain" / "s.jsonl" if a_file(box) else ""),
    # tool parameters and stdin
    "params: nested 5000 deep": with_sessions(params='{"id":"a","content":' + "[" * 5000 + "]" * 5000 + "}",
                                              stdin=b'{"todos":' + DEEP + b"}"),
    "params: nested 300 deep": with_sessions(params='{"id":"a","content":' + "[" * 300 + "]" * 300 + "}",
                                             stdin=b'{"todos":' + b"[" * 300 + b"]" * 300 + b"}"),
    "params: bytes that are not UTF-8": with_sessions(params='{"id":"a","content":"' + os.fsdecode(b"\xff") + '"}',
                                                      stdin=b'{"todos":[{"id":"t","content":"\xff\xfe"}]}'),
    "params: lone surrogates": with_sessions(params='{"id":"\\ud800","content":"\\udfff\\ud800"}',
                                             stdin=b'{"todos":[{"id":"t\\ud800","content":"\\udcff","status":"pending"}]}'),
    "params: NaN and huge numbers": with_sessions(params='{"id":"a","content":NaN}',
                                                  stdin=b'{"todos":[{"id":"t","content":"c","confidence":1e999}]}'),
    "params: not objects": with_sessions(params="[]", stdin=b"null"),
    "params: malformed": with_sessions(params='{"id":', stdin=b"\x00\x01"),
    "params: empty": with_sessions(params="", stdin=b""),
    "params: 5 MB of text": with_sessions(params='{"id":"a","content":"' + "x" * (5 << 20) + '"}',
                                          stdin=b'{"todos":[{"id":"t","content":"' + b"y" * (5 << 20) + b'"}]}'),
    "params: control characters and markup": with_sessions(
        params=json.dumps({"id": "a\x1b[31m", "content": HOSTILE_TEXT}),
        stdin=json.dumps({"todos": [{"id": "[b]t", "content": HOSTILE_TEXT, "status": "pending"}]}).encode()),
    "params: duplicate keys": with_sessions(params='{"id":"a","id":"b","content":"x","content":1}',
                                            stdin=b'{"todos":[],"todos":"x"}'),
    # config and environment
    "env: PIDECK_CONFIG is /dev/zero": env_case(lambda box: {"PIDECK_CONFIG": "/dev/zero"}),
    "env: PIDECK_CONFIG is a FIFO": env_case(lambda box: {"PIDECK_CONFIG": str(fifo(box.root / "c.toml"))}),
    "env: PIDECK_CONFIG is a directory": env_case(lambda box: {"PIDECK_CONFIG": str(box.root)}),
    "env: config is not TOML": env_case(config_text(b"[todo\nwidget_max_lines = \n")),
    "env: config is not UTF-8": env_case(config_text(b"[todo]\nx = '\xff'\n")),
    "env: config with wrong types": env_case(config_text(b"todo = 5\n[other]\nx = 1\n")),
    "env: pi-jtodo config nested deep": env_case(pi_jtodo_config(b"[" * 100_000 + b"]" * 100_000)),
    "env: pi-jtodo config is a FIFO": env_case(pi_jtodo_config(None)),
    "env: PI_CODING_AGENT_DIR is a plain file": env_case(lambda box: {"PI_CODING_AGENT_DIR": a_file(box)}),
    "env: PIDECK_HOME is a plain file": env_case(lambda box: {"PIDECK_HOME": a_file(box)}),
    "env: PIDECK_SESSION is a FIFO": env_case(lambda box: {"PIDECK_SESSION": str(fifo(box.root / "s.jsonl"))}),
    "env: PIDECK_SESSION is missing inside pi's folder": env_case(
        lambda box: {"PIDECK_SESSION": str(box.pi_folder / "typo.jsonl")}),
    "env: PI_CODING_AGENT_SESSION_DIR is /dev/null": env_case(lambda box: {"PI_CODING_AGENT_SESSION_DIR": "/dev/null"}),
    "env: HOME does not exist": env_case(lambda box: {"HOME": str(box.root / "nowhere")}),
    "env: PIDECK_INDEX is nonsense": env_case(lambda box: {"PIDECK_INDEX": "\x1b[2J"}),
    # the disk
    "disk: full": on_a_faulty_disk(disk_full),
    "disk: a read-only filesystem": on_a_faulty_disk(read_only_filesystem),
    "disk: the last line is being written": growing_tail,
    "env: the current directory was deleted": deleted_cwd,
    "env: the current directory's name has escapes and bytes that are not UTF-8": hostile_cwd,
}


# -- the commands -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Command:
    argv: tuple[str, ...]
    session: bool = True  # takes --session
    writes_pi: bool = False  # given --write: pi's files may grow
    stdin: bool = False  # the case's stdin (else a Stop hook's event when ``event``, else nothing)
    event: bool = False
    tui: bool = False  # the TUI form: the opener stands in for the app
    terminal: bool = False  # stdout is a terminal: nothing from the log may reach it raw


COMMANDS = (
    Command(("run", "/agent-state add a Hostile item")),
    Command(("run", "/agent-state")),
    Command(("run", "/todos export json out.json")),
    Command(("run", "--write", "/agent-progress add m1"), writes_pi=True),
    Command(("tool", "agent_state_add_work_item", "{params}")),
    Command(("tool", "todo", "-"), stdin=True),
    Command(("tool", "agent_handoff_get")),
    Command(("tool", "--write", "agent_state_add_work_item", "{params}"), writes_pi=True),
    Command(("inspect",)),
    Command(("inspect", "--json")),
    Command(("inspect", "--at", "00000002")),
    Command(("inspect", "--at", "leaf", "--json")),
    Command(("diff", "00000001", "leaf")),
    Command(("diff", "leaf", "leaf", "--json")),
    Command(("overview",), session=False),
    Command(("overview", "--all", "--json"), session=False),
    Command(("gate",)),
    Command(("gate", "--write"), writes_pi=True),
    Command(("sessions",), session=False),
    Command(("config", "show"), session=False),
    Command(("config", "set", "widget_max_lines", "3"), session=False),
    Command(("install", "claude", "--dry-run"), session=False),
    Command(("hook", "claude"), stdin=True),
    Command(("hook", "codex"), event=True),
    Command(("mcp",)),  # stdin is empty: it opens the session, serves nothing and ends
    Command(("demo",), session=False, tui=True),
    Command((), tui=True),
    Command(("--overview",), session=False, tui=True),
    *(Command(argv, session=argv[0] not in ("sessions", "overview"), terminal=True) for argv in (
        ("run", "/agent-state"), ("tool", "agent_handoff_get"), ("inspect",), ("inspect", "--json"), ("sessions",),
        ("diff", "00000001", "leaf"), ("overview", "--all"))),
)


class Terminal(io.StringIO):
    """A stdout that is a terminal and, like a real one, takes only what UTF-8 can encode."""

    def isatty(self) -> bool:
        return True

    def write(self, s: str) -> int:
        s.encode("utf-8")
        return super().write(s)


def argv_of(command: Command, case: Case) -> list[str]:
    argv = [case.params if word == "{params}" else word for word in command.argv]
    if command.session and case.session is not None:
        if command.tui:
            return [str(case.session)] if str(case.session) else ["--session", ""]
        argv[1:1] = ["--session", str(case.session)]
    return argv


def stop_event(case: Case, box: Box) -> bytes:
    """What Codex sends its Stop hook (the fields pideck reads), for the case's working directory."""
    cwd = os.fsencode(case.cwd or box.project).decode("utf-8", "surrogateescape")
    return json.dumps({"session_id": "s", "cwd": cwd, "hook_event_name": "Stop", "stop_hook_active": False,
                       "last_assistant_message": HOSTILE_TEXT}).encode()


class Hung(Exception):
    pass


MEMORY_HEADROOM = 2 << 30
"""Address space a run may add: reading /dev/zero without end must fail this test with a
MemoryError, not take the machine's memory (and other processes with it)."""


@contextmanager
def bounded_memory() -> Iterator[None]:
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    with open("/proc/self/statm") as fh:
        in_use = int(fh.read().split()[0]) * resource.getpagesize()
    cap = in_use + MEMORY_HEADROOM
    resource.setrlimit(resource.RLIMIT_AS, (cap if hard == resource.RLIM_INFINITY else min(cap, hard), hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def _hung(signum: int, frame: object) -> None:
    raise Hung(f"no answer within {SECONDS_PER_RUN} s")


def files_under(folder: Path) -> dict[Path, bytes]:
    found = {}
    for dirpath, _, names in os.walk(folder):
        for name in names:
            path = Path(dirpath) / name
            if path.is_file() and not path.is_symlink():
                found[path] = path.read_bytes()
    return found


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def sandbox(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Box:
    box = Box(tmp_path, tmp_path / "project", tmp_path / "pi-agent", tmp_path / "pideck-home", tmp_path / "config.toml")
    box.project.mkdir()
    monkeypatch.chdir(box.project)
    for key, value in {"PIDECK_HOME": box.pideck_home, "PI_CODING_AGENT_DIR": box.pi_agent,
                       "PIDECK_CONFIG": box.config, "HOME": tmp_path / "home"}.items():
        monkeypatch.setenv(key, str(value))
    for key in ("PIDECK_SESSION", "PI_CODING_AGENT_SESSION_DIR", "PIDECK_INDEX", "CODEX_HOME"):
        monkeypatch.delenv(key, raising=False)
    (tmp_path / "temp").mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "temp"))  # where `pideck demo` writes
    return box


@pytest.mark.parametrize("name", list(CASES))
def test_every_command_survives(name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                capsys: pytest.CaptureFixture[str]) -> None:
    box = sandbox(tmp_path, monkeypatch)
    case = CASES[name](box)
    for key, value in case.env.items():
        if value is None:
            monkeypatch.delenv(key, raising=False)
        else:
            monkeypatch.setenv(key, value)
    if case.cwd is not None:
        monkeypatch.chdir(case.cwd)
        if case.cwd.name == "gone":
            case.cwd.rmdir()
    if case.fault is not None:
        case.fault(monkeypatch)
    problems: list[str] = []
    for command in COMMANDS:
        problems += run_one(command, case, box, monkeypatch, capsys).problems
    assert problems == []


def test_the_matrix_runs_the_commands_for_real(tmp_path, monkeypatch, capsys):
    """The harness itself: on good sessions the commands answer as they should."""
    box = sandbox(tmp_path, monkeypatch)
    pi_file, mine = pi_session(box), pideck_session(box)
    inspect = run_one(Command(("inspect",)), Case(session=mine), box, monkeypatch, capsys)
    assert (inspect.code, inspect.problems) == (0, []) and "objective: Ship it" in inspect.out
    add = Command(("run", "/agent-state add a Hostile item"))
    assert run_one(add, Case(session=mine), box, monkeypatch, capsys).code == 0
    assert mine.read_bytes().startswith(GOOD) and len(mine.read_bytes()) > len(GOOD)
    refused = run_one(add, Case(session=pi_file), box, monkeypatch, capsys)
    assert (refused.code, refused.err) == (1, PI_SESSION_READ_ONLY + "\n") and pi_file.read_bytes() == GOOD
    shown = run_one(COMMANDS[-1], Case(), box, monkeypatch, capsys)  # overview --all on a terminal
    assert (shown.code, shown.problems) == (0, []) and len(shown.out.splitlines()) == 3  # a title, two sessions


@dataclass
class Outcome:
    code: int | None
    out: str
    err: str
    problems: list[str]


def run_one(command: Command, case: Case, box: Box, monkeypatch: pytest.MonkeyPatch,
            capsys: pytest.CaptureFixture[str]) -> Outcome:
    """Run one command as the case sets it up (at most SECONDS_PER_RUN, with bounded memory) and
    say what went wrong."""
    if case.each is not None:
        case.each()
    argv = argv_of(command, case)
    label = " ".join(a if len(a) < 60 else a[:57] + "..." for a in argv) or "(no arguments)"
    pi_before = files_under(box.pi_agent)
    others_before = {p: data for p, data in files_under(box.root).items()
                     if p.suffix == ".jsonl" and p not in pi_before}
    stdin = case.stdin if command.stdin else stop_event(case, box) if command.event else b""
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8"))
    capsys.readouterr()
    terminal, captured = Terminal(), sys.stdout
    if command.terminal:
        sys.stdout = terminal
    problems = []
    previous = signal.signal(signal.SIGALRM, _hung)
    signal.alarm(SECONDS_PER_RUN)
    try:
        with bounded_memory():
            code = main(argv, tui=(lambda opened, **_: 0) if command.tui else None)
    except SystemExit as exc:  # argparse's usage errors
        code = exc.code if isinstance(exc.code, int) else 2
    except BaseException as exc:
        code = None
        problems.append(f"{label}: raised {type(exc).__name__}: {str(exc)[:200]}")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
        sys.stdout = captured
    out, err = capsys.readouterr()
    if command.terminal:
        out = terminal.getvalue()
        if any(c in out for c in "\x1b\x07\x00\u202e"):
            problems.append(f"{label}: let a control character reach the terminal")
    if code is not None and code not in (0, 1, 2):
        problems.append(f"{label}: exit status {code}")
    if "Traceback" in out + err:
        problems.append(f"{label}: printed a traceback")
    pi_after = files_under(box.pi_agent)
    for path, data in pi_before.items():
        now = pi_after.get(path)
        unchanged = now is not None and digest(now) == digest(data)
        if not unchanged and not (command.writes_pi and now is not None and now.startswith(data)):
            problems.append(f"{label}: changed pi's file {path.name}")
    if not command.writes_pi and set(pi_after) - set(pi_before):
        problems.append(f"{label}: created {sorted(p.name for p in set(pi_after) - set(pi_before))} in pi's folders")
    for path, data in others_before.items():
        now = path.read_bytes() if path.is_file() else b""
        if not now.startswith(data):
            problems.append(f"{label}: lost or rewrote bytes of {path.name}")
        elif now != data and (problem := bad_append(data, now)):
            problems.append(f"{label}: appended to {path.name} {problem}")
    return Outcome(code, out, err, problems)


def bad_append(before: bytes, after: bytes) -> str | None:
    """What is wrong with what was appended: only to a version 3 session, only whole entries. An
    empty file is a session not written yet (docs/session-format.md): it may get its header first."""
    if not before:
        header = read_header_of(after)
        if header is None or header.get("version") != 3:
            return "to an empty file without writing a version 3 header first"
        before = after[:after.index(b"\n") + 1]
    header = read_header_of(before)
    if header is None or header.get("version") != 3:
        return "although it is not a version 3 session"
    # The lines the file gained, from the start of ``before``'s partial last line, if any: another
    # writer may have ended it meanwhile (a whole entry then), or pideck repaired it (left as it was,
    # on its own line); a line still without its newline at the end is someone's write in progress.
    tail = before[before.rfind(b"\n") + 1:]
    lines = (tail + after[len(before):]).split(b"\n")[:-1]
    if tail and lines and lines[0] == tail:
        lines = lines[1:]  # the repair of a torn last line
    for raw in lines:
        entry = json.loads(raw)
        if not (isinstance(entry, dict) and {"id", "parentId", "timestamp"} <= entry.keys()):
            return f"a line that is not an entry: {raw[:80]!r}"
    return None


def read_header_of(data: bytes) -> dict | None:
    for raw in data.split(b"\n")[:-1]:
        try:
            value = json.loads(raw.decode("utf-8", "replace"))
        except (ValueError, RecursionError):
            continue
        return value if isinstance(value, dict) and value.get("type") == "session" else None
    return None
