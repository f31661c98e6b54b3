"""A seeded stand-in for the table: plays a whole game with random legal inputs, as a game record.

Used for mock mode, benchmarks, example records and fuzzing. Each game's ``simulate`` module supplies
``random_input(rules, state, rng)``; the engines themselves never see a random generator.
"""

from __future__ import annotations

import importlib
import json
import random
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from companion.games import get_rules
from companion.store.record import Header


def random_input(game: str, rules: Any, state: Any, rng: random.Random) -> Any:
    module = importlib.import_module(f"companion.games.{game}.simulate")
    return module.random_input(rules, state, rng)


def simulated_lines(
    game: str,
    players: Sequence[str],
    options: Mapping[str, Any] | None = None,
    *,
    seed: int = 0,
    undo_rate: float = 0.0,
    max_inputs: int = 100_000,
) -> Iterator[str]:
    """A complete game as record lines; ``undo_rate`` sprinkles undo/redo pairs like a real table."""
    rules = get_rules(game)
    header = Header(game, tuple(players), dict(options or {}))
    state = rules.setup(header.players, header.options)
    rng = random.Random(seed)
    yield json.dumps(header.to_json())
    for _ in range(max_inputs):
        action = random_input(game, rules, state, rng)
        if action is None:
            return
        state, _ = rules.apply(state, action)
        yield json.dumps({"type": "input", "action": rules.action_to_json(action)}, separators=(",", ":"))
        if rng.random() < undo_rate:
            yield '{"type":"undo"}'
            yield '{"type":"redo"}'
