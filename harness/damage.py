"""The kinds of damage harness/corrupt.py applies to a copy of a journal's data folder.

Each kind is a function of the folder. Besides files deleted, cut, zeroed and garbled, and rows
changed as a buggy tool would: single flipped bits at many offsets of the database (after a
checkpoint, so the games are in it) and of its write-ahead log; folders where the journal, its
``-wal``, its ``-shm`` or the start marker belong; a file named ``damaged`` where a damaged
journal's copy is kept; the high-water mark lost together with the data it vouched for. The
read-only root file system is not a change to the folder: corrupt.py starts the daemon in a mount
namespace whose root is read-only (ROOT_READ_ONLY).
"""

from __future__ import annotations

import random
import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path

JOURNAL = "companion.sqlite3"
MARKER = "starting.marker"
ROOT_READ_ONLY = "root file system read-only"
Kind = Callable[[Path], None]


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


def checkpoint(folder: Path) -> None:
    """Move the log's pages into the database file, as SQLite does every 1,000 pages of a real table."""
    db = sqlite3.connect(_p(folder))
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()


def flip(path: Path, offset: int, bit: int) -> None:
    data = bytearray(path.read_bytes())
    data[offset] ^= 1 << bit
    path.write_bytes(bytes(data))


def _flip_at(folder: Path, suffix: str, fraction: float, bit: int) -> None:
    if suffix == "":
        checkpoint(folder)
    path = _p(folder, suffix)
    flip(path, min(path.stat().st_size - 1, int(fraction * path.stat().st_size)), bit)


def _flip_in(folder: Path, needle: bytes, bit: int, nth: int = 0, offset: int = 0) -> None:
    """Flip one bit of byte ``offset`` of the ``nth`` occurrence of ``needle`` in the checkpointed database."""
    checkpoint(folder)
    data = _p(folder).read_bytes()
    at = -1
    for _ in range(nth + 1):
        at = data.index(needle, at + 1)
    flip(_p(folder), at + offset, bit)


def _folder_instead(path: Path) -> None:
    path.unlink(missing_ok=True)
    path.mkdir()
    (path / "something").write_text("a folder where the companion expects a file\n")


def flip_kinds(db: int, wal: int, seed: int = 53) -> dict[str, Kind]:
    """``db`` single-bit flips at random offsets of the checkpointed database, ``wal`` in the log."""
    rng = random.Random(seed)
    kinds: dict[str, Kind] = {}
    for suffix, count, name in (("", db, "db"), ("-wal", wal, "wal")):
        for _ in range(count):
            fraction, bit = rng.random(), rng.randrange(8)
            kinds[f"bit flip: {name} at {fraction:.5f} of its length, bit {bit}"] = (
                lambda f, s=suffix, x=fraction, b=bit: _flip_at(f, s, x, b)
            )
    return kinds


def _other_database(folder: Path) -> None:
    _p(folder, "-wal").unlink()
    _p(folder).unlink()
    db = sqlite3.connect(_p(folder))
    db.execute("CREATE TABLE notes (text TEXT)")
    db.execute("INSERT INTO notes VALUES ('shopping list')")
    db.commit()
    db.close()


def _older_copy(folder: Path) -> None:
    backup = sorted((folder / "backups").glob("journal-*"))[-1]
    _p(folder, "-wal").unlink()
    shutil.copyfile(backup, _p(folder))


def _unlink(*paths: Path) -> None:
    for path in paths:
        path.unlink(missing_ok=True)


KINDS: dict[str, Kind] = {
    # the write-ahead log, holding the last inputs
    "wal deleted": lambda f: _p(f, "-wal").unlink(),
    "wal header zeroed": lambda f: _p(f, "-wal").write_bytes(bytes(32) + _p(f, "-wal").read_bytes()[32:]),
    "wal header garbled": lambda f: _garble(_p(f, "-wal"), 0, 32, seed=1),
    "wal first frame garbled": lambda f: _garble(_p(f, "-wal"), 32, 24, seed=2),
    "wal cut halfway": lambda f: _truncate(_p(f, "-wal"), 0.5),
    "wal cut to nothing": lambda f: _truncate(_p(f, "-wal"), 0.0),
    "wal last frame garbled": lambda f: _garble(_p(f, "-wal"), -2000, 64, seed=3),
    "wal middle garbled": lambda f: _garble(_p(f, "-wal"), _p(f, "-wal").stat().st_size // 2, 512, seed=4),
    # the database file
    "db deleted, wal kept": lambda f: _p(f).unlink(),
    "db truncated by half, wal kept": lambda f: _truncate(_p(f), 0.5),
    "db truncated to nothing, wal kept": lambda f: _truncate(_p(f), 0.0),
    "db and wal deleted": lambda f: _unlink(_p(f), _p(f, "-wal")),
    "every journal file deleted": lambda f: _unlink(*(p for p in f.iterdir() if p.name.startswith(JOURNAL))),
    "db header zeroed": lambda f: _p(f).write_bytes(bytes(100) + _p(f).read_bytes()[100:]),
    "db magic changed": lambda f: _p(f).write_bytes(b"SQLite format 2\0" + _p(f).read_bytes()[16:]),
    "db page size garbled": lambda f: _garble(_p(f), 16, 2, seed=5),
    "db second page garbled": lambda f: _garble(_p(f), 4096, 4096, seed=6),
    "db last page garbled": lambda f: _garble(_p(f), -4096, 4096, seed=7),
    "db is a text file": lambda f: (_p(f).write_text("this is not a database\n" * 100), _p(f, "-wal").unlink()),
    "db is an empty file, no wal": lambda f: (_p(f).write_bytes(b""), _p(f, "-wal").unlink()),
    "db is another sqlite database": _other_database,
    "db is an older copy of itself": _older_copy,
    # single flipped bits where they once crashed every start or changed a game silently
    "bit flip in a table's name in the schema": lambda f: _flip_in(f, b"entries", 7, nth=0),
    "bit flip in a roll's brackets": lambda f: _flip_in(f, b'"dice":[', 0, nth=5, offset=7),  # '[' -> 'Z'
    "bit flip turning a die's face into another": lambda f: _flip_in(f, b'"dice":[3', 1, offset=8),  # 3 -> 1
    "bit flip in an entry's device": lambda f: _flip_in(f, b'"writer"', 0, nth=3, offset=1),  # writer -> vriter
    "bit flip in an entry's time": lambda f: _flip_in(f, b'"at":"20', 0, nth=7, offset=6),  # 2026 -> 3026
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
        _garble(sorted((f / "backups").glob("journal-*"))[-1], 4096, 4096, seed=9),
        _p(f, "-wal").unlink(),
    )[-1],
    # the high-water mark lost together with the data it vouched for (the second mark must speak)
    "mark and wal deleted": lambda f: _unlink(_p(f, ".mark"), _p(f, "-wal")),
    "mark deleted, last entries deleted": lambda f: (
        _p(f, ".mark").unlink(),
        _sql(f, "DELETE FROM entries WHERE id > (SELECT MAX(id) - 20 FROM entries)"),
    )[-1],
    "mark garbled, wal cut halfway": lambda f: (
        _p(f, ".mark").write_text("{garbage"),
        _truncate(_p(f, "-wal"), 0.5),
    )[-1],
    "both marks and the wal deleted": lambda f: _unlink(
        _p(f, ".mark"), f / "backups" / (JOURNAL + ".mark"), _p(f, "-wal")
    ),
    # something else where a file or a folder belongs
    "journal is a folder": lambda f: (_unlink(_p(f, "-wal")), _folder_instead(_p(f)))[-1],
    "wal is a folder": lambda f: _folder_instead(_p(f, "-wal")),
    "shm is a folder": lambda f: _folder_instead(_p(f, "-shm")),
    "start marker is a folder": lambda f: _folder_instead(f / MARKER),
    "a file named damaged, and the wal deleted": lambda f: (
        (f / "damaged").write_text("not a folder\n"),
        _p(f, "-wal").unlink(),
    )[-1],
}
