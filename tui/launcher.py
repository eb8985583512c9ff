"""The ``pideck`` console script: the command line, with the TUI as its front end.

Textual is imported only when the TUI opens, so the headless commands start as fast as core lets
them.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from typing import TYPE_CHECKING, Callable, Sequence

if TYPE_CHECKING:
    from textual.app import App

    from core.opening import Opened


NO_TERMINAL = ("pideck: the app needs a terminal, and its input or output is not one; `pideck inspect` "
               "prints the same state without it")


def has_terminal() -> bool:
    """Whether stdin and stdout are a terminal: without one the app would run unseen, forever."""
    return sys.stdin.isatty() and sys.stdout.isatty()


HANGUP_STATUS = 129
"""The app's exit status when its terminal went away: 128 + SIGHUP, as a shell reports a process a
hang-up ended (docs/tui.md#when-the-terminal-goes-away)."""


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
        self.app = app
        self.cleanup = cleanup
        self.fd = -1
        self.gone = False
        self._ended = threading.Event()
        self._lock = threading.Lock()
        self._previous: object = None

    def start(self) -> None:
        try:
            self.fd = sys.stdin.fileno()
        except (AttributeError, OSError, ValueError):  # no file under stdin (an in-process caller's): no terminal to watch
            return
        if threading.current_thread() is threading.main_thread() and signal.getsignal(signal.SIGHUP) is signal.SIG_DFL:
            self._previous = signal.signal(signal.SIGHUP, self._on_sighup)
        threading.Thread(target=self._watch, name="pideck-terminal", daemon=True).start()

    def ended(self) -> None:
        """The app has ended: nothing more to watch, and no forced exit."""
        self._ended.set()
        if self._previous is not None and threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGHUP, self._previous)  # type: ignore[arg-type]

    def _on_sighup(self, signum: int, frame: object) -> None:
        # (in the main thread, the app's own: the app is told from another one)
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
        with self._lock:
            if self.gone or self._ended.is_set():
                return
            self.gone = True

        def tell() -> None:
            try:
                self.app.call_from_thread(self.app.exit, None, HANGUP_STATUS)
            except RuntimeError:  # the app is not running (any more)
                pass

        threading.Thread(target=tell, name="pideck-hangup-exit", daemon=True).start()
        if not self._ended.wait(self.GRACE_S):
            if self.cleanup is not None:
                try:
                    self.cleanup()
                except Exception:  # (ending is what matters now)
                    pass
            os._exit(HANGUP_STATUS)


def run_tui(opened: Opened | Callable[[], Opened] | None, show_all: bool = False,
            cleanup: Callable[[], object] | None = None) -> int:
    """Run the app until the person quits (``opened`` None: on the sessions overview; a function:
    called once there is a terminal, so nothing is opened or created for an app that cannot run;
    ``show_all``: ``pideck --all``); a crash is never exit status 0. Without a terminal: one line,
    exit 2."""
    import gc

    if not has_terminal():
        print(NO_TERMINAL, file=sys.stderr)
        return 2
    if callable(opened):
        opened = opened()

    from tui.app import PideckApp

    app = PideckApp(opened.deck if opened else None, warnings=opened.warnings if opened else (),
                    why=opened.why if opened else None, show_all=show_all)
    # What is loaded now (the session's index, Textual's modules) lives as long as the app: kept
    # out of the collector's way, the collections while the app runs scan only what it makes.
    gc.freeze()
    watch = TerminalWatch(app, cleanup)
    watch.start()
    try:
        app.run()
    finally:
        watch.ended()
    return HANGUP_STATUS if watch.gone else app.return_code or 0


def main(argv: Sequence[str] | None = None) -> int:
    from core.cli import main as cli_main

    return cli_main(argv, tui=run_tui)


def run() -> None:
    """The console script: ``main``, then a quick exit. Once a headless command's output is
    flushed, nothing is left to do but free what it built (a big session's index, thousands of
    objects), which the interpreter would do one object at a time; ``os._exit`` skips that. The
    TUI exits the usual way (Textual restores the terminal as the app ends, and its threads are
    joined), and so does a run whose output cannot be flushed (the usual error is printed)."""
    status = main()
    if "textual" not in sys.modules or status == HANGUP_STATUS:  # (the terminal is gone: nothing to flush to)
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
