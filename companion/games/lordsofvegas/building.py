"""Build, sprawl and remodel: the actions that put tiles on the board or change their colour.

Each one checks everything first (a refused action changes nothing), then changes the board and
leaves the steps that follow: a die to place (perhaps moved, if all twelve are out) and boss ties.
"""

from __future__ import annotations

from companion.games.base import Event, RuleViolation, evolve
from companion.games.lordsofvegas.board import COLOURS, LOT_INDEX, LOTS, Lot
from companion.games.lordsofvegas.casinos import Casino, casino_at, casinos
from companion.games.lordsofvegas.draw import blocked
from companion.games.lordsofvegas.state import LordsState, PlaceDie, SettleTies, Space, Tile, pay, push, with_space
from companion.games.lordsofvegas.words import dollars

REMODEL_PER_TILE = 5
SPRAWL_FACTOR = 2


def lot_of(name: str) -> Lot:
    index = LOT_INDEX.get(name.strip().upper())
    if index is None:
        raise RuleViolation(f"There is no lot {name!r} on the board; lots go from A1 to F9.")
    return LOTS[index]


def colour_of(colour: str) -> str:
    c = colour.strip().lower()
    if c not in COLOURS:
        raise RuleViolation(f"Tiles come in {', '.join(COLOURS)}; not {colour!r}.")
    return c


def _afford(state: LordsState, cost: int, what: str) -> None:
    have = state.money[state.current]
    if cost > have:
        raise RuleViolation(f"{what} costs {dollars(cost)} and you have {dollars(have)}.")


def _tile_left(state: LordsState, colour: str, needed: int = 1) -> None:
    left = state.tiles_left(colour)
    if left < needed:
        raise RuleViolation(f"Only {left} {colour} tiles are left in the supply; {needed} are needed.")


def check_build(state: LordsState, lot: Lot, colour: str) -> None:
    if state.board[lot.index].marker != state.current:
        raise RuleViolation(f"You can only build on a lot you have marked; {lot.name} is not yours.")
    _tile_left(state, colour)
    _afford(state, lot.cost, f"Building on {lot.name}")


def build(state: LordsState, lot_name: str, colour_name: str, events: list[Event]) -> LordsState:
    lot, colour = lot_of(lot_name), colour_of(colour_name)
    check_build(state, lot, colour)
    seat = state.current
    state = pay(state, seat, -lot.cost)
    state = with_space(state, lot.index, Space(tile=Tile(colour)))
    who = state.players[seat]
    text = f"{who} builds a {colour} tile on {lot.name} for {dollars(lot.cost)}, with a die showing {lot.die}."
    events.append(Event("built", text, {"player": seat, "lot": lot.name, "colour": colour, "cost": lot.cost}))
    return push(state, PlaceDie(seat, lot.index, lot.die), SettleTies())


def sprawl_sources(state: LordsState, lot: Lot, colour: str) -> list[Casino]:
    """Casinos of ``colour`` next to ``lot`` whose boss is the player to move."""
    return [
        c
        for c in casinos(state.board)
        if c.colour == colour and c.boss == state.current and any(nb in c.lots for nb in lot.neighbours)
    ]


def check_sprawl(state: LordsState, lot: Lot, colour: str) -> None:
    space = state.board[lot.index]
    if space.tile is not None or space.marker is not None or blocked(state, lot.index):
        raise RuleViolation(f"You can only sprawl onto an empty lot nobody owns; {lot.name} is not one.")
    if not sprawl_sources(state, lot, colour):
        raise RuleViolation(f"{lot.name} is not next to a {colour} casino where you are the boss.")
    _tile_left(state, colour)
    _afford(state, SPRAWL_FACTOR * lot.cost, f"Sprawling onto {lot.name}")


def sprawl(state: LordsState, lot_name: str, colour_name: str, events: list[Event]) -> LordsState:
    lot, colour = lot_of(lot_name), colour_of(colour_name)
    check_sprawl(state, lot, colour)
    seat = state.current
    cost = SPRAWL_FACTOR * lot.cost
    state = pay(state, seat, -cost)
    state = with_space(state, lot.index, Space(tile=Tile(colour)))
    who = state.players[seat]
    text = f"{who} sprawls a {colour} casino onto {lot.name} for {dollars(cost)}, with a die showing {lot.die}."
    events.append(Event("sprawled", text, {"player": seat, "lot": lot.name, "colour": colour, "cost": cost}))
    return push(state, PlaceDie(seat, lot.index, lot.die), SettleTies())


def check_remodel(state: LordsState, lot: Lot, colour: str) -> Casino:
    casino = casino_at(state.board, lot.index)
    if casino is None:
        raise RuleViolation(f"There is no casino on {lot.name} to remodel.")
    if casino.boss != state.current:
        raise RuleViolation(f"You are not the boss of the casino at {casino.name}; only its boss may remodel it.")
    if colour == casino.colour:
        raise RuleViolation(f"The casino at {casino.name} is already {colour}; a remodel must change its colour.")
    _tile_left(state, colour, casino.size)
    _afford(state, REMODEL_PER_TILE * casino.size, f"Remodelling the casino at {casino.name}")
    return casino


def remodel(state: LordsState, lot_name: str, colour_name: str, events: list[Event]) -> LordsState:
    lot, colour = lot_of(lot_name), colour_of(colour_name)
    casino = check_remodel(state, lot, colour)
    seat = state.current
    cost = REMODEL_PER_TILE * casino.size
    state = pay(state, seat, -cost)
    board = list(state.board)
    for i in casino.lots:
        tile = board[i].tile
        assert tile is not None
        board[i] = evolve(board[i], tile=evolve(tile, colour=colour))
    state = evolve(state, board=tuple(board))
    text = (
        f"{state.players[seat]} remodels the {casino.colour} casino at {casino.name} to {colour} for {dollars(cost)}."
    )
    events.append(
        Event(
            "remodelled",
            text,
            {"player": seat, "casino": casino.name, "from": casino.colour, "colour": colour, "cost": cost},
        )
    )
    return push(state, SettleTies())
