"""A seeded stand-in for the table: random rolls and choices, for mock mode, tests and benchmarks.

Kept apart from the rules so the engine itself never touches a random generator.
"""

from __future__ import annotations

import random

from companion.games.heckmeck.actions import Action, Roll, Stop
from companion.games.heckmeck.rules import HeckmeckRules
from companion.games.heckmeck.state import FACES, HeckmeckState
from companion.games.inputs import Die


def random_roll(state: HeckmeckState, rng: random.Random) -> Roll:
    return Roll(tuple(Die(rng.choice(FACES)) for _ in range(state.dice_left)))


def random_input(rules: HeckmeckRules, state: HeckmeckState, rng: random.Random) -> Action | None:
    """A legal next input, or None when the game is over.

    Plays like a cautious person: claims once a tile is in reach with some probability, otherwise
    rolls on; picks faces at random among those it may keep.
    """
    awaiting = rules.awaiting(state)
    if awaiting.kind == "over":
        return None
    options = [o.action for o in awaiting.options]
    if awaiting.kind == "dice":
        return random_roll(state, rng)
    if awaiting.dice is not None:  # deciding: roll on, or end the turn
        claims = [a for a in options if not isinstance(a, Stop)]
        if claims and (state.dice_left <= 2 or rng.random() < 0.6):
            return rng.choice(claims)
        if not claims and rng.random() < 0.02:
            return Stop()
        return random_roll(state, rng)
    return rng.choice(options)
