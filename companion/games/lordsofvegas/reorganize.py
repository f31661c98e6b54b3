"""Reorganize: a player with a die in a casino pays $1 a pip to reroll every die in it.

No die may be reorganized twice in one turn (the mark stays with the die through merges and moves),
so a casino holding any die already rerolled this turn cannot be reorganized (rulings).
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.games.base import Die, Event, RuleViolation, evolve
from companion.games.lordsofvegas.arrange import normalise, roll_spec, share_out
from companion.games.lordsofvegas.building import lot_of
from companion.games.lordsofvegas.casinos import Casino, casino_at
from companion.games.lordsofvegas.state import LordsState, ReorgRoll, SettleTies, pay, push
from companion.games.lordsofvegas.words import dollars

REASON = "reorganize"


def check_reorganize(state: LordsState, lot_name: str) -> Casino:
    lot = lot_of(lot_name)
    casino = casino_at(state.board, lot.index)
    if casino is None:
        raise RuleViolation(f"There is no casino on {lot.name} to reorganize.")
    if state.current not in casino.owners():
        raise RuleViolation(f"You need a die in the casino at {casino.name} to reorganize it.")
    if any(t.rerolled for i in casino.lots if (t := state.board[i].tile) is not None and t.owner is not None):
        raise RuleViolation(f"A die in the casino at {casino.name} was already reorganized this turn.")
    cost = casino.pips()
    have = state.money[state.current]
    if cost > have:
        raise RuleViolation(
            f"Reorganizing the casino at {casino.name} costs {dollars(cost)} and you have {dollars(have)}."
        )
    return casino


def reorganize(state: LordsState, lot_name: str, events: list[Event]) -> LordsState:
    casino = check_reorganize(state, lot_name)
    seat = state.current
    cost = casino.pips()
    lots = tuple(lot for lot, _, _ in casino.dice)
    state = pay(state, seat, -cost)
    what = f"the {casino.colour} casino at {casino.name}: reroll all {len(lots)} dice"
    text = f"{state.players[seat]} pays {dollars(cost)} to reorganize {what}."
    events.append(Event("reorganized", text, {"player": seat, "casino": casino.name, "cost": cost}))
    return push(evolve(state, wait=ReorgRoll(seat, lots)), SettleTies())


def reorg_roll(state: LordsState, wait: ReorgRoll, dice: Sequence[Die], events: list[Event]) -> LordsState:
    spec = roll_spec(state, wait.lots, REASON)
    dice = normalise(dice, spec)
    spec.check(dice)
    shown = ", ".join(f"{d.face} {d.colour}" for d in dice)
    events.append(Event("reorg_rolled", f"The reorganized dice show {shown}.", {"dice": [d.to_json() for d in dice]}))
    return share_out(evolve(state, wait=None), wait.lots, dice, rerolled=True)
