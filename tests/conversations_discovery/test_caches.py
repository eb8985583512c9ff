"""What pideck keeps to read faster goes when its file goes, stays under its limit, and ``pideck
cache`` says how much there is (docs/caches.md)."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from discovery_helpers import CLAUDE_TODOWRITE, CODEX

from core.catalog import cache
from core.catalog.catalog import Catalog
from core.catalog.overview import Overview
from core.config.places import pideck_home


def _conversations(homes, n: int, start: int = 0) -> list[Path]:
    return [homes.install(CLAUDE_TODOWRITE, session_id=f"00000000-0000-4000-8000-{i:012d}", mtime=1796109360 + i)
            for i in range(start, start + n)]


def _cache_files() -> list[str]:
    folder = pideck_home() / "conversations"
    return sorted(p.name for p in folder.iterdir() if not p.name.startswith(".")) if folder.exists() else []


def test_a_running_catalog_removes_the_cache_of_each_transcript_deleted(homes) -> None:
    paths = _conversations(homes, 6)
    catalog = Catalog(None)
    catalog.look()
    assert len(_cache_files()) == 6 * 2  # cache, lock
    for path in paths[:4]:
        path.unlink()
    catalog.look()
    assert len(catalog.records) == 2
    assert len(_cache_files()) == 2 * 2
    assert cache.usage().gone == (0, 0)


def test_pideck_cache_says_what_is_kept_and_sweeps_what_is_gone(homes, pideck) -> None:
    paths = _conversations(homes, 5)
    homes.install(CODEX)
    assert pideck("status", "--all")[0] == 0  # (reads them all; status itself never sweeps)
    for path in paths[:3]:
        path.unlink()
    code, out, _ = pideck("cache")
    lines = out.splitlines()
    assert code == 0 and lines[0] == f"pideck keeps, to read faster, in {pideck_home()}:"
    assert lines[1].split()[:3] == ["caches", "of", "conversations"] and lines[1].split()[-3:-2] == ["6"]
    assert lines[5].startswith("  of it, of files that are gone      3 ")
    assert lines[-1] == "Any of it can go: the next read makes it again. `pideck cache --clear` removes all of it."
    used = json.loads(pideck("cache", "--json")[1])
    assert (used["mirrors"]["items"], used["gone"]["items"], used["status"]["items"]) == (6, 3, 2)  # (status: its line and its saved rows)
    assert used["total"] == sum(used[k]["bytes"] for k in ("mirrors", "indexes", "status")) > 0

    code, out, _ = pideck("cache", "--sweep")
    assert code == 0 and out.startswith("Removed 3 items (")
    assert len(_cache_files()) == 3 * 2
    assert json.loads(pideck("cache", "--json")[1])["gone"] == {"items": 0, "bytes": 0}

    said = pideck("status", "--all")[1]
    code, out, _ = pideck("cache", "--clear", "--json")
    cleared = json.loads(out)
    assert cleared["removed"]["items"] == 5 and cleared["total"] == 0  # 3 mirrors, the status line, the rows
    assert _cache_files() == []
    assert pideck("status", "--all")[1] == said == "3 waiting\n"  # made again on the next read


def test_the_hourly_sweep_runs_once_an_hour_whoever_looks(homes) -> None:
    paths = _conversations(homes, 3)
    Catalog(None, sweep=False).look()
    for path in paths[:2]:
        path.unlink()
    Catalog(None).look()  # a new process: it never saw them, the sweep removes them
    assert len(_cache_files()) == 2
    stamp = pideck_home() / "catalog" / ".swept"
    assert stamp.exists()
    paths[2].unlink()
    Catalog(None, sweep=False).look()
    Catalog(None).look()  # within the hour: no sweep
    assert len(_cache_files()) == 2
    os.utime(stamp, (time.time() - cache.SWEEP_EVERY_S - 1,) * 2)
    Catalog(None).look()
    assert _cache_files() == []


def test_past_the_limit_the_least_recently_written_go_first(homes) -> None:
    paths = _conversations(homes, 4)
    Catalog(None, sweep=False).look()
    by_source = {item.source: item for item in cache.items() if item.kind == "mirrors"}
    for n, path in enumerate(paths):  # the first is the oldest
        for file in by_source[str(path)].files:
            os.utime(file, (1_000_000 + n, 1_000_000 + n))
    sizes = [by_source[str(p)].size for p in paths]
    removed, _ = cache.sweep(max_bytes=cache.usage().total - sizes[0] - sizes[1])
    assert removed == 2
    assert sorted(item.source for item in cache.items() if item.kind == "mirrors") == sorted(map(str, paths[2:]))


def test_a_killed_sync_leaves_an_orphan_that_an_hour_later_is_swept(homes) -> None:
    folder = pideck_home() / "conversations"
    folder.mkdir(parents=True)
    orphan = folder / "0123456789abcdef0123456789abcdef.lock"
    orphan.write_text("")
    assert [i.source for i in cache.items()] == [None]
    assert cache.sweep() == (0, 0)  # young: a sync may be writing it
    os.utime(orphan, (time.time() - cache.ORPHAN_S - 1,) * 2)
    assert cache.sweep()[0] == 1 and not orphan.exists()


def test_a_new_process_reads_only_what_changed_since_the_saved_rows(homes) -> None:
    """The catalog's rows are saved per scope: a new catalog takes each unchanged file's row from
    them (the same row as a full read makes), and reads only the file that changed."""
    paths = _conversations(homes, 4)
    first = Catalog(None)
    first.look()
    assert first.overview.last_tick.read == 4
    with paths[0].open("a", encoding="utf-8") as f:
        f.write(paths[0].read_text(encoding="utf-8").splitlines(keepends=True)[-1])
    second = Catalog(None)
    second.look()
    assert second.overview.last_tick.read == 1
    fresh = Catalog(None, overview=Overview(None))  # (the same look without saved rows: every file read)
    fresh.look()
    assert fresh.overview.last_tick.read == 4
    assert second.rows == fresh.rows
    assert {p: r.attention for p, r in second.records.items()} == {p: r.attention for p, r in fresh.records.items()}


def test_the_mirrors_of_earlier_versions_are_swept(homes) -> None:
    """Earlier versions kept a pi-format mirror and its state per conversation; nothing reads them
    now, so the next sweep removes them, the cache beside them stays."""
    paths = _conversations(homes, 1)
    Catalog(None, sweep=False).look()
    folder = pideck_home() / "conversations"
    [cache_file] = folder.glob("*.cache")
    stem = cache_file.name.split(".")[0]
    (folder / f"{stem}.jsonl").write_text('{"type":"session","version":3}\n')
    (folder / f"{stem}.state").write_text(json.dumps({"format": 3, "source": str(paths[0])}))
    (folder / ("f" * 32 + ".jsonl")).write_text('{"type":"session","version":3}\n')  # (of another transcript)
    assert cache.usage().kinds["mirrors"][0] == 3
    assert cache.sweep()[0] == 2
    assert _cache_files() == [cache_file.name, f"{stem}.lock"]


def test_the_cache_of_a_conversation_in_a_database_goes_only_with_the_database(homes) -> None:
    """An opencode conversation is named ``<database>#<session id>``: no file has that name, so its
    cache belongs to the database, kept while it is there, swept once it is gone."""
    import gzip

    from core.sources.in_database import conversation_path
    from core.sources.reading import Reading

    sample = Path(__file__).resolve().parents[1] / "fixtures" / "agent-transcripts" / "opencode-todowrite"
    db = homes.home / "opencode.db"
    db.write_bytes(gzip.decompress((sample / "final" / ".local" / "share" / "opencode" / "opencode.db.gz").read_bytes()))
    Reading(conversation_path(db, "ses_dcc919244ffeTKrCyRrUVGVjZ5"), "opencode").sync()
    assert len(_cache_files()) == 2 and cache.usage().gone == (0, 0)
    assert cache.sweep() == (0, 0) and len(_cache_files()) == 2
    db.unlink()
    assert cache.usage().gone[0] == 1
    assert cache.sweep()[0] == 1 and _cache_files() == []
