"""Build, sprawl and remodel: the actions that put tiles on the board or change their colour.

Each one checks everything first (a refused action changes nothing), then changes the board and
leaves the steps that follow: a die to place (perhaps moved, if all twelve are out) and boss ties.
"""

from __future__ import annotations

from companion.games.base import Event
from companion.games.evolve import evolve
from companion.games.lordsofvegas.board import COLOURS, LOT_INDEX, LOTS, Lot
from companion.games.lordsofvegas.casinos import Casino, casino_at, casinos
from companion.games.lordsofvegas.draw import blocked
from companion.games.lordsofvegas.state import LordsState, PlaceDie, SettleTies, Space, Tile, pay, push, with_space
from companion.games.lordsofvegas.words import dollars
from companion.games.messages import Msg, msg, nmsg
from companion.games.violations import RuleViolation
from companion.games.words import colour_word as cw

REMODEL_PER_TILE = 5
SPRAWL_FACTOR = 2


def lot_of(name: str) -> Lot:
    index = LOT_INDEX.get(name.strip().upper())
    if index is None:
        raise RuleViolation(msg("There is no lot {lot} on the board; lots go from A1 to F9.", lot=name))
    return LOTS[index]


def colour_of(colour: str) -> str:
    c = colour.strip().lower()
    if c not in COLOURS:
        raise RuleViolation(
            msg("Tiles come in {colours}; not {colour}.", colours=[cw(c) for c in COLOURS], colour=colour)
        )
    return c


def _afford(state: LordsState, cost: int, what: Msg) -> None:
    have = state.money[state.current]
    if cost > have:
        raise RuleViolation(
            msg("{what} costs {cost} and you have {money}.", what=what, cost=dollars(cost), money=dollars(have))
        )


def _tile_left(state: LordsState, colour: str, needed: int = 1) -> None:
    left = state.tiles_left(colour)
    if left < needed:
        raise RuleViolation(
            nmsg(
                "Only {n} tile of {colour} is left in the supply; this needs {needed}.",
                "Only {n} tiles of {colour} are left in the supply; this needs {needed}.",
                left,
                colour=cw(colour),
                needed=needed,
            )
        )


def check_build(state: LordsState, lot: Lot, colour: str) -> None:
    if state.board[lot.index].marker != state.current:
        raise RuleViolation(msg("You can only build on a lot you have marked; {lot} is not yours.", lot=lot.name))
    _tile_left(state, colour)
    _afford(state, lot.cost, msg("Building on {lot}", lot=lot.name))


def build(state: LordsState, lot_name: str, colour_name: str, events: list[Event]) -> LordsState:
    lot, colour = lot_of(lot_name), colour_of(colour_name)
    check_build(state, lot, colour)
    seat = state.current
    state = pay(state, seat, -lot.cost)
    state = with_space(state, lot.index, Space(tile=Tile(colour)))
    who = state.players[seat]
    text = msg(
        "{player} builds {colour} on {lot} for {cost}, with a die showing {die}.",
        player=who,
        colour=cw(colour),
        lot=lot.name,
        cost=dollars(lot.cost),
        die=lot.die,
    )
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
        raise RuleViolation(msg("You can only sprawl onto an empty lot nobody owns; {lot} is not one.", lot=lot.name))
    if not sprawl_sources(state, lot, colour):
        raise RuleViolation(
            msg("{lot} is not next to a casino of {colour} where you are the boss.", lot=lot.name, colour=cw(colour))
        )
    _tile_left(state, colour)
    _afford(state, SPRAWL_FACTOR * lot.cost, msg("Sprawling onto {lot}", lot=lot.name))


def sprawl(state: LordsState, lot_name: str, colour_name: str, events: list[Event]) -> LordsState:
    lot, colour = lot_of(lot_name), colour_of(colour_name)
    check_sprawl(state, lot, colour)
    seat = state.current
    cost = SPRAWL_FACTOR * lot.cost
    state = pay(state, seat, -cost)
    state = with_space(state, lot.index, Space(tile=Tile(colour)))
    who = state.players[seat]
    text = msg(
        "{player} sprawls {colour} onto {lot} for {cost}, with a die showing {die}.",
        player=who,
        colour=cw(colour),
        lot=lot.name,
        cost=dollars(cost),
        die=lot.die,
    )
    events.append(Event("sprawled", text, {"player": seat, "lot": lot.name, "colour": colour, "cost": cost}))
    return push(state, PlaceDie(seat, lot.index, lot.die), SettleTies())


def check_remodel(state: LordsState, lot: Lot, colour: str) -> Casino:
    casino = casino_at(state.board, lot.index)
    if casino is None:
        raise RuleViolation(msg("There is no casino on {lot} to remodel.", lot=lot.name))
    if casino.boss != state.current:
        raise RuleViolation(
            msg("You are not the boss of the casino at {lot}; only its boss may remodel it.", lot=casino.name)
        )
    if colour == casino.colour:
        raise RuleViolation(
            msg(
                "The casino at {lot} is already {colour}; a remodel must change its colour.",
                lot=casino.name,
                colour=cw(colour),
            )
        )
    _tile_left(state, colour, casino.size)
    _afford(state, REMODEL_PER_TILE * casino.size, msg("Remodelling the casino at {lot}", lot=casino.name))
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
    text = msg(
        "{player} remodels the casino at {lot} from {old} to {colour} for {cost}.",
        player=state.players[seat],
        lot=casino.name,
        old=cw(casino.colour),
        colour=cw(colour),
        cost=dollars(cost),
    )
    events.append(
        Event(
            "remodelled",
            text,
            {"player": seat, "casino": casino.name, "from": casino.colour, "colour": colour, "cost": cost},
        )
    )
    return push(state, SettleTies())
