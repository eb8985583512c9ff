"""Telling the person that a session or conversation needs them (docs/notifications.md): which
changes of state are told and when (``Notifier``: once per change, never for the one on screen,
rate-limited, held while the person types), in which words (``notification_text``), and by which
channel (``choose``: the terminal's own notification by escape sequence, the desktop's notifier,
or the bell as the fallback).

Pure: the terminal output (``write``), the notifier command (``run``), the environment, the
platform, the PATH lookup and the clock are all handed in, so a front end (the app's follower,
tui/notifications.py) decides where they go and a test records them.

Names and evidence come from agents' logs and are untrusted: every text is ``sanitise``d (no
control character, one line, length-capped) before it reaches a sequence or a command line, and a
sequence's fields never hold ``;``.
"""

from __future__ import annotations

import html
import re
import subprocess
from collections import deque
from dataclasses import dataclass
from typing import Callable, Iterable, Mapping

from core.catalog.attention import sort_key
from core.catalog.catalog import Record
from core.catalog.states import CONTEXT_FULL, NEEDS_YOU, OPEN_WORK, OVER_BUDGET, UNREACHABLE
from core.config.settings import NotifyConfig
from core.sources.in_database import short_id
from core.sources.plan import AGENT_NAMES
from core.untrusted import CONTROL

TITLE = "pideck"
MAX_TEXT = 200
"""Characters of a notification's text at most (a longer one is cut, with an ellipsis)."""
TYPING_MS = 5000
"""``quiet_while_typing``: what the person typed this recently holds notifications back."""
MINUTE_MS = 60_000
STATE_KEYS = {NEEDS_YOU: "needs_you", OPEN_WORK: "open_work", OVER_BUDGET: "over_budget",
              CONTEXT_FULL: "context_nearly_full", UNREACHABLE: "unreachable"}
"""The states a notification tells of, and the ``[notify]`` key that switches each on."""
BUDGET_STATES = (OVER_BUDGET, CONTEXT_FULL)
"""Told once per crossing of a budget (``Record.crossing``), not once per change into the state."""

ESC, BEL, ST = "\x1b", "\x07", "\x1b\\"
SEQUENCE_NAMES = {"osc9": "OSC 9", "osc777": "OSC 777", "osc99": "kitty's OSC 99"}

TERMINAL_RULES: tuple[tuple[str, str, str | None], ...] = (
    ("osc99", "KITTY_WINDOW_ID", None),
    ("osc99", "TERM", "xterm-kitty"),
    ("osc9", "TERM_PROGRAM", "iTerm.app"),
    ("osc9", "LC_TERMINAL", "iTerm2"),
    ("osc9", "ITERM_SESSION_ID", None),
    ("osc9", "TERM_PROGRAM", "WezTerm"),
    ("osc9", "WEZTERM_PANE", None),
    ("osc9", "WT_SESSION", None),
    ("osc777", "TERM_PROGRAM", "ghostty"),
    ("osc777", "TERM", "xterm-ghostty"),
    ("osc777", "TERM", "foot*"),
    ("osc777", "TERM", "rxvt*"),
    ("osc777", "VTE_VERSION", None),
)
"""Which sequence the terminal takes, first match wins: (sequence, variable, value). A value None
means the variable is set (not empty), ``x*`` that it starts with ``x``, else it equals the value.
The variables that name a terminal survive inside tmux (it sets TERM and TERM_PROGRAM itself), so
kitty's, iTerm2's, WezTerm's and Windows Terminal's own come before TERM."""


# -- the words ------------------------------------------------------------------------------------

_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", re.IGNORECASE)
_HOOK_NOTE = re.compile(r" \((?:Notification|PermissionRequest) hook(?:, [^()]*)?\)$")
"""The note ``core.catalog.attention.ask_words`` ends an ask's evidence with: which hook said so (the
notification says what was asked; the inbox's detail keeps the rest)."""


def sanitise(text: str, limit: int = MAX_TEXT) -> str:
    """``text`` on one line with every control character (ESC, BEL, newlines, C1, bidirectional
    overrides) made a space, runs of spaces made one, cut at ``limit`` characters with an ellipsis."""
    text = " ".join(CONTROL.sub(" ", text).split())
    return text if len(text) <= limit else text[:limit - 1].rstrip() + "…"


def short_name(seen: Record) -> str:
    """A file named by a session id (an agent's transcript, pi's and pideck's sessions): the id's
    first 8 characters; any other name as it is, without ``.jsonl``."""
    if seen.session_id:  # an agent's conversation, named by its first prompt: its id says which
        return short_id(seen.session_id)
    ids = _UUID.findall(seen.name)
    return ids[-1][:8] if ids else seen.name.removesuffix(".jsonl")


def kind_label(kind: str) -> str:
    return f"{AGENT_NAMES[kind]} conversation" if kind in AGENT_NAMES else f"{kind} session"


def notification_text(seen: Record) -> str:
    """``Claude Code conversation 2aa06482 needs you: Claude needs your permission to use Bash``;
    of a host gone: ``host box unreachable since 14:02: ssh: connect to host box port 22: ...``."""
    if seen.attention.state == UNREACHABLE:
        return sanitise(f"host {seen.host} {seen.attention.evidence}")
    evidence = _HOOK_NOTE.sub("", seen.attention.evidence)
    return sanitise(f"{kind_label(seen.kind)} {short_name(seen)} {seen.attention.state}: {evidence}")


# -- the channels ---------------------------------------------------------------------------------


def _field(text: str) -> str:
    """A sequence's field: sanitised, and no ``;`` (OSC 777 splits its fields there)."""
    return sanitise(text).replace(";", ",")


def terminal_sequence(kind: str, text: str, *, tmux: bool = False) -> str:
    """The escape sequence of ``kind`` (``osc9``, ``osc777``, ``osc99``) that shows ``text``, for
    tmux's passthrough when ``tmux`` (every ESC inside doubled, the whole in ``ESC P tmux; … ESC \\``).
    OSC 9's text starts with ``pideck:`` so it never begins with a number (``9;4;…`` is a progress
    bar to Windows Terminal and ConEmu)."""
    body = _field(text)
    if kind == "osc9":
        sequence = f"{ESC}]9;{TITLE}: {body}{BEL}"
    elif kind == "osc777":
        sequence = f"{ESC}]777;notify;{TITLE};{body}{BEL}"
    elif kind == "osc99":
        sequence = f"{ESC}]99;;{TITLE}: {body}{ST}"
    else:
        raise ValueError(f"unknown terminal notification {kind!r}")
    return tmux_wrap(sequence) if tmux else sequence


def tmux_wrap(sequence: str) -> str:
    return f"{ESC}Ptmux;{sequence.replace(ESC, ESC + ESC)}{ST}"


def terminal_choice(env: Mapping[str, str]) -> tuple[str | None, str]:
    """The sequence this terminal takes (``TERMINAL_RULES``) and why, or None and why not."""
    for kind, variable, value in TERMINAL_RULES:
        got = env.get(variable, "")
        if value is None and got:
            return kind, f"{variable} is set"
        if value is not None and value.endswith("*") and got.startswith(value[:-1]):
            return kind, f"{variable} starts with {value[:-1]}"
        if value is not None and got == value:
            return kind, f"{variable} is {value}"
    seen = ", ".join(f"{v}={sanitise(env[v], 40)}" for v in ("TERM", "TERM_PROGRAM") if env.get(v))
    return None, f"no variable names a terminal that takes one ({seen or 'TERM is not set'})"


def desktop_choice(platform: str, env: Mapping[str, str],
                   which: Callable[[str], str | None]) -> tuple[tuple[str, str] | None, str]:
    """The system's notifier, (its name, its path), and why, or None and why not: ``osascript`` on
    macOS, ``notify-send`` elsewhere when a desktop session is there to show it (DISPLAY,
    WAYLAND_DISPLAY or DBUS_SESSION_BUS_ADDRESS is set)."""
    if platform == "darwin":
        name = "osascript"
    elif platform == "win32":
        return None, "no notifier pideck knows on Windows"
    elif not any(env.get(v) for v in ("DISPLAY", "WAYLAND_DISPLAY", "DBUS_SESSION_BUS_ADDRESS")):
        return None, "no desktop session (DISPLAY, WAYLAND_DISPLAY and DBUS_SESSION_BUS_ADDRESS are unset)"
    else:
        name = "notify-send"
    path = which(name)
    if path is None:
        return None, f"{name} is not on PATH"
    return (name, path), f"{name} is at {path}"


def desktop_argv(notifier: tuple[str, str], text: str) -> list[str]:
    """The notifier's command line, the text an argument of its own: never part of a script
    (osascript hands it to the script as ``argv``) nor taken for an option (notify-send gets it
    after ``--``, and its body markup escaped)."""
    name, path = notifier
    text = sanitise(text)
    if name == "osascript":
        return [path, "-e", "on run argv", "-e", "display notification (item 2 of argv) with title (item 1 of argv)",
                "-e", "end run", TITLE, text]
    return [path, f"--app-name={TITLE}", "--", TITLE, html.escape(text, quote=False)]


def run_command(argv: list[str]) -> None:
    """Run a notifier and wait for it (on a thread of the caller's: never the UI's). Raises
    OSError, or subprocess.SubprocessError saying how it failed."""
    done = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          timeout=10, check=False)
    if done.returncode != 0:
        said = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise subprocess.SubprocessError(f"exit status {done.returncode}" + (f": {sanitise(said[0], 120)}" if said else ""))


@dataclass(frozen=True)
class Choice:
    """The channels a notification goes by here, and why each."""

    config: NotifyConfig
    terminal: str | None  # osc9, osc777, osc99 or None
    terminal_why: str
    tmux: bool
    desktop: tuple[str, str] | None  # (name, path) of the notifier, or None
    desktop_why: str
    bell: bool  # the fallback: rung when neither of the others is chosen

    @property
    def states(self) -> list[str]:
        return [state for state, key in STATE_KEYS.items() if getattr(self.config, key)]

    def channels(self) -> list[str]:
        """``OSC 777``, ``notify-send``, ``bell``: the ones a notification goes by."""
        return [*([SEQUENCE_NAMES[self.terminal]] if self.terminal else []),
                *([self.desktop[0]] if self.desktop else []), *(["bell"] if self.bell else [])]

    def lines(self) -> list[str]:
        """What was chosen, in a person's words (the app's help shows it)."""
        config = self.config
        if not self.states:
            return [f"Off: [notify] {', '.join(STATE_KEYS.values())} are all false."]
        limits = [f"at most one per conversation in {config.per_conversation_s} s" if config.per_conversation_s else "",
                  f"{config.per_minute} a minute in all" if config.per_minute else ""]
        changes = [state for state in self.states if state not in BUDGET_STATES]
        crossings = [state for state in self.states if state in BUDGET_STATES]
        head = " and ".join([*([f"On a change into {' or '.join(changes)}"] if changes else []),
                             *([f"{'once' if changes else 'Once'} per crossing into {' or '.join(crossings)}"]
                               if crossings else [])])
        head += f" ({', '.join(x for x in limits if x)})" if any(limits) else ""
        head += "; held while you type." if config.quiet_while_typing else "."
        if self.terminal is not None:
            terminal = f"{SEQUENCE_NAMES[self.terminal]} ({self.terminal_why})"
            if self.tmux:
                terminal += ", through tmux's passthrough (TMUX is set; tmux needs: set -g allow-passthrough on)"
        else:
            terminal = f"none ({self.terminal_why})"
        desktop = f"{self.desktop[0]} ({self.desktop_why})" if self.desktop else f"none ({self.desktop_why})"
        if self.bell:
            bell = "rung (neither a terminal nor a desktop notification is chosen)"
        else:
            bell = "off ([notify] bell = false)" if not config.bell else "not rung (another channel is chosen)"
        return [head, f"terminal: {terminal}", f"desktop: {desktop}", f"bell: {bell}"]


def choose(config: NotifyConfig, env: Mapping[str, str], platform: str,
           which: Callable[[str], str | None]) -> Choice:
    """The channels of ``config`` this environment has (docs/notifications.md#which-channel)."""
    if config.terminal == "off":
        terminal, terminal_why = None, "[notify] terminal = off"
    elif config.terminal == "auto":
        terminal, terminal_why = terminal_choice(env)
    else:
        terminal, terminal_why = config.terminal, f"[notify] terminal = {config.terminal}"
    if config.desktop:
        desktop, desktop_why = desktop_choice(platform, env, which)
    else:
        desktop, desktop_why = None, "[notify] desktop = false"
    return Choice(config, terminal, terminal_why, terminal is not None and bool(env.get("TMUX")), desktop,
                  desktop_why, config.bell and terminal is None and desktop is None)


def deliver(choice: Choice, text: str, *, write: Callable[[str], object],
            run: Callable[[list[str]], object]) -> None:
    """One notification by every chosen channel: ``write`` gets the terminal's bytes (a sequence,
    or the bell), ``run`` the notifier's command line."""
    if choice.terminal is not None:
        write(terminal_sequence(choice.terminal, text, tmux=choice.tmux))
    if choice.desktop is not None:
        run(desktop_argv(choice.desktop, text))
    if choice.bell:
        write(BEL)  # (tmux rings the outer terminal itself: no passthrough)


# -- when -----------------------------------------------------------------------------------------


class Notifier:
    """Which changes are told, and when. ``take`` is handed each look's changes (``Catalog
    .look()``) and says which to tell now:

    - a change into a state switched on, once: not at the first look, nor for a session first seen
      later (``previous`` None: a state that was there already is no change);
    - over budget and context nearly full, once per crossing (``Record.crossing``): told when the
      state shows a crossing not told yet, which is told again only after a look found it gone
      (dropped below, a new day); the crossings of a record's first sight, or of a look before
      every row was read (``Record.baseline``), were there already;
    - never for one on screen while the app has focus (``shown``): dropped, the person sees it;
    - held, while the person typed in the last ``TYPING_MS`` (``quiet_while_typing``), while its
      conversation was told of in the last ``per_conversation_s``, and while ``per_minute`` were
      told in the last minute; told once it may be, if its state still holds (a later change of
      that conversation replaces it, one it went out of drops it);
    - a host that went unreachable, once for the host (its first row that changed), not per row."""

    def __init__(self, config: NotifyConfig) -> None:
        self.config = config
        self.held: dict[str, Record] = {}
        self._told_at: dict[str, int] = {}
        self._recent: deque[int] = deque()
        self._crossed: dict[str, set[str]] = {}  # by path: the crossings told (or there already) and still crossed

    def take(self, changed: Iterable[Record], present: Mapping[str, Record], now_ms: int,
             shown: Callable[[str], bool], typed_ms: int | None = None) -> list[Record]:
        """The changes to tell now, who needs the person first. ``present``: every session the
        watch knows now (one gone is told no more); ``shown(path)``: it is on screen and the app
        has focus; ``typed_ms``: when the person last typed."""
        config = self.config
        hosts_gone: set[str | None] = set()
        for seen in changed:
            self.held.pop(seen.path, None)
            if seen.attention.state == UNREACHABLE:  # a host gone: told once, not once per row of it
                if seen.host in hosts_gone or any(h.host == seen.host and h.attention.state == UNREACHABLE
                                                  for h in self.held.values()):
                    continue
                hosts_gone.add(seen.host)
            key = STATE_KEYS.get(seen.attention.state)
            if seen.previous is not None and key is not None and getattr(config, key) \
                    and seen.attention.state not in BUDGET_STATES:
                self.held[seen.path] = seen
        self._cross(present)
        for path in [p for p in self.held if p not in present or shown(p)]:
            del self.held[path]
        if config.quiet_while_typing and typed_ms is not None and now_ms - typed_ms < TYPING_MS:
            return []
        while self._recent and now_ms - self._recent[0] >= MINUTE_MS:
            self._recent.popleft()
        told: list[Record] = []
        for seen in sorted(self.held.values(), key=lambda s: sort_key(s.attention)):
            if config.per_minute and len(self._recent) >= config.per_minute:
                break
            last = self._told_at.get(seen.path)
            if last is not None and now_ms - last < config.per_conversation_s * 1000:
                continue
            del self.held[seen.path]
            self._told_at[seen.path] = now_ms
            self._recent.append(now_ms)
            told.append(seen)
        return told

    def _cross(self, present: Mapping[str, Record]) -> None:
        """Hold the records whose state shows a crossing of a budget not told yet."""
        for path in [p for p in self._crossed if p not in present]:
            del self._crossed[path]
        for path, seen in present.items():
            crossed = set(seen.crossed)
            told = self._crossed.get(path)
            if told is None or seen.baseline:
                self._crossed[path] = crossed
                continue
            told &= crossed  # (one gone may be told again when it comes back)
            if seen.crossing is None or seen.crossing in told:
                continue
            told.add(seen.crossing)
            key = STATE_KEYS[seen.attention.state]
            if getattr(self.config, key):
                self.held[path] = seen
