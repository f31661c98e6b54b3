"""A seeded stand-in for the table: the virtual deck, mock mode, tests and example records.

This is the only part of Las Vegas that draws random numbers, and it never changes a state: it
proposes the next input, which then goes through :meth:`LasVegasRules.apply` like any input from
the table. The engine stays pure and a simulated game is journalled and replayed like a real one.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from companion.games.inputs import JSON, Die
from companion.games.lasvegas.actions import Action, DrawNote, Roll
from companion.games.lasvegas.rules import LasVegasRules
from companion.games.lasvegas.state import LasVegasState


def random_input(rules: LasVegasRules, state: LasVegasState, rng: random.Random) -> Action | None:
    """A random legal input for what the game awaits, or None when the game is over.

    A note is drawn from the notes still in the deck, each note equally likely (so values by how many
    of them are left); a roll has the right number of dice of each colour; a choice is any option.
    """
    awaiting = rules.awaiting(state)
    if awaiting.kind == "card":
        return DrawNote(rng.choice(state.deck))
    if awaiting.kind == "dice":
        assert awaiting.dice is not None
        dice = [
            Die(rng.choice(awaiting.dice.faces), colour)
            for colour, count in awaiting.dice.colours
            for _ in range(count)
        ]
        rng.shuffle(dice)
        return Roll(tuple(dice))
    if awaiting.kind == "choice":
        return rng.choice(awaiting.options).action
    return None


def play(
    players: Sequence[str], options: Mapping[str, JSON], seed: int, rules: LasVegasRules | None = None
) -> tuple[LasVegasState, list[Action]]:
    """A whole game of random legal inputs from ``seed``: the final state and the inputs in order."""
    rules = rules or LasVegasRules()
    rng = random.Random(seed)
    state = rules.setup(players, options)
    actions: list[Action] = []
    while (action := random_input(rules, state, rng)) is not None:
        state, _ = rules.apply(state, action)
        actions.append(action)
    return state, actions


def record(players: Sequence[str], options: Mapping[str, JSON], seed: int) -> list[JSON]:
    """A simulated game as game-record entries (see docs/game-record.md): the header, then each input."""
    rules = LasVegasRules()
    _, actions = play(players, options, seed, rules)
    header: JSON = {
        "format": "vegas-table-companion/record",
        "version": 1,
        "game": rules.name,
        "players": list(players),
        "options": dict(options),
        "title": f"Las Vegas, simulated from seed {seed}",
    }
    return [header, *({"type": "input", "action": rules.action_to_json(a)} for a in actions)]
