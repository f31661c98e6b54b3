"""Rerolled dice going back on their tiles.

After a reorganization (and a boss tie) each player puts their own new values back on their own
original tiles, in the arrangement they choose. A player with one die, or whose dice all show the same
value, has nothing to choose; otherwise the table enters the arrangement as a choice.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import permutations

from companion.games.base import Event
from companion.games.evolve import evolve
from companion.games.inputs import DiceSpec, Die
from companion.games.lordsofvegas.board import LOT_INDEX, LOTS
from companion.games.lordsofvegas.state import Arrange, LordsState, push, with_tile
from companion.games.lordsofvegas.words import lots as lot_list
from companion.games.messages import msg
from companion.games.violations import RuleViolation

FACES = (1, 2, 3, 4, 5, 6)
ALL_ARRANGEMENTS_UP_TO = 6
"""With more dice than this, only a few sensible arrangements are listed (any other is still accepted)."""


def owners_of(state: LordsState, lots: Sequence[int]) -> tuple[int, ...]:
    """Owners of the dice on ``lots``, in seat order from the player whose turn it is."""
    owners = {_owner(state, lot) for lot in lots}
    return tuple(seat for seat in state.seats_from(state.current) if seat in owners)


def roll_spec(state: LordsState, lots: Sequence[int], reason: str) -> DiceSpec:
    """One die per lot, each in its owner's colour."""
    seats = sorted({_owner(state, lot) for lot in lots})
    colours = tuple((state.colours[s], sum(1 for lot in lots if _owner(state, lot) == s)) for s in seats)
    return DiceSpec(len(lots), FACES, colours, reason)


def normalise(dice: Sequence[Die], spec: DiceSpec) -> tuple[Die, ...]:
    """Colour names in lower case; with a single colour in the roll, a die without colour takes it."""
    only = spec.colours[0][0] if len(spec.colours) == 1 else None
    return tuple(Die(d.face, d.colour.strip().lower() if d.colour else only) for d in dice)


def share_out(state: LordsState, lots: Sequence[int], dice: Sequence[Die], *, rerolled: bool) -> LordsState:
    """Give each owner their colour's new values: straight onto a single tile, else as a choice."""
    steps = []
    for seat in owners_of(state, lots):
        mine = tuple(lot for lot in lots if _owner(state, lot) == seat)
        values = tuple(sorted((int(d.face) for d in dice if d.colour == state.colours[seat]), reverse=True))
        steps.append(Arrange(seat, mine, values, rerolled))
    return push(state, *steps)


def arrange_step(state: LordsState, step: Arrange, events: list[Event]) -> LordsState:
    """Put the values back at once when there is nothing to choose, else wait for the player."""
    if len(set(step.values)) <= 1:
        return _place(state, step, step.lots, step.values, events)
    name = state.players[step.seat]
    text = msg(
        "{player} rolled {values}: choose which goes on {lots}.",
        player=name,
        values=list(step.values),
        lots=lot_list(step.lots),
    )
    events.append(Event("arrange", text, {"player": step.seat}))
    return evolve(state, wait=step)


def arrange(
    state: LordsState, step: Arrange, lots: Sequence[str], values: Sequence[int], events: list[Event]
) -> LordsState:
    """The player's chosen arrangement: ``values[i]`` on ``lots[i]``."""
    where = tuple(LOT_INDEX.get(name.strip().upper(), -1) for name in lots)
    if len(where) != len(values) or sorted(where) != sorted(step.lots):
        raise RuleViolation(msg("Put one value on each of your tiles: {lots}.", lots=lot_list(step.lots)))
    if sorted(values, reverse=True) != list(step.values):
        raise RuleViolation(msg("Use exactly the values rolled: {values}.", values=list(step.values)))
    return _place(evolve(state, wait=None), step, where, tuple(values), events)


def _place(
    state: LordsState, step: Arrange, lots: Sequence[int], values: Sequence[int], events: list[Event]
) -> LordsState:
    for lot, value in zip(lots, values, strict=True):
        tile = state.board[lot].tile
        assert tile is not None
        state = with_tile(state, lot, evolve(tile, value=value, rerolled=tile.rerolled or step.rerolled))
    name = state.players[step.seat]
    placed = [msg("{value} on {lot}", value=v, lot=LOTS[lot].name) for lot, v in zip(lots, values, strict=True)]
    events.append(
        Event(
            "dice_placed",
            msg("{player}: {placed}.", player=name, placed=placed),
            {"player": step.seat, "lots": [LOTS[lot].name for lot in lots], "values": list(values)},
        )
    )
    return state


def arrangements(state: LordsState, step: Arrange) -> list[tuple[tuple[int, ...], bool]]:
    """Arrangements to offer as (values in the order of ``step.lots``, recommended).

    The recommended one puts the highest values on the tiles that cannot be taken over any more
    (their card is out of the deck), so a later draw cannot take a high die away.
    """
    safe = sorted(step.lots, key=lambda lot: (LOTS[lot].name in state.deck, lot))
    best_by_lot = dict(zip(safe, step.values, strict=True))
    best = tuple(best_by_lot[lot] for lot in step.lots)
    if len(step.lots) <= ALL_ARRANGEMENTS_UP_TO:
        every = sorted(set(permutations(step.values)), reverse=True)
    else:
        every = [tuple(step.values), tuple(reversed(step.values))]
    out = [(best, True)]
    out += [(tuple(p), False) for p in every if tuple(p) != best]
    return out


def _owner(state: LordsState, lot: int) -> int:
    tile = state.board[lot].tile
    assert tile is not None and tile.owner is not None
    return tile.owner
