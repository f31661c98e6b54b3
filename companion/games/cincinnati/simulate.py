"""A seeded stand-in for the table: the virtual deck, mock mode, tests and example records.

The only part of Cincinnati that draws random numbers. It never changes a state: it proposes the next
input, which goes through :meth:`CincinnatiRules.apply` like any input from the table.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from companion.games.cincinnati.actions import Action, BuyThrow, ChooseTable, NoMore, Pass, RevealCard, Throw
from companion.games.cincinnati.hands import DICE, FACES, SMALL_RUNS, TABLE_C_LIMIT
from companion.games.cincinnati.rules import CincinnatiRules
from companion.games.cincinnati.state import CincinnatiState
from companion.games.inputs import Die


def random_input(rules: CincinnatiRules, state: CincinnatiState, rng: random.Random) -> Action | None:
    """A random legal input for what the game awaits, or None when the game is over.

    A card comes uniformly from the cards not yet seen (so a kind by how many are left); a secret
    choice is a random table for a random player still to choose; a throw is for a random player still
    to throw, keeping dice the way a sensible player aims at their table (now and then at random);
    passes and chip throws are occasional.
    """
    awaiting = rules.awaiting(state)
    kind = awaiting.kind
    if kind == "over":
        return None
    if kind == "card":
        return RevealCard(rng.choice(state.unseen))
    if kind == "secret":
        return ChooseTable(rng.choice(awaiting.players), rng.choice(state.tables))  # type: ignore[arg-type]
    options = [o.action for o in awaiting.options]
    if state.phase == "buy":
        buys = [a for a in options if isinstance(a, BuyThrow)]
        return rng.choice(buys) if buys and rng.random() < 0.25 else NoMore()
    if awaiting.dice is None:
        return rng.choice(options)
    seat = rng.choice(awaiting.players)
    if state.duel is not None:
        dice, table = state.duel.dice_of(seat), "A"
        if state.duel.asked is not None and (state.players[seat].chips == 0 or rng.random() < 0.7):
            return NoMore()
    else:
        player = state.players[seat]
        dice, table = player.dice, player.table or "A"
    passes = [a for a in options if isinstance(a, Pass) and a.player == seat]
    if passes and rng.random() < 0.1:
        return passes[0]
    kept = _keep(dice, table, rng)
    new = list(kept) + [rng.choice(FACES) for _ in range(DICE - len(kept))]
    rng.shuffle(new)
    return Throw(tuple(Die(f) for f in new), seat, kept if dice else None)


def _keep(dice: Sequence[int], table: str, rng: random.Random) -> tuple[int, ...]:
    """Dice to leave standing: usually aimed at ``table``, sometimes any few; never all five."""
    if not dice:
        return ()
    if rng.random() < 0.2:
        chosen = rng.sample(list(dice), rng.randint(0, DICE - 1))
        return tuple(sorted(chosen))
    if table == "C":
        kept = tuple(f for f in sorted(dice) if f <= 2)
    elif table == "B":
        run = max(SMALL_RUNS, key=lambda r: len(set(r) & set(dice)))
        kept = tuple(sorted(set(run) & set(dice)))
    else:
        face, count = max(Counter(dice).items(), key=lambda fc: (fc[1], fc[0]))
        kept = (face,) * count if count > 1 else ()
    if sum(kept) > TABLE_C_LIMIT and table == "C":
        kept = kept[:2]
    return kept[: DICE - 1]
