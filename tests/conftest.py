"""Fixtures for every test: pideck's state directory is a temporary one (a saved session index
must never land in the real one), and the tests that read session files can run over both ways
a session is opened: a full read of the file, and a start from the saved index."""

from __future__ import annotations

import pytest

from core.session.log import SessionLog
from core.session import log as log_module
from core.primitives.todo.adapter import TodoAdapter


@pytest.fixture(autouse=True)
def private_state(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PIDECK_HOME", str(tmp_path_factory.mktemp("pideck-home")))
    agents = tmp_path_factory.mktemp("agent-homes")  # the agents' folders pideck lists: never the real ones
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(agents / ".claude"))
    monkeypatch.setenv("CODEX_HOME", str(agents / ".codex"))
    monkeypatch.setenv("GEMINI_CLI_HOME", str(agents))
    # no agent process the tests run under (a Codex holding its rollout open) is ever found: the
    # tests that look at real processes say so
    monkeypatch.setenv("PIDECK_PROC", str(agents / "no-proc"))


@pytest.fixture(autouse=True)
def scan_every_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tests' sessions are small, which pideck would parse in full; scan them as a big read
    is scanned, so every suite runs the scanner (the full parse is held to it by the fuzzers)."""
    monkeypatch.setattr(log_module, "SCAN_MIN_BYTES", 0)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """``open_path``'s ways: a full read and the saved index; for the suites marked
    ``read_three_ways`` (how lines are read, and pi's own files), the split scan too."""
    if "open_path" in metafunc.fixturenames:
        ways = ["full read", "saved index"]
        if metafunc.definition.get_closest_marker("read_three_ways") is not None:
            ways.append("split scan")
        metafunc.parametrize("open_path", ways, indirect=True)


@pytest.fixture
def open_path(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Run the test once with the saved index off, and once with every ``SessionLog.open`` served
    from the saved index: each open first reads the file, folds its todos and saves both, then
    opens it again from that index, whose kept fold the Deck resumes (subprocesses save and use it
    too, as ``PIDECK_INDEX=always`` tells them). ``split scan``: every read is split across two
    processes (``PIDECK_SPLIT=always``, core/session/split.py), the saved index off."""
    if request.param in ("full read", "split scan"):
        monkeypatch.setenv("PIDECK_INDEX", "off")
        monkeypatch.setenv("PIDECK_SPLIT", "always" if request.param == "split scan" else "off")
        return request.param
    monkeypatch.setenv("PIDECK_INDEX", "always")
    real_open = SessionLog.open.__func__  # type: ignore[attr-defined]

    def open_from_saved_index(cls, path, writable=None, **options):
        first = real_open(cls, path, writable=writable, **options)  # reads the file, saves its index
        TodoAdapter(first).replay()  # and keeps the todo fold (under the default configuration)
        log = real_open(cls, path, writable=writable, **options)
        if options.get("saved_index", True) is not False:
            assert log.index_source == "saved index", f"{path} was not opened from its saved index"
        return log

    monkeypatch.setattr(SessionLog, "open", classmethod(open_from_saved_index))
    return request.param
