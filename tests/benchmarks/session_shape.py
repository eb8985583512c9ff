"""A generated session shaped like a long real pi session (issue 12), and the naive reader that
the open benchmarks are measured against.

    uv run python tests/benchmarks/session_shape.py OUT.jsonl [ENTRIES]

Shape: user prompts; assistant messages with tool calls and tool results, each short (under
1 KB) as often as long (up to tens of KB); every ~20th entry a primitive state holding 50 items
(Agent State work items, Agent Progress milestones, Agent Handoff packets); a todo tool call and
its result with 50 todos every ~1,000 entries, with gate-cycle entries and follow-ups; a branch
point every 2,000 entries (the rest hangs off an entry 5 to 50 back). 100,000 entries make about
265 MB.
"""

from __future__ import annotations

import json
import random
import shutil
import sys
import time
from pathlib import Path
from typing import Any, Callable

HEADER = {"type": "session", "version": 3, "id": "01a22cf2-253f-70fd-b26f-f043e48c877f",
          "timestamp": "2026-11-30T14:53:16.479Z", "cwd": "/bench"}
PRIMITIVES = ("agent-state-state", "agent-progress-state", "agent-handoff-state")
WORDS = ("def run(self, path):\n\treturn {'ok': True}  # \"quoted\" src/pideck/core.py:42 "
         "lorem ipsum dolor sit amet ✓ error: expected ';' got '}' npm test passed 1234 ms").split(" ")


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def text(rng: random.Random, size: int) -> str:
    out, n = [], 0
    while n < size:
        word = rng.choice(WORDS)
        out.append(word)
        n += len(word) + 1
    return " ".join(out)


def _usage() -> dict[str, Any]:
    return {"input": 10, "output": 20, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 30,
            "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0}}


def _state(kind: str, i: int, rng: random.Random) -> dict[str, Any]:
    """A valid 50-item state of one primitive, as its adapter writes it."""
    if kind == "agent-state-state":
        items = [{"id": f"w{k}", "content": f"Work item {k}: {text(rng, 40)}", "status": "open"} for k in range(50)]
        return {"schemaVersion": 1, "state": {"schemaVersion": 1, "workItems": items, "decisions": [],
                                              "objective": f"Objective as of entry {i}"}}
    if kind == "agent-progress-state":
        names = [f"milestone-{k}-{i % 97}" for k in range(50)]
        return {"schemaVersion": 1, "hasBaseline": True, "currentMilestones": names, "recordedMilestones": names[:40]}
    packets = [{"schemaVersion": 1, "id": f"p{k}", "source": "builder", "goal": f"Packet {k}: {text(rng, 30)}"}
               for k in range(50)]
    return {"schemaVersion": 1, "packets": packets}


def _todos(i: int) -> list[dict[str, Any]]:
    status = ("pending", "in_progress", "completed")
    return [{"id": f"t{k}", "content": f"Todo {k} written at entry {i}", "status": status[(k + i) % 3],
             "priority": "medium", "confidence": 70, "group": f"g{k % 5}"} for k in range(50)]


class _Writer:
    def __init__(self, fh, rng: random.Random) -> None:
        self.fh, self.rng = fh, rng
        self.ids: list[str] = []
        self.n = 0

    def put(self, entry: dict[str, Any]) -> None:
        """Write ``entry`` (without id/parentId/timestamp) in pi's key order as the next entry."""
        i = self.n
        eid = f"{i:08x}"
        parent = self.ids[-1] if self.ids else None
        if i and i % 2000 == 0:
            parent = self.ids[-self.rng.randint(5, 50)]  # a branch point: the rest hangs off an older entry
        ts = f"2026-11-30T{10 + i // 360000 % 10:02d}:{i // 6000 % 60:02d}:{i // 100 % 60:02d}.{i % 1000:03d}Z"
        common = {"id": eid, "parentId": parent, "timestamp": ts}
        if entry["type"] in ("custom", "custom_message"):  # pi writes these with id, parentId, timestamp last
            line = {**entry, **common}
        else:
            line = {"type": entry["type"], **common, **{k: v for k, v in entry.items() if k != "type"}}
        self.fh.write(_dumps(line) + "\n")
        self.ids.append(eid)
        self.n += 1


def _message(role: str, rng: random.Random, i: int, **fields: Any) -> dict[str, Any]:
    return {"type": "message", "message": {"role": role, **fields, "timestamp": 1796050396480 + i}}


def _assistant(rng: random.Random, i: int, size: int, call: dict[str, Any]) -> dict[str, Any]:
    return _message("assistant", rng, i, content=[{"type": "text", "text": text(rng, size)}, call],
                    api="anthropic-messages", provider="anthropic", model="claude", usage=_usage(),
                    stopReason="toolUse")


def _size(rng: random.Random, short: tuple[int, int], long: tuple[int, int]) -> int:
    return rng.randint(*short) if rng.random() < 0.4 else rng.randint(*long)


def generate(path: Path, n: int = 100_000, seed: int = 12, scale: float = 1.0) -> None:
    """``n`` entries of the shape above; ``scale`` shrinks what the messages say (prompts, answers,
    commands, tool output) and leaves every other entry as it is (``generate_short``)."""
    rng = random.Random(seed)

    def said(size: int) -> str:
        return text(rng, max(1, int(size * scale)))

    with open(path, "w", encoding="utf-8") as fh:
        fh.write(_dumps(HEADER) + "\n")
        w = _Writer(fh, rng)
        turn = 0
        while w.n < n:
            turn += 1
            if turn % 20 == 1:
                w.put(_message("user", rng, w.n, content=[{"type": "text", "text": said(rng.randint(60, 400))}]))
            if turn % 7 == 3:
                kind = PRIMITIVES[turn % 3]
                w.put({"type": "custom", "customType": kind, "data": _state(kind, w.n, rng)})
            call_id = f"call_{w.n}"
            if turn % 400 == 0:  # a todo write, its result, and the gate cycle around it
                todos = _todos(w.n)
                w.put(_assistant(rng, w.n, 200, {"type": "toolCall", "id": call_id, "name": "todo",
                                                  "arguments": {"todos": todos}}))
                w.put(_message("toolResult", rng, w.n, toolCallId=call_id, toolName="todo",
                               content=[{"type": "text", "text": "Todos updated."}],
                               details={"todos": todos, "plan": {}, "goals": []}, isError=False))
                w.put({"type": "custom", "customType": "pi-jtodo/cycle", "data": {"armed": True, "reason": "write"}})
                w.put({"type": "custom_message", "customType": "pi-jtodo/followup",
                       "content": "You have 34 incomplete todos. Continue working, or update the todo tool.",
                       "display": True, "details": {"kind": "poke", "ids": ["t0", "t1"]}})
                continue
            command = {"type": "toolCall", "id": call_id, "name": "bash", "arguments": {"command": said(60)}}
            w.put(_assistant(rng, w.n, int(_size(rng, (100, 700), (1000, 3600)) * scale), command))
            big = rng.random() < 0.04
            size = rng.randint(15_000, 28_000) if big else _size(rng, (100, 700), (1400, 4500))
            w.put(_message("toolResult", rng, w.n, toolCallId=call_id, toolName="bash",
                           content=[{"type": "text", "text": said(size)}], isError=False))


def generate_short(path: Path, n: int = 100_000) -> None:
    """``generate``'s shape with short messages: the same entries, primitive states and todo writes,
    with what the messages say cut to a twentieth; 100,000 entries make about 40 MB."""
    generate(path, n, scale=SHORT)


SHORT = 0.05


def generate_timed(path: Path, n: int = 100_000, write: Callable[[Path, int], None] = generate) -> Path:
    """``write(path, n)``, printing the size and how long it took (the benchmarks' fixtures)."""
    start = time.perf_counter()
    write(path, n)
    print(f"\ngenerated {path.stat().st_size / 1e6:.0f} MB in {time.perf_counter() - start:.1f} s")
    return path


NAIVE = r'''
import json, sys
TYPES = ("agent-state-state", "agent-progress-state", "agent-handoff-state")
entries = []
with open(sys.argv[1], "rb") as fh:
    header = json.loads(fh.readline())
    for raw in fh:
        if raw.strip():
            value = json.loads(raw)
            if isinstance(value, dict) and isinstance(value.get("id"), str):
                entries.append(value)
by_id = {e["id"]: e for e in entries}
branch, node, seen = [], entries[-1] if entries else None, set()
while node is not None and node["id"] not in seen:
    seen.add(node["id"])
    branch.append(node)
    node = by_id.get(node.get("parentId"))
branch.reverse()
newest = {t: None for t in TYPES}
for e in branch:
    if e.get("type") == "custom" and e.get("customType") in newest:
        newest[e["customType"]] = e["id"]
print(json.dumps({"entries": len(entries), "leaf": branch[-1]["id"], "branch_length": len(branch), "newest": newest}))
'''
"""The naive reader: json.loads every line, index by id, walk from the last entry, newest state
per primitive type. Run as a script (``python -c NAIVE FILE``) so that it is timed as a whole
process like ``pideck inspect``."""


if __name__ == "__main__":
    out = Path(sys.argv[1])
    generate(out, int(sys.argv[2]) if len(sys.argv) > 2 else 100_000)
    print(f"{out}: {out.stat().st_size / 1e6:.0f} MB")


def big_and_small(folder: Path, write: Callable[[Path, int], None] = generate) -> tuple[Path, Path]:
    """A 100,000-entry and a 100-entry session of the same shape in ``folder``, for the benchmarks
    that compare one call on both."""
    small = folder / "small.jsonl"
    write(small, 100)
    return generate_timed(folder / "big.jsonl", 100_000, write), small


def generate_chain(path: Path, n: int = 100_000, seed: int = 21) -> dict[str, str]:
    """Issue 21's shape: long message lines (about 3.6 KB of text each) with a small primitive
    state between every two of them, all on one linear ``parentId`` chain; 100,000 entries make
    about 265 MB. Returns the text each primitive's newest state shows (what the TUI rows wait
    for). The last line is left to ``unique_copy``."""
    rng = random.Random(seed)
    newest: dict[str, str] = {}
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(_dumps(HEADER) + "\n")
        parent = None
        for i in range(n - 1):
            eid = f"{i:08x}"
            ts = f"2026-11-30T{10 + i // 360000 % 10:02d}:{i // 6000 % 60:02d}:{i // 100 % 60:02d}.{i % 1000:03d}Z"
            if i % 3 == 2:
                kind = PRIMITIVES[i // 3 % 3]
                shown = {"agent-state-state": f"State at {i}", "agent-progress-state": f"milestone-of-{i}",
                         "agent-handoff-state": f"Packet of entry {i}"}[kind]
                newest[kind] = shown
                if kind == "agent-state-state":
                    data: dict[str, Any] = {"schemaVersion": 1, "state": {"schemaVersion": 1, "workItems": [],
                                                                         "decisions": [], "objective": shown}}
                elif kind == "agent-progress-state":
                    data = {"schemaVersion": 1, "hasBaseline": True, "currentMilestones": [shown], "recordedMilestones": []}
                else:
                    data = {"schemaVersion": 1, "packets": [{"schemaVersion": 1, "id": f"p{i}", "source": "builder",
                                                             "goal": shown}]}
                line = {"type": "custom", "customType": kind, "data": data, "id": eid, "parentId": parent, "timestamp": ts}
            else:
                line = {"type": "message", "id": eid, "parentId": parent, "timestamp": ts,
                        "message": {"role": "assistant" if i % 3 == 0 else "toolResult",
                                    "content": [{"type": "text", "text": text(rng, 3560)}], "timestamp": 1796050396480 + i}}
            fh.write(_dumps(line) + "\n")
            parent = eid
    return newest


def unique_copy(base: Path, out: Path, tag: str) -> Path:
    """A copy of ``generate_chain``'s file ending in a line of its own (a custom entry naming
    ``tag``), so that nothing saved about another copy can describe this one."""
    parent = json.loads(base.read_bytes().rsplit(b"\n", 2)[-2])["id"]
    last = {"type": "custom", "customType": "bench-copy", "data": {"copy": tag}, "id": "ffffffff",
            "parentId": parent, "timestamp": "2026-12-01T00:00:00.000Z"}
    with open(base, "rb") as src, open(out, "wb") as dst:
        shutil.copyfileobj(src, dst, 1 << 22)
        dst.write(_dumps(last).encode() + b"\n")
    return out
