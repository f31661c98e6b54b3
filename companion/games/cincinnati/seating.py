"""Who goes first: the orders the rulebook and the rulings give, and small state helpers.

Money here always means money cards held; chips only count at the end of the game.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from companion.games.cincinnati.hands import Hand, hand
from companion.games.cincinnati.state import CincinnatiState, Player
from companion.games.evolve import evolve
from companion.games.messages import Param, msg


def best_hand(dice: Sequence[int]) -> Hand | None:
    return hand(dice) if dice else None


def _standing(state: CincinnatiState, seat: int, dice: Sequence[int]) -> tuple[int, int, tuple[int, ...], int]:
    """Richer first, then the better throw (by the ranking), then the lower seat."""
    h = best_hand(dice)
    rank = (-1,) if h is None else (int(h.category), *h.detail)
    return (state.players[seat].cash, 1 if h is not None else 0, rank, -seat)


def around(first: int, seats: Iterable[int], n: int) -> tuple[int, ...]:
    """``seats`` clockwise (in seat order) starting at ``first``."""
    return tuple(sorted(seats, key=lambda s: (s - first) % n))


def precedence(
    state: CincinnatiState, seats: Iterable[int], dice_of: Callable[[int], Sequence[int]] | None = None
) -> tuple[int, ...]:
    """The richest player first (on a tie the one with the better throw, then the lower seat), then the
    others clockwise from them. The rulebook's order for asking about chip throws, for who throws
    first when players at a table cannot agree, and for who starts a tie-break duel."""
    seats = tuple(seats)
    if not seats:
        return ()
    look = dice_of or (lambda s: state.players[s].dice)
    first = max(seats, key=lambda s: _standing(state, s, look(s)))
    return around(first, seats, len(state.players))


def duel_order(state: CincinnatiState) -> tuple[int, ...]:
    """Phase 4: holders of duel cards by money cards held, then by this round's better throw, then seat
    order; a holder of several cards plays them one after another."""
    holders = [s for s in state.seats if state.players[s].duel_cards]
    holders.sort(key=lambda s: _standing(state, s, state.players[s].dice), reverse=True)
    return tuple(s for s in holders for _ in range(state.players[s].duel_cards))


def with_player(state: CincinnatiState, seat: int, player: Player) -> CincinnatiState:
    players = tuple(player if i == seat else p for i, p in enumerate(state.players))
    return evolve(state, players=players)


def names(state: CincinnatiState, seats: Iterable[int]) -> Param:
    """The players in ``seats`` as one parameter (joined the page's way), or "nobody"."""
    words: list[Param] = [state.players[s].name for s in seats]
    return words if words else msg("nobody")
