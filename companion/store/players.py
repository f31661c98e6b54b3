"""The players who last from one evening to the next, kept in the journal's SQLite beside the games.

Each finished game is matched to players by name once (names compare as the rules compare them:
case, width and invisible characters do not count) and its result stored (``companion.store.played``);
later the players can be renamed, merged (a typo made two of one), deleted (their seats then show "a
former player", their results stay) and a wrong match fixed. The games and their entries, like the
records, are never changed: these tables only point at them.

The tables have their own schema version (meta ``players_schema``) and migration steps, so a journal
from before them gains them on first use without touching anything else.
"""

from __future__ import annotations

import sqlite3
import threading
from dataclasses import dataclass
from datetime import UTC, datetime

from companion.games.base import MAX_NAME, RuleViolation, name_key
from companion.games.messages import msg
from companion.store import hidden
from companion.store.journal import Journal, JournalUnavailable
from companion.store.played import Played, Seat, from_timeline, with_extra
from companion.store.record import RecordError, replay_lines

SCHEMA_KEY = "players_schema"
MIGRATIONS: tuple[tuple[int, str], ...] = (
    (
        1,
        """
        CREATE TABLE IF NOT EXISTS players (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            name TEXT NOT NULL,
            created TEXT NOT NULL
        );
        CREATE TABLE IF NOT EXISTS player_names (
            key TEXT PRIMARY KEY,
            player_id INTEGER NOT NULL REFERENCES players(id)
        );
        CREATE TABLE IF NOT EXISTS results (
            game_id INTEGER PRIMARY KEY REFERENCES games(id),
            game TEXT NOT NULL,
            played TEXT NOT NULL,
            seconds REAL,
            entries INTEGER NOT NULL
        );
        CREATE TABLE IF NOT EXISTS seats (
            game_id INTEGER NOT NULL REFERENCES results(game_id),
            seat INTEGER NOT NULL,
            name TEXT NOT NULL,
            player_id INTEGER REFERENCES players(id),
            score INTEGER NOT NULL,
            place INTEGER NOT NULL,
            PRIMARY KEY (game_id, seat)
        );
        CREATE INDEX IF NOT EXISTS seats_player ON seats(player_id);
        """,
    ),
    (
        2,
        """
        CREATE TABLE IF NOT EXISTS usual_colours (
            key TEXT PRIMARY KEY,
            colour TEXT NOT NULL,
            chosen TEXT NOT NULL
        );
        """,
    ),
    (3, "ALTER TABLE results ADD COLUMN extra TEXT"),  # the dice and the biggest swing (Played.extra_json)
)
PLAYERS_SCHEMA = MIGRATIONS[-1][0]


@dataclass(frozen=True)
class Player:
    id: int
    name: str


class UnknownPlayer(LookupError):
    def __init__(self, player_id: int) -> None:
        super().__init__(f"no player {player_id}")
        self.msg = msg("There is no player number {player}.", player=player_id)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def migrate(journal: Journal) -> int:
    """Bring the players' tables to ``PLAYERS_SCHEMA``; returns the version found before."""
    found = int(journal.get_meta(SCHEMA_KEY) or 0)
    if found > PLAYERS_SCHEMA:
        raise JournalUnavailable("This journal's players were written by a newer companion; update this one.")
    if found == PLAYERS_SCHEMA:
        return found
    with journal.tables(write=True) as db:
        for version, sql in MIGRATIONS:
            if version > found:
                for statement in filter(str.strip, sql.split(";")):
                    db.execute(statement)
        db.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", (SCHEMA_KEY, str(PLAYERS_SCHEMA)))
    return found


class Roster:
    """The lasting players of one journal and the results of its finished games."""

    def __init__(self, journal: Journal) -> None:
        self.journal = journal
        self._syncing = threading.Lock()  # two answers at once must not store the same game twice
        if journal.refuse is None:
            migrate(journal)
        elif int(journal.get_meta(SCHEMA_KEY) or 0) != PLAYERS_SCHEMA:
            raise JournalUnavailable(journal.refuse)

    # --- matching --------------------------------------------------------------------------
    def sync(self) -> int:
        """Store the result of every finished game not yet stored (or changed since: an undo after the
        end), matching its names to players; drop games no longer finished. Returns how many changed.
        A journal that takes no writes (safe mode) shows what was stored before."""
        if self.journal.refuse is not None:
            return 0
        with self._syncing:
            return self._sync()

    def _sync(self) -> int:
        finished = {g.id: g for g in self.journal.games() if g.finished}
        with self.journal.tables(write=False) as db:
            known = dict(db.execute("SELECT game_id, entries FROM results").fetchall())
            bare = {int(gid) for (gid,) in db.execute("SELECT game_id FROM results WHERE extra IS NULL")}
        # a result stored before the dice were kept is worked out again (its seats keep their players)
        stale = [g for g, count in known.items() if g not in finished or finished[g].entries != count or g in bare]
        fresh = [g for gid, g in finished.items() if known.get(gid) != g.entries or gid in bare]
        results: list[tuple[Played, int]] = []
        for row in fresh:
            try:
                timeline = replay_lines(self.journal.export_lines(row.id))
            except (RecordError, RuleViolation, ValueError):
                continue  # a damaged game: the start-up check reports it; it has no result
            played = from_timeline(row.id, timeline, row.created)
            if played is not None:
                results.append((played, row.entries))
        return self._store(stale, results)

    def keep(self, results: list[Played]) -> int:
        """Store the results of games just replayed elsewhere (an imported history), so the next
        answer need not replay them again. Returns how many were stored."""
        if self.journal.refuse is not None:
            return 0
        with self._syncing:
            rows = {g.id: g for g in self.journal.games()}
            with self.journal.tables(write=False) as db:
                known = {int(gid) for (gid,) in db.execute("SELECT game_id FROM results")}
            fresh = [(p, rows[p.game_id].entries) for p in results if p.game_id in rows and p.game_id not in known]
            return self._store([], fresh)

    def _store(self, stale: list[int], results: list[tuple[Played, int]]) -> int:
        if not stale and not results:
            return 0
        with self.journal.tables(write=True) as db:
            kept = {}
            for gid in stale:
                kept[gid] = dict(db.execute("SELECT seat, player_id FROM seats WHERE game_id = ?", (gid,)).fetchall())
                db.execute("DELETE FROM seats WHERE game_id = ?", (gid,))
                db.execute("DELETE FROM results WHERE game_id = ?", (gid,))
            for played, entries in sorted(results, key=lambda r: r[0].order_key()):  # names first seen first
                db.execute(
                    "INSERT INTO results(game_id, game, played, seconds, entries, extra) VALUES (?, ?, ?, ?, ?, ?)",
                    (played.game_id, played.game, played.played, played.seconds, entries, played.extra_json()),
                )
                gone = hidden.parse(_meta(db, hidden.key(played.game_id)))
                for s in played.seats:
                    before = kept.get(played.game_id, {})
                    pid = None if s.seat in gone else before[s.seat] if s.seat in before else _match(db, s.name)
                    db.execute(
                        "INSERT INTO seats(game_id, seat, name, player_id, score, place) VALUES (?, ?, ?, ?, ?, ?)",
                        (played.game_id, s.seat, s.name if pid is not None else "", pid, s.score, s.place),
                    )
        return len(stale) + len(results)

    # --- reading ---------------------------------------------------------------------------
    def players(self) -> list[Player]:
        with self.journal.tables(write=False) as db:
            rows = db.execute("SELECT id, name FROM players ORDER BY id").fetchall()
        return [Player(int(i), str(n)) for i, n in rows]

    def player(self, player_id: int) -> Player:
        with self.journal.tables(write=False) as db:
            row = db.execute("SELECT id, name FROM players WHERE id = ?", (player_id,)).fetchone()
        if row is None:
            raise UnknownPlayer(player_id)
        return Player(int(row[0]), str(row[1]))

    def played(self) -> list[Played]:
        """Every stored result, in the order the games were played."""
        with self.journal.tables(write=False) as db:
            games = db.execute("SELECT game_id, game, played, seconds, extra FROM results").fetchall()
            seat_rows = db.execute(
                "SELECT s.game_id, s.seat, COALESCE(p.name, s.name), s.player_id, s.score, s.place"
                " FROM seats s LEFT JOIN players p ON p.id = s.player_id ORDER BY s.game_id, s.seat"
            ).fetchall()
        seats: dict[int, list[Seat]] = {}
        for gid, seat, name, pid, score, place in seat_rows:
            seats.setdefault(int(gid), []).append(Seat(int(seat), str(name), pid, int(score), int(place)))
        out = [
            with_extra(Played(int(g), str(n), str(p), s, tuple(seats.get(int(g), ()))), x) for g, n, p, s, x in games
        ]
        return sorted(out, key=Played.order_key)

    def former_seats(self) -> dict[int, set[int]]:
        """Per game, the seats of deleted players: their names are not to be shown any more."""
        with self.journal.tables(write=False) as db:
            rows = db.execute("SELECT game_id, seat FROM seats WHERE player_id IS NULL").fetchall()
        out: dict[int, set[int]] = {}
        for gid, seat in rows:
            out.setdefault(int(gid), set()).add(int(seat))
        return out

    def colours(self) -> dict[int, str]:
        """Each player's usual colour: the one chosen last under any of their names, on any tablet."""
        with self.journal.tables(write=False) as db:
            rows = db.execute(
                "SELECT n.player_id, u.colour FROM player_names n JOIN usual_colours u ON u.key = n.key"
                " ORDER BY u.chosen, u.rowid"
            ).fetchall()
        return {int(pid): str(colour) for pid, colour in rows}  # the latest choice wins

    # --- changing --------------------------------------------------------------------------
    def keep_colours(self, names: list[str], colours: list[str]) -> None:
        """The colours a new game's players chose: their usual ones from now on (by name, so a player
        seen for the first time has theirs once the game is over and they are known)."""
        if self.journal.refuse is not None:
            return
        with self.journal.tables(write=True) as db:
            for name, colour in zip(names, colours, strict=False):
                db.execute(
                    "INSERT OR REPLACE INTO usual_colours(key, colour, chosen) VALUES (?, ?, ?)",
                    (name_key(name), colour, _now()),
                )

    def rename(self, player_id: int, name: str) -> Player:
        """A new name; the old one still finds them when a later game is matched."""
        clean = _checked_name(name)
        self.player(player_id)
        with self.journal.tables(write=True) as db:
            owner = db.execute("SELECT player_id FROM player_names WHERE key = ?", (name_key(clean),)).fetchone()
            if owner is not None and int(owner[0]) != player_id:
                raise RuleViolation(msg("Another player already has that name; merge the two instead."))
            db.execute("UPDATE players SET name = ? WHERE id = ?", (clean, player_id))
            db.execute(
                "INSERT OR REPLACE INTO player_names(key, player_id) VALUES (?, ?)", (name_key(clean), player_id)
            )
        return Player(player_id, clean)

    def merge(self, keep: int, gone: int) -> Player:
        """``gone`` was the same person as ``keep`` (a typo): their games and names become ``keep``'s."""
        if keep == gone:
            raise RuleViolation(msg("A player cannot be merged into themselves."))
        kept, _ = self.player(keep), self.player(gone)
        with self.journal.tables(write=True) as db:
            both = db.execute(
                "SELECT a.game_id FROM seats a JOIN seats b ON a.game_id = b.game_id"
                " WHERE a.player_id = ? AND b.player_id = ?",
                (keep, gone),
            ).fetchone()
            if both is not None:
                raise RuleViolation(msg("These two played in the same game, so they are two people."))
            db.execute("UPDATE seats SET player_id = ? WHERE player_id = ?", (keep, gone))
            db.execute("UPDATE player_names SET player_id = ? WHERE player_id = ?", (keep, gone))
            db.execute("DELETE FROM players WHERE id = ?", (gone,))
        return kept

    def delete(self, player_id: int) -> list[int]:
        """The player leaves: their name leaves every game they sat in (finished or not: ``hidden``),
        their results stay (a former player). Returns the games whose names changed."""
        self.player(player_id)
        with self.journal.tables(write=False) as db:
            keys = {str(k) for (k,) in db.execute("SELECT key FROM player_names WHERE player_id = ?", (player_id,))}
            sat = db.execute("SELECT game_id, seat FROM seats WHERE player_id = ?", (player_id,)).fetchall()
        seats: dict[int, set[int]] = {}
        for gid, seat in sat:
            seats.setdefault(int(gid), set()).add(int(seat))
        for row in self.journal.games():  # games without a stored result: matched by name, as sync would
            if row.id not in seats:
                for seat, name in enumerate(row.header.players):
                    if name_key(name) in keys:
                        seats.setdefault(row.id, set()).add(seat)
        with self.journal.tables(write=True) as db:
            for gid, hide in seats.items():
                text = hidden.seats_text(hide | hidden.parse(_meta(db, hidden.key(gid))))
                db.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", (hidden.key(gid), text))
            db.execute("UPDATE seats SET player_id = NULL, name = '' WHERE player_id = ?", (player_id,))
            db.execute("DELETE FROM player_names WHERE player_id = ?", (player_id,))  # a new game: a new player
            db.execute("DELETE FROM players WHERE id = ?", (player_id,))
        return sorted(seats)

    def assign(self, game_id: int, seat: int, player_id: int) -> None:
        """Fix a wrong match: the seat ``seat`` of game ``game_id`` was ``player_id``."""
        self.player(player_id)
        with self.journal.tables(write=True) as db:
            row = db.execute("SELECT name FROM seats WHERE game_id = ? AND seat = ?", (game_id, seat)).fetchone()
            if row is None:
                raise RuleViolation(msg("That game has no such seat among the finished games."))
            other = db.execute(
                "SELECT seat FROM seats WHERE game_id = ? AND player_id = ? AND seat != ?", (game_id, player_id, seat)
            ).fetchone()
            if other is not None:
                raise RuleViolation(msg("That player already has another seat in this game."))
            db.execute("UPDATE seats SET player_id = ? WHERE game_id = ? AND seat = ?", (player_id, game_id, seat))


def _checked_name(name: str) -> str:
    """The same checks a new game makes of a name (``Rules.check_players``)."""
    clean = name.strip()
    if not clean:
        raise RuleViolation(msg("Every player needs a name."))
    if len(clean) > MAX_NAME:
        raise RuleViolation(msg("A player's name has at most {n} characters.", n=MAX_NAME))
    if not clean.isprintable():
        raise RuleViolation(msg("A player's name has only visible characters (no control or invisible ones)."))
    return clean


def _meta(db: sqlite3.Connection, key: str) -> str | None:
    row = db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    return None if row is None else str(row[0])


def _match(db: sqlite3.Connection, name: str) -> int:
    """The player this name means (the first time it is seen, a new player)."""
    key = name_key(name)
    row = db.execute("SELECT player_id FROM player_names WHERE key = ?", (key,)).fetchone()
    if row is not None:
        return int(row[0])
    cur = db.execute("INSERT INTO players(name, created) VALUES (?, ?)", (name.strip(), _now()))
    pid = cur.lastrowid
    assert pid is not None
    db.execute("INSERT INTO player_names(key, player_id) VALUES (?, ?)", (key, pid))
    return int(pid)
