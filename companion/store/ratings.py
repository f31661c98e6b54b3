"""A rating per game: a pairwise multiplayer Elo in the way Board Game Arena rates its games.

Pure: a function of the finished games in the order they were played (docs/game-nights.md has the
formula). Everyone starts at ``START``; in a game of n players each is compared with every other by
finishing place (1 for finishing ahead, 1/2 for a tie, 0 behind), gains ``K * (S - E)`` per pair with
``E = 1 / (1 + 10 ** ((R_other - R_self) / 400))``, the pairs summed and divided by n - 1 so a five-
player game moves a rating as much as a duel. All changes of one game use the ratings from before it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from companion.store.played import Played

START = 1500.0
K = 32.0


@dataclass(frozen=True)
class Change:
    game_id: int
    played: str
    before: float
    after: float

    @property
    def delta(self) -> float:
        return self.after - self.before


def expected(mine: float, theirs: float) -> float:
    """The score a player rated ``mine`` is expected to take from one rated ``theirs`` (0 to 1)."""
    return 1.0 / (1.0 + math.pow(10.0, (theirs - mine) / 400.0))


def outcome(my_place: int, their_place: int) -> float:
    return 1.0 if my_place < their_place else 0.5 if my_place == their_place else 0.0


def deltas(ratings: Sequence[float], places: Sequence[int]) -> list[float]:
    """Each seat's change for one game, from the ratings before it and the places."""
    n = len(ratings)
    if n < 2:
        return [0.0] * n
    out = []
    for i in range(n):
        total = sum(K * (outcome(places[i], places[j]) - expected(ratings[i], ratings[j])) for j in range(n) if j != i)
        out.append(total / (n - 1))
    return out


def rate(games: Iterable[Played]) -> dict[str, dict[int, list[Change]]]:
    """Per game name, per player id, each rating change in the order played (a former player's seat is
    compared at ``START``: they keep no history)."""
    history: dict[str, dict[int, list[Change]]] = {}
    for played in sorted(games, key=Played.order_key):
        book = history.setdefault(played.game, {})
        now = [book[s.player][-1].after if s.player is not None and book.get(s.player) else START for s in played.seats]
        change = deltas(now, [s.place for s in played.seats])
        for s, before, d in zip(played.seats, now, change, strict=True):
            if s.player is not None:
                book.setdefault(s.player, []).append(Change(played.game_id, played.played, before, before + d))
    return history


def current(history: dict[str, dict[int, list[Change]]], game: str, player: int) -> float:
    changes = history.get(game, {}).get(player)
    return changes[-1].after if changes else START
