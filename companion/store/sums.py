"""A checksum on every journal row that holds an input or a game's header.

SQLite checks its pages' structure, not their contents: a flipped bit inside an entry that still reads
as JSON (a die's face, a device's name, a time) passes ``integrity_check`` and, when the rules still
allow it, the replay too. A CRC-32 of what the row says (its game, its place in the game, its text)
is written with the row, and the start-up check compares them; any single flipped bit, and any burst
of up to 32, in those columns is found. Rows written before the sums existed have none (NULL) and are
checked by the replay alone. The entry's own id (its rowid, given by SQLite on insert) is not summed:
it orders games' entries across the journal and counts them for the high-water marks, which check it.
"""

from __future__ import annotations

import sqlite3
import zlib

COLUMN = "crc"


def entry_sum(game_id: int, seq: int, text: str) -> int:
    return zlib.crc32(f"{game_id}:{seq}:{text}".encode("utf-8", "surrogatepass"))


def game_sum(game: str, header: str, created: str) -> int:
    return zlib.crc32(f"{game}:{header}:{created}".encode("utf-8", "surrogatepass"))


def add_columns(db: sqlite3.Connection) -> None:
    """Give a journal written before the sums existed its ``crc`` columns (its old rows keep NULL)."""
    for table in ("games", "entries"):
        have = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
        if COLUMN not in have:
            db.execute(f"ALTER TABLE {table} ADD COLUMN {COLUMN} INTEGER")
