"""Configuration (docs/todo-views.md#configuration): defaults, pi-jtodo JSON, pideck TOML, validation
naming the key, set/show."""

from __future__ import annotations

import json
import os
import tomllib
from pathlib import Path

import pytest

from core.config.settings import (
    KEYS, ConfigError, NotifyConfig, TodoConfig, TuiConfig, config_path, load_config, load_notify_config, load_tui_config, set_config_value, show_config,
)
from pideck_run import pideck  # noqa: F401  (the fixture)


@pytest.fixture
def paths(tmp_path, monkeypatch):
    toml_path = tmp_path / "config.toml"
    json_path = tmp_path / "pi" / "config.json"
    json_path.parent.mkdir()
    monkeypatch.setenv("PIDECK_CONFIG", str(toml_path))
    monkeypatch.setattr("core.config.settings.pi_jtodo_config_path", lambda: json_path)
    return toml_path, json_path


def test_D05_precedence_and_per_key_fallback(paths):
    toml_path, json_path = paths
    assert load_config() == (TodoConfig(), [])
    json_path.write_text(json.dumps({"autoPoke": False, "watchdogIdleMs": 1000, "widgetMaxLines": 9}))
    toml_path.write_text("[todo]\nwidget_max_lines = 4\nidle_nudge = \"yes\"\nthreshold = 3\n[other]\nx = 1\n")
    config, warnings = load_config()
    assert (config.auto_poke, config.watchdog_idle_ms, config.widget_max_lines) == (False, 1000, 4)
    assert config.idle_nudge is True
    assert any("idle_nudge" in w and str(toml_path) in w for w in warnings)
    assert any("'threshold'" in w for w in warnings)


def test_config_validation_rules(paths):
    toml_path, json_path = paths
    json_path.write_text("[1, 2]")
    toml_path.write_text("[todo]\nwidget_max_lines = 0\nwatchdog_idle_ms = 0\nenabled = 1\nauto_poke = true\n"
                         "completion_gate_max_attempts = true\n")
    config, warnings = load_config()
    assert config.widget_max_lines == 6 and config.watchdog_idle_ms == 0 and config.enabled is True
    assert config.completion_gate_max_attempts == 5
    assert len(warnings) == 4
    toml_path.write_text("not = [valid")
    json_path.write_text("{bad json")
    config, warnings = load_config()
    assert config == TodoConfig() and len(warnings) == 2


def test_set_and_show(paths):
    toml_path, _ = paths
    toml_path.write_text("[ui]\ntheme = \"dark\"\n[todo]\nwatchdog = false\n")
    config = set_config_value("widget_max_lines", "8")
    assert config.widget_max_lines == 8 and config.watchdog is False
    document = tomllib.loads(toml_path.read_text())
    assert document["ui"] == {"theme": "dark"}
    assert list(document["todo"]) == list(KEYS)
    set_config_value("todo.auto_poke", "false")
    assert load_config()[0].auto_poke is False
    with pytest.raises(ConfigError, match="widget_max_lines"):
        set_config_value("widget_max_lines", "0")
    with pytest.raises(ConfigError, match="idle_nudge"):
        set_config_value("idle_nudge", "7")
    with pytest.raises(ConfigError, match="nope"):
        set_config_value("nope", "1")
    shown = show_config()
    assert shown.startswith(f"# {toml_path}\n[todo]\n")
    assert "widget_max_lines = 8\n" in shown


def test_config_path_resolution(monkeypatch, tmp_path):
    monkeypatch.delenv("PIDECK_CONFIG", raising=False)
    monkeypatch.setenv("PIDECK_HOME", str(tmp_path))
    assert config_path() == tmp_path / "config.toml"
    monkeypatch.delenv("PIDECK_HOME")
    assert config_path().name == "config.toml" and "pideck" in str(config_path())


def test_config_set_keeps_the_values_read_from_the_pi_jtodo_json(tmp_path, monkeypatch):
    # The written [todo] table holds every key, and the TOML wins over pi-jtodo's JSON per key, so
    # writing defaults for the keys the user did not set would silently undo the JSON's values.
    toml_path, json_path = tmp_path / "config.toml", tmp_path / "config.json"
    json_path.write_text(json.dumps({"autoPoke": False, "watchdogIdleMs": 1000}))
    monkeypatch.setattr("core.config.settings.pi_jtodo_config_path", lambda: json_path)
    before, _ = load_config(toml_path)
    assert (before.auto_poke, before.watchdog_idle_ms) == (False, 1000)
    set_config_value("widget_max_lines", "8", toml_path)
    after, warnings = load_config(toml_path)
    assert warnings == []
    assert after == before._replace(widget_max_lines=8)


# Hostile config paths (issue 9, item 9): never read without end, never hang, never half written.


@pytest.mark.parametrize("where", ["/dev/zero", "fifo", "folder", "huge"])
def test_a_config_path_that_is_not_a_small_file_is_ignored_with_a_warning(where, paths, tmp_path, monkeypatch):
    if where == "/dev/zero":
        target = "/dev/zero"
        said = "it is a character device, not a regular file"
    elif where == "fifo":
        target = str(tmp_path / "fifo.toml")
        os.mkfifo(target)  # nobody writes it: reading would wait forever
        said = "it is a FIFO (named pipe), not a regular file"
    elif where == "folder":
        target, said = str(tmp_path), "it is a directory, not a regular file"
    else:
        target = str(tmp_path / "huge.toml")
        Path(target).write_bytes(b"# " + b"x" * (1 << 20) + b"\n")
        said = f"it is larger than {1 << 20} bytes"
    monkeypatch.setenv("PIDECK_CONFIG", target)
    config, warnings = load_config()
    assert config == TodoConfig()
    assert warnings == [f"{target}: cannot be read, ignored ({said})."]
    with pytest.raises(ConfigError, match="cannot be read"):
        set_config_value("widget_max_lines", "3")


def test_pi_jtodo_config_follows_pi_coding_agent_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("PIDECK_CONFIG", str(tmp_path / "config.toml"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    real_home = tmp_path / "home" / ".pi" / "agent" / "state" / "pi-jtodo"
    real_home.mkdir(parents=True)
    (real_home / "config.json").write_text(json.dumps({"widgetMaxLines": 2}))
    agent = tmp_path / "agent" / "state" / "pi-jtodo"
    agent.mkdir(parents=True)
    (agent / "config.json").write_text(json.dumps({"widgetMaxLines": 9}))
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(tmp_path / "agent"))
    assert load_config()[0].widget_max_lines == 9
    monkeypatch.delenv("PI_CODING_AGENT_DIR")
    assert load_config()[0].widget_max_lines == 2


def test_a_pi_jtodo_config_nested_too_deep_is_a_warning(tmp_path, monkeypatch):
    monkeypatch.setenv("PIDECK_CONFIG", str(tmp_path / "config.toml"))
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(tmp_path / "agent"))
    folder = tmp_path / "agent" / "state" / "pi-jtodo"
    folder.mkdir(parents=True)
    (folder / "config.json").write_text("[" * 100_000 + "]" * 100_000)
    config, warnings = load_config()
    assert config == TodoConfig() and len(warnings) == 1 and "not valid JSON" in warnings[0]


def test_config_set_replaces_the_file_whole_and_keeps_a_symbolic_link(paths, tmp_path, monkeypatch):
    toml_path, _ = paths
    dotfiles = tmp_path / "dotfiles.toml"
    dotfiles.write_text("[other]\nx = 1\n")
    toml_path.symlink_to(dotfiles)
    set_config_value("widget_max_lines", "3")
    assert toml_path.is_symlink() and tomllib.loads(dotfiles.read_text())["other"] == {"x": 1}
    assert tomllib.loads(dotfiles.read_text())["todo"]["widget_max_lines"] == 3

    def full_disk(fd, data):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("core.files.write_all", full_disk)
    with pytest.raises(ConfigError, match="No space left on device"):
        set_config_value("widget_max_lines", "4")
    assert tomllib.loads(dotfiles.read_text())["todo"]["widget_max_lines"] == 3
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")) == []

# -- on and off (issue 19): a switch takes them as `/todos poke on|off` speaks, in pideck's TOML and on
# the command line; pi-jtodo's JSON keeps JSON booleans, since pi-jtodo reads it too


@pytest.mark.parametrize("word, value", [("off", False), ("on", True), ("false", False), ("true", True)])
def test_config_set_tui_bell_takes_on_and_off(paths, word, value):
    set_config_value("tui.bell", "true" if not value else "false")  # so every word changes something
    set_config_value("tui.bell", word)
    assert load_tui_config() == (TuiConfig(bell=value), [])
    toml_path, _ = paths
    assert f"bell = {'true' if value else 'false'}" in toml_path.read_text()  # written as a TOML boolean


def test_the_cli_sets_a_switch_with_off(paths, pideck):
    code, out, err = pideck("config", "set", "tui.bell", "off")
    assert (code, err) == (0, "") and load_tui_config()[0].bell is False
    code, out, err = pideck("config", "set", "notify.desktop", "off")
    assert code == 0 and load_notify_config()[0] == NotifyConfig(desktop=False)
    code, out, err = pideck("config", "set", "watchdog", "off")  # a [todo] switch too
    assert code == 0 and load_config()[0].watchdog is False


def test_the_toml_file_takes_on_and_off(paths):
    toml_path, _ = paths
    toml_path.write_text('[tui]\nbell = "off"\n[notify]\ndesktop = "off"\nbell = "on"\n[todo]\nidle_nudge = "off"\n')
    assert load_tui_config() == (TuiConfig(bell=False), [])
    assert load_notify_config() == (NotifyConfig(desktop=False, bell=True), [])
    assert load_config()[0].idle_nudge is False


@pytest.mark.parametrize("word", ["On", "yes", "0", ""])
def test_other_words_are_still_refused_naming_the_key(paths, word):
    with pytest.raises(ConfigError, match=r"bell must be true or false \(or on, off\)"):
        set_config_value("tui.bell", word)


def test_pi_jtodos_json_keeps_json_booleans(paths):
    """pi-jtodo reads its own JSON too: a word there would mean one thing to pideck and another to it."""
    _, json_path = paths
    json_path.write_text(json.dumps({"idleNudge": "off"}))
    config, warnings = load_config()
    assert config.idle_nudge is True and len(warnings) == 1 and "idle_nudge must be true or false" in warnings[0]
