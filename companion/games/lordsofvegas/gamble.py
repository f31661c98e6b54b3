"""Gamble: once a turn, a bet at a casino whose boss is another player (the field bet of craps).

The bet is at least $1 and at most $5 a tile, the gambler's money and the boss's money (English
rule). Two dice: 2 or 12 win twice the bet, 3, 4, 9, 10 or 11 win the bet, 5 to 8 lose it. A boss who
cannot pay in full pays what they have. Lay-off variant (an option, off by default): before the roll
the boss may lay half off to the bank; the boss then pays or receives half of what is owed, rounded
down, and the bank covers or takes the rest.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.games.base import Event
from companion.games.evolve import evolve
from companion.games.inputs import DiceSpec, Die
from companion.games.lordsofvegas.building import lot_of
from companion.games.lordsofvegas.casinos import Casino, casino_at, casinos
from companion.games.lordsofvegas.state import GambleRoll, LayOff, LordsState, pay, transfer
from companion.games.lordsofvegas.words import dollars
from companion.games.messages import Param, msg
from companion.games.violations import RuleViolation
from companion.games.words import colour_word as cw

PER_TILE = 5
DOUBLE = (2, 12)
WIN = (3, 4, 9, 10, 11)
SPEC = DiceSpec(2, (1, 2, 3, 4, 5, 6), (), "gamble")


@dataclass(frozen=True)
class Settlement:
    """Money moved by a settled bet: positive to the gambler, negative from the gambler."""

    total: int
    boss: int
    bank: int

    @property
    def gambler(self) -> int:
        return self.boss + self.bank


def limit(state: LordsState, casino: Casino) -> int:
    """The largest bet allowed at ``casino`` now (0: none)."""
    boss = casino.boss
    if boss is None:
        return 0
    return min(PER_TILE * casino.size, state.money[state.current], state.money[boss])


def gamble_targets(state: LordsState) -> list[tuple[Casino, int]]:
    """Casinos the player to move may bet at, with the largest bet at each."""
    if state.gambled:
        return []
    out = []
    for casino in casinos(state.board):
        if casino.boss is not None and casino.boss != state.current and (top := limit(state, casino)) >= 1:
            out.append((casino, top))
    return out


def gamble(state: LordsState, lot_name: str, amount: int, events: list[Event]) -> LordsState:
    if state.gambled:
        raise RuleViolation(msg("You have already gambled this turn; it is allowed once a turn."))
    lot = lot_of(lot_name)
    casino = casino_at(state.board, lot.index)
    if casino is None or casino.boss is None:
        raise RuleViolation(msg("There is no casino with a boss on {lot} to gamble at.", lot=lot.name))
    if casino.boss == state.current:
        raise RuleViolation(msg("You are the boss of that casino; gamble at another player's casino."))
    top = limit(state, casino)
    if amount < 1:
        raise RuleViolation(msg("A bet is at least {amount}.", amount=dollars(1)))
    if amount > top:
        raise RuleViolation(
            msg(
                "The most you can bet at {lot} is {amount}: {per_tile} a tile, and no more than you or its boss have.",
                lot=casino.name,
                amount=dollars(top),
                per_tile=dollars(5),
            )
        )
    seat, boss = state.current, casino.boss
    text = msg(
        "{player} bets {amount} at {boss}'s casino at {lot} ({colour}).",
        player=state.players[seat],
        amount=dollars(amount),
        boss=state.players[boss],
        lot=casino.name,
        colour=cw(casino.colour),
    )
    events.append(Event("bet", text, {"player": seat, "boss": boss, "casino": casino.name, "amount": amount}))
    state = evolve(state, gambled=True)
    if state.lay_off:
        return evolve(state, wait=LayOff(boss, casino.lots[0], amount))
    return evolve(state, wait=GambleRoll(seat, boss, casino.lots[0], amount, False))


def lay_off(state: LordsState, wait: LayOff, accept: bool, events: list[Event]) -> LordsState:
    name = state.players[wait.boss]
    if accept:
        text = msg("{player} lays half the bet off to the bank.", player=name)
    else:
        text = msg("{player} takes the whole bet.", player=name)
    events.append(Event("lay_off", text, {"player": wait.boss, "accept": accept}))
    return evolve(state, wait=GambleRoll(state.current, wait.boss, wait.lot, wait.amount, accept))


def settle(amount: int, total: int, boss_money: int, laid_off: bool) -> Settlement:
    """What a roll of ``total`` moves, before it is applied."""
    if total in DOUBLE or total in WIN:
        owed = amount * (2 if total in DOUBLE else 1)
        share = owed // 2 if laid_off else owed
        bank = owed - share
        return Settlement(total, min(share, boss_money), bank)
    share = amount // 2 if laid_off else amount
    return Settlement(total, -share, -(amount - share))


def gamble_roll(state: LordsState, wait: GambleRoll, dice: Sequence[Die], events: list[Event]) -> LordsState:
    dice = tuple(Die(d.face) for d in dice)
    SPEC.check(dice)
    total = sum(int(d.face) for d in dice)
    result = settle(wait.amount, total, state.money[wait.boss], wait.laid_off)
    state = evolve(state, wait=None)
    state = transfer(state, wait.boss, wait.gambler, result.boss)
    state = pay(state, wait.gambler, result.bank)
    gambler, boss = state.players[wait.gambler], state.players[wait.boss]
    parts: list[Param]
    if result.gambler > 0:
        parts = [msg("{boss} pays {amount}", boss=boss, amount=dollars(result.boss))]
        parts += [msg("the bank pays {amount}", amount=dollars(result.bank))] if result.bank else []
        text = msg("{player} rolls {total} and wins: {payments}.", player=gambler, total=total, payments=parts)
    else:
        parts = [msg("{boss} gets {amount}", boss=boss, amount=dollars(-result.boss))]
        parts += [msg("the bank gets {amount}", amount=dollars(-result.bank))] if result.bank else []
        text = msg(
            "{player} rolls {total} and loses {amount}: {payments}.",
            player=gambler,
            total=total,
            amount=dollars(wait.amount),
            payments=parts,
        )
    data = {
        "player": wait.gambler,
        "boss": wait.boss,
        "total": total,
        "boss_pays": result.boss,
        "bank_pays": result.bank,
    }
    events.append(Event("gamble_result", text, data))
    return state
