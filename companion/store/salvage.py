"""Saving what a damaged journal still holds beyond the backup that replaced it.

When a backup is restored, the inputs entered after it was taken live only in the damaged files (kept
aside, untouched). Those files are read here, from a copy (SQLite may replay a write-ahead log into
it), and every entry SQLite can still read is carried over to the restored journal, under three rules:

* nothing is invented: an entry is taken only as it was stored, and only if its game replays it;
* nothing is reordered: a game's entries are taken in their order, from where the restored journal's
  copy of that game ends, and the first one missing, unreadable or refused by the rules ends that
  game's salvage (what follows a hole cannot be trusted to mean the same thing);
* nothing is mixed: a game the restored journal has must match it (same header, same entries up to
  where the restored copy ends), and a game it lacks must be newer than every game it has.

Everything salvaged is written in one transaction; the report says what was taken and what was not.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.games import get_rules
from companion.games.base import RuleViolation
from companion.store.copies import copy_of
from companion.store.journal import Journal
from companion.store.record import Header, Timeline, check_entry
from companion.store.sums import COLUMN, entry_sum, game_sum


@dataclass
class GameSalvage:
    game_id: int
    entries: int  # taken from the damaged files
    new: bool  # the restored journal did not have this game at all
    stopped: str | None = None  # why the salvage of this game stopped before the damaged files' end
    finished: bool = False  # as replayed with what was salvaged
    summary: str = ""


@dataclass
class Salvage:
    """What was carried over from the damaged files, and what could not be."""

    games: list[GameSalvage] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # what was left behind, and why

    @property
    def entries(self) -> int:
        return sum(g.entries for g in self.games)

    def to_json(self) -> dict[str, Any]:
        return {
            "entries": self.entries,
            "games": [
                {"game": g.game_id, "entries": g.entries, "new": g.new, "stopped": g.stopped}
                for g in self.games
                if g.entries or g.new
            ],
            "left_behind": self.problems,
        }

    def summary(self) -> str:
        taken = [g for g in self.games if g.entries or g.new]
        if not taken:
            text = "nothing newer than the backup could be read from the damaged files"
        else:
            parts = [f"game {g.game_id}{' (new)' if g.new else ''}: {g.entries}" for g in taken]
            text = f"{self.entries} entries salvaged from the damaged files ({', '.join(parts)})"
        if self.problems:
            text += "; left behind: " + "; ".join(self.problems[:5])
        return text


@dataclass
class _Found:
    """A game as the damaged files hold it (as far as they read)."""

    game_id: int
    game: str
    header_text: str
    created: str
    entries: list[tuple[int, int, str, int | None]]  # (entry id, seq, text, checksum), in seq order, up to a read error
    read_error: str | None = None
    header_sum: int | None = None


def salvage(damaged: Path, journal: Journal) -> Salvage:
    """Carry over to ``journal`` (just restored) what the damaged journal at ``damaged`` holds beyond it.

    ``damaged`` is the damaged journal's main file (its ``-wal`` beside it, if any); it is only copied."""
    report = Salvage()
    if not damaged.exists() and not Path(str(damaged) + "-wal").exists():
        report.problems.append("the damaged journal's files are gone")
        return report
    with copy_of(damaged) as copy:
        try:
            db = copy.connect()
        except sqlite3.Error as exc:
            report.problems.append(f"SQLite cannot open the damaged files ({exc})")
            return report
        try:
            found, current, meta = _read(db, report)
        finally:
            db.close()
    if not found:
        return report
    have = {row.id: row for row in journal.games()}
    top = max(have, default=0)
    rows: list[tuple[int, int, str]] = []  # (original entry id, game id, entry text) to add
    new_games: list[_Found] = []
    for game in found:
        kept = have.get(game.game_id)
        if game.header_sum is not None and game.header_sum != game_sum(game.game, game.header_text, game.created):
            if kept is None:
                report.problems.append(f"game {game.game_id}'s header is not as it was written")
                continue
            game.header_text = json.dumps(kept.header.to_json())  # a damaged copy: the backup's is the header
        if kept is None and game.game_id <= top:
            report.problems.append(f"game {game.game_id} is not in the backup, though newer games are")
            continue
        try:
            header = Header.from_json(json.loads(game.header_text))
        except (ValueError, TypeError, RecursionError):
            report.problems.append(f"game {game.game_id}'s header does not read back")
            continue
        if kept is not None and header.to_json() != kept.header.to_json():
            report.problems.append(f"game {game.game_id} is not the same game as the backup's")
            continue
        taken = _take(game, header, journal if kept is not None else None, report)
        if taken is None:
            continue
        report.games.append(taken[0])
        rows += [(entry_id, game.game_id, text) for entry_id, _, text, _ in taken[1]]
        if kept is None:
            new_games.append(game)
    if not rows and not new_games:
        return report
    journal.add_salvaged(
        [(g.game_id, g.game, g.header_text, g.created) for g in new_games],
        [(game_id, text) for _, game_id, text in sorted(rows)],  # in the order they were first written
        [(g.game_id, g.finished, g.summary) for g in report.games if g.entries or g.new],
        {key: value for key, value in meta.items() if key in {f"odds:{g.game_id}" for g in new_games}},
        current=current,
    )
    return report


def _take(
    game: _Found, header: Header, journal: Journal | None, report: Salvage
) -> tuple[GameSalvage, list[tuple[int, int, str, int | None]]] | None:
    """The entries of ``game`` to carry over: after those the restored journal has, up to the first one
    that is missing, unreadable or refused by the rules."""
    try:
        timeline = Timeline(get_rules(header.game), header)
    except (ValueError, KeyError, RuleViolation):
        report.problems.append(f"game {game.game_id}'s rules or setup are not this companion's")
        return None
    restored: list[str] = []
    if journal is not None:
        try:
            for entry in journal.entries(game.game_id):
                restored.append(json.dumps(entry, separators=(",", ":")))
                timeline.feed(entry)
        except (ValueError, KeyError, RuleViolation):
            report.problems.append(f"game {game.game_id} of the backup does not replay; nothing added to it")
            return None
    result = GameSalvage(game.game_id, 0, journal is None)
    entries = game.entries
    for seq, text in enumerate(restored):  # the damaged copy must begin as the restored one does
        if seq >= len(entries):
            return result, []  # the damaged files hold no more of it than the backup
        _, stored_seq, damaged, stored_sum = entries[seq]
        if stored_seq == seq and stored_sum is not None and stored_sum != entry_sum(game.game_id, seq, damaged):
            continue  # this copy of an entry the backup has was damaged (its checksum says so): the backup's holds
        if stored_seq != seq or _same(damaged) != text:
            report.problems.append(f"game {game.game_id}'s entries differ from the backup's at entry {seq + 1}")
            result.stopped = "differs from the backup"
            return result, []
    taken: list[tuple[int, int, str, int | None]] = []
    for seq in range(len(restored), len(entries)):
        entry_id, stored_seq, text, stored_sum = entries[seq]
        if stored_seq != seq:
            result.stopped = f"entry {seq + 1} is missing"
            break
        if stored_sum is not None and stored_sum != entry_sum(game.game_id, seq, text):
            result.stopped = f"entry {seq + 1} is not as it was written (its checksum differs)"
            break
        try:
            timeline.feed(check_entry(json.loads(text)))
        except (ValueError, TypeError, RecursionError, KeyError, RuleViolation) as exc:
            result.stopped = f"entry {seq + 1} does not replay ({str(exc)[:80]})"
            break
        taken.append((entry_id, seq, text, stored_sum))
    else:
        if game.read_error:
            result.stopped = f"SQLite could not read further ({game.read_error[:80]})"
    if result.stopped:
        report.problems.append(f"game {game.game_id}: from the {_nth(len(restored) + len(taken) + 1)} entry on, "
                               f"{result.stopped}")
    result.entries = len(taken)
    outcome = timeline.rules.outcome(timeline.state)
    result.finished = outcome is not None
    result.summary = json.dumps(outcome.text.to_json(), ensure_ascii=False) if outcome else ""
    return result, taken


def _same(text: str) -> str:
    """An entry's text as the journal writes it (compact), to compare a damaged copy with a backup's."""
    try:
        return json.dumps(json.loads(text), separators=(",", ":"))
    except (ValueError, RecursionError):
        return text


def _nth(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _read(db: sqlite3.Connection, report: Salvage) -> tuple[list[_Found], int | None, dict[str, str]]:
    """Every game the damaged files still show, each with its entries as far as SQLite reads them."""
    games: list[_Found] = []
    crc = {table: COLUMN if _has_sums(db, table) else "NULL" for table in ("games", "entries")}
    try:
        for game_id, game, header, created, stored in _rows(
            db, f"SELECT id, game, header, created, {crc['games']} FROM games ORDER BY id"
        ):
            games.append(_Found(int(game_id), str(game), str(header), str(created), [], header_sum=stored))
    except (sqlite3.Error, ValueError) as exc:  # ValueError: SQLite's own message can be undecodable
        report.problems.append(f"SQLite could not read the damaged files' games past game {len(games)} ({exc})")
    for game in games:
        try:
            for entry_id, seq, text, stored in _rows(
                db, f"SELECT id, seq, entry, {crc['entries']} FROM entries WHERE game_id = ? ORDER BY seq",
                (game.game_id,),
            ):
                game.entries.append((int(entry_id), int(seq), str(text), stored))
        except (sqlite3.Error, ValueError) as exc:
            game.read_error = str(exc)
    meta: dict[str, str] = {}
    with contextlib.suppress(sqlite3.Error, ValueError):  # a table's meta is worth little next to its inputs
        meta = {str(k): str(v) for k, v in _rows(db, "SELECT key, value FROM meta")}
    current = meta.get("current_game", "")
    return games, int(current) if current.isdigit() and len(current) < 19 else None, meta


def _rows(db: sqlite3.Connection, sql: str, args: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Rows one at a time: a damaged page further on must not cost the rows before it."""
    cursor = db.execute(sql, args)
    while (row := cursor.fetchone()) is not None:
        yield row


def _has_sums(db: sqlite3.Connection, table: str) -> bool:
    try:
        return COLUMN in {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
    except (sqlite3.Error, ValueError):
        return False
