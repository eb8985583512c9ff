"""``pideck overview|status|watch|sessions|inspect --host NAME``: the command run by the pideck of
another machine of ``[[hosts]]`` over ssh (core/remote/ssh.py), its answer shown here as
untrusted text (docs/on-host.md).

What the remote prints never reaches the terminal as it is: JSON is parsed and printed again by
pideck's own printer (an escape sequence inside a string stays an escape), and every other line
has its control characters made visible. A remote that does not answer in time, or answers with
what is not JSON where JSON was asked for, is stopped and said.
"""

from __future__ import annotations

import argparse
import os
import sys

from core.cli.common import UsageError

TYPE_CHECKING = False
if TYPE_CHECKING:
    import subprocess
    from typing import Any, Iterator, Sequence

    from core.config.settings import HostConfig

ANSWER_TIMEOUT_S = 30.0
"""How long a one-shot command (overview, status, sessions, inspect) may take on the host before
it is stopped (``--host-timeout`` changes it; ``watch`` runs until interrupted)."""
EXIT_NO_ANSWER = 255
"""The exit status when the host gave no answer of pideck's: ssh could not reach it (ssh's own
status for its failures), it did not answer in time, or its JSON was not JSON. Any other status
is the remote pideck's own."""
MAX_ANSWER_BYTES = 64 << 20
"""A one-shot answer larger than this is no pideck answer (a remote printing endlessly)."""
MAX_LINE_BYTES = 16 << 20
"""The longest line ``watch`` takes from the remote."""
KEPT_ERRORS = 64 << 10
"""How much of the remote's stderr is kept to show (its end)."""
STOP_S = 10.0
"""How long ssh may take to end once the remote's output has ended."""

OUR_OPTIONS = ("--host", "--host-timeout")


class NoAnswer(Exception):
    """The host gave no answer of pideck's; the message says why."""


def run_on_host(args: argparse.Namespace, argv: Sequence[str]) -> int:
    """Run ``argv`` (a command line given ``--host``) on that host; its exit status, else
    ``EXIT_NO_ANSWER`` with the reason on stderr."""
    host = find_host(args.host)
    limit = args.host_timeout if args.host_timeout is not None else ANSWER_TIMEOUT_S
    if not 0 < limit < float("inf"):
        raise UsageError("--host-timeout must be a number of seconds above 0")
    import subprocess

    from core.remote.ssh import ends_with_input, ssh_argv

    words = remote_words(argv)
    wants_json = bool(getattr(args, "json", False) or getattr(args, "feed", False))
    follows = args.command == "watch"
    try:
        process = subprocess.Popen(ssh_argv(ends_with_input(host), words), stdin=subprocess.PIPE,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    except FileNotFoundError:
        print("pideck: --host runs the system's ssh client, and there is none here (install OpenSSH's client)",
              file=sys.stderr)
        return EXIT_NO_ANSWER
    errors = bytearray()
    try:
        if follows:
            show_lines(read_lines(process, None, errors, host.name), wants_json, host.name)
            status = wait(process, STOP_S)
        else:
            answer, status = read_answer(process, limit, errors, host.name)
        drain(process, errors)
        if status == EXIT_NO_ANSWER:  # (ssh's own failure: its reason is its last line)
            from core.remote.ssh import ssh_reason

            raise NoAnswer(f"host {host.name!r} cannot be reached: {ssh_reason(bytes(errors)) or 'ssh ended with status 255'}")
        if not follows:
            show_answer(answer, wants_json, host.name, f"pideck {words[0]}", required=status == 0)
    except KeyboardInterrupt:
        stop(process)
        return 0 if follows else 130  # (watch ends on ctrl+c; a one-shot command was cut short, as a shell says)
    except TimeoutError:
        stop(process)
        if follows:  # (its output ended, its ssh did not)
            print(f"pideck: host {host.name!r} ended its output but not its command; it was stopped", file=sys.stderr)
        else:
            print(f"pideck: host {host.name!r} gave no answer within {limit:g} s (pideck {words[0]} there); it was "
                  "stopped", file=sys.stderr)
        return EXIT_NO_ANSWER
    except NoAnswer as exc:
        stop(process)
        print(f"pideck: {exc}", file=sys.stderr)
        return EXIT_NO_ANSWER
    stop(process)
    show_errors(bytes(errors), status, host.name)
    return status


def find_host(name: str) -> HostConfig:
    """The host of ``[[hosts]]`` named ``name`` (the config's warnings on stderr); a UsageError
    naming the configured hosts otherwise."""
    from core.config.settings import config_path, load_hosts
    from core.untrusted import visible_controls

    hosts, warnings = load_hosts()
    for warning in warnings:
        print(f"pideck: config: {visible_controls(warning)}", file=sys.stderr)
    for host in hosts:
        if host.name == name:
            return host
    named = ", ".join(h.name for h in hosts) if hosts else "none"
    raise UsageError(f"no host named {visible_controls(name)!r} in the [[hosts]] of {visible_controls(os.fspath(config_path()))} "
                     f"(configured: {named})")


def remote_words(argv: Sequence[str]) -> list[str]:
    """The command line for the remote pideck: ``argv`` without ``--host NAME`` and
    ``--host-timeout S`` (in any form argparse took: ``--host=NAME``, ``--host-t 5``); an option's
    value written ``--session=~/x`` is split in two, so ``~/`` still means the remote's home. Every
    other word goes as it is: paths are the remote's (relative ones from its login folder)."""
    words: list[str] = []
    rest = iter(argv)
    for word in rest:
        option, equals, value = word.partition("=")
        if _ours(option):
            if not equals:
                next(rest, None)  # (its value)
            continue
        if option.startswith("--") and equals and value.startswith("~/"):
            words += [option, value]
        else:
            words.append(word)
    return words


def _ours(option: str) -> bool:
    """Whether ``option`` is one of ``OUR_OPTIONS`` as argparse takes it (a long option may be
    shortened while it stays unambiguous; ``--host`` itself is never a shortening here)."""
    return option == "--host" or (len(option) > len("--host") and "--host-timeout".startswith(option))


# -- reading the remote's answer --------------------------------------------------------------------


def read_chunks(process: subprocess.Popen[bytes], deadline: float | None, errors: bytearray) -> Iterator[bytes]:
    """The remote's stdout as it arrives, until it ends; its stderr meanwhile kept in ``errors``
    (the end of it). Raises TimeoutError at ``deadline`` (``time.monotonic()``)."""
    import selectors
    import time

    assert process.stdout is not None and process.stderr is not None
    out, err = process.stdout.fileno(), process.stderr.fileno()
    selector = selectors.DefaultSelector()
    selector.register(out, selectors.EVENT_READ)
    selector.register(err, selectors.EVENT_READ)
    try:
        while True:
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                raise TimeoutError
            for key, _ in selector.select(left):
                chunk = os.read(key.fd, 1 << 16)
                if key.fd == err:
                    if not chunk:
                        selector.unregister(err)
                    keep(errors, chunk)
                elif not chunk:
                    return
                else:
                    yield chunk
    finally:
        selector.close()


def read_lines(process: subprocess.Popen[bytes], deadline: float | None, errors: bytearray, name: str) -> Iterator[bytes]:
    """``read_chunks`` line by line as each line arrives (the last one without its newline if it
    has none); NoAnswer for a line too long."""
    pending = b""
    for chunk in read_chunks(process, deadline, errors):
        pending += chunk
        if b"\n" in chunk:
            *lines, pending = pending.split(b"\n")
            yield from (line + b"\n" for line in lines)
        if len(pending) > MAX_LINE_BYTES:
            raise NoAnswer(f"host {name!r} printed a line longer than {MAX_LINE_BYTES >> 20} MB; it was stopped")
    if pending:
        yield pending


def keep(errors: bytearray, chunk: bytes) -> None:
    errors += chunk
    del errors[:-KEPT_ERRORS]


def read_answer(process: subprocess.Popen[bytes], limit: float, errors: bytearray, name: str) -> tuple[str, int]:
    """A one-shot command's whole stdout, decoded (bytes that are not UTF-8 kept as lone
    surrogates, shown as their escapes), and ssh's exit status. Raises TimeoutError after
    ``limit`` seconds."""
    import time

    deadline = time.monotonic() + limit
    answer = bytearray()
    for chunk in read_chunks(process, deadline, errors):
        answer += chunk
        if len(answer) > MAX_ANSWER_BYTES:
            raise NoAnswer(f"host {name!r} answered more than {MAX_ANSWER_BYTES >> 20} MB; it was stopped")
    return answer.decode("utf-8", "surrogateescape"), wait(process, deadline - time.monotonic())


def wait(process: subprocess.Popen[bytes], limit: float) -> int:
    """ssh's exit status once it ended; TimeoutError if not within ``limit`` seconds (its output
    has ended by then: only its status is awaited)."""
    import subprocess

    try:
        return process.wait(max(limit, 0))
    except subprocess.TimeoutExpired:
        raise TimeoutError from None


def drain(process: subprocess.Popen[bytes], errors: bytearray) -> None:
    """What the remote's stderr holds already, kept in ``errors``; never waits for more (a
    shared connection's master may hold the pipe open)."""
    import select

    assert process.stderr is not None
    err = process.stderr.fileno()
    while select.select([err], [], [], 0)[0]:
        chunk = os.read(err, 1 << 16)
        if not chunk:
            return
        keep(errors, chunk)


def stop(process: subprocess.Popen[bytes]) -> None:
    """End the remote command and the local ssh: ssh's input closed (the remote command ends,
    ``ENDS_WITH_INPUT``), then ssh itself. Nothing more is read from either."""
    import subprocess

    for stream in (process.stdin, process.stdout, process.stderr):
        if stream is not None:
            try:
                stream.close()
            except OSError:  # (a closed pipe: the input's end was already gone)
                pass
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


# -- showing it ------------------------------------------------------------------------------------


def visible_line(line: bytes | str) -> str:
    """One line of the remote's text output, without its newline (``\n`` or ``\r\n``), its control
    characters made visible (tabs as spaces), bytes that are not UTF-8 as their escapes."""
    from core.untrusted import visible_controls

    text = line.decode("utf-8", "surrogateescape") if isinstance(line, bytes) else line
    return visible_controls(text.removesuffix("\n").removesuffix("\r"), multiline=True)


def lines_of(text: str) -> list[str]:
    """``text``'s lines, split at newlines alone (``str.splitlines`` would split at a carriage
    return or a form feed too, which are to be shown, not obeyed)."""
    lines = text.split("\n")
    return lines[:-1] if lines[-1] == "" else lines


def first_line(text: str, limit: int = 200) -> str:
    """The first line of ``text`` made visible and cut at ``limit`` characters, to quote in a message."""
    from core.untrusted import visible_controls

    line = text.split("\n", 1)[0]
    return visible_controls(line[:limit]) + ("…" if len(line) > limit else "")


def json_documents(text: str, name: str) -> Iterator[Any]:
    """The JSON documents ``text`` holds one after another (an indented one, or one per line);
    NoAnswer quoting the first line that is not JSON."""
    import json

    decoder = json.JSONDecoder()
    at, end = 0, len(text)
    while True:
        while at < end and text[at] in " \t\r\n":
            at += 1
        if at == end:
            return
        try:
            document, at = decoder.raw_decode(text, at)
        except (ValueError, RecursionError) as exc:
            where = exc.pos if isinstance(exc, json.JSONDecodeError) else at
            start = text.rfind("\n", 0, where) + 1
            raise NoAnswer(f"host {name!r} answered with what is not pideck's JSON: "
                           f"{first_line(text[start:]) or first_line(text[at:])}") from None
        yield document


def show_answer(answer: str, as_json: bool, name: str, what: str, *, required: bool) -> None:
    """A one-shot command's answer: ``as_json``, each JSON document printed again by pideck's
    printer (NoAnswer for what is not JSON, or for nothing when it is ``required``: the remote
    pideck said it succeeded); else its lines made visible."""
    if as_json:
        from core.cli.common import print_json

        documents = list(json_documents(answer, name))
        if not documents and required:
            raise NoAnswer(f"host {name!r} answered nothing where JSON was asked for ({what} there)")
        for document in documents:
            print_json(document)
        return
    for line in lines_of(answer):
        print(visible_line(line))


def show_lines(lines: Iterator[bytes], wants_json: bool, name: str) -> None:
    """``watch``'s lines as each arrives: JSON lines printed again by pideck's printer, text
    lines made visible."""
    from core.cli.common import print_json

    for line in lines:
        if wants_json:
            text = line.decode("utf-8", "surrogateescape")
            if not text.strip():
                continue
            documents = list(json_documents(text, name))
            if len(documents) != 1:
                raise NoAnswer(f"host {name!r} answered with what is not one JSON document per line: {first_line(text)}")
            print_json(documents[0], line=True)
        else:
            print(visible_line(line))
        sys.stdout.flush()


def show_errors(errors: bytes, status: int, name: str) -> None:
    """The remote's stderr, made visible line by line; a word on a command not found there."""
    for line in lines_of(errors.decode("utf-8", "surrogateescape")):
        print(visible_line(line), file=sys.stderr)
    if status == 127:  # (the remote shell's "command not found")
        print(f"pideck: host {name!r} has no such command: is pideck installed there, and does the host's "
              "`pideck` setting of [[hosts]] name it? (README: Agents on other machines)", file=sys.stderr)
