"""Review: §12 — writing the TOML keeps every other key's effective value."""

from __future__ import annotations

import json

from core.todo.config import load_config, set_config_value


def test_config_set_keeps_the_values_read_from_the_pi_jtodo_json(tmp_path, monkeypatch):
    # The written [todo] table holds every key, and the TOML wins over pi-jtodo's JSON per key, so
    # writing defaults for the keys the user did not set would silently undo the JSON's values.
    toml_path, json_path = tmp_path / "config.toml", tmp_path / "config.json"
    json_path.write_text(json.dumps({"autoPoke": False, "watchdogIdleMs": 1000}))
    monkeypatch.setattr("core.todo.config.pi_jtodo_config_path", lambda: json_path)
    before, _ = load_config(toml_path)
    assert (before.auto_poke, before.watchdog_idle_ms) == (False, 1000)
    set_config_value("widget_max_lines", "8", toml_path)
    after, warnings = load_config(toml_path)
    assert warnings == []
    assert after == before.model_copy(update={"widget_max_lines": 8})
