"""The journal: every accepted input, append-only, in SQLite.

An entry is committed (WAL, ``synchronous=FULL``) before the table is told it was accepted, so a power
cut never loses an acknowledged input. Nothing is ever deleted: undo and redo are entries too, and a
game's state is rebuilt by replaying its entries. The stored entry is exactly a game-record line.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.record import Header, parse_many

SCHEMA_VERSION = 1
SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game TEXT NOT NULL,
    header TEXT NOT NULL,
    created TEXT NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0,
    summary TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS entries (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    entry TEXT NOT NULL,
    UNIQUE (game_id, seq)
);
"""


@dataclass(frozen=True)
class GameRow:
    id: int
    game: str
    header: Header
    created: str
    finished: bool
    summary: str
    entries: int

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "game": self.game,
            "players": list(self.header.players),
            "options": dict(self.header.options),
            "title": self.header.title,
            "created": self.created,
            "finished": self.finished,
            "summary": self.summary,
            "entries": self.entries,
        }


class Journal:
    """One SQLite file holding every game played at this table."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        if str(path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(SCHEMA)
        self._db.execute(
            "INSERT OR IGNORE INTO meta(key, value) VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),)
        )

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # --- games -------------------------------------------------------------------------------
    def create_game(self, header: Header, created: str) -> int:
        with self._lock:
            cur = self._db.execute(
                "INSERT INTO games(game, header, created) VALUES (?, ?, ?)",
                (header.game, json.dumps(header.to_json()), created),
            )
            game_id = cur.lastrowid
        assert game_id is not None
        return game_id

    def mark(self, game_id: int, *, finished: bool, summary: str) -> None:
        with self._lock:
            self._db.execute(
                "UPDATE games SET finished = ?, summary = ? WHERE id = ?", (int(finished), summary, game_id)
            )

    def games(self) -> list[GameRow]:
        with self._lock:
            rows = self._db.execute(
                "SELECT g.id, g.game, g.header, g.created, g.finished, g.summary,"
                " (SELECT COUNT(*) FROM entries e WHERE e.game_id = g.id)"
                " FROM games g ORDER BY g.id DESC"
            ).fetchall()
        return [_game_row(r) for r in rows]

    def game(self, game_id: int) -> GameRow | None:
        with self._lock:
            row = self._db.execute(
                "SELECT g.id, g.game, g.header, g.created, g.finished, g.summary,"
                " (SELECT COUNT(*) FROM entries e WHERE e.game_id = g.id)"
                " FROM games g WHERE g.id = ?",
                (game_id,),
            ).fetchone()
        return None if row is None else _game_row(row)

    def get_meta(self, key: str) -> str | None:
        with self._lock:
            row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_meta(self, key: str, value: str) -> None:
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", (key, value))

    # --- entries -----------------------------------------------------------------------------
    def append(self, game_id: int, seq: int, entry: dict[str, Any]) -> int:
        """Commit one entry durably; returns its journal-wide id. ``seq`` guards against a lost race."""
        text = json.dumps(entry, separators=(",", ":"))
        with self._lock:
            cur = self._db.execute(
                "INSERT INTO entries(game_id, seq, entry) VALUES (?, ?, ?)", (game_id, seq, text)
            )
            entry_id = cur.lastrowid
        assert entry_id is not None
        return entry_id

    def append_many(self, game_id: int, entries: list[dict[str, Any]]) -> None:
        """Import: all entries of a game in one transaction."""
        with self._lock:
            self._db.execute("BEGIN")
            try:
                self._db.executemany(
                    "INSERT INTO entries(game_id, seq, entry) VALUES (?, ?, ?)",
                    [(game_id, i, json.dumps(e, separators=(",", ":"))) for i, e in enumerate(entries)],
                )
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def entries(self, game_id: int) -> Iterator[dict[str, Any]]:
        with self._lock:
            rows = self._db.execute(
                "SELECT entry FROM entries WHERE game_id = ? ORDER BY seq", (game_id,)
            ).fetchall()
        texts = [text for (text,) in rows]
        values = parse_many(texts)  # one parse for the whole game: opening a long game stays fast
        yield from values if values is not None else (json.loads(text) for text in texts)

    def last_entry_id(self) -> int:
        with self._lock:
            row = self._db.execute("SELECT COALESCE(MAX(id), 0) FROM entries").fetchone()
        return int(row[0])

    def size_bytes(self) -> int:
        if str(self.path) == ":memory:":
            return 0
        total = 0
        for suffix in ("", "-wal", "-shm"):
            p = Path(str(self.path) + suffix)
            if p.exists():
                total += p.stat().st_size
        return total

    def export_lines(self, game_id: int) -> Iterator[str]:
        row = self.game(game_id)
        if row is None:
            raise KeyError(game_id)
        yield json.dumps(row.header.to_json())
        for entry in self.entries(game_id):
            yield json.dumps(entry, separators=(",", ":"))


def _game_row(row: tuple[Any, ...]) -> GameRow:
    header = Header.from_json(json.loads(row[2]))
    return GameRow(int(row[0]), str(row[1]), header, str(row[3]), bool(row[4]), str(row[5]), int(row[6]))
