"""A position in the middle of a game, written down briefly: for tests, docs and rulebook examples.

>>> state = position(["Red", "Yellow"], tiles={"A2": ("gold", 0, 2)}, markers={"A3": 1}, money=(30, 10))
>>> state.board[2].marker, state.phase  # A3 is the third lot
(1, 'play')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from companion.games.evolve import evolve
from companion.games.lordsofvegas.board import END_OF_GAME, LOT_CARDS, lot_named
from companion.games.lordsofvegas.rules import LordsOfVegasRules
from companion.games.lordsofvegas.state import LordsState, Phase, Space, Tile

TileSpec = tuple[str, int | None, int]
"""(colour, owner seat or None, die value)."""


def position(
    players: Sequence[str],
    *,
    tiles: Mapping[str, TileSpec] | None = None,
    markers: Mapping[str, int] | None = None,
    money: Sequence[int] | None = None,
    points: Sequence[int] | None = None,
    current: int = 0,
    phase: Phase = "play",
    drawn: Sequence[str] = (),
    lay_off: bool = False,
    colours: Sequence[str] | None = None,
) -> LordsState:
    """A state with the given board, money and points; the deck holds every card not on the board
    and not in ``drawn`` (a lot with a marker or a tile built on it has had its card drawn, except a
    sprawled tile: list such lots in ``drawn`` yourself if their card is out)."""
    options: dict[str, object] = {"lay_off": lay_off}
    if colours is not None:
        options["colours"] = list(colours)
    state = LordsOfVegasRules().setup(players, options)
    board = list(state.board)
    for name, seat in (markers or {}).items():
        board[lot_named(name).index] = Space(marker=seat)
    for name, (colour, owner, value) in (tiles or {}).items():
        board[lot_named(name).index] = Space(tile=Tile(colour, owner, value if owner is not None else 0))
    out = set(drawn) | set(markers or {})
    deck = (*(c for c in LOT_CARDS if c not in out), END_OF_GAME)
    n = len(players)
    cash = tuple(money) if money is not None else (0,) * n
    return evolve(
        state,
        board=tuple(board),
        money=cash,
        issued=sum(cash),
        points=tuple(points) if points is not None else (0,) * n,
        current=current,
        phase=phase,
        deck=deck,
        dealt=(2,) * n,
    )
