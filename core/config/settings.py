"""pideck's configuration: the `[todo]` table (defaults, pi-jtodo's JSON, then pideck's TOML;
docs/todo-views.md#configuration), the `[tui]` table of the terminal app (docs/tui.md#settings),
its `[notify]` table (docs/notifications.md), the `[session]` table of how session files are
written (docs/session-format.md#durability), the `[budget]` table of what a conversation may
spend (docs/attention.md#budgets) and the `[[hosts]]` list of other machines (docs/hosts.md).

The calibration numbers are deliberately not keys here.
"""

# The tables are NamedTuples (immutable; ``_replace`` makes a changed copy), not frozen dataclasses:
# every command loads this module (core/slotted.py). No ``from __future__ import annotations`` here:
# typing would compile the tables' string annotations, and the first compile() of a process costs
# every command ~1 ms.

import json
import os
import re
from pathlib import Path
from typing import Any, NamedTuple

from core.config.places import pi_agent_dir
from core.files import read_small_file, write_private_file

_AT_LEAST_ONE = ("widget_max_lines", "watchdog_tick_ms", "max_gate_observations")

DEFAULT_MAX_ATTEMPTS = 5
"""How often the completion gate challenges before it gives up (pi-jtodo's default)."""
DEFAULT_MAX_OBSERVATIONS = 256
"""How many gate observations a todo keeps (pi-jtodo's default)."""


class TodoConfig(NamedTuple):
    """Every value is checked by ``check_value`` before a config is made from it."""

    enabled: bool = True
    auto_poke: bool = True
    completion_gate_max_attempts: int = DEFAULT_MAX_ATTEMPTS
    max_gate_observations: int = DEFAULT_MAX_OBSERVATIONS
    max_consecutive_pokes_without_progress: int = 0
    idle_nudge: bool = True
    idle_nudge_after_assistant_turns: int = 50
    widget_max_lines: int = 6
    watchdog: bool = True
    watchdog_idle_ms: int = 90_000
    watchdog_tick_ms: int = 30_000
    watchdog_max_re_pokes: int = 3
    agent_plan_poke: bool = True
    """``pideck hook claude|codex``: poke an agent that stops with items of its own plan (Claude
    Code's tasks or TodoWrite list, Codex's update_plan) still open while pideck's own todo list is
    empty (docs/mcp-and-hooks.md#the-agents-own-plan)."""


class TuiConfig(NamedTuple):
    """The terminal app's own settings (the app writes ``theme`` when the person picks one)."""

    theme: str = "textual-dark"
    watchdog: str = "own"
    """Where the header shows the idle state (the todo watchdog's condition, for the person: the
    app never appends a follow-up for it, docs/tui.md#the-idle-state): ``own`` pideck's own
    sessions and the agents' conversations, ``all`` pi's too, ``off`` nowhere."""
    bell: bool = True  # ring the terminal bell when the agent goes idle with open todos or a gate pokes it
    history_size: int = 500  # command lines remembered between runs
    prefer_kind: str = "any"
    """What ``pideck`` opens in a directory without a session named: ``any`` the newest session or
    agent conversation of any kind, or the newest of one kind (``pideck``, ``pi``, ``claude``,
    ``codex``, ``gemini``, ``qwen``, ``copilot``) when the directory has one (docs/agent-conversations.md#finding-them)."""
    follow: str = "newest"
    """When a newer session or conversation of the directory starts while ``pideck`` (opened with no
    file named) shows another (a second ``claude``, ``/clear``, a new pi session): ``newest`` opens
    it by itself, ``ask`` says so in the header with f6 to open it, ``off`` neither
    (docs/tui.md#following-the-directory). ``pideck PATH`` always keeps its file."""


TERMINAL_CHOICES = ("auto", "osc9", "osc777", "osc99", "off")
THEMES = ("textual-dark", "textual-light", "nord", "gruvbox", "catppuccin-mocha", "dracula", "tokyo-night", "monokai",
          "flexoki", "catppuccin-latte", "catppuccin-frappe", "catppuccin-macchiato", "solarized-light",
          "solarized-dark", "rose-pine", "rose-pine-moon", "rose-pine-dawn", "atom-one-dark", "atom-one-light",
          "ansi-dark", "ansi-light")
"""The themes the app has (Textual's built-in ones; core never imports Textual, and
tests/tui/test_tui_settings.py holds this list to Textual's): ``config set tui.theme`` refuses
any other at once, with this list, rather than warning at the next start."""


class NotifyConfig(NamedTuple):
    """When and how the app tells the person that a session or conversation needs them
    (docs/notifications.md): on a change into one of the states switched on here, by the channels
    switched on here, at most as often as the limits say."""

    needs_you: bool = True  # notify on a change into "needs you" (the agent asked for something)
    open_work: bool = True  # notify on a change into "stopped with open work"
    over_budget: bool = True  # notify when a conversation crosses a budget of ``[budget]`` (once per crossing)
    context_nearly_full: bool = True  # notify when its context crosses ``[budget] context_percent`` (once per crossing)
    terminal: str = "auto"
    """The terminal's own notification, by escape sequence: ``auto`` the one the environment names
    (docs/notifications.md#which-channel), ``osc9``, ``osc777`` or ``osc99`` that one, ``off`` none."""
    desktop: bool = True  # the system's notifier too, where there is one (notify-send, osascript)
    bell: bool = True  # the terminal bell, when neither a terminal nor a desktop notification is chosen
    quiet_while_typing: bool = True
    """Hold notifications while the person typed in the app in the last few seconds (they are told
    once the typing stops, if the state still holds)."""
    per_conversation_s: int = 60
    """At most one notification per session or conversation in this many seconds (0: no limit); a
    change in between waits for its turn, and is told then if its state still holds."""
    per_minute: int = 6  # at most this many notifications in any minute, all together (0: no cap)
    unreachable: bool = True  # notify when a host of ``[[hosts]]`` that was reached goes unreachable (once per host)


class SessionConfig(NamedTuple):
    """How pideck writes session files (docs/session-format.md#durability)."""

    sync: str = "data"
    """``data``: every append is on disk (``fdatasync``) before the command, tool call or hook is
    answered, so an acknowledged entry survives a power cut; ``off``: the system writes it back
    when it likes (it still survives pideck being killed, not a crash of the machine)."""


class BudgetConfig(NamedTuple):
    """What a conversation may spend before it is **over budget**, and how full the last answer may
    fill its context window before it is **context nearly full** (docs/attention.md#budgets). A
    budget of 0 is none; each is in dollars (``_usd``, the cost of the answers priced) or in tokens
    (``_tokens``, every token of every answer: input, output, cache read and written)."""

    conversation_usd: float = 0.0  # one conversation (or pi/pideck session), all its answers so far
    conversation_tokens: int = 0
    day_usd: float = 0.0
    """Today's answers (the local date) of every conversation in scope together: crossed, each one
    that spent today is over budget."""
    day_tokens: int = 0
    item_usd: float = 0.0  # one item of a plan: the answers made while it was in progress (its share)
    item_tokens: int = 0
    context_percent: int = 0
    """The last answer filled at least this percentage of its model's context window (85 says it
    before most agents compact on their own); 0: never said."""


Table = TodoConfig | TuiConfig | NotifyConfig | SessionConfig | BudgetConfig
"""One of the tables of pideck's TOML, as ``TABLES`` names them."""
TABLES: dict[str, type[Table]] = {"todo": TodoConfig, "tui": TuiConfig, "notify": NotifyConfig,
                                  "session": SessionConfig, "budget": BudgetConfig}
_TABLE_DEFAULTS = {name: model()._asdict() for name, model in TABLES.items()}
_CHOICES = {("tui", "theme"): THEMES,
            ("tui", "watchdog"): ("own", "all", "off"),
            ("tui", "prefer_kind"): ("any", "pideck", "pi", "claude", "codex", "gemini", "qwen", "opencode", "copilot"),
            ("tui", "follow"): ("newest", "ask", "off"),
            ("notify", "terminal"): TERMINAL_CHOICES,
            ("session", "sync"): ("data", "off")}
_PERCENT = {("budget", "context_percent")}
KEYS = TodoConfig._fields
_DEFAULTS = _TABLE_DEFAULTS["todo"]


def _camel(key: str) -> str:
    head, *rest = key.split("_")
    return head + "".join(p.capitalize() for p in rest)


CAMEL_KEYS = {_camel(k): k for k in KEYS}


class ConfigError(ValueError):
    pass


SWITCH_WORDS = {"on": True, "off": False}
"""What a switch also takes in pideck's own config, as ``/todos poke on|off`` speaks."""


def check_value(key: str, value: Any, table: str = "todo", words: bool = True) -> Any:
    """The value if it is valid for ``key`` of ``table``; raises ConfigError naming the key otherwise.
    ``words``: a switch takes ``on`` and ``off`` too (not in pi-jtodo's JSON, which pi-jtodo reads as
    well: a word there must not mean one thing to pideck and another to it)."""
    defaults = _TABLE_DEFAULTS[table]
    if key not in defaults:
        raise ConfigError(f"unknown key {key!r}")
    choices = _CHOICES.get((table, key))
    if choices is not None:
        if value not in choices:
            raise ConfigError(f"{key} must be one of {', '.join(choices)} (got {value!r})")
        return value
    if isinstance(defaults[key], str):
        if not isinstance(value, str) or not value:
            raise ConfigError(f"{key} must be a non-empty string (got {value!r})")
        return value
    if isinstance(defaults[key], bool):
        if words and isinstance(value, str) and value in SWITCH_WORDS:
            return SWITCH_WORDS[value]
        if not isinstance(value, bool):
            raise ConfigError(f"{key} must be true or false{' (or on, off)' if words else ''} (got {value!r})")
        return value
    if isinstance(defaults[key], float):  # (dollars: an integer is taken too, ``day_usd = 5``)
        if type(value) not in (int, float) or not 0 <= value < float("inf"):
            raise ConfigError(f"{key} must be a number of dollars of at least 0, 0 for none (got {value!r})")
        return float(value)
    if (table, key) in _PERCENT:
        if type(value) is not int or not 0 <= value <= 100:
            raise ConfigError(f"{key} must be an integer from 0 to 100, 0 for none (got {value!r})")
        return value
    minimum = 1 if key in _AT_LEAST_ONE else 0
    if type(value) is not int or value < minimum:
        raise ConfigError(f"{key} must be an integer of at least {minimum} (got {value!r})")
    return value


def config_path() -> Path:
    """``PIDECK_CONFIG``, else ``$PIDECK_HOME/config.toml``, else the platform config dir."""
    if os.environ.get("PIDECK_CONFIG"):
        return Path(os.environ["PIDECK_CONFIG"])
    if os.environ.get("PIDECK_HOME"):
        return Path(os.environ["PIDECK_HOME"]) / "config.toml"
    import platformdirs  # (only here: most commands never need the platform's folders)

    return Path(platformdirs.user_config_dir("pideck")) / "config.toml"


def pi_jtodo_config_path() -> Path:
    """pi-jtodo's JSON config, in pi's agent folder (``$PI_CODING_AGENT_DIR``, else ``~/.pi/agent``)."""
    return pi_agent_dir() / "state" / "pi-jtodo" / "config.json"


MAX_BYTES = 1 << 20
"""A config file is small: anything larger (``PIDECK_CONFIG=/dev/zero``) is not read."""


def _read_text(path: Path) -> str:
    """The file's text. Raises FileNotFoundError, OSError, or ValueError (not a regular file, too
    large, not UTF-8)."""
    return read_small_file(path, MAX_BYTES).decode("utf-8")


def _apply(values: dict[str, Any], raw: dict[str, object], names: dict[str, str], source: Path,
           warnings: list[str], table: str = "todo", words: bool = True) -> None:
    """Take each value of ``raw`` (a table as the file holds it, named by ``names``) into
    ``values`` (a table's keyword arguments, every one checked), warning of the rest."""
    for name, value in raw.items():
        key = names.get(name)
        if key is None:
            warnings.append(f"{source}: unknown key {name!r} ignored.")
            continue
        try:
            values[key] = check_value(key, value, table, words)
        except ConfigError as exc:
            warnings.append(f"{source}: {exc}; using {values[key]!r}.")


def _read_toml(path: Path, warnings: list[str]) -> dict[str, object]:
    """The file's tables as written (each checked by ``_apply``); {} for a missing or broken file."""
    try:
        text = _read_text(path)
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as exc:
        warnings.append(f"{path}: cannot be read, ignored ({exc}).")
        return {}
    import tomllib  # (only for a file that exists: most runs have none)

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        warnings.append(f"{path}: not valid TOML, ignored ({exc}).")
        return {}


def load_config(
    path: Path | None = None, json_path: Path | None = None, include_pi_jtodo: bool = True
) -> tuple[TodoConfig, list[str]]:
    """The effective config and the warnings met while reading it; never raises."""
    warnings: list[str] = []
    values = dict(_DEFAULTS)
    json_path = json_path or pi_jtodo_config_path()
    if include_pi_jtodo and os.path.lexists(json_path):
        try:
            raw = json.loads(_read_text(json_path))
        except (OSError, ValueError, RecursionError) as exc:
            warnings.append(f"{json_path}: not valid JSON, ignored ({exc}).")
            raw = {}
        if isinstance(raw, dict):
            _apply(values, raw, CAMEL_KEYS, json_path, warnings, words=False)
        else:
            warnings.append(f"{json_path}: not a JSON object, ignored.")
    path = path or config_path()
    table = _read_toml(path, warnings).get("todo", {})
    if isinstance(table, dict):
        _apply(values, table, {k: k for k in KEYS}, path, warnings)
    else:
        warnings.append(f"{path}: [todo] is not a table, ignored.")
    return TodoConfig(**values), warnings


def load_table(name: str, path: Path | None = None) -> tuple[Any, list[str]]:
    """The effective table ``name`` of pideck's TOML (not ``todo``, which pi-jtodo's JSON feeds
    too: ``load_config``) and the warnings met while reading it; never raises."""
    warnings: list[str] = []
    values = dict(_TABLE_DEFAULTS[name])
    path = path or config_path()
    table = _read_toml(path, warnings).get(name, {})
    if isinstance(table, dict):
        _apply(values, table, {k: k for k in values}, path, warnings, name)
    else:
        warnings.append(f"{path}: [{name}] is not a table, ignored.")
    return TABLES[name](**values), warnings


def load_tui_config(path: Path | None = None) -> tuple[TuiConfig, list[str]]:
    """The effective ``[tui]`` table and the warnings met while reading it; never raises."""
    return load_table("tui", path)


def load_session_config(path: Path | None = None) -> tuple[SessionConfig, list[str]]:
    """The effective ``[session]`` table and the warnings met while reading it; never raises."""
    return load_table("session", path)


def load_budget_config(path: Path | None = None) -> tuple[BudgetConfig, list[str]]:
    """The effective ``[budget]`` table and the warnings met while reading it; never raises."""
    return load_table("budget", path)


def load_notify_config(path: Path | None = None) -> tuple[NotifyConfig, list[str]]:
    """The effective ``[notify]`` table and the warnings met while reading it; never raises."""
    return load_table("notify", path)


def parse_cli_value(key: str, text: str, table: str = "todo") -> Any:
    """``pideck config set KEY VALUE``: VALUE is TOML-ish text (true/false or on/off, an integer, a word)."""
    import tomllib

    try:
        value = tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        value = text
    return check_value(key, value, table)


def set_config_value(key: str, value: Any, path: Path | None = None) -> Table:
    """Validate and write one key (``tui.theme``, ``notify.bell``; a key without a table is a ``[todo]`` key); the
    key's whole table is written, other tables kept.

    A str value is parsed as the CLI gives it. Raises ConfigError naming the key when invalid.
    """
    name, _, key = key.rpartition(".")
    table = name or "todo"
    if table not in TABLES:
        raise ConfigError(f"unknown table {table!r} (tables: {', '.join(TABLES)})")
    value = parse_cli_value(key, value, table) if isinstance(value, str) else check_value(key, value, table)
    path = path or config_path()
    warnings: list[str] = []
    document = _read_toml(path, warnings)
    if warnings:
        raise ConfigError(warnings[0])
    # the effective values: the table holds every key and wins over pi-jtodo's JSON, so writing
    # defaults for the keys not being set would silently undo what the JSON set
    current = load_config(path)[0] if table == "todo" else load_table(table, path)[0]
    values = {**current._asdict(), key: value}
    document[table] = values
    # a new file beside the old one, renamed over it: a failed write never leaves half a config
    # (the rename goes to where a symbolic link points, so a linked dotfile stays linked)
    path.parent.mkdir(parents=True, exist_ok=True)
    import tomli_w

    try:
        write_private_file(Path(os.path.realpath(path)), tomli_w.dumps(document).encode("utf-8"), replace=True)
    except OSError as exc:
        raise ConfigError(f"{path}: cannot be written ({exc.strerror or exc})") from None
    return TABLES[table](**values)


def show_config(path: Path | None = None) -> str:
    """The effective tables (``[todo]``, ``[tui]``, ``[notify]``, ``[session]``, ``[budget]``) as TOML,
    with the file they were read from."""
    import tomli_w

    config, warnings = load_config(path)
    tables = {"todo": config._asdict()}
    for name in TABLES:
        if name != "todo":
            table, table_warnings = load_table(name, path)
            tables[name] = table._asdict()
            warnings += table_warnings
    lines = [f"# {path or config_path()}"]
    lines += [f"# warning: {w}" for w in warnings]
    lines.append(tomli_w.dumps(tables).rstrip("\n"))
    return "\n".join(lines) + "\n"


class HostConfig(NamedTuple):
    """One machine of ``[[hosts]]`` whose sessions and conversations pideck lists beside this one's,
    read by running pideck there over the system's ``ssh`` (docs/hosts.md)."""

    name: str
    """How pideck names it (rows, ``--host NAME``): letters, digits, ``.``, ``_`` and ``-``."""
    ssh: str
    """The destination as the person's ``ssh`` takes it: ``user@box``, or a ``Host`` alias of
    ``~/.ssh/config`` (where keys, jump hosts and options already live)."""
    port: int | None = None  # ssh's ``-p``; None: ssh's own choice (its config, else 22)
    pideck: tuple[str, ...] = ("pideck",)
    """The command that runs pideck there, split into words as a shell would (``pideck = "uv run
    --project ~/pideck pideck"``); each word reaches the remote shell quoted."""
    ssh_config: str | None = None  # an ssh config file of its own (ssh's ``-F``); None: the person's
    write: bool = False
    """Commands typed in a deck of this host's pideck sessions are run there (``pideck run``);
    off: its decks are read-only."""


HOST_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,39}")
HOST_KEYS = frozenset(HostConfig._fields)


def check_host(raw: object) -> HostConfig:
    """One ``[[hosts]]`` table as a ``HostConfig``; raises ConfigError saying what is wrong."""
    import shlex

    if not isinstance(raw, dict):
        raise ConfigError("each [[hosts]] entry must be a table")
    name, ssh = raw.get("name"), raw.get("ssh")
    if not isinstance(name, str) or not HOST_NAME.fullmatch(name):
        raise ConfigError(f"name must be 1 to 40 letters, digits, '.', '_' or '-', starting with a letter or "
                          f"digit (got {name!r})")
    where = f"host {name!r}: "
    unknown = sorted(set(raw) - HOST_KEYS)
    if unknown:
        raise ConfigError(where + f"unknown key{'s' if len(unknown) > 1 else ''} {', '.join(map(repr, unknown))}")
    # (a destination starting with '-' would be an option of ssh; whitespace or a control character
    # is never part of one)
    if not isinstance(ssh, str) or not ssh or ssh.startswith("-") or any(c.isspace() or not c.isprintable() for c in ssh):
        raise ConfigError(where + f"ssh must be a destination such as user@box, without spaces, not starting "
                          f"with '-' (got {ssh!r})")
    port = raw.get("port")
    if port is not None and (type(port) is not int or not 1 <= port <= 65535):
        raise ConfigError(where + f"port must be an integer from 1 to 65535 (got {port!r})")
    command = raw.get("pideck", "pideck")
    try:
        words = tuple(shlex.split(command)) if isinstance(command, str) else ()
    except ValueError as exc:
        raise ConfigError(where + f"pideck cannot be split into words ({exc})") from None
    if not words:
        raise ConfigError(where + f"pideck must be a command such as pideck or \"uv run pideck\" (got {command!r})")
    ssh_config = raw.get("ssh_config")
    if ssh_config is not None and (not isinstance(ssh_config, str) or not ssh_config):
        raise ConfigError(where + f"ssh_config must be the path of a file (got {ssh_config!r})")
    write = raw.get("write", False)
    if not isinstance(write, bool):
        raise ConfigError(where + f"write must be true or false (got {write!r})")
    return HostConfig(name, ssh, port, words, os.path.expanduser(ssh_config) if ssh_config else None, write)


def load_hosts(path: Path | None = None) -> tuple[list[HostConfig], list[str]]:
    """The ``[[hosts]]`` of pideck's TOML, each checked, and the warnings met (a bad entry or a
    second entry of a name is left out, and said); never raises."""
    warnings: list[str] = []
    path = path or config_path()
    raw = _read_toml(path, warnings).get("hosts", [])
    if not isinstance(raw, list):
        return [], [*warnings, f"{path}: hosts must be a list of [[hosts]] tables, ignored."]
    hosts: list[HostConfig] = []
    for entry in raw:
        try:
            host = check_host(entry)
        except ConfigError as exc:
            warnings.append(f"{path}: [[hosts]]: {exc}; that host is left out.")
            continue
        if any(h.name == host.name for h in hosts):
            warnings.append(f"{path}: [[hosts]]: a second host named {host.name!r} is left out.")
            continue
        hosts.append(host)
    return hosts, warnings
