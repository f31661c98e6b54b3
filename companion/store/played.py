"""A finished game as the players' figures see it: who sat where, their final score and place, when it
ended and how long it took. Made once per game from its replay (``companion.store.players`` keeps it),
so the leaderboard never replays a game again."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from companion.store.stats import HECKMECK_FACES, PLAIN_FACES, scores, thrown

FORMER = "a former player"  # what a deleted player's seat shows (their name has left the display)
# (the API words it in the page's language: ``msg(FORMER)`` in companion/web/api/games.py; the CSV and
# BG Stats get it in English)


@dataclass(frozen=True)
class Seat:
    seat: int
    name: str  # as the record wrote it; empty once the player was deleted
    player: int | None  # the lasting player's id; None for a deleted player
    score: int
    place: int  # 1 for the winner(s); tied players share a place


@dataclass(frozen=True)
class Swing:
    """The biggest change of one seat's score by one input (worms, money, points)."""

    seat: int
    delta: int
    series: str


@dataclass(frozen=True)
class Played:
    game_id: int  # the journal's id (not part of the ordering: an import gives new ids)
    game: str
    played: str  # ISO time the game ended (its last input, else when it was created)
    seconds: float | None  # from the first input to the last; None when the inputs carry no times
    seats: tuple[Seat, ...]
    dice: tuple[tuple[int, ...], ...] = ()  # per seat, how often each face came up (``faces(game)``)
    swing: Swing | None = None

    def extra_json(self) -> str:
        """What the results table keeps beside the scores: the dice and the biggest swing."""
        swing = None if self.swing is None else [self.swing.seat, self.swing.delta, self.swing.series]
        return json.dumps({"dice": [list(c) for c in self.dice], "swing": swing}, separators=(",", ":"))

    def order_key(self) -> tuple[Any, ...]:
        """Games count in the order they were played; equal times fall back on the game's content, so
        the same games imported in any order are counted in the same order."""
        return (self.played, self.game, tuple((s.name, s.score, s.place) for s in self.seats), self.game_id)

    def winners(self) -> list[Seat]:
        return [s for s in self.seats if s.place == 1]


def places(final: Sequence[int], winners: Sequence[int]) -> list[int]:
    """Each seat's place: the rules' winners first, then by final score; equal standing shares a place
    (1, 1, 3). A game's tie-breaker (a higher tile, more money) is in ``winners`` already."""
    key = [(seat in winners, score) for seat, score in enumerate(final)]
    return [1 + sum(other > mine for other in key) for mine in key]


def final_scores(game: str, state: Any) -> list[int]:
    """The score that ranks the players: the first series of ``stats.scores`` (worms, money, points)."""
    series = scores(game, state)
    return list(next(iter(series.values()))) if series else [0] * len(state.players)


def _time(text: Any) -> datetime | None:
    if not isinstance(text, str):
        return None
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        return None


def faces(game: str) -> tuple[Any, ...]:
    """The faces a game's dice show: Heckmeck's worm dice, else plain 1-6 dice."""
    return HECKMECK_FACES if game == "heckmeck" else PLAIN_FACES


def with_extra(played: Played, text: str | None) -> Played:
    """``played`` with the dice and swing of :meth:`Played.extra_json` (none when not stored)."""
    try:
        data = json.loads(text) if text else {}
        dice = tuple(tuple(int(c) for c in counts) for counts in data.get("dice", []))
        swing = data.get("swing")
        big = None if not swing else Swing(int(swing[0]), int(swing[1]), str(swing[2]))
        return replace(played, dice=dice, swing=big)
    except (ValueError, TypeError, IndexError, AttributeError):
        return played  # a damaged extra: the scores still count


def _dice_and_swing(timeline: Any) -> tuple[tuple[tuple[int, ...], ...], Swing | None]:
    game, n = timeline.header.game, len(timeline.header.players)
    labels = faces(game)
    counts = [[0] * len(labels) for _ in range(n)]
    swing: Swing | None = None
    before = timeline.initial
    previous = final_scores(game, before)
    series = next(iter(scores(game, before)), "")
    for step in timeline.steps:
        for seat, thrown_faces in thrown(game, before, step.entry, step.events):
            for face in thrown_faces:
                if face in labels and 0 <= seat < n:
                    counts[seat][labels.index(face)] += 1
        now = final_scores(game, step.state)
        for seat in range(n):
            delta = now[seat] - previous[seat]
            if delta and (swing is None or abs(delta) > abs(swing.delta)):
                swing = Swing(seat, delta, series)
        previous, before = now, step.state
    return tuple(tuple(c) for c in counts), swing


def from_timeline(game_id: int, timeline: Any, created: str) -> Played | None:
    """The finished game's result; None while it is not over."""
    outcome = timeline.rules.outcome(timeline.state)
    if outcome is None:
        return None
    times = [t for t in (_time(s.entry.get("at")) for s in timeline.steps) if t is not None]
    final = final_scores(timeline.header.game, timeline.state)
    ranks = places(final, outcome.winners)
    seats = tuple(Seat(i, name, None, final[i], ranks[i]) for i, name in enumerate(timeline.header.players))
    ended = max(times).isoformat(timespec="seconds") if times else created
    seconds = (max(times) - min(times)).total_seconds() if len(times) > 1 else None
    dice, swing = _dice_and_swing(timeline)
    return Played(game_id, timeline.header.game, ended, seconds, seats, dice, swing)
