"""Boss ties: when the top dice of a casino belong to different players, those dice are rerolled,
free, again and again until one die is highest (or the top dice are all one player's).

Checked after every change of the board (rulings): a take-over by a drawn card, a trade, build,
sprawl, remodel, reorganize. Casinos are settled one at a time in board order.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.games.base import Event
from companion.games.evolve import evolve
from companion.games.inputs import Die
from companion.games.lordsofvegas.arrange import normalise, owners_of, roll_spec, share_out
from companion.games.lordsofvegas.casinos import first_tie
from companion.games.lordsofvegas.state import LordsState, Payout, SettleTies, TieRoll, push
from companion.games.lordsofvegas.words import and_list
from companion.games.messages import msg
from companion.games.words import colour_word as cw

REASON = "boss tie"


def settle_ties(state: LordsState, events: list[Event]) -> LordsState:
    casino = first_tie(state.board)
    if casino is None:
        return state
    names = and_list([state.players[s] for s in owners_of(state, casino.tied)])
    text = msg(
        "{players} are tied for boss of the casino at {lot} ({colour}) with {value}s: reroll the tied dice.",
        players=names,
        lot=casino.name,
        colour=cw(casino.colour),
        value=casino.top,
    )
    events.append(
        Event(
            "boss_tie",
            text,
            {"casino": casino.name, "value": casino.top, "players": list(owners_of(state, casino.tied))},
        )
    )
    paid = state.paid
    first = paid is not None and all(t[0] != casino.name for t in paid.ties)
    if paid is not None and first and not paid.done and any(isinstance(step, Payout) for step in state.todo):
        # a tie the draw made: the draw's summary says who was tied
        tie = (casino.name, casino.colour, tuple(owners_of(state, casino.tied)))
        state = evolve(state, paid=evolve(paid, ties=(*paid.ties, tie)))
    return push(evolve(state, wait=TieRoll(casino.tied)), SettleTies())


def tie_roll(state: LordsState, wait: TieRoll, dice: Sequence[Die], events: list[Event]) -> LordsState:
    spec = roll_spec(state, wait.lots, REASON)
    dice = normalise(dice, spec)
    spec.check(dice)
    shown = [msg("{face} {colour}", face=d.face, colour=cw(d.colour or "")) for d in dice]
    events.append(
        Event("tie_rolled", msg("The tied dice show {dice}.", dice=shown), {"dice": [d.to_json() for d in dice]})
    )
    return share_out(evolve(state, wait=None), wait.lots, dice, rerolled=False)
