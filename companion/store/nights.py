"""Game nights: games less than six hours apart were played on one evening.

Pure: the stored results in the order played, grouped; each night with its games' winners, its longest
game, its biggest swing and its luckiest hand of dice (``companion.store.player_dice``)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from companion.store.played import Played
from companion.store.player_dice import biggest_swing, luckiest

GAP = timedelta(hours=6)


@dataclass(frozen=True)
class Night:
    games: tuple[Played, ...]

    @property
    def started(self) -> str:
        return self.games[0].played

    def longest(self) -> Played | None:
        timed = [g for g in self.games if g.seconds is not None]
        return max(timed, key=lambda g: (g.seconds, g.game_id)) if timed else None

    def wins(self, player: int) -> int:
        return sum(any(s.player == player for s in g.winners()) for g in self.games)

    def to_json(self) -> dict[str, Any]:
        longest = self.longest()
        return {
            "started": self.started,
            "ended": self.games[-1].played,
            "games": [
                {
                    "id": g.game_id,
                    "game": g.game,
                    "played": g.played,
                    "seconds": g.seconds,
                    "winners": [{"player": s.player, "name": s.name} for s in g.winners()],
                }
                for g in self.games
            ],
            "longest": None if longest is None else {"id": longest.game_id, "seconds": longest.seconds},
            "swing": biggest_swing(self.games),
            "luckiest": luckiest(self.games),
        }


def _at(text: str) -> datetime:
    moment = datetime.fromisoformat(text)
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=datetime.now().astimezone().tzinfo)


def nights(games: Iterable[Played]) -> list[Night]:
    """The evenings, oldest first: a game starts a new night when it ended six hours or more after the last."""
    out: list[list[Played]] = []
    last: datetime | None = None
    for played in sorted(games, key=Played.order_key):
        at = _at(played.played)
        if last is None or at - last >= GAP:
            out.append([])
        out[-1].append(played)
        last = at
    return [Night(tuple(g)) for g in out]
