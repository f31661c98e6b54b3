"""Running out of dice or markers.

Dice (rulebook): a player with all twelve dice on the board who must put a die on a new tile moves
one of theirs off a tile of their choice; that tile stays, unowned, still counting for size and
points. The die keeps its "reorganized this turn" mark (rulings).

Markers (rulings, the rulebook is silent): a player with all ten markers out who gains a lot gives up
one of their other marked lots (it becomes unowned) and marks the new one.
"""

from __future__ import annotations

from companion.games.base import Event
from companion.games.evolve import evolve
from companion.games.lordsofvegas.board import LOT_INDEX, LOTS, MARKERS_PER_PLAYER
from companion.games.lordsofvegas.state import (
    CheckMarkers,
    LordsState,
    PlaceDie,
    Tile,
    push,
    with_space,
    with_tile,
)
from companion.games.messages import msg
from companion.games.violations import RuleViolation


def place_die(state: LordsState, step: PlaceDie, events: list[Event]) -> LordsState:
    """Put the die from the supply, or wait for the player to choose which die to move."""
    if state.dice_in_hand(step.seat) > 0:
        return _put(state, step, rerolled=False)
    name = state.players[step.seat]
    text = msg(
        "All of {player}'s dice are on the board: {player} moves one onto {lot}.", player=name, lot=LOTS[step.lot].name
    )
    events.append(Event("dice_exhausted", text, {"player": step.seat, "lot": LOTS[step.lot].name}))
    return evolve(state, wait=step)


def _put(state: LordsState, step: PlaceDie, *, rerolled: bool) -> LordsState:
    tile = state.board[step.lot].tile
    assert tile is not None and tile.owner is None
    return with_tile(state, step.lot, evolve(tile, owner=step.seat, value=step.value, rerolled=rerolled))


def move_die_options(state: LordsState, step: PlaceDie) -> tuple[int, ...]:
    return tuple(lot for lot in state.dice_lots(step.seat) if lot != step.lot)


def move_die(state: LordsState, step: PlaceDie, lot_name: str, events: list[Event]) -> LordsState:
    lot = LOT_INDEX.get(lot_name.strip().upper(), -1)
    if lot not in move_die_options(state, step):
        raise RuleViolation(
            msg("Choose one of your own dice on another tile; {lot} holds none of yours.", lot=lot_name)
        )
    tile = state.board[lot].tile
    assert tile is not None
    state = with_tile(state, lot, Tile(tile.colour))
    state = evolve(state, wait=None)
    state = _put(state, step, rerolled=tile.rerolled)
    name = state.players[step.seat]
    text = msg(
        "{player} moves the die off {lot} (the tile stays, unowned) onto {target}, showing {value}.",
        player=name,
        lot=LOTS[lot].name,
        target=LOTS[step.lot].name,
        value=step.value,
    )
    events.append(Event("die_moved", text, {"player": step.seat, "from": LOTS[lot].name, "to": LOTS[step.lot].name}))
    return state


def check_markers(state: LordsState, step: CheckMarkers, events: list[Event]) -> LordsState:
    if len(state.marked(step.seat)) <= MARKERS_PER_PLAYER:
        return state
    name = state.players[step.seat]
    text = msg("All of {player}'s markers are out: {player} gives up one marked lot.", player=name)
    events.append(Event("markers_exhausted", text, {"player": step.seat}))
    return evolve(state, wait=step)


def give_up_options(state: LordsState, step: CheckMarkers) -> tuple[int, ...]:
    marked = state.marked(step.seat)
    others = tuple(lot for lot in marked if lot not in step.keep)
    return others or marked


def give_up(state: LordsState, step: CheckMarkers, lot_name: str, events: list[Event]) -> LordsState:
    lot = LOT_INDEX.get(lot_name.strip().upper(), -1)
    if lot not in give_up_options(state, step):
        raise RuleViolation(msg("Choose one of your marked lots to give up; {lot} is not one of them.", lot=lot_name))
    state = with_space(state, lot, evolve(state.board[lot], marker=None))
    name = state.players[step.seat]
    events.append(
        Event(
            "gave_up",
            msg("{player} gives up {lot}; it is unowned now.", player=name, lot=LOTS[lot].name),
            {"player": step.seat, "lot": LOTS[lot].name},
        )
    )
    return push(evolve(state, wait=None), step)
