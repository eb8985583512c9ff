"""The ``pideck`` console script: the command line, with the TUI as its front end.

Textual is imported only when the TUI opens, so the headless commands start as fast as core lets
them; so are ``signal`` and ``threading``, which only the app's terminal watch uses, and ``typing``,
which annotations alone name here (tests/cli/test_command_imports.py lists what each command loads).
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # (typing's own constant, without importing typing: mypy reads it the same)
if TYPE_CHECKING:
    from typing import Any, Callable, Sequence

    from textual.app import App

    from core.catalog.opening import Opened, Waiting


NO_TERMINAL = ("pideck: the app needs a terminal, and its input or output is not one; `pideck inspect` "
               "prints the same state without it")


WEB_DRIVER = "textual.drivers.web_driver:WebDriver"
"""The driver textual-serve names in ``TEXTUAL_DRIVER`` for the apps it starts (``pideck serve``)."""


def has_terminal() -> bool:
    """Whether stdin and stdout are a terminal: without one the app would run unseen, forever. An
    app textual-serve started has a browser's page instead, reached through pipes (docs/serve.md)."""
    return (sys.stdin.isatty() and sys.stdout.isatty()) or os.environ.get("TEXTUAL_DRIVER") == WEB_DRIVER


INTERRUPTED_STATUS = 130
"""The exit status of a start ended by ctrl+c before the app took the terminal: 128 + SIGINT, as a
shell reports a process ctrl+c ended (the app itself quits with 0 on two ctrl+c)."""
HANGUP_STATUS = 129
"""The app's exit status when its terminal went away: 128 + SIGHUP, as a shell reports a process a
hang-up ended (docs/tui.md#when-the-terminal-goes-away)."""
CLEANUP_WAIT_S = 5.0
"""The longest an app with a ``cleanup`` (the demo) waits, once it has ended, for its threads' jobs
(a catalog refresh writing its cache) to end before the cleanup removes their folder."""


class TerminalWatch:
    """Ends the app when its terminal goes away, the way a quit ends it (the demo's folder is
    removed, the exit status is ``HANGUP_STATUS``).

    Two signs, as the app cannot rely on either alone: SIGHUP (the terminal closed; Python's default
    would kill the process with no clean-up, so it is caught unless it was ignored at start, as
    ``nohup`` asks), and the terminal hung up under stdin, which a thread sees with poll(2): Textual's
    input thread reads end-of-file there and reads again at once, forever, at full speed. The app's
    output then goes to /dev/null (``_silence``), and the app gets ``GRACE_S`` to end; should it
    still be running, the process ends with ``os._exit``."""

    GRACE_S = 3.0

    def __init__(self, app: App, cleanup: Callable[[], object] | None = None) -> None:
        """``cleanup``: what must happen even when the app has to be ended by force (the demo's
        folder removed): ``os._exit`` runs no ``finally``."""
        import threading

        self.app = app
        self.cleanup = cleanup
        self.fd = -1
        self.gone = False
        self._ended = threading.Event()
        self._lock = threading.Lock()
        self._previous: object = None

    def start(self) -> None:
        import signal
        import threading

        try:
            self.fd = sys.stdin.fileno()
        except (AttributeError, OSError, ValueError):  # no file under stdin (an in-process caller's): no terminal to watch
            return
        if threading.current_thread() is threading.main_thread() and signal.getsignal(signal.SIGHUP) is signal.SIG_DFL:
            self._previous = signal.signal(signal.SIGHUP, self._on_sighup)
        threading.Thread(target=self._watch, name="pideck-terminal", daemon=True).start()

    def ended(self) -> None:
        """The app has ended: nothing more to watch, and no forced exit."""
        import signal
        import threading

        self._ended.set()
        if self._previous is not None and threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGHUP, self._previous)  # type: ignore[arg-type]

    def _on_sighup(self, signum: int, frame: object) -> None:
        # (in the main thread, the app's own: the app is told from another one)
        import threading

        if self._terminal_gone(0):
            self._silence()
        threading.Thread(target=self.hang_up, name="pideck-hangup", daemon=True).start()

    def _watch(self) -> None:
        while not self._ended.is_set():
            if self._terminal_gone(250):
                self._silence()
                self.hang_up()
                return

    def _terminal_gone(self, timeout_ms: int) -> bool:
        import select

        poller = select.poll()
        poller.register(self.fd, 0)  # only POLLHUP, POLLERR and POLLNVAL: a hung-up terminal
        return bool(poller.poll(timeout_ms))

    @staticmethod
    def _silence() -> None:
        """Writes to a hung-up terminal fail, and Textual's writer thread dies of the first one,
        after which the app blocks on its full queue as it ends: the output goes to /dev/null."""
        devnull = os.open(os.devnull, os.O_WRONLY)
        try:
            for stream in (sys.__stdout__, sys.__stderr__):
                if stream is not None:
                    os.dup2(devnull, stream.fileno())
        except (OSError, ValueError):
            pass
        finally:
            os.close(devnull)

    def hang_up(self) -> None:
        from tui.messages import HungUp

        with self._lock:
            if self.gone or self._ended.is_set():
                return
            self.gone = True

        self.app.post_message(HungUp(HANGUP_STATUS))  # (thread-safe; the app ends itself: ``PideckApp``)
        if not self._ended.wait(self.GRACE_S):
            if self.cleanup is not None:
                try:
                    self.cleanup()
                except Exception:  # (ending is what matters now)
                    pass
            os._exit(HANGUP_STATUS)


def run_tui(opened: Opened | Waiting | Callable[[], Opened | Waiting] | None, show_all: bool = False,
            cleanup: Callable[[], object] | None = None, host: str | None = None) -> int:
    """Run the app until the person quits (``opened`` None: on the sessions overview; ``Waiting``:
    on the screen that waits for the directory's first session; a function: called once there is a
    terminal, so nothing is opened or created for an app that cannot run; ``show_all``: ``pideck
    --all``; ``host``: the overview of that machine's rows, ``pideck --host NAME``); a crash is never exit status 0. Without a terminal: one line, exit 2."""
    import gc

    if not has_terminal():
        print(NO_TERMINAL, file=sys.stderr)
        return 2
    # The session is read on a thread of its own while Textual and the app's modules are imported:
    # the read waits on the disk and, for a big file, on a second process.
    opening = Opening(opened) if callable(opened) else None

    from tui.app import PideckApp
    from tui.paste import use_whole_pastes

    use_whole_pastes()
    if opening is not None:
        opened = opening.result()
    assert not callable(opened)
    collecting = gc.isenabled()  # (else ``main`` turned the collector off for the start)

    def started() -> None:
        """The first frame is on screen. What is loaded by now (the session's index, Textual's
        modules, the widgets) lives as long as the app: kept out of the collector's way, the
        collections while the app runs scan only what it makes."""
        gc.freeze()
        gc.enable()

    from core.catalog.opening import Waiting

    if isinstance(opened, Waiting):
        app = PideckApp(None, warnings=opened.warnings, waiting=opened, show_all=show_all, started=started)
    else:
        app = PideckApp(opened.deck if opened else None, warnings=opened.warnings if opened else (),
                        why=opened.why if opened else None, follows=opened.follows if opened else None,
                        show_all=show_all, started=started, host=host)
    if interrupt_lost:  # (the start was asked to end while it imported)
        raise KeyboardInterrupt
    watch = TerminalWatch(app, cleanup)
    watch.start()
    use_terminal_size()
    try:
        app.run()
    finally:
        watch.ended()
        if not collecting:
            gc.enable()
        if cleanup is not None:  # (the demo's folder goes next: no thread of the app may still write to it)
            from tui.models.thread import join_all

            join_all(CLEANUP_WAIT_S)
    return HANGUP_STATUS if watch.gone else app.return_code or 0


def use_terminal_size() -> None:
    """The app fills the terminal it runs in and follows its resizes: ``COLUMNS`` and ``LINES``
    go from the environment, as Textual takes them over the terminal's own size at the start and at
    every resize. A shell rarely exports them, but a program that used GNU readline hands its own on
    (80 and 24 when it had no terminal), and the deck then drew 80x24 in any window, for good
    (docs/tui.md#the-terminals-size). Not for the browser's driver, which reads its size there."""
    if os.environ.get("TEXTUAL_DRIVER") == WEB_DRIVER:
        return
    try:
        columns, lines = os.get_terminal_size(sys.__stdout__.fileno() if sys.__stdout__ else 1)
    except (OSError, ValueError):
        return  # (no size to go by: what the environment says is all there is)
    if columns and lines:
        os.environ.pop("COLUMNS", None)
        os.environ.pop("LINES", None)


class Opening:
    """``open()`` run on a thread of its own; ``result`` waits for it and raises what it raised.
    The app's modules are imported meanwhile, so the read of the session overlaps them where it
    waits (on the disk, on the second process of a big read: docs/session-format.md)."""

    def __init__(self, open: Callable[[], Opened | Waiting]) -> None:
        import threading

        self._open = open
        self._opened: Opened | Waiting | None = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="pideck-opening", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            self._opened = self._open()
        except BaseException as exc:  # (raised again where the result is taken)
            self._error = exc

    def result(self) -> Opened | Waiting:
        self._thread.join()
        if self._error is not None:
            raise self._error
        assert self._opened is not None
        return self._opened


ONE_SHOT = (["inspect"], ["diff"], ["gate"], ["run"], ["tool"], ["hook"])
"""Commands that read one session, answer once and exit (never a command that reads every session
of a folder, or goes on: those let the collector free what each read leaves)."""


def main(argv: Sequence[str] | None = None) -> int:
    import gc

    from core.cli.main import main as cli_main
    from core.cli.main import opens_tui

    words = list(sys.argv[1:] if argv is None else argv)
    # The app's start creates the objects of its modules, its session's index and its widgets, most
    # of which live as long as it does: the collector would walk them again and again for nothing
    # (about a tenth of the start). It is off until the first frame is on screen (``run_tui``). A
    # command that reads one session, answers and exits (``ONE_SHOT``) keeps it off: what it made
    # is let go at the exit, and the walks cost a cold ``inspect`` of a big session a fifteenth.
    collecting = gc.isenabled() and (opens_tui(words) or words[:1] == ["demo"] or words[:1] in ONE_SHOT)
    if collecting:
        gc.disable()
    try:
        return cli_main(words, tui=run_tui)
    finally:
        if collecting:
            gc.enable()


def interrupted(error: BaseException) -> bool:
    """Whether a ctrl+c is what ``error`` came of. One that lands while a class statement runs
    (an import during the start defines hundreds) reaches us wrapped: Python 3.11 raises what a
    ``__set_name__`` raised as the cause of a RuntimeError."""
    cause = error.__cause__
    while cause is not None and not isinstance(cause, KeyboardInterrupt):
        cause = cause.__cause__
    return cause is not None


interrupt_lost = False
"""Whether a ctrl+c landed where Python could not raise it (``keep_lost_interrupt``)."""


def keep_lost_interrupt(unraisable: Any) -> None:
    """``sys.unraisablehook`` for the console script. A ctrl+c that lands where Python can only
    report it and go on (a weakref callback inside the import machinery, while the start imports
    its modules) printed its traceback over the terminal and was lost: it is kept instead, and ends
    the start before the app takes the terminal (``run_tui``). It cannot be raised again from here:
    it would land in this hook, where it is lost the same way. Anything else is reported as usual."""
    global interrupt_lost
    if issubclass(unraisable.exc_type, KeyboardInterrupt):
        interrupt_lost = True
    else:
        sys.__unraisablehook__(unraisable)


def run() -> None:
    """The console script: ``main``, then a quick exit. Once a headless command's output is
    flushed, nothing is left to do but free what it built (a big session's index, thousands of
    objects), which the interpreter would do one object at a time; ``os._exit`` skips that. The
    TUI exits the usual way (Textual restores the terminal as the app ends, and its threads are
    joined), and so does a run whose output cannot be flushed (the usual error is printed)."""
    sys.unraisablehook = keep_lost_interrupt
    try:
        status = main()
    except KeyboardInterrupt:  # ctrl+c before the app had the terminal (inside imports, writing the demo):
        status = INTERRUPTED_STATUS  # a quit, said by the status alone, never a traceback
    except Exception as error:
        if not interrupted(error):
            raise
        status = INTERRUPTED_STATUS
    if "textual" not in sys.modules or status in (HANGUP_STATUS, INTERRUPTED_STATUS):  # (the terminal is gone: nothing to flush to)
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except (OSError, ValueError):
            pass
        else:
            os._exit(status)
    sys.exit(status)


if __name__ == "__main__":
    run()
