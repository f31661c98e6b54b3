"""Every position of simulated games of each title gets odds without error, as plain JSON."""

from __future__ import annotations

import json
import random
import time

import pytest

from companion.games import get_rules
from companion.odds import heckmeck
from companion.odds.service import table_odds
from companion.table.simulate import random_input

GAMES = [
    ("heckmeck", ["A", "B", "C"], {}, 120),
    ("lasvegas", ["A", "B", "C"], {"virtual_deck": True, "neutral_dice": True}, 100_000),
    ("cincinnati", ["A", "B", "C"], {"virtual_deck": True}, 100_000),
    ("lordsofvegas", ["A", "B"], {"virtual_deck": True, "lay_off": True}, 100_000),
]


@pytest.mark.parametrize(("game", "players", "options", "limit"), GAMES)
def test_odds_at_every_position(game: str, players: list[str], options: dict[str, object], limit: int) -> None:
    rules = get_rules(game)
    rng = random.Random(9)
    state = rules.setup(players, options)
    seen = 0
    for step in range(limit):
        odds = table_odds(game, state, seed=step, clock=time.perf_counter, budget_s=0.001)
        assert odds["game"] == game
        json.dumps(odds)
        seen += 1
        action = random_input(game, rules, state, rng)
        if action is None:
            break
        state, _ = rules.apply(state, action)
    assert seen > 50
    heckmeck.solver.cache_clear()
