"""Trades: what two players hand each other, recorded as one input and done all at once.

Money, marked lots and dice on tiles can change hands (a die keeps its value and its "reorganized
this turn" mark; the new owner's die replaces it); points and tiles cannot. A one-way trade (a gift)
is fine. Nobody may end below $0 or with more than twelve dice on the board. A player who receives a
lot with all ten markers out gives up one of their other lots. Trades are open whenever nothing is
under way: not during a reroll, an exhaustion choice or a gamble.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.games.base import Event
from companion.games.evolve import evolve
from companion.games.lordsofvegas.actions import Trade
from companion.games.lordsofvegas.board import DICE_PER_PLAYER, LOTS
from companion.games.lordsofvegas.building import lot_of
from companion.games.lordsofvegas.state import CheckMarkers, LordsState, SettleTies, push, transfer, with_space
from companion.games.lordsofvegas.words import and_list, dollars
from companion.games.messages import Msg, Param, msg
from companion.games.violations import RuleViolation


def trade(state: LordsState, t: Trade, events: list[Event]) -> LordsState:
    if state.phase not in ("draw", "play") or not state.idle():
        raise RuleViolation(msg("Trades wait until the reroll, choice or bet under way is settled."))
    n = state.n
    if not (0 <= t.a < n and 0 <= t.b < n) or t.a == t.b:
        raise RuleViolation(msg("A trade is between two different players."))
    if t.money_a < 0 or t.money_b < 0:
        raise RuleViolation(msg("Money in a trade is a positive amount given by one player to the other."))
    lots_a, lots_b = _lots(state, t.a, t.lots_a), _lots(state, t.b, t.lots_b)
    dice_a, dice_b = _dice(state, t.a, t.dice_a), _dice(state, t.b, t.dice_b)
    if not (t.money_a or t.money_b or lots_a or lots_b or dice_a or dice_b):
        raise RuleViolation(msg("That trade hands nothing over."))
    for seat, gives, gets in ((t.a, t.money_a, t.money_b), (t.b, t.money_b, t.money_a)):
        if state.money[seat] - gives + gets < 0:
            raise RuleViolation(
                msg(
                    "{player} has {money}; nobody may end a trade below {zero}.",
                    player=state.players[seat],
                    money=dollars(state.money[seat]),
                    zero=dollars(0),
                )
            )
    for seat, lose, gain in ((t.a, dice_a, dice_b), (t.b, dice_b, dice_a)):
        if state.dice_out(seat) - len(lose) + len(gain) > DICE_PER_PLAYER:
            raise RuleViolation(
                msg(
                    "{player} would have more than {count} dice on the board.",
                    player=state.players[seat],
                    count=DICE_PER_PLAYER,
                )
            )
    state = transfer(transfer(state, t.a, t.b, t.money_a), t.b, t.a, t.money_b)
    for receiver, lots, dice in ((t.b, lots_a, dice_a), (t.a, lots_b, dice_b)):
        for lot in lots:
            state = with_space(state, lot, evolve(state.board[lot], marker=receiver))
        for lot in dice:
            tile = state.board[lot].tile
            assert tile is not None
            state = with_space(state, lot, evolve(state.board[lot], tile=evolve(tile, owner=receiver)))
    text = msg(
        "{player} and {other} trade: {gives}; {other_gives}.",
        player=state.players[t.a],
        other=state.players[t.b],
        gives=_side(state, t.a, t.money_a, lots_a, dice_a),
        other_gives=_side(state, t.b, t.money_b, lots_b, dice_b),
    )
    events.append(Event("traded", text, {"a": t.a, "b": t.b}))
    checks = [CheckMarkers(t.b, lots_a)] if lots_a else []
    checks += [CheckMarkers(t.a, lots_b)] if lots_b else []
    return push(state, *checks, SettleTies())


def _side(state: LordsState, seat: int, money: int, lots: Sequence[int], dice: Sequence[int]) -> Msg:
    parts: list[Param] = [dollars(money)] if money else []
    parts += [msg("lot {lot}", lot=LOTS[lot].name) for lot in lots]
    parts += [msg("the die on {lot}", lot=LOTS[lot].name) for lot in dice]
    return msg("{player} gives {things}", player=state.players[seat], things=and_list(parts))


def _lots(state: LordsState, seat: int, names: Sequence[str]) -> tuple[int, ...]:
    lots = tuple(lot_of(name).index for name in names)
    if len(set(lots)) != len(lots):
        raise RuleViolation(msg("A lot is named twice in the trade."))
    for lot in lots:
        if state.board[lot].marker != seat:
            raise RuleViolation(
                msg("{player} has no marker on {lot} to trade.", player=state.players[seat], lot=LOTS[lot].name)
            )
    return lots


def _dice(state: LordsState, seat: int, names: Sequence[str]) -> tuple[int, ...]:
    lots = tuple(lot_of(name).index for name in names)
    if len(set(lots)) != len(lots):
        raise RuleViolation(msg("A die is named twice in the trade."))
    for lot in lots:
        tile = state.board[lot].tile
        if tile is None or tile.owner != seat:
            raise RuleViolation(
                msg("{player} has no die on {lot} to trade.", player=state.players[seat], lot=LOTS[lot].name)
            )
    return lots
