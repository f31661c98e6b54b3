"""What the players' pages and the ``companion players`` command show, as plain JSON: the players with
their figures and ratings per game, one player's page, a game's leaderboard. Pure: built from the
players and the stored results (``companion.store.players.Roster``) in one pass of the ratings."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.store.figures import figures, nemesis, rival
from companion.store.nights import nights
from companion.store.played import Played
from companion.store.player_dice import dice_of
from companion.store.players import Player
from companion.store.ratings import START, Change, K, current, rate


class Boards:
    def __init__(
        self, players: Sequence[Player], played: Sequence[Played], colours: dict[int, str] | None = None
    ) -> None:
        self.players = players
        self.colours = colours or {}
        self.played = sorted(played, key=Played.order_key)
        self.history: dict[str, dict[int, list[Change]]] = rate(self.played)
        self.names = {p.id: p.name for p in players}

    def _of(self, game: str) -> list[Played]:
        return [p for p in self.played if p.game == game]

    def games(self) -> list[str]:
        return sorted({p.game for p in self.played})

    def per_game(self, player: int) -> dict[str, dict[str, Any]]:
        history = self.history
        out = {}
        for game in self.games():
            mine = figures(self._of(game), player)
            if mine is not None:
                out[game] = {"games": mine.games, "wins": mine.wins, "rating": round(current(history, game, player))}
        return out

    def all_players(self) -> list[dict[str, Any]]:
        """Each player with their figures per game and when they last played (the setup's suggestions
        put the most recent first)."""
        out = []
        for p in self.players:
            overall = figures(self.played, p.id)
            last = None if overall is None else overall.last_played
            out.append(
                {
                    "id": p.id,
                    "name": p.name,
                    "colour": self.colours.get(p.id),
                    "last_played": last,
                    "games": self.per_game(p.id),
                }
            )
        return out

    def _person(self, pid: int | None) -> dict[str, Any] | None:
        return None if pid is None else {"id": pid, "name": self.names.get(pid, "")}

    def player(self, player: Player) -> dict[str, Any]:
        history = self.history
        per_game = {}
        for game in self.games():
            games = self._of(game)
            mine = figures(games, player.id)
            if mine is None:
                continue
            changes = history.get(game, {}).get(player.id, [])
            per_game[game] = {
                **mine.to_json(),
                "rating": round(current(history, game, player.id)),
                "ratings": [{"game_id": c.game_id, "played": c.played, "rating": round(c.after)} for c in changes],
                "rival": self._person(rival(games, player.id)),
                "nemesis": self._person(nemesis(games, player.id)),
            }
        overall = figures(self.played, player.id)
        return {
            "id": player.id,
            "name": player.name,
            "overall": None if overall is None else overall.to_json(),
            "games": per_game,
            "rival": self._person(rival(self.played, player.id)),
            "nemesis": self._person(nemesis(self.played, player.id)),
            "dice": dice_of(self.played, player.id),
        }

    def leaderboard(self, game: str) -> dict[str, Any]:
        """The players of ``game`` by rating, highest first (equal ratings: more wins, then the name)."""
        history = self.history
        rows = []
        games = self._of(game)
        for p in self.players:
            mine = figures(games, p.id)
            if mine is not None:
                rows.append(
                    {"id": p.id, "name": p.name, "rating": round(current(history, game, p.id)), **mine.to_json()}
                )
        rows.sort(key=lambda r: (-r["rating"], -r["wins"], r["name"].casefold()))
        for place, row in enumerate(rows, start=1):
            row["place"] = place
        return {"game": game, "start": START, "k": K, "players": rows}

    def nights(self) -> list[dict[str, Any]]:
        return [night.to_json() for night in reversed(nights(self.played))]
