"""The saved session index (core/session/sidecar.py): a re-open starts from it only while it
still describes the file, reads only what was appended since, and gives exactly what a full read
of the file gives; a stale, truncated, tampered or foreign saved index is ignored and replaced."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from core.deck.deck import Deck
from core.cli.inspect import inspect_json
from core.session.errors import ReadOnlySession
from core.session.log import SessionLog
from core.session import sidecar
from core.session.tail import Tailer


def dumps(value: dict) -> bytes:
    return (json.dumps(value, separators=(",", ":"), ensure_ascii=False) + "\n").encode()


HEADER = {"type": "session", "version": 3, "id": "01a22cf2-253f-70fd-b26f-f043e48c877f",
          "timestamp": "2026-11-30T14:53:16.479Z", "cwd": "/x"}


def entries(start: int, count: int, parent: str | None) -> list[dict]:
    """Messages, primitive states, a session name, a bad line's neighbours and a branch point."""
    out = []
    for i in range(start, start + count):
        eid = f"{i:08x}"
        if i % 5 == 3:
            out.append({"type": "custom", "customType": "agent-progress-state",
                        "data": {"schemaVersion": 1, "hasBaseline": False, "currentMilestones": [f"m{i}"],
                                 "recordedMilestones": []}, "id": eid, "parentId": parent, "timestamp": "t"})
        elif i % 17 == 0:
            out.append({"type": "session_info", "id": eid, "parentId": parent, "timestamp": "t", "name": f"name {i}"})
        else:
            out.append({"type": "message", "id": eid, "parentId": parent, "timestamp": "t",
                        "message": {"role": "assistant" if i % 2 else "user", "content": "x" * (i % 300)}})
        parent = eid if i % 40 else f"{max(i - 7, 0):08x}"  # a branch point now and then
    return out


def write_session(path: Path, count: int = 200) -> None:
    lines = [dumps(HEADER)] + [dumps(e) for e in entries(0, count, None)]
    lines.insert(10, b"{not json\n")  # a warning to carry over
    path.write_bytes(b"".join(lines))


def append(path: Path, start: int, count: int) -> None:
    log = SessionLog.open(path, saved_index=False)
    with path.open("ab") as fh:
        fh.write(b"".join(dumps(e) for e in entries(start, count, log.leaf_id)))


def summary(log: SessionLog) -> dict:
    """Everything a reader sees of a session, the Deck's derived state included."""
    deck = Deck(log)
    return {
        "header": log.header, "index": [(r.id, r.parent_id, r.type, r.custom_type, r.role, r.tool_name, r.line_no,
                                         r.offset, r.length) for r in log.records],
        "branch": [r.id for r in log.branch()], "name": log.name, "leaf": log.leaf_id,
        "bodies": [dict(r) for r in log.records[-3:]], "inspect": inspect_json(deck), "warnings": list(log.warnings),
    }


def cold(path: Path) -> dict:
    return summary(SessionLog.open(path, saved_index=False))


@pytest.fixture
def session(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PIDECK_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("PIDECK_INDEX", "always")
    path = tmp_path / "sessions" / "s.jsonl"
    path.parent.mkdir()
    write_session(path)
    first = SessionLog.open(path)
    assert first.index_source == "file" and saved(path).exists()
    return path


def saved(session: Path) -> Path:
    location = sidecar.location(session)
    assert location is not None
    return location


def reopen(path: Path) -> SessionLog:
    return SessionLog.open(path)


def test_a_reopen_starts_from_the_saved_index_and_equals_a_full_read(session: Path) -> None:
    log = reopen(session)
    assert log.index_source == "saved index"
    assert summary(log) == cold(session)
    assert log.warnings[0].startswith("line 11: invalid JSON")


def test_after_appends_only_the_new_bytes_are_read(session: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    size = session.stat().st_size
    append(session, 200, 30)
    reads: list[int] = []
    real_read = Tailer.read

    def spy(self, *args, **kwargs):
        chunk = real_read(self, *args, **kwargs)
        if chunk is not None:
            reads.append(chunk.offset)
        return chunk

    monkeypatch.setattr(Tailer, "read", spy)
    log = reopen(session)
    assert log.index_source == "saved index" and reads == [size]
    assert summary(log) == cold(session)
    assert reopen(session).index_source == "saved index"  # saved again, now covering the appends


def test_a_partial_last_line_is_completed_after_a_saved_index(session: Path) -> None:
    line = dumps(entries(200, 1, SessionLog.open(session).leaf_id)[0])
    with session.open("ab") as fh:
        fh.write(line[:30])
    reopen(session)  # saves the index, which stops before the partial line
    with session.open("ab") as fh:
        fh.write(line[30:])
    log = reopen(session)
    assert log.index_source == "saved index" and log.leaf_id == "000000c8"
    assert summary(log) == cold(session)


@pytest.mark.parametrize("change", ["rewritten same size", "truncated", "replaced", "last block changed",
                                    "first line changed"])
def test_a_saved_index_that_no_longer_describes_the_file_is_a_full_read(session: Path, change: str) -> None:
    data = session.read_bytes()
    st = session.stat()
    if change == "rewritten same size":  # same inode and size, another mtime
        session.write_bytes(data.replace(b"name 17", b"name 71"))
    elif change == "truncated":
        with session.open("r+b") as fh:
            fh.truncate(len(data) - 500)
    elif change == "replaced":
        other = session.with_name("other.jsonl")
        other.write_bytes(data)
        os.replace(other, session)
    elif change == "last block changed":  # even with the old mtime put back
        session.write_bytes(data[:-20] + data[-20:].replace(b"x", b"z"))
        os.utime(session, ns=(st.st_atime_ns, st.st_mtime_ns))
    else:
        session.write_bytes(data.replace(b'"cwd":"/x"', b'"cwd":"/y"') + dumps(entries(200, 1, None)[0]))
    log = reopen(session)
    assert log.index_source == "file"
    assert summary(log) == cold(session)
    assert reopen(session).index_source == "saved index"  # and it was saved anew


def corrupt(path: Path, how: str, other: Path) -> None:
    raw = path.read_bytes()
    if how == "tampered":
        at = len(raw) // 2
        path.write_bytes(raw[:at] + bytes([raw[at] ^ 1]) + raw[at + 1:])
    elif how == "truncated":
        path.write_bytes(raw[: len(raw) // 2])
    elif how == "empty":
        path.write_bytes(b"")
    elif how == "foreign":  # another session's saved index, copied over this one's
        path.write_bytes(saved(other).read_bytes())
    elif how == "inconsistent":  # a valid checksum around parts that do not fit together
        head = len(sidecar.FORMAT)
        size = int.from_bytes(raw[head:head + 8], "little")
        meta = json.loads(raw[head + 8:head + 8 + size])
        meta["kinds"] = meta["kinds"][:1]
        meta_bytes = json.dumps(meta).encode()
        body = raw[:head] + len(meta_bytes).to_bytes(8, "little") + meta_bytes + raw[head + 8 + size:-sidecar.DIGEST]
        path.write_bytes(body + sidecar.checksum(body))
    else:
        path.unlink()
        os.mkfifo(path)  # a reader that opened it blindly would hang here


@pytest.mark.parametrize("how", ["tampered", "truncated", "empty", "foreign", "inconsistent", "fifo"])
def test_a_bad_saved_index_is_ignored_and_replaced(session: Path, how: str) -> None:
    other = session.with_name("other.jsonl")
    write_session(other, 120)
    SessionLog.open(other)
    corrupt(saved(session), how, other)
    log = reopen(session)
    assert log.index_source == "file"
    assert summary(log) == cold(session)
    assert stat.S_ISREG(saved(session).stat().st_mode) and reopen(session).index_source == "saved index"


def test_it_is_private_and_kept_under_pideck_home(session: Path, tmp_path: Path) -> None:
    location = saved(session)
    home = tmp_path / "home"
    assert location.parent == home / "index"
    assert stat.S_IMODE(location.stat().st_mode) == 0o600
    assert stat.S_IMODE(location.parent.stat().st_mode) == 0o700 and stat.S_IMODE(home.stat().st_mode) == 0o700
    assert sorted(p.name for p in session.parent.iterdir()) == ["s.jsonl"]  # nothing beside the session
    assert [p.name for p in location.parent.iterdir()] == [location.name]  # no temporary file left


def test_never_beside_a_session(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Not even when pideck's home is the sessions folder itself, or inside pi's folders."""
    path = tmp_path / "s.jsonl"
    write_session(path)
    monkeypatch.setenv("PIDECK_INDEX", "always")
    monkeypatch.setenv("PIDECK_HOME", str(tmp_path / "index" / ".."))
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(tmp_path / "pi"))
    assert sidecar.location(tmp_path / "index" / "s.jsonl") is None
    monkeypatch.setenv("PIDECK_HOME", str(tmp_path / "pi" / "sessions" / "--x--"))
    SessionLog.open(path)
    assert not (tmp_path / "pi").exists() and sorted(p.name for p in tmp_path.iterdir()) == ["s.jsonl"]


def test_turned_off_nothing_is_saved_or_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PIDECK_HOME", str(tmp_path / "home"))
    path = tmp_path / "s.jsonl"
    write_session(path)
    monkeypatch.setenv("PIDECK_INDEX", "off")
    SessionLog.open(path)
    monkeypatch.setenv("PIDECK_INDEX", "always")
    SessionLog.open(path, saved_index=False)
    assert not (tmp_path / "home").exists()
    SessionLog.open(path)  # saves
    monkeypatch.setenv("PIDECK_INDEX", "off")
    assert SessionLog.open(path).index_source == "file"


def test_by_default_only_big_sessions_are_saved(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PIDECK_HOME", str(tmp_path / "home"))
    small, big = tmp_path / "small.jsonl", tmp_path / "big.jsonl"
    write_session(small)
    write_session(big, 5000)
    assert big.stat().st_size >= sidecar.MIN_BYTES > small.stat().st_size
    SessionLog.open(small)
    assert not (tmp_path / "home").exists()
    SessionLog.open(big)
    assert SessionLog.open(big).index_source == "saved index"
    append(big, 5000, 10)  # a few appends: read on top of the saved index, not saved again
    before = saved(big).stat().st_mtime_ns
    assert SessionLog.open(big).index_source == "saved index" and saved(big).stat().st_mtime_ns == before


def test_a_session_written_to_while_it_was_indexed_is_not_saved(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The saved index records a hash of the file's bytes taken when it is saved: had the file
    changed since it was read, that hash would vouch for bytes the index never saw."""
    monkeypatch.setenv("PIDECK_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("PIDECK_INDEX", "always")
    path = tmp_path / "s.jsonl"
    write_session(path)
    real_save = sidecar.save

    def save_after_another_write(session: Path, state: sidecar.Saved) -> bool:
        with session.open("ab") as fh:
            fh.write(dumps(entries(200, 1, None)[0]))
        return real_save(session, state)

    monkeypatch.setattr(sidecar, "save", save_after_another_write)
    SessionLog.open(path)
    assert not saved(path).exists()


# -- the todo fold kept with the saved index ------------------------------------------------------

def todo_entries(start: int, parent: str | None, *, done: bool) -> list[dict]:
    """A todo write (the call and its result), a gate cycle, a poke, a run of assistant turns, and
    a read call whose result comes later: the state it returns then only counts as a write if the
    fold cannot find the call (a resumed fold must find it among the entries it did not read)."""
    ids = iter(f"{i:08x}" for i in range(start, start + 100))
    out: list[dict] = []

    def put(entry: dict) -> None:
        nonlocal parent
        entry.update(id=next(ids), parentId=parent, timestamp="2026-11-30T14:53:16.480Z")
        out.append(entry)
        parent = entry["id"]

    todos = [{"id": f"t{k}", "content": f"Todo {k}", "status": "completed" if done and k < 2 else "pending",
              "priority": "high", "confidence": 70 + k} for k in range(4)]
    write, read = f"call_w{start}", f"call_r{start}"
    put({"type": "message", "message": {"role": "assistant", "content": [
        {"type": "toolCall", "id": write, "name": "todo", "arguments": {"todos": todos}}]}})
    put({"type": "message", "message": {"role": "toolResult", "toolCallId": write, "toolName": "todo",
                                        "content": [{"type": "text", "text": "ok"}], "isError": False,
                                        "details": {"todos": todos, "plan": {}, "goals": []}}})
    put({"type": "custom", "customType": "pi-jtodo/cycle", "data": {"armed": True}})
    put({"type": "custom_message", "customType": "pi-jtodo/followup", "display": True,
         "content": "You have 4 incomplete todos. Continue working, or update the todo tool.",
         "details": {"kind": "poke", "ids": ["t0"]}})
    for _ in range(3):
        put({"type": "message", "message": {"role": "assistant", "content": [{"type": "text", "text": "working"}]}})
    put({"type": "message", "message": {"role": "assistant", "content": [
        {"type": "toolCall", "id": read, "name": "todo", "arguments": {}}]}})
    return out


def todo_result(call: str, entry_id: str, parent: str, todos: list[dict]) -> dict:
    return {"type": "message", "id": entry_id, "parentId": parent, "timestamp": "2026-11-30T14:53:16.480Z",
            "message": {"role": "toolResult", "toolCallId": call, "toolName": "todo",
                        "content": [{"type": "text", "text": "ok"}], "isError": False,
                        "details": {"todos": todos, "plan": {}, "goals": []}}}


@pytest.fixture
def todo_session(session: Path) -> Path:
    """The session above, then todo activity; a first open folds it and keeps the fold."""
    log = SessionLog.open(session)
    with session.open("ab") as fh:
        fh.write(b"".join(dumps(e) for e in todo_entries(1000, log.leaf_id, done=False)))
    Deck(SessionLog.open(session)).todo.replay()
    return session


class FoldSpy:
    """Where each fold of this test started: 0 from the root, else where a kept fold stopped."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        from core.primitives.todo.replay import Replayer

        self.starts: list[int] = []
        real = Replayer.feed_picked

        def feed_picked(replayer, picked, length, record_at, last):
            self.starts.append(replayer.count)
            return real(replayer, picked, length, record_at, last)

        monkeypatch.setattr(Replayer, "feed_picked", feed_picked)


def folded(log: SessionLog, config=None) -> dict:
    deck = Deck(log, todo_config=config)
    return {"replay": deck.todo.replay(), "inspect": inspect_json(deck)}


def test_the_todo_fold_is_resumed_from_the_saved_index(todo_session: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    spy = FoldSpy(monkeypatch)
    log = reopen(todo_session)
    branch_length = len(log.branch())
    assert folded(log) == folded(SessionLog.open(todo_session, saved_index=False))
    assert spy.starts == [branch_length, 0]  # resumed where it stopped; the cold open from the root
    assert folded(log)["replay"].state.todos[0].content == "Todo 0"


def test_after_appends_the_kept_fold_is_resumed_and_finds_earlier_calls(
        todo_session: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    log = SessionLog.open(todo_session)
    kept_at = len(log.branch())
    changed = [{"id": "t0", "content": "Todo 0, renamed", "status": "pending", "priority": "high", "confidence": 70}]
    with todo_session.open("ab") as fh:  # the result of the read call the kept fold already passed
        fh.write(dumps(todo_result("call_r1000", "0000ffff", log.leaf_id or "", changed)))
        fh.write(dumps({"type": "message", "id": "0000fffe", "parentId": "0000ffff", "timestamp": "t",
                        "message": {"role": "assistant", "content": [{"type": "text", "text": "next"}]}}))
    spy = FoldSpy(monkeypatch)
    resumed = folded(reopen(todo_session))
    assert spy.starts == [kept_at]
    assert resumed == folded(SessionLog.open(todo_session, saved_index=False))
    # the read call was found (not a write: the turns since the write go on), and its state taken
    assert resumed["replay"].assistant_turns_since_write == 5
    assert resumed["replay"].state.todos[0].content == "Todo 0, renamed"


def kept(session: Path) -> Path:
    location = sidecar.kept_location(session)
    assert location is not None and location.exists()
    return location


@pytest.mark.parametrize("change", ["configuration", "pideck version", "fold format", "branch", "tampered",
                                    "not a fold", "foreign", "file replaced"])
def test_a_kept_fold_that_no_longer_applies_is_folded_again(
        todo_session: Path, monkeypatch: pytest.MonkeyPatch, change: str) -> None:
    from core.primitives.todo import adapter
    from core.config.settings import TodoConfig

    config = None
    if change == "configuration":
        config = TodoConfig(max_gate_observations=3)
    elif change == "pideck version":
        monkeypatch.setattr(adapter, "__version__", "999.0")
    elif change == "fold format":
        monkeypatch.setattr(adapter, "FOLD_FORMAT", adapter.FOLD_FORMAT + 1)
    elif change == "branch":  # a /tree jump back to the start: the kept prefix is gone
        with todo_session.open("ab") as fh:
            fh.write(dumps(todo_result("call_w1000", "0000fffe", "00000002", [])))
    elif change == "tampered":
        raw = kept(todo_session).read_bytes()
        at = raw.index(b'"Todo 0"') + 3
        kept(todo_session).write_bytes(raw[:at] + b"X" + raw[at + 1:])
    elif change == "not a fold":  # with a checksum made for it: the envelope fits, the fold does not
        raw = kept(todo_session).read_bytes()
        meta = json.loads(raw[len(sidecar.KEPT_FORMAT):-sidecar.DIGEST])
        meta["kept"]["todo-fold"]["value"]["fold"]["state"]["todos"] = "not a list"
        body = sidecar.KEPT_FORMAT + json.dumps(meta).encode()
        kept(todo_session).write_bytes(body + sidecar.checksum(body))
    elif change == "foreign":  # another session's, with the same shape and entries
        other = todo_session.with_name("other.jsonl")
        other.write_bytes(todo_session.read_bytes())
        Deck(SessionLog.open(other)).todo.replay()
        kept(todo_session).write_bytes(kept(other).read_bytes())
    else:  # the same bytes in a new file: its index is the same, but nothing proves it
        copy = todo_session.with_name("copy.jsonl")
        copy.write_bytes(todo_session.read_bytes())
        os.replace(copy, todo_session)
    spy = FoldSpy(monkeypatch)
    again = folded(reopen(todo_session), config)
    assert spy.starts == [0]
    assert again == folded(SessionLog.open(todo_session, saved_index=False), config)


def test_a_session_with_an_entry_that_cannot_be_read_back_keeps_no_fold(todo_session: Path) -> None:
    """An entry whose body cannot be read back gives its warning when the fold reads it: a kept
    fold (or kept warnings) would leave that warning out of the next run."""
    log = SessionLog.open(todo_session)
    deep = json.loads("[" * 300 + "]" * 300)  # past pideck's depth limit: indexed, never read back
    entry = todo_result("call_r1000", "0000ffff", log.leaf_id or "", [])
    entry["message"]["details"]["todos"] = deep
    with todo_session.open("ab") as fh:
        fh.write(dumps(entry))
    first = reopen(todo_session)
    assert folded(first) == folded(SessionLog.open(todo_session, saved_index=False))
    assert any("could not be read back" in w for w in first.warnings)
    again = reopen(todo_session)
    assert folded(again) == folded(SessionLog.open(todo_session, saved_index=False))
    assert again.warnings == first.warnings


def test_the_kept_fold_is_private_beside_the_saved_index(todo_session: Path) -> None:
    location = kept(todo_session)
    assert location.parent == saved(todo_session).parent and stat.S_IMODE(location.stat().st_mode) == 0o600
    assert sorted(p.name for p in location.parent.iterdir()) == sorted([saved(todo_session).name, location.name])
    assert sorted(p.name for p in todo_session.parent.iterdir()) == ["s.jsonl"]


@pytest.mark.parametrize("shape", ["one chain", "branch points", "one entry", "none"])
def test_the_branch_is_kept_as_runs_and_given_back_whole(shape: str) -> None:
    branch = {"one chain": list(range(500)), "branch points": [*range(0, 40), *range(45, 90), 97, *range(200, 230)],
              "one entry": [7], "none": []}[shape]
    runs = sidecar._runs(branch)
    assert sidecar._branch_of(runs, 500) == branch
    assert len(runs) == 2 * {"one chain": 1, "branch points": 4, "one entry": 1, "none": 0}[shape]
    if branch:
        assert sidecar._branch_of(runs, max(branch)) is None  # a run past the index's end


@pytest.mark.parametrize("codes, kinds, fits", [
    ([0, 1, 2, 1], 3, True), ([0, 3], 3, False), ([0, -1], 3, False), ([255], 256, True), ([256], 256, False),
    ([0, 300], 301, True), ([0, 301], 301, False), ([], 1, True),
])
def test_kind_codes_are_checked_against_the_kinds(codes: list[int], kinds: int, fits: bool) -> None:
    from array import array

    assert sidecar._codes_fit(array("i", codes), kinds) is fits
