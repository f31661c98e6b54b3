"""The journal: every accepted input, append-only, in SQLite.

An entry is committed (WAL, ``synchronous=FULL``) before the table is told it was accepted, so a power
cut never loses an acknowledged input. Nothing is ever deleted: undo and redo are entries too, and a
game's state is rebuilt by replaying its entries. The stored entry is exactly a game-record line.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.store.hidden import hide, parse
from companion.store.marks import mark_paths, second_mark_path, write_mark
from companion.store.record import Header, parse_many
from companion.store.sums import add_columns, entry_sum, game_sum

SCHEMA_VERSION = 1
SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game TEXT NOT NULL,
    header TEXT NOT NULL,
    created TEXT NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0,
    summary TEXT NOT NULL DEFAULT '',
    crc INTEGER
);
CREATE TABLE IF NOT EXISTS entries (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    entry TEXT NOT NULL,
    crc INTEGER,
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


class JournalUnavailable(RuntimeError):
    """The journal cannot take a write now (disk full or read-only, or safe mode); nothing was changed.

    The message is written for the players at the table."""


def _disk_message(exc: sqlite3.Error) -> str:
    text = str(exc).lower()
    if "full" in text:
        return "The companion's disk is full: nothing was saved. Free some space, then enter the input again."
    if "readonly" in text or "read-only" in text:
        return "The companion's disk is read-only: nothing can be saved, so the input was not taken."
    return f"The journal could not save this ({exc}); nothing was changed. Try again."


class Journal:
    """One SQLite file holding every game played at this table.

    ``refuse``: a reason to take no writes at all (safe mode, a read-only copy); reading still works."""

    def __init__(self, path: str | Path, *, refuse: str | None = None) -> None:
        self.path = Path(path)
        self.refuse = refuse
        self._memory = str(path) == ":memory:"
        if not self._memory and refuse is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA foreign_keys=ON")
        if refuse is None or self._memory:
            self._db.executescript(SCHEMA)
            add_columns(self._db)
            self._db.execute(
                "INSERT OR IGNORE INTO meta(key, value) VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),)
            )
        self._marks_broken: set[Path] = set()
        if refuse is None:
            if not self._memory:
                with contextlib.suppress(OSError):  # the mark beside the journal still speaks
                    second_mark_path(self.path).parent.mkdir(exist_ok=True)
            self._note_high_water()

    @classmethod
    def in_memory(cls, source: sqlite3.Connection | Path, *, refuse: str) -> Journal:
        """A journal that takes no writes, holding what ``source`` holds (a copy of the journal, with its
        write-ahead log, or a connection to one) in memory: for a journal whose folder is read-only, or
        that cannot be opened."""
        journal = cls(":memory:", refuse=refuse)
        if isinstance(source, sqlite3.Connection):
            source.backup(journal._db)
            return journal
        db = sqlite3.connect(str(source))
        try:
            db.backup(journal._db)
        finally:
            db.close()
        return journal

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def _refuse_writes(self) -> None:
        if self.refuse is not None:
            raise JournalUnavailable(self.refuse)

    def _write(self, sql: str, args: tuple[Any, ...]) -> sqlite3.Cursor:
        """One write, committed (and synced) before it returns; a failing disk changes nothing."""
        self._refuse_writes()
        try:
            return self._db.execute(sql, args)
        except sqlite3.OperationalError as exc:
            raise JournalUnavailable(_disk_message(exc)) from exc

    def _rollback(self) -> None:
        if self._db.in_transaction:
            self._db.execute("ROLLBACK")

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        """Several writes as one: committed together or rolled back together (a full or failing disk
        becomes :class:`JournalUnavailable`). The caller holds the lock."""
        self._refuse_writes()
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield
            self._db.execute("COMMIT")
        except sqlite3.OperationalError as exc:
            self._rollback()
            raise JournalUnavailable(_disk_message(exc)) from exc
        except BaseException:
            self._rollback()
            raise

    @contextmanager
    def tables(self, *, write: bool) -> Iterator[sqlite3.Connection]:
        """The connection, for a module that keeps its own tables beside the games (the players,
        ``companion.store.players``): under the lock, and for ``write`` one transaction."""
        with self._lock:
            if write:
                with self._transaction():
                    yield self._db
            else:
                yield self._db

    def _note_high_water(self) -> None:
        """Both high-water marks (companion.store.marks), after every commit."""
        if self._memory:
            return
        row = self._db.execute(
            "SELECT (SELECT COALESCE(MAX(id), 0) FROM games), (SELECT COALESCE(MAX(id), 0) FROM entries)"
        ).fetchone()
        for mark in mark_paths(self.path):
            if mark in self._marks_broken:
                continue
            try:
                write_mark(mark, int(row[0]), int(row[1]))
            except OSError:
                self._marks_broken.add(mark)  # a full disk: the journal itself says so on the next write

    def backup(self, target: str | Path) -> None:
        """A consistent copy of the whole journal while it is in use (SQLite's online backup API)."""
        dest = sqlite3.connect(str(target))
        try:
            with self._lock:
                self._db.backup(dest)
        finally:
            dest.close()

    # --- games -------------------------------------------------------------------------------
    def create_game(self, header: Header, created: str) -> int:
        with self._lock:
            text = json.dumps(header.to_json())
            cur = self._write(
                "INSERT INTO games(game, header, created, crc) VALUES (?, ?, ?, ?)",
                (header.game, text, created, game_sum(header.game, text, created)),
            )
            game_id = cur.lastrowid
            self._note_high_water()
        assert game_id is not None
        return game_id

    def mark(self, game_id: int, *, finished: bool, summary: str) -> None:
        with self._lock:
            self._write("UPDATE games SET finished = ?, summary = ? WHERE id = ?", (int(finished), summary, game_id))

    def games(self) -> list[GameRow]:
        with self._lock:
            rows = self._db.execute(
                "SELECT g.id, g.game, g.header, g.created, g.finished, g.summary,"
                " (SELECT COUNT(*) FROM entries e WHERE e.game_id = g.id),"
                " (SELECT value FROM meta m WHERE m.key = 'hidden:' || g.id)"
                " FROM games g ORDER BY g.id DESC"
            ).fetchall()
        return [_game_row(r) for r in rows]

    def game(self, game_id: int) -> GameRow | None:
        if not 0 < game_id < 2**63:  # SQLite's integers; a larger number names no game
            return None
        with self._lock:
            row = self._db.execute(
                "SELECT g.id, g.game, g.header, g.created, g.finished, g.summary,"
                " (SELECT COUNT(*) FROM entries e WHERE e.game_id = g.id),"
                " (SELECT value FROM meta m WHERE m.key = 'hidden:' || g.id)"
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
            self._write("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", (key, value))

    # --- entries -----------------------------------------------------------------------------
    def append(self, game_id: int, seq: int, entry: dict[str, Any]) -> int:
        """Commit one entry durably; returns its journal-wide id. ``seq`` guards against a lost race."""
        text = json.dumps(entry, separators=(",", ":"))
        with self._lock:
            cur = self._write(
                "INSERT INTO entries(game_id, seq, entry, crc) VALUES (?, ?, ?, ?)",
                (game_id, seq, text, entry_sum(game_id, seq, text)),
            )
            entry_id = cur.lastrowid
            self._note_high_water()
        assert entry_id is not None
        return entry_id

    def import_game(
        self, header: Header, created: str, entries: list[dict[str, Any]], *, finished: bool, summary: str
    ) -> int:
        """Import: the game and all its entries in one transaction (a crash leaves all or nothing)."""
        with self._lock:
            with self._transaction():
                text = json.dumps(header.to_json())
                cur = self._db.execute(
                    "INSERT INTO games(game, header, created, finished, summary, crc) VALUES (?, ?, ?, ?, ?, ?)",
                    (header.game, text, created, int(finished), summary, game_sum(header.game, text, created)),
                )
                game_id = cur.lastrowid
                assert game_id is not None
                texts = [json.dumps(e, separators=(",", ":")) for e in entries]
                self._db.executemany(
                    "INSERT INTO entries(game_id, seq, entry, crc) VALUES (?, ?, ?, ?)",
                    [(game_id, i, t, entry_sum(game_id, i, t)) for i, t in enumerate(texts)],
                )
            self._note_high_water()
        return game_id

    def add_salvaged(
        self,
        games: list[tuple[int, str, str, str]],
        entries: list[tuple[int, str]],
        marks: list[tuple[int, bool, str]],
        meta: dict[str, str],
        *,
        current: int | None = None,
    ) -> None:
        """What :mod:`companion.store.salvage` read from a damaged journal, in one transaction: ``games``
        (id, game, header, created) under their own ids, ``entries`` (game id, text) each numbered after
        its game's last, ``marks`` (game id, finished, summary) as replayed, a few ``meta`` values, and
        the open game (``current``, if it is one of this journal's games)."""
        with self._lock:
            with self._transaction():
                self._db.executemany(
                    "INSERT INTO games(id, game, header, created, crc) VALUES (?, ?, ?, ?, ?)",
                    [(i, game, header, created, game_sum(game, header, created)) for i, game, header, created in games],
                )
                next_seq: dict[int, int] = {}
                for game_id, text in entries:
                    if game_id not in next_seq:
                        row = self._db.execute("SELECT COUNT(*) FROM entries WHERE game_id = ?", (game_id,)).fetchone()
                        next_seq[game_id] = int(row[0])
                    seq = next_seq[game_id]
                    self._db.execute(
                        "INSERT INTO entries(game_id, seq, entry, crc) VALUES (?, ?, ?, ?)",
                        (game_id, seq, text, entry_sum(game_id, seq, text)),
                    )
                    next_seq[game_id] += 1
                self._db.executemany(
                    "UPDATE games SET finished = ?, summary = ? WHERE id = ?",
                    [(int(finished), summary, game_id) for game_id, finished, summary in marks],
                )
                self._db.executemany("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", list(meta.items()))
                if current is not None and self._db.execute("SELECT 1 FROM games WHERE id = ?", (current,)).fetchone():
                    self._db.execute(
                        "INSERT OR REPLACE INTO meta(key, value) VALUES ('current_game', ?)", (str(current),)
                    )
            self._note_high_water()

    def entries(self, game_id: int) -> Iterator[dict[str, Any]]:
        with self._lock:
            rows = self._db.execute("SELECT entry FROM entries WHERE game_id = ? ORDER BY seq", (game_id,)).fetchall()
        texts = [text for (text,) in rows]
        values = parse_many(texts)  # one parse for the whole game: opening a long game stays fast
        yield from values if values is not None else (json.loads(text) for text in texts)

    def high_ids(self) -> tuple[int, int]:
        """The highest game and entry ids (what a backup or the high-water mark records)."""
        with self._lock:
            row = self._db.execute(
                "SELECT (SELECT COALESCE(MAX(id), 0) FROM games), (SELECT COALESCE(MAX(id), 0) FROM entries)"
            ).fetchone()
        return int(row[0]), int(row[1])

    def finished_count(self) -> int:
        with self._lock:
            row = self._db.execute("SELECT COUNT(*) FROM games WHERE finished = 1").fetchone()
        return int(row[0])

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
    try:
        header = Header.from_json(json.loads(row[2]))
    except ValueError:
        # a damaged header row must not hide the other games: list it, marked (the start-up check
        # puts the companion in safe mode for it; this is for a journal opened anyway)
        header = Header(str(row[1]), (), {}, "(damaged header)")
    header, summary = hide(header, str(row[5]), parse(row[7]))  # a deleted player's name stays inside
    return GameRow(int(row[0]), str(row[1]), header, str(row[3]), bool(row[4]), summary, int(row[6]))
