"""Reorganize: a player with a die in a casino pays $1 a pip to reroll every die in it.

No die may be reorganized twice in one turn (the mark stays with the die through merges and moves),
so a casino holding any die already rerolled this turn cannot be reorganized (rulings).
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.games.base import Event
from companion.games.evolve import evolve
from companion.games.inputs import Die
from companion.games.lordsofvegas.arrange import normalise, roll_spec, share_out
from companion.games.lordsofvegas.building import lot_of
from companion.games.lordsofvegas.casinos import Casino, casino_at
from companion.games.lordsofvegas.state import LordsState, ReorgRoll, SettleTies, pay, push
from companion.games.lordsofvegas.words import dollars
from companion.games.messages import msg, nmsg
from companion.games.violations import RuleViolation
from companion.games.words import colour_word as cw

REASON = "reorganize"


def check_reorganize(state: LordsState, lot_name: str) -> Casino:
    lot = lot_of(lot_name)
    casino = casino_at(state.board, lot.index)
    if casino is None:
        raise RuleViolation(msg("There is no casino on {lot} to reorganize.", lot=lot.name))
    if state.current not in casino.owners():
        raise RuleViolation(msg("You need a die in the casino at {lot} to reorganize it.", lot=casino.name))
    if any(t.rerolled for i in casino.lots if (t := state.board[i].tile) is not None and t.owner is not None):
        raise RuleViolation(msg("A die in the casino at {lot} was already reorganized this turn.", lot=casino.name))
    cost = casino.pips()
    have = state.money[state.current]
    if cost > have:
        raise RuleViolation(
            msg(
                "Reorganizing the casino at {lot} costs {cost} and you have {money}.",
                lot=casino.name,
                cost=dollars(cost),
                money=dollars(have),
            )
        )
    return casino


def reorganize(state: LordsState, lot_name: str, events: list[Event]) -> LordsState:
    casino = check_reorganize(state, lot_name)
    seat = state.current
    cost = casino.pips()
    lots = tuple(lot for lot, _, _ in casino.dice)
    state = pay(state, seat, -cost)
    text = nmsg(
        "{player} pays {cost} to reorganize the casino at {lot} ({colour}): reroll its die.",
        "{player} pays {cost} to reorganize the casino at {lot} ({colour}): reroll all {n} dice.",
        len(lots),
        player=state.players[seat],
        cost=dollars(cost),
        lot=casino.name,
        colour=cw(casino.colour),
    )
    events.append(Event("reorganized", text, {"player": seat, "casino": casino.name, "cost": cost}))
    return push(evolve(state, wait=ReorgRoll(seat, lots)), SettleTies())


def reorg_roll(state: LordsState, wait: ReorgRoll, dice: Sequence[Die], events: list[Event]) -> LordsState:
    spec = roll_spec(state, wait.lots, REASON)
    dice = normalise(dice, spec)
    spec.check(dice)
    shown = [msg("{face} {colour}", face=d.face, colour=cw(d.colour or "")) for d in dice]
    text = msg("The reorganized dice show {dice}.", dice=shown)
    events.append(Event("reorg_rolled", text, {"dice": [d.to_json() for d in dice]}))
    return share_out(evolve(state, wait=None), wait.lots, dice, rerolled=True)
