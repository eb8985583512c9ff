"""core/catalog/notify.py: the words, the escape sequences (exact bytes, written to a StringIO), tmux's
passthrough, the notifier's command line (a recorder in place of running it), which channel the
environment gets, and when a change is told (once, never on screen, rate-limited, held while
typing) — docs/notifications.md."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest

from notify_helpers import ASK, CLAUDE, CODEX, TOLD, open_work, seen, working

from core.catalog.states import NEEDS_YOU, OPEN_WORK
from core.catalog.attention import record_event
from core.catalog.catalog import Catalog
from core.catalog.notify import (
    Notifier, choose, deliver, desktop_argv, notification_text, sanitise, terminal_choice, terminal_sequence,
)
from core.catalog.overview import OverviewRow
from core.config.settings import (
    ConfigError, NotifyConfig, TodoConfig, load_notify_config, set_config_value, show_config,
)

HOOKS = Path(__file__).resolve().parent.parent / "fixtures" / "agent-hooks"
LINUX = {"TERM": "foot", "DISPLAY": ":0"}


def which(name: str) -> str | None:
    return {"notify-send": "/usr/bin/notify-send", "osascript": "/usr/bin/osascript"}.get(name)


# -- the words and the bytes ----------------------------------------------------------------------


def test_the_text_names_the_agent_the_conversation_and_what_it_asked() -> None:
    assert notification_text(seen()) == TOLD
    assert notification_text(seen(evidence="asks to use Bash (PermissionRequest hook)")) == (
        "Claude Code conversation 2aa06482 needs you: asks to use Bash")
    assert notification_text(open_work()) == (
        "Codex conversation 019a0b7e stopped with open work: its turn ended with 3 open")
    assert notification_text(seen("/s/notes.jsonl", OPEN_WORK, evidence="quiet with 1 open", kind="pideck")) == (
        "pideck session notes stopped with open work: quiet with 1 open")


def test_each_sequence_exactly() -> None:
    assert terminal_sequence("osc9", TOLD) == f"\x1b]9;pideck: {TOLD}\x07"
    assert terminal_sequence("osc777", TOLD) == f"\x1b]777;notify;pideck;{TOLD}\x07"
    assert terminal_sequence("osc99", TOLD) == f"\x1b]99;;pideck: {TOLD}\x1b\\"


def test_tmux_passthrough_doubles_every_escape() -> None:
    assert terminal_sequence("osc99", "hi", tmux=True) == "\x1bPtmux;\x1b\x1b]99;;pideck: hi\x1b\x1b\\\x1b\\"
    assert terminal_sequence("osc777", "hi", tmux=True) == "\x1bPtmux;\x1b\x1b]777;notify;pideck;hi\x07\x1b\\"


HOSTILE = "evil\x1b]0;owned\x07\x1b\\name;x\ny\r\t\x9c\u202e" + "z" * 300


def test_a_hostile_name_cannot_end_a_sequence_or_add_a_field() -> None:
    text = notification_text(seen(name=HOSTILE, kind="pideck"))
    assert text == sanitise(text)
    assert text.startswith("pideck session evil ]0;owned \\name;x y ") and text.endswith("z…") and len(text) == 200
    for kind, end in (("osc9", "\x07"), ("osc777", "\x07"), ("osc99", "\x1b\\")):
        sequence = terminal_sequence(kind, text)
        inner = sequence.removesuffix(end)
        assert not any(ord(c) < 0x20 or 0x7F <= ord(c) <= 0x9F for c in inner[1:]), kind  # only the opening ESC
        assert "\\name,x y" in inner
    assert terminal_sequence("osc777", text).count(";") == 3  # 777 ; notify ; title ; body


def test_sanitise_makes_controls_spaces_and_cuts() -> None:
    assert sanitise("a\x1b[31mb\x07c\n\nd\u2028e") == "a [31mb c d e"
    assert sanitise("x" * 10, 5) == "xxxx…"


# -- the channels ---------------------------------------------------------------------------------


@pytest.mark.parametrize("env, kind, why", [
    ({"KITTY_WINDOW_ID": "1", "TERM": "tmux-256color", "TERM_PROGRAM": "tmux"}, "osc99", "KITTY_WINDOW_ID is set"),
    ({"TERM": "xterm-kitty"}, "osc99", "TERM is xterm-kitty"),
    ({"TERM_PROGRAM": "iTerm.app"}, "osc9", "TERM_PROGRAM is iTerm.app"),
    ({"LC_TERMINAL": "iTerm2", "TERM_PROGRAM": "tmux"}, "osc9", "LC_TERMINAL is iTerm2"),
    ({"TERM_PROGRAM": "WezTerm"}, "osc9", "TERM_PROGRAM is WezTerm"),
    ({"WT_SESSION": "b0c1"}, "osc9", "WT_SESSION is set"),
    ({"TERM_PROGRAM": "ghostty"}, "osc777", "TERM_PROGRAM is ghostty"),
    ({"TERM": "foot-extra"}, "osc777", "TERM starts with foot"),
    ({"TERM": "rxvt-unicode-256color"}, "osc777", "TERM starts with rxvt"),
    ({"VTE_VERSION": "7600", "TERM": "xterm-256color"}, "osc777", "VTE_VERSION is set"),
    ({"TERM": "xterm-256color", "TERM_PROGRAM": "Apple_Terminal"}, None,
     "no variable names a terminal that takes one (TERM=xterm-256color, TERM_PROGRAM=Apple_Terminal)"),
    ({}, None, "no variable names a terminal that takes one (TERM is not set)"),
])
def test_the_sequence_is_chosen_from_the_environment(env, kind, why) -> None:
    assert terminal_choice(env) == (kind, why)


def test_the_bell_rings_only_when_no_other_channel_is_chosen() -> None:
    both = choose(NotifyConfig(), {**LINUX, "TMUX": "/tmp/tmux-1/default,1,0"}, "linux", which)
    assert (both.terminal, both.tmux, both.desktop, both.bell) == ("osc777", True, ("notify-send", "/usr/bin/notify-send"), False)
    assert both.channels() == ["OSC 777", "notify-send"]
    none = choose(NotifyConfig(), {"TERM": "xterm"}, "linux", which)  # no display: no desktop either
    assert (none.terminal, none.desktop, none.bell) == (None, None, True)
    assert none.desktop_why == "no desktop session (DISPLAY, WAYLAND_DISPLAY and DBUS_SESSION_BUS_ADDRESS are unset)"
    forced = choose(NotifyConfig(terminal="osc9", desktop=False), {"TERM": "xterm"}, "darwin", which)
    assert (forced.terminal, forced.terminal_why, forced.desktop, forced.bell) == (
        "osc9", "[notify] terminal = osc9", None, False)
    mac = choose(NotifyConfig(terminal="off"), {}, "darwin", which)
    assert (mac.terminal, mac.desktop, mac.bell) == (None, ("osascript", "/usr/bin/osascript"), False)
    quiet = choose(NotifyConfig(terminal="off", desktop=False, bell=False), {}, "linux", which)
    assert quiet.channels() == []


def test_what_was_chosen_in_words() -> None:
    choice = choose(NotifyConfig(), {**LINUX, "TMUX": "t"}, "linux", which)
    assert choice.lines() == [
        "On a change into needs you or stopped with open work or unreachable and once per crossing into over budget or context "
        "nearly full (at most one per conversation in 60 s, 6 a minute in all); held while you type.",
        "terminal: OSC 777 (TERM starts with foot), through tmux's passthrough (TMUX is set; tmux needs: set -g "
        "allow-passthrough on)",
        "desktop: notify-send (notify-send is at /usr/bin/notify-send)",
        "bell: not rung (another channel is chosen)",
    ]
    off = choose(NotifyConfig(needs_you=False, open_work=False, over_budget=False, context_nearly_full=False,
                              unreachable=False), LINUX, "linux", which)
    assert off.lines() == ["Off: [notify] needs_you, open_work, over_budget, context_nearly_full, unreachable are all false."]
    budgets = choose(NotifyConfig(needs_you=False, open_work=False, context_nearly_full=False, unreachable=False), LINUX,
                     "linux", which)
    assert budgets.lines()[0] == ("Once per crossing into over budget (at most one per conversation in 60 s, 6 a minute "
                                  "in all); held while you type.")
    bell = choose(NotifyConfig(needs_you=False, quiet_while_typing=False, per_conversation_s=0, per_minute=0,
                               over_budget=False, context_nearly_full=False, unreachable=False),
                  {"TERM": "dumb"}, "linux", lambda name: None)
    assert bell.lines() == [
        "On a change into stopped with open work.",
        "terminal: none (no variable names a terminal that takes one (TERM=dumb))",
        "desktop: none (no desktop session (DISPLAY, WAYLAND_DISPLAY and DBUS_SESSION_BUS_ADDRESS are unset))",
        "bell: rung (neither a terminal nor a desktop notification is chosen)",
    ]


def test_the_notifiers_get_the_text_as_an_argument_never_as_script_or_option() -> None:
    text = '-x " & do shell script "touch /tmp/owned" & " <b>&amp;</b>'
    assert desktop_argv(("osascript", "/usr/bin/osascript"), text) == [
        "/usr/bin/osascript", "-e", "on run argv", "-e",
        "display notification (item 2 of argv) with title (item 1 of argv)", "-e", "end run", "pideck", text]
    assert desktop_argv(("notify-send", "/usr/bin/notify-send"), text) == [
        "/usr/bin/notify-send", "--app-name=pideck", "--", "pideck",
        '-x " &amp; do shell script "touch /tmp/owned" &amp; " &lt;b&gt;&amp;amp;&lt;/b&gt;']


def test_one_notification_goes_once_by_each_chosen_channel() -> None:
    out, commands = io.StringIO(), []
    deliver(choose(NotifyConfig(), LINUX, "linux", which), TOLD, write=out.write, run=commands.append)
    assert out.getvalue() == f"\x1b]777;notify;pideck;{TOLD}\x07"
    assert commands == [["/usr/bin/notify-send", "--app-name=pideck", "--", "pideck", TOLD]]
    out = io.StringIO()
    deliver(choose(NotifyConfig(), {"TMUX": "t"}, "linux", which), TOLD, write=out.write, run=commands.append)
    assert out.getvalue() == "\x07"  # the fallback, never wrapped (tmux rings the outer terminal itself)


# -- when -----------------------------------------------------------------------------------------


def present(*seens):
    return {s.path: s for s in seens}


def nowhere(path: str) -> bool:
    return False


def test_once_per_change_never_at_the_first_look_nor_for_a_state_switched_off() -> None:
    notifier = Notifier(NotifyConfig(open_work=False))
    first = [seen(previous=None), open_work(previous=None)]
    assert notifier.take(first, present(*first), 0, nowhere) == []  # states that were there are no changes
    now = present(working(previous=NEEDS_YOU), open_work(previous=None))
    assert notifier.take([working(previous=NEEDS_YOU)], now, 1_000, nowhere) == []
    ask = seen()
    assert notifier.take([ask], present(ask), 2_000, nowhere) == [ask]
    assert notifier.take([], present(ask), 3_000, nowhere) == []  # the same state: told once
    assert notifier.take([open_work(previous=NEEDS_YOU)], present(open_work()), 4_000, nowhere) == []  # switched off
    assert notifier.take([seen(CODEX, previous=None)], present(seen(CODEX)), 5_000, nowhere) == []  # first seen


def test_never_for_the_one_on_screen() -> None:
    notifier = Notifier(NotifyConfig())
    other = open_work()
    assert notifier.take([seen(), other], present(seen(), other), 0, lambda path: path == CLAUDE) == [other]
    assert notifier.take([], present(seen(), other), 1_000, nowhere) == []  # dropped, not held


def test_one_per_conversation_in_its_interval_the_later_change_told_when_its_turn_comes() -> None:
    notifier = Notifier(NotifyConfig(per_conversation_s=60))
    assert notifier.take([seen()], present(seen()), 0, nowhere) == [seen()]
    again = open_work(CLAUDE)
    assert notifier.take([again], present(again), 10_000, nowhere) == []  # held
    assert notifier.take([], present(again), 59_999, nowhere) == []
    assert notifier.take([], present(again), 60_000, nowhere) == [again]
    assert notifier.take([], present(again), 200_000, nowhere) == []
    # a held change its conversation went out of is not told
    ask = seen()
    assert notifier.take([ask], present(ask), 100_000, nowhere) == []  # (40 s after the last)
    assert notifier.take([working(previous=NEEDS_YOU)], present(working()), 110_000, nowhere) == []
    assert notifier.take([], present(working()), 300_000, nowhere) == []


def test_a_cap_on_all_of_them_in_a_minute() -> None:
    notifier = Notifier(NotifyConfig(per_minute=2))
    paths = [f"/s/{n}.jsonl" for n in range(3)]
    changes = [seen(p, kind="pideck") for p in paths]
    told = notifier.take(changes, present(*changes), 0, nowhere)
    assert [s.path for s in told] == paths[:2]
    assert notifier.take([], present(*changes), 59_999, nowhere) == []
    assert notifier.take([], present(*changes), 60_000, nowhere) == [changes[2]]
    gone = seen("/s/3.jsonl", kind="pideck")
    assert notifier.take([gone], {}, 200_000, nowhere) == []  # gone from the watch: told no more


def test_held_while_the_person_types() -> None:
    notifier = Notifier(NotifyConfig())
    assert notifier.take([seen()], present(seen()), 10_000, nowhere, typed_ms=6_000) == []
    assert notifier.take([], present(seen()), 10_999, nowhere, typed_ms=6_000) == []
    assert notifier.take([], present(seen()), 11_000, nowhere, typed_ms=6_000) == [seen()]
    loud = Notifier(NotifyConfig(quiet_while_typing=False))
    assert loud.take([seen()], present(seen()), 10_000, nowhere, typed_ms=9_999) == [seen()]


class FixedOverview:
    def __init__(self, rows) -> None:
        self.rows = rows

    def refresh(self) -> None:
        pass


def test_a_real_notification_hook_input_is_told_once(tmp_path) -> None:
    """The Notification hook's real input (tests/fixtures/agent-hooks), recorded as `pideck hook
    claude` records it, followed by an Catalog: one sequence, one notifier call."""
    hook = json.loads((HOOKS / "claude-notification.json").read_text())[0]["stdin"]
    transcript = tmp_path / f"{hook['session_id']}.jsonl"
    transcript.write_text("{}\n")
    os.utime(transcript, (1_000, 1_000))
    row = OverviewRow(str(transcript), transcript.name, "/home/user/project", "claude", True, 1, 0, 2, None,
                      (0, 0, 0, 0), 0, 0, 0, 1_000_000, None, 0, status="working", session_id=hook["session_id"])
    watch = Catalog(None, todo_config=TodoConfig(), now_ms=lambda: 2_000_000, overview=FixedOverview([row]))
    notifier, out, commands = Notifier(NotifyConfig()), io.StringIO(), []
    choice = choose(NotifyConfig(), LINUX, "linux", which)

    def look(now: int) -> None:
        for told in notifier.take(watch.look(), watch.records, now, nowhere):
            deliver(choice, notification_text(told), write=out.write, run=commands.append)

    look(1_000)
    assert out.getvalue() == "" and commands == []
    record_event("claude", hook["session_id"], hook["hook_event_name"], 1_500_000, hook)
    look(2_000)
    look(3_000)
    text = "Claude Code conversation 0e768ad0 needs you: Claude needs your permission to use Bash"
    assert out.getvalue() == f"\x1b]777;notify;pideck;{text}\x07"
    assert commands == [["/usr/bin/notify-send", "--app-name=pideck", "--", "pideck", text]]
    assert watch.records[str(transcript)].attention.evidence == ASK


# -- the settings ---------------------------------------------------------------------------------


def test_config_set_notify_keys() -> None:
    assert load_notify_config() == (NotifyConfig(), [])
    set_config_value("notify.terminal", "osc99")
    set_config_value("notify.per_minute", "3")
    set_config_value("notify.open_work", "false")
    assert load_notify_config()[0] == NotifyConfig(terminal="osc99", per_minute=3, open_work=False)
    with pytest.raises(ConfigError, match="terminal must be one of auto, osc9, osc777, osc99, off"):
        set_config_value("notify.terminal", "osc8")
    with pytest.raises(ConfigError, match="bell must be true or false"):
        set_config_value("notify.bell", "7")
    shown = show_config()
    assert ("[notify]\nneeds_you = true\nopen_work = false\nover_budget = true\ncontext_nearly_full = true\n"
            "terminal = \"osc99\"\n") in shown


def test_a_bad_notify_value_is_skipped_with_a_warning(tmp_path, monkeypatch) -> None:
    path = tmp_path / "config.toml"
    path.write_text('[notify]\nper_minute = -1\nloud = true\nterminal = "osc777"\n')
    config, warnings = load_notify_config(path)
    assert config == NotifyConfig(terminal="osc777")
    assert warnings == [f"{path}: per_minute must be an integer of at least 0 (got -1); using 6.",
                        f"{path}: unknown key 'loud' ignored."]


def test_every_notify_key_is_documented() -> None:
    docs = (Path(__file__).parents[2] / "docs" / "notifications.md").read_text()
    for key in NotifyConfig._fields:
        assert f"| `{key}` |" in docs, key
