"""Is the journal whole? The check made before every start, and by ``companion journal check``.

The check runs on a copy of the journal's files (companion.store.copies), so it never changes them
(opening a damaged SQLite file can replay or delete its write-ahead log). A journal is whole when its
files are files, SQLite finds no damage, its schema is ours, every header and entry reads back and
matches its checksum (companion.store.sums), each game's entries are numbered without gaps, every
game replays by its rules (companion.store.replays), and it holds at least what it acknowledged: the
high-water marks (companion.store.marks), or else the newest backup. Anything else is damage, and so
is anything the check cannot read at all (a flipped bit in a table's name made SQLite's own error
message undecodable: that start crashed, every time); the daemon then starts in safe mode rather
than play on a shortened journal.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

from companion.store.copies import SIDE_FILES, copy_of, journal_files
from companion.store.journal import SCHEMA_VERSION
from companion.store.marks import read_high_water
from companion.store.record import Header, check_entry
from companion.store.replays import GameReplay, Replays, load_verdicts, save_verdicts
from companion.store.sums import COLUMN, entry_sum, game_sum

__all__ = ["Verdict", "copy_of", "inspect", "journal_files"]
TABLES = {"meta": {"key", "value"}, "games": {"id", "game", "header", "created", "finished", "summary"},
          "entries": {"id", "game_id", "seq", "entry"}}
UNREADABLE = (sqlite3.Error, ValueError, OverflowError, MemoryError, RecursionError, TypeError)
ROLES = {"": "journal", "-wal": "write-ahead log", "-shm": "shared-memory file"}


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
    replayed: int = 0  # games replayed by this check (the others' verdicts were kept from the last)

    @property
    def ok(self) -> bool:
        return not self.problems

    def summary(self) -> str:
        what = f"{self.games} games, {self.entries} entries"
        return f"{self.path}: {'whole' if self.ok else 'DAMAGED'} ({what})"


def obstacles(path: Path) -> list[str]:
    """A folder (or anything but a file) where one of the journal's files belongs: SQLite cannot use it."""
    found = []
    for suffix in ("", *SIDE_FILES):
        item = Path(str(path) + suffix)
        if item.exists() and not item.is_file():
            found.append(f"its {ROLES[suffix]} {item} is not a file (a folder?); move it away")
    return found


def inspect(
    path: str | Path, baseline: tuple[int, int] | None = None, *, replay: bool = True, cache: bool = False
) -> Verdict:
    """Check the journal at ``path``; ``baseline``: the highest game and entry ids of the newest
    backup, which the journal must reach when it has no high-water mark; ``replay``: replay every
    game (a backup just copied from the live journal needs no replay); ``cache``: skip games whose
    verdict was kept by the last good check, and keep this one's."""
    path = Path(path)
    verdict = Verdict(path)
    mark = read_high_water(path)
    verdict.problems += obstacles(path)
    if verdict.problems:
        return verdict
    if not path.exists():
        verdict.exists = False
        if mark is not None and (mark[0] or mark[1]):
            verdict.problems.append(f"the journal file is missing, yet it had acknowledged {mark[1]} entries")
        elif baseline is not None:
            verdict.problems.append("the journal file is missing, yet there are backups of it")
        elif Path(str(path) + "-wal").exists():
            verdict.problems.append("the journal file is missing but its write-ahead log is there")
        return verdict
    replays = (Replays(load_verdicts(path) if cache else {}) if replay else None)
    with copy_of(path) as copy:
        try:
            db = copy.connect()  # a copy: SQLite may replay its log into it
        except UNREADABLE as exc:
            verdict.problems.append(f"SQLite cannot open it ({exc})")
            return verdict
        try:
            _read_db(db, verdict, replays)
        except UNREADABLE as exc:  # a damaged file can make SQLite, or its own error message, unreadable
            verdict.problems.append(f"SQLite cannot read it ({type(exc).__name__}: {str(exc)[:160]})")
        finally:
            db.close()
    if verdict.ok:
        _compare_with_witnesses(verdict, mark, baseline)
    if replays is not None:
        verdict.replayed = replays.replayed
        if cache and verdict.ok:
            save_verdicts(path, replays.seen)
    return verdict


def _compare_with_witnesses(verdict: Verdict, mark: tuple[int, int] | None, baseline: tuple[int, int] | None) -> None:
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


def _read_db(db: sqlite3.Connection, verdict: Verdict, replays: Replays | None) -> None:
    result = [row[0] for row in db.execute("PRAGMA integrity_check(20)")]
    if result != ["ok"]:
        verdict.problems.append("SQLite finds damage: " + "; ".join(str(r) for r in result[:3]))
        return
    columns: dict[str, set[str]] = {}
    for table, needed in TABLES.items():
        columns[table] = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
        if not needed <= columns[table]:
            verdict.problems.append(f"its table {table!r} is missing or not the companion's")
    if verdict.problems:
        return
    meta = dict(db.execute("SELECT key, value FROM meta").fetchall())
    version = meta.get("schema_version")
    if version != str(SCHEMA_VERSION):
        verdict.problems.append(f"its schema version is {version!r}; this companion reads version {SCHEMA_VERSION}")
        return
    games = _read_games(db, verdict, replays, COLUMN in columns["games"])
    _read_entries(db, verdict, games, replays, COLUMN in columns["entries"])
    del verdict.problems[10:]
    verdict.games = len(games)
    verdict.max_game = max(games, default=0)
    current = meta.get("current_game")
    if current is not None and (not str(current).isdigit() or int(current) not in games):
        verdict.notes.append(f"the open game {str(current)[:20]!r} is not one of its games (the table opens none)")


def _read_games(
    db: sqlite3.Connection, verdict: Verdict, replays: Replays | None, summed: bool
) -> dict[int, GameReplay]:
    games: dict[int, GameReplay] = {}
    crc = COLUMN if summed else "NULL"
    for game_id, game, text, created, stored in db.execute(f"SELECT id, game, header, created, {crc} FROM games"):
        header = None
        try:
            header = Header.from_json(json.loads(text))
        except (ValueError, TypeError, RecursionError) as exc:
            verdict.problems.append(f"game {game_id}'s header does not read back ({exc})")
        if stored is not None and stored != game_sum(str(game), str(text), str(created)):
            verdict.problems.append(f"game {game_id}'s header is not as it was written (its checksum differs)")
        games[int(game_id)] = GameReplay(int(game_id), header, str(text))
    return games


def _read_entries(
    db: sqlite3.Connection, verdict: Verdict, games: dict[int, GameReplay], replays: Replays | None, summed: bool
) -> None:
    crc = COLUMN if summed else "NULL"
    next_seq = dict.fromkeys(games, 0)
    holes: set[int] = set()  # games with entries missing from the middle
    unplayable: set[int] = set()  # not replayed: a hole, or an entry that does not read back (said already)
    current: GameReplay | None = None

    def finish(game: GameReplay | None) -> None:
        if game is not None and replays is not None and game.game_id not in unplayable:
            problem = replays.finish(game)
            if problem:
                verdict.problems.append(problem)

    rows = db.execute(f"SELECT id, game_id, seq, entry, {crc} FROM entries ORDER BY game_id, seq")
    for entry_id, game_id, seq, text, stored in rows:
        game = games.get(game_id)
        if game is None:
            verdict.problems.append(f"entry {entry_id} belongs to no game")
            continue
        if game is not current:
            finish(current)
            current = game
        if seq != next_seq[game_id]:
            holes.add(game.game_id)
            unplayable.add(game.game_id)
        next_seq[game_id] = seq + 1
        if stored is not None:  # as written: it read back when it was written, the replay parses it
            if stored != entry_sum(int(game_id), int(seq), str(text)):
                verdict.problems.append(f"entry {entry_id} (game {game_id}) is not as it was written (checksum)")
                unplayable.add(game.game_id)
            game.add(int(seq), str(text))
        else:  # written before the checksums: it must at least read back
            try:
                check_entry(json.loads(text))
                game.add(int(seq), str(text))
            except (ValueError, TypeError, RecursionError) as exc:
                verdict.problems.append(f"entry {entry_id} (game {game_id}) does not read back ({exc})")
                unplayable.add(game.game_id)
        verdict.entries += 1
        verdict.max_entry = max(verdict.max_entry, int(entry_id))
    finish(current)
    for game in games.values():  # a game without entries: its setup must still work
        if not game.entries and game.game_id not in unplayable:
            finish(game)
    for game_id in sorted(holes):
        verdict.problems.append(f"game {game_id} has entries missing from the middle")
