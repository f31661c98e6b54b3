"""Per player and per game figures: games, wins, win rate, places, scores, streaks, rival and nemesis.

Pure functions of the stored results (``companion.store.played``), in the order the games were played.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import Any

from companion.store.played import Played, Seat


@dataclass(frozen=True)
class Figures:
    games: int
    wins: int
    win_rate: float
    average_place: float
    best_score: int
    average_score: float
    longest_streak: int  # most wins in a row (in this game)
    last_played: str

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def _mine(played: Played, player: int) -> Seat | None:
    return next((s for s in played.seats if s.player == player), None)


def figures(games: Iterable[Played], player: int) -> Figures | None:
    """One player's figures over ``games`` (all of one game name, or all games); None if they played none."""
    seats = [(p, s) for p in sorted(games, key=Played.order_key) if (s := _mine(p, player)) is not None]
    if not seats:
        return None
    wins = streak = longest = 0
    for _, s in seats:
        won = s.place == 1
        wins += won
        streak = streak + 1 if won else 0
        longest = max(longest, streak)
    n = len(seats)
    return Figures(
        games=n,
        wins=wins,
        win_rate=wins / n,
        average_place=sum(s.place for _, s in seats) / n,
        best_score=max(s.score for _, s in seats),
        average_score=sum(s.score for _, s in seats) / n,
        longest_streak=longest,
        last_played=seats[-1][0].played,
    )


def _most(counts: Counter[int]) -> int | None:
    """The id counted most; equal counts go to the lower id, so the answer does not depend on order."""
    if not counts:
        return None
    return min(counts, key=lambda pid: (-counts[pid], pid))


def rival(games: Iterable[Played], player: int) -> int | None:
    """The player they most often finish just behind: the one(s) on the nearest better place."""
    counts: Counter[int] = Counter()
    for played in games:
        me = _mine(played, player)
        if me is None:
            continue
        ahead = [s.place for s in played.seats if s.place < me.place]
        if ahead:
            nearest = max(ahead)
            counts.update(s.player for s in played.seats if s.place == nearest and s.player is not None)
    return _most(counts)


def nemesis(games: Iterable[Played], player: int) -> int | None:
    """The player who finished ahead of them most often."""
    counts: Counter[int] = Counter()
    for played in games:
        me = _mine(played, player)
        if me is not None:
            counts.update(s.player for s in played.seats if s.place < me.place and s.player is not None)
    return _most(counts)
