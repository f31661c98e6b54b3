"""The whole history as one JSON file, and back.

The file holds every game's record lines (header and entries, exactly as the journal keeps them) with
when it was created, so another companion (or this one after a new SD card) can take them in. Taking
a file in twice adds nothing the second time: a game whose lines are already in the journal is
skipped. Every game is replayed before any is stored; one bad game refuses the whole file.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field, replace
from typing import Any

from companion.store import hidden
from companion.store.journal import Journal
from companion.store.played import Played, from_timeline
from companion.store.record import Header, RecordError, check_entry, is_summary, read_lines, replay_lines

FORMAT = "vegas-table-companion-history"
VERSION = 1


@dataclass(frozen=True)
class Taken:
    added: int
    skipped: int
    results: list[Played] = field(default_factory=list)  # the new games' results, from their replays


def _fingerprint(lines: list[str]) -> str:
    """The same game whatever the spacing or key order of its lines (a summary line does not count)."""
    canonical = [
        json.dumps(d, sort_keys=True, separators=(",", ":")) for _, d in read_lines(lines) if not is_summary(d)
    ]
    return hashlib.sha256("\n".join(canonical).encode()).hexdigest()


def export_history(journal: Journal) -> dict[str, Any]:
    games = []
    for row in reversed(journal.games()):  # oldest first
        game: dict[str, Any] = {"created": row.created, "lines": list(journal.export_lines(row.id))}
        seats = hidden.parse(journal.get_meta(hidden.key(row.id)))
        if seats:  # a deleted player's seats (their names are out of the lines already) stay hidden
            game["hidden"] = sorted(seats)
        games.append(game)
    return {"format": FORMAT, "version": VERSION, "games": games}


def _checked(data: Any) -> list[tuple[str, list[str], Played | None, str, set[int]]]:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RecordError(1, f"not a history file (format should be {FORMAT!r})")
    if data.get("version") != VERSION:
        raise RecordError(1, f"history version {data.get('version')!r} is not supported (this is {VERSION})")
    games = data.get("games")
    if not isinstance(games, list):
        raise RecordError(1, "the history needs its games as a list")
    out = []
    for number, game in enumerate(games, start=1):
        lines = game.get("lines") if isinstance(game, dict) else None
        created = game.get("created") if isinstance(game, dict) else None
        if not isinstance(lines, list) or not all(isinstance(x, str) for x in lines) or not isinstance(created, str):
            raise RecordError(number, "each game needs 'created' (text) and 'lines' (a list of record lines)")
        try:
            timeline = replay_lines(lines)
        except RecordError as exc:
            raise RecordError(number, f"game {number}, {exc.msg}") from None
        seats = game.get("hidden", [])
        n = len(timeline.header.players)
        if not isinstance(seats, list) or not all(type(s) is int and 0 <= s < n for s in seats):
            raise RecordError(number, f"game {number}: 'hidden' lists seats by number, from 0 to {n - 1}")
        # the result now, not the timeline: a file of many games is not all kept replayed at once
        outcome = timeline.rules.outcome(timeline.state)
        summary = json.dumps(outcome.text.to_json(), ensure_ascii=False) if outcome else ""
        out.append((created, lines, from_timeline(0, timeline, created), summary, set(seats)))
    return out


def import_history(journal: Journal, data: Any) -> Taken:
    """Store the file's games the journal does not hold yet; RecordError (nothing stored) for a bad file."""
    games = _checked(data)
    have = {_fingerprint(list(journal.export_lines(row.id))) for row in journal.games()}
    added = skipped = 0
    taken = []
    for created, lines, played, summary, seats in games:
        mark = _fingerprint(lines)
        if mark in have:
            skipped += 1
            continue
        values = [d for _, d in read_lines(lines)]
        entries = [check_entry(d) for d in values[1:] if not is_summary(d)]  # each one replayed above
        header = Header.from_json(values[0])
        game_id = journal.import_game(header, created, entries, finished=played is not None, summary=summary)
        if seats:
            journal.set_meta(hidden.key(game_id), hidden.seats_text(seats))
        if played is not None:
            taken.append(replace(played, game_id=game_id))
        have.add(mark)
        added += 1
    return Taken(added, skipped, taken)
