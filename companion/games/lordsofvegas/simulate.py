"""A seeded stand-in for the table: the virtual deck, mock mode, tests and example records.

The only part of Lords of Vegas that draws random numbers; it proposes the next input, which then
goes through :meth:`LordsOfVegasRules.apply` like any input from the table.
"""

from __future__ import annotations

import random

from companion.games.base import Option
from companion.games.inputs import Die
from companion.games.lordsofvegas.actions import Action, Card, EndTurn, Gamble, Roll, Trade
from companion.games.lordsofvegas.board import DICE_PER_PLAYER, END_OF_GAME, LOTS
from companion.games.lordsofvegas.gamble import gamble_targets
from companion.games.lordsofvegas.rules import LordsOfVegasRules
from companion.games.lordsofvegas.state import LordsState

END_TURN_WEIGHT = 0.35
TRADE_RATE = 0.03


def random_input(rules: LordsOfVegasRules, state: LordsState, rng: random.Random) -> Action | None:
    """A random legal input for what the game awaits, or None when the game is over."""
    awaiting = rules.awaiting(state)
    if awaiting.kind == "card":
        return Card(_card(state, rng))
    if awaiting.kind == "dice":
        assert awaiting.dice is not None
        spec = awaiting.dice
        if not spec.colours:
            return Roll(tuple(Die(rng.choice(spec.faces)) for _ in range(spec.count)))
        dice = [Die(rng.choice(spec.faces), colour) for colour, count in spec.colours for _ in range(count)]
        rng.shuffle(dice)
        return Roll(tuple(dice))
    if awaiting.kind == "choice":
        if state.phase == "play" and state.wait is None:
            return _play(state, awaiting.options, rng)
        return rng.choice(awaiting.options).action
    return None


def _card(state: LordsState, rng: random.Random) -> str:
    """Like the real deck: End of Game lies on top of the last quarter of the cards."""
    lots = [c for c in state.deck if c != END_OF_GAME]
    if END_OF_GAME not in state.deck:
        return rng.choice(lots)
    quarter = (len(LOTS) - 2 * state.n) // 4
    if not lots or (len(lots) <= quarter and rng.random() < 0.4):
        return END_OF_GAME
    return rng.choice(lots)


def _play(state: LordsState, options: tuple[Option[Action], ...], rng: random.Random) -> Action:
    if rng.random() < TRADE_RATE and (t := _trade(state, rng)) is not None:
        return t
    if rng.random() < END_TURN_WEIGHT:
        return EndTurn()
    actions = [o.action for o in options]
    action: Action = rng.choice(actions)
    if isinstance(action, Gamble):
        top = {c.name: t for c, t in gamble_targets(state)}[action.lot]
        action = Gamble(action.lot, rng.randint(1, top))
    return action


def _trade(state: LordsState, rng: random.Random) -> Trade | None:
    """A small random trade between two players: some money, maybe a lot, maybe a die."""
    a, b = rng.sample(range(state.n), 2)
    money = rng.randint(0, min(3, state.money[a]))
    lots = state.marked(a)
    lot = (LOTS[rng.choice(lots)].name,) if lots and rng.random() < 0.5 else ()
    dice = state.dice_lots(a)
    die = (LOTS[rng.choice(dice)].name,) if dice and state.dice_out(b) < DICE_PER_PLAYER and rng.random() < 0.5 else ()
    if not (money or lot or die):
        return None
    return Trade(a, b, money_a=money, lots_a=lot, dice_a=die)
