"""Journal corruption: each way a journal's files get damaged, and what the companion then does.

A journal of two Heckmeck games is written by a process that is then killed with SIGKILL (its last
inputs still in the write-ahead log), with a backup taken part-way. Each kind of damage is applied
to a fresh copy, and the companion is started on it. Every kind must end one of two ways:

* ``whole``: the companion plays on with every acknowledged game and entry (the damage cost nothing);
* ``refused``: safe mode with a banner, the damaged files untouched, and a good backup offered
  (which is then restored).

``silent loss`` (it starts normally with less than was acknowledged) and ``crash`` (it does not
start, or not twice in a row) are failures. Short mode checks each kind in-process; long mode starts
the real daemon twice on each and restores through the API.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from harness.common import ROOT, Daemon, emit

JOURNAL = "companion.sqlite3"

WRITER = r"""
import os, random, signal, sys
from pathlib import Path
from companion.store.backups import take_backup
from companion.store.journal import Journal
from companion.table.session import Table
from companion.table.simulate import random_input

folder = Path(sys.argv[1])
journal = Journal(folder / "companion.sqlite3")
table = Table(journal, rng=random.Random(1))
rng = random.Random(7)
for game, inputs in (("heckmeck", 60), ("heckmeck", 90)):
    table.new_game(game, ["Ann", "Bob", "Cy"])
    for n in range(inputs):
        tl = table.timeline
        if tl.rules.outcome(tl.state) is not None:
            break
        action = random_input(game, tl.rules, tl.state, rng)
        table.submit(tl.rules.action_to_json(action), device="writer")
        if game == "heckmeck" and n == 30 and table.game_id == 1:
            take_backup(journal, folder / "backups")
games, entries = journal.high_ids()
print(games, entries, flush=True)
os.kill(os.getpid(), signal.SIGKILL)  # a power cut: the last inputs are only in the write-ahead log
"""


def make_pristine(folder: Path) -> tuple[int, int]:
    folder.mkdir(parents=True, exist_ok=True)
    out = subprocess.run(
        [sys.executable, "-c", WRITER, str(folder)], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    games, entries = (int(x) for x in out.stdout.split())
    if not Path(str(folder / JOURNAL) + "-wal").exists():
        raise RuntimeError("the writer left no write-ahead log")
    return games, entries


# --- the kinds of damage -----------------------------------------------------------------------------
def _p(folder: Path, suffix: str = "") -> Path:
    return Path(str(folder / JOURNAL) + suffix)


def _garble(path: Path, offset: int, length: int, seed: int = 0) -> None:
    rng = random.Random(seed)
    data = bytearray(path.read_bytes())
    offset = offset if offset >= 0 else max(0, len(data) + offset)
    for i in range(offset, min(len(data), offset + length)):
        data[i] = rng.randrange(256)
    path.write_bytes(bytes(data))


def _truncate(path: Path, fraction: float) -> None:
    size = path.stat().st_size
    with open(path, "r+b") as handle:
        handle.truncate(int(size * fraction))


def _sql(folder: Path, *statements: str) -> None:
    """Change the journal's contents as a buggy tool would (it checkpoints the log into the file)."""
    db = sqlite3.connect(_p(folder))
    for statement in statements:
        db.execute(statement)
    db.commit()
    db.close()


KINDS: dict[str, Callable[[Path], None]] = {
    # the write-ahead log, holding the last inputs
    "wal deleted": lambda f: _p(f, "-wal").unlink(),
    "wal header zeroed": lambda f: _p(f, "-wal").write_bytes(bytes(32) + _p(f, "-wal").read_bytes()[32:]),
    "wal header garbled": lambda f: _garble(_p(f, "-wal"), 0, 32, seed=1),
    "wal first frame garbled": lambda f: _garble(_p(f, "-wal"), 32, 24, seed=2),
    "wal cut halfway": lambda f: _truncate(_p(f, "-wal"), 0.5),
    "wal cut to nothing": lambda f: _truncate(_p(f, "-wal"), 0.0),
    "wal last frame garbled": lambda f: _garble(_p(f, "-wal"), -2000, 64, seed=3),
    "wal middle garbled": lambda f: _garble(
        _p(f, "-wal"), _p(f, "-wal").stat().st_size // 2, 512, seed=4
    ),
    # the database file
    "db deleted, wal kept": lambda f: _p(f).unlink(),
    "db truncated by half, wal kept": lambda f: _truncate(_p(f), 0.5),
    "db truncated to nothing, wal kept": lambda f: _truncate(_p(f), 0.0),
    "db and wal deleted": lambda f: (_p(f).unlink(), _p(f, "-wal").unlink(), None)[-1],
    "every journal file deleted": lambda f: [p.unlink() for p in f.iterdir() if p.name.startswith(JOURNAL)] and None,
    "db header zeroed": lambda f: _p(f).write_bytes(bytes(100) + _p(f).read_bytes()[100:]),
    "db magic changed": lambda f: _p(f).write_bytes(b"SQLite format 2\0" + _p(f).read_bytes()[16:]),
    "db page size garbled": lambda f: _garble(_p(f), 16, 2, seed=5),
    "db second page garbled": lambda f: _garble(_p(f), 4096, 4096, seed=6),
    "db last page garbled": lambda f: _garble(_p(f), -4096, 4096, seed=7),
    "db is a text file": lambda f: (_p(f).write_text("this is not a database\n" * 100), _p(f, "-wal").unlink()),
    "db is an empty file, no wal": lambda f: (_p(f).write_bytes(b""), _p(f, "-wal").unlink()),
    "db is another sqlite database": lambda f: _other_database(f),
    "db is an older copy of itself": lambda f: _older_copy(f),
    # the contents, as a buggy tool or a flipped bit in a row would leave them
    "header row not json": lambda f: _sql(f, "UPDATE games SET header = '{\"format' WHERE id = 1"),
    "header row not a record": lambda f: _sql(f, "UPDATE games SET header = '{\"format\": \"x\"}' WHERE id = 2"),
    "header row of another game bad": lambda f: _sql(f, "UPDATE games SET header = '[]' WHERE id = 1"),
    "entry not json": lambda f: _sql(f, "UPDATE entries SET entry = '{\"type\":' WHERE id = 20"),
    "entry not an entry": lambda f: _sql(f, "UPDATE entries SET entry = '{\"type\": \"jump\"}' WHERE id = 25"),
    "entry missing from the middle": lambda f: _sql(f, "DELETE FROM entries WHERE id = 40"),
    "last entries deleted": lambda f: _sql(f, "DELETE FROM entries WHERE id > (SELECT MAX(id) - 5 FROM entries)"),
    "game row deleted": lambda f: _sql(f, "PRAGMA foreign_keys=OFF", "DELETE FROM games WHERE id = 1"),
    "current game not a number": lambda f: _sql(f, "UPDATE meta SET value = 'abc' WHERE key = 'current_game'"),
    "current game unknown": lambda f: _sql(f, "UPDATE meta SET value = '999' WHERE key = 'current_game'"),
    "schema version missing": lambda f: _sql(f, "DELETE FROM meta WHERE key = 'schema_version'"),
    "schema version from the future": lambda f: _sql(f, "UPDATE meta SET value = '99' WHERE key = 'schema_version'"),
    "entries table dropped": lambda f: _sql(f, "DROP TABLE entries"),
    # the side files
    "shm deleted": lambda f: _p(f, "-shm").unlink(missing_ok=True),
    "shm garbled": lambda f: _garble(_p(f, "-shm"), 0, 4096, seed=8) if _p(f, "-shm").exists() else None,
    "high-water mark deleted": lambda f: _p(f, ".mark").unlink(),
    "high-water mark garbled": lambda f: _p(f, ".mark").write_text("{garbage"),
    "newest backup garbled too, wal deleted": lambda f: (
        _garble(sorted((f / "backups").iterdir())[-1], 4096, 4096, seed=9),
        _p(f, "-wal").unlink(),
    )[-1],
}


def _other_database(folder: Path) -> None:
    _p(folder, "-wal").unlink()
    _p(folder).unlink()
    db = sqlite3.connect(_p(folder))
    db.execute("CREATE TABLE notes (text TEXT)")
    db.execute("INSERT INTO notes VALUES ('shopping list')")
    db.commit()
    db.close()


def _older_copy(folder: Path) -> None:
    backup = sorted((folder / "backups").iterdir())[-1]
    _p(folder, "-wal").unlink()
    shutil.copyfile(backup, _p(folder))


def _digest(folder: Path) -> dict[str, str]:
    return {
        p.name: hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.iterdir())
        if p.is_file() and p.name.startswith(JOURNAL) and not p.name.endswith("-shm")
    }


# --- checking one kind -------------------------------------------------------------------------------
def check_in_process(folder: Path, expected: tuple[int, int]) -> dict[str, Any]:
    """Open the damaged journal as the daemon does at start; classify the outcome."""
    from companion.store.recovery import Recovery, open_journal
    from companion.table.session import Table

    before = _digest(folder)
    try:
        opened = open_journal(folder / JOURNAL)
        table = Table(opened.journal)
        table.set_status("banner", opened.banner)
    except Exception as exc:  # what used to stop every start
        return {"outcome": "crash", "error": repr(exc)[:200]}
    result: dict[str, Any] = {}
    if opened.refused is None:
        games = opened.journal.games()
        entries = sum(g.entries for g in games)
        whole = len(games) == expected[0] and entries == expected[1]
        result = {"outcome": "whole" if whole else "silent loss", "games": len(games), "entries": entries}
        opened.journal.close()
        return result
    untouched = _digest(folder) == before
    result = {"outcome": "refused", "banner": bool(table.view()["status"].get("banner")), "untouched": untouched}
    if not untouched:
        result["outcome"] = "changed the damaged files"
    recovery = Recovery(folder / JOURNAL, opened)
    try:
        restored = recovery.restore(table, empty=opened.offer is None)
        games = table.journal.games()
        entries = sum(g.entries for g in games)
        salvaged = restored.get("salvaged") or {}
        result.update(restored=restored["restored"], after_games=len(games), after_entries=entries,
                      salvaged=salvaged.get("entries", 0))
        if table.timeline is not None:  # the restored journal takes inputs again
            from companion.table.simulate import random_input

            tl = table.timeline
            if tl.rules.outcome(tl.state) is None:
                action = random_input(tl.header.game, tl.rules, tl.state, random.Random(0))
                table.submit(tl.rules.action_to_json(action), device="harness")
    except Exception as exc:
        result.update(outcome="recovery failed", error=repr(exc)[:200])
    table.journal.close()
    return result


def check_with_daemon(folder: Path, expected: tuple[int, int]) -> dict[str, Any]:
    """Start the real daemon on the damaged journal twice (no crash loop), then restore if refused."""
    before = _digest(folder)
    outcomes = []
    for attempt in range(2):
        daemon = Daemon(folder)
        if not daemon.wait_ready():
            daemon.stop()
            return {"outcome": "crash", "attempt": attempt}
        _, health = daemon.request("GET", "/api/health")
        _, journal = daemon.request("GET", "/api/journal")
        _, listing = daemon.request("GET", "/api/games")
        entries = sum(g["entries"] for g in listing["games"])
        if attempt == 1 and journal["damaged"]:
            code, answer = daemon.request("POST", "/api/journal/recover", {"empty": journal["offer"] is None})
            _, listing = daemon.request("GET", "/api/games")
            salvaged = (answer.get("salvaged") or {}).get("entries", 0) if isinstance(answer, dict) else 0
            outcomes.append({"recover": code, "after_entries": sum(g["entries"] for g in listing["games"]),
                             "salvaged": salvaged})
        daemon.stop()
        if journal["damaged"]:
            untouched = attempt == 1 or _digest(folder) == before
            outcomes.append({"outcome": "refused" if health["safe_mode"] and untouched else "refused badly"})
        else:
            whole = len(listing["games"]) == expected[0] and entries == expected[1]
            outcomes.append({"outcome": "whole" if whole else "silent loss", "entries": entries})
    result: dict[str, Any] = {}
    for part in outcomes:
        result.update(part)
    return result


def run(long: bool = False, kinds: list[str] | None = None) -> dict[str, Any]:
    chosen = kinds or list(KINDS)
    with tempfile.TemporaryDirectory(prefix="harness-corrupt-") as tmp:
        pristine = Path(tmp) / "pristine"
        expected = make_pristine(pristine)
        counts = {"games": 0, "entries": 0}
        src = sqlite3.connect(f"file:{_copy(pristine, Path(tmp) / 'count') / JOURNAL}", uri=True)
        counts["games"], counts["entries"] = src.execute(
            "SELECT (SELECT COUNT(*) FROM games), (SELECT COUNT(*) FROM entries)"
        ).fetchone()
        src.close()
        expected = (counts["games"], counts["entries"])
        results: dict[str, Any] = {}
        for n, kind in enumerate(chosen):
            folder = _copy(pristine, Path(tmp) / f"kind{n}")
            KINDS[kind](folder)
            started = time.monotonic()
            result = check_with_daemon(folder, expected) if long else check_in_process(folder, expected)
            result["s"] = round(time.monotonic() - started, 2)
            results[kind] = result
            emit(part="corrupt", kind=kind, **result)
    outcomes = [r["outcome"] for r in results.values()]
    summary = {
        "part": "corrupt",
        "mode": "long (daemon)" if long else "short (in-process)",
        "kinds": len(results),
        "acknowledged": {"games": expected[0], "entries": expected[1]},
        "whole": outcomes.count("whole"),
        "refused_with_banner": outcomes.count("refused"),
        "silent_losses": outcomes.count("silent loss"),
        "crashes": outcomes.count("crash"),
        "other_failures": len(outcomes) - sum(outcomes.count(k) for k in ("whole", "refused", "silent loss", "crash")),
        # of the entries acknowledged in the refused kinds, how many the restore (backup + salvage) kept
        "refused_entries_kept": sum(r.get("after_entries", 0) for r in results.values() if r["outcome"] == "refused"),
        "refused_entries_acknowledged": expected[1] * outcomes.count("refused"),
        "salvaged": sum(r.get("salvaged", 0) for r in results.values()),
    }
    emit(**summary)
    summary["results"] = results
    return summary


def _copy(pristine: Path, folder: Path) -> Path:
    shutil.copytree(pristine, folder)
    return folder


if __name__ == "__main__":
    print(json.dumps(run(long="--long" in sys.argv)["results"], indent=1), file=sys.stderr)
    os._exit(0)
