"""A player's dice across every game, and the evening's luckiest hand: the same fairness test the
end-of-game statistics use (``companion.store.stats.luck``: chi-square over the faces, and how far the
mean face ran from a fair die's in standard errors), on the face counts kept with each result.

The journal does not say which of the table's dice sets threw a die, so the dice are told apart by
kind: Heckmeck's worm dice (a worm counts 5) and plain 1-6 dice (the other three games)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from companion.store.played import Played, faces
from companion.store.stats import luck

KINDS = {"heckmeck": "worm"}  # every other game throws plain dice
LEAST = 10  # dice a hand needs before it can be the evening's luckiest (two or three dice prove nothing)


def kind(game: str) -> str:
    return KINDS.get(game, "plain")


def _faces(labels: Sequence[Any], counts: Sequence[int]) -> list[Any]:
    return [label for label, count in zip(labels, counts, strict=False) for _ in range(count)]


def dice_of(games: Iterable[Played], player: int) -> dict[str, dict[str, Any]]:
    """Per kind of dice, the player's faces over all their games with the fairness test."""
    totals: dict[str, list[int]] = {}
    labels: dict[str, tuple[Any, ...]] = {}
    played: dict[str, int] = {}
    for game in games:
        for seat in game.seats:
            if seat.player == player and seat.seat < len(game.dice):
                k = kind(game.game)
                labels[k] = faces(game.game)
                into = totals.setdefault(k, [0] * len(labels[k]))
                for i, count in enumerate(game.dice[seat.seat]):
                    into[i] += count
                played[k] = played.get(k, 0) + 1
    return {k: {**luck(_faces(labels[k], counts), labels[k]), "games": played[k]} for k, counts in totals.items()}


def luckiest(games: Iterable[Played]) -> dict[str, Any] | None:
    """The hand (one player in one game, at least ``LEAST`` dice) whose faces ran highest."""
    best: dict[str, Any] | None = None
    for game in games:
        for seat in game.seats:
            if seat.seat >= len(game.dice) or sum(game.dice[seat.seat]) < LEAST:
                continue
            test = luck(_faces(faces(game.game), game.dice[seat.seat]), faces(game.game))
            if best is None or test["z"] > best["z"]:
                best = {"id": game.game_id, "game": game.game, "player": seat.player, "name": seat.name,
                        "dice": test["dice"], "mean": test["mean"], "fair_mean": test["fair_mean"], "z": test["z"]}
    return best


def biggest_swing(games: Iterable[Played]) -> dict[str, Any] | None:
    """The input that moved one seat's score most, measured against the game's top final score (a
    swing of 8 worms and one of $90 million compare as shares of what won)."""
    best: tuple[float, dict[str, Any]] | None = None
    for game in games:
        if game.swing is None or game.swing.seat >= len(game.seats):
            continue
        top = max((abs(s.score) for s in game.seats), default=0) or 1
        share = abs(game.swing.delta) / top
        seat = game.seats[game.swing.seat]
        if best is None or share > best[0]:
            best = (share, {"id": game.game_id, "game": game.game, "player": seat.player, "name": seat.name,
                            "delta": game.swing.delta, "series": game.swing.series})
    return None if best is None else best[1]
