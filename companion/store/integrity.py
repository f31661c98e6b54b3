"""Is the journal whole? The check made before every start, and by ``companion journal check``.

The check runs on a copy of the journal's files, so it never changes them (opening a damaged SQLite
file can replay or delete its write-ahead log). A journal is whole when SQLite finds no damage, its
schema is ours, every header and entry reads back, each game's entries are numbered without gaps,
and it holds at least what it acknowledged: the high-water mark beside it, or else the newest backup.
Anything else is damage; the daemon then starts in safe mode rather than play on a shortened journal.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from companion.store.journal import SCHEMA_VERSION, read_high_water
from companion.store.record import Header, check_entry

SIDE_FILES = ("-wal", "-shm")
TABLES = {"meta": {"key", "value"}, "games": {"id", "game", "header", "created", "finished", "summary"},
          "entries": {"id", "game_id", "seq", "entry"}}


@dataclass
class Verdict:
    """What the check found. ``problems`` empty: the journal is whole."""

    path: Path
    exists: bool = True
    games: int = 0
    entries: int = 0
    max_game: int = 0
    max_entry: int = 0
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # harmless oddities the companion repairs itself

    @property
    def ok(self) -> bool:
        return not self.problems

    def summary(self) -> str:
        what = f"{self.games} games, {self.entries} entries"
        return f"{self.path}: {'whole' if self.ok else 'DAMAGED'} ({what})"


def journal_files(path: Path) -> list[Path]:
    return [p for p in (path, *(Path(str(path) + s) for s in SIDE_FILES)) if p.exists()]


@contextmanager
def copy_of(path: Path) -> Iterator[Path]:
    """The journal (with its write-ahead log) copied to a temporary folder, for reading without risk."""
    with tempfile.TemporaryDirectory(prefix="companion-check-") as tmp:
        copy = Path(tmp) / path.name
        for source in journal_files(path):
            if source.name.endswith("-shm"):
                continue  # rebuilt from the log by SQLite; a damaged one must not mislead the copy
            shutil.copyfile(source, Path(tmp) / source.name)
        yield copy


def inspect(path: str | Path, baseline: tuple[int, int] | None = None) -> Verdict:
    """Check the journal at ``path``; ``baseline``: the highest game and entry ids of the newest
    backup, which the journal must reach when it has no high-water mark."""
    path = Path(path)
    verdict = Verdict(path)
    mark = read_high_water(path)
    if not path.exists():
        verdict.exists = False
        if mark is not None and (mark[0] or mark[1]):
            verdict.problems.append(f"the journal file is missing, yet it had acknowledged {mark[1]} entries")
        elif baseline is not None:
            verdict.problems.append("the journal file is missing, yet there are backups of it")
        elif Path(str(path) + "-wal").exists():
            verdict.problems.append("the journal file is missing but its write-ahead log is there")
        return verdict
    with copy_of(path) as copy:
        _read(copy, verdict)
    if verdict.ok:
        behind = None
        if mark is not None:
            if verdict.max_game < mark[0] or verdict.max_entry < mark[1]:
                behind = f"entry {verdict.max_entry} of {mark[1]}, game {verdict.max_game} of {mark[0]}"
        elif baseline is not None and (verdict.max_game < baseline[0] or verdict.max_entry < baseline[1]):
            behind = f"entry {verdict.max_entry}, while the newest backup reaches entry {baseline[1]}"
        if behind:
            verdict.problems.append(
                f"the journal is shorter than what it acknowledged ({behind}): its write-ahead log "
                "was lost, cut or damaged, or the file was cut"
            )
    return verdict


def _read(copy: Path, verdict: Verdict) -> None:
    try:
        db = sqlite3.connect(copy)  # a copy: SQLite may replay its log into it
    except sqlite3.Error as exc:
        verdict.problems.append(f"SQLite cannot open it ({exc})")
        return
    try:
        _read_db(db, verdict)
    except sqlite3.Error as exc:
        verdict.problems.append(f"SQLite cannot read it ({exc})")
    finally:
        db.close()


def _read_db(db: sqlite3.Connection, verdict: Verdict) -> None:
    result = [row[0] for row in db.execute("PRAGMA integrity_check(20)")]
    if result != ["ok"]:
        verdict.problems.append("SQLite finds damage: " + "; ".join(str(r) for r in result[:3]))
        return
    for table, columns in TABLES.items():
        have = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
        if not columns <= have:
            verdict.problems.append(f"its table {table!r} is missing or not the companion's")
    if verdict.problems:
        return
    meta = dict(db.execute("SELECT key, value FROM meta").fetchall())
    version = meta.get("schema_version")
    if version != str(SCHEMA_VERSION):
        verdict.problems.append(f"its schema version is {version!r}; this companion reads version {SCHEMA_VERSION}")
        return
    games: dict[int, int] = {}
    for game_id, header in db.execute("SELECT id, header FROM games"):
        games[int(game_id)] = 0
        try:
            Header.from_json(json.loads(header))
        except (ValueError, TypeError, RecursionError) as exc:
            verdict.problems.append(f"game {game_id}'s header does not read back ({exc})")
    gaps: set[int] = set()
    for entry_id, game_id, seq, text in db.execute("SELECT id, game_id, seq, entry FROM entries ORDER BY game_id, seq"):
        if game_id not in games:
            verdict.problems.append(f"entry {entry_id} belongs to no game")
            continue
        if seq != games[game_id]:
            gaps.add(int(game_id))
        games[game_id] = seq + 1
        try:
            check_entry(json.loads(text))
        except (ValueError, TypeError, RecursionError) as exc:
            verdict.problems.append(f"entry {entry_id} (game {game_id}) does not read back ({exc})")
        verdict.entries += 1
        verdict.max_entry = max(verdict.max_entry, int(entry_id))
    for game_id in sorted(gaps):
        verdict.problems.append(f"game {game_id} has entries missing from the middle")
    del verdict.problems[10:]
    verdict.games = len(games)
    verdict.max_game = max(games, default=0)
    current = meta.get("current_game")
    if current is not None and (not current.isdigit() or int(current) not in games):
        verdict.notes.append(f"the open game {current[:20]!r} is not one of its games (the table opens none)")
