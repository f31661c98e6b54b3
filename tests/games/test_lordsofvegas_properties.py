"""Invariants of Lords of Vegas under random legal play: money, tiles, dice, markers, points, states,
every awaited input accepted and every refused input changing nothing."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.base import Die, RuleViolation
from companion.games.lordsofvegas.actions import Action, Card, EndTurn, Roll
from companion.games.lordsofvegas.board import (
    CARDS,
    COLOURS,
    DICE_PER_PLAYER,
    END_OF_GAME,
    LOTS,
    MARKERS_PER_PLAYER,
    TILES_PER_COLOUR,
    TRACK,
)
from companion.games.lordsofvegas.casinos import first_tie
from companion.games.lordsofvegas.rules import LordsOfVegasRules
from companion.games.lordsofvegas.simulate import random_input
from companion.games.lordsofvegas.state import CheckMarkers, LordsState

rules = LordsOfVegasRules()
game = st.tuples(st.integers(0, 2**32), st.integers(2, 4), st.booleans())


def new_game(players: int, lay_off: bool) -> LordsState:
    return rules.setup([f"P{i}" for i in range(players)], {"lay_off": lay_off})


def check(state: LordsState, before: LordsState | None) -> None:
    # money: the players hold exactly what the bank has paid out, never less than $0
    assert sum(state.money) == state.issued and min(state.money) >= 0
    # tiles: 9 of each colour, on the board or in the supply
    for colour in COLOURS:
        assert 0 <= state.tiles_left(colour) <= TILES_PER_COLOUR
    assert sum(state.tiles_left(c) for c in COLOURS) + sum(s.tile is not None for s in state.board) == 45
    # dice: 12 per player, in hand or on a tile; markers: 10 per player (11 only while one is being given up)
    for seat in range(state.n):
        assert 0 <= state.dice_out(seat) <= DICE_PER_PLAYER
        extra = 1 if isinstance(state.wait, CheckMarkers) and state.wait.seat == seat else 0
        assert len(state.marked(seat)) <= MARKERS_PER_PLAYER + extra
    # points: spaces of the track, only up, never past 90
    assert all(p in TRACK for p in state.points)
    if before is not None:
        assert all(a >= b for a, b in zip(state.points, before.points, strict=True))
    # the board: a lot is empty, marked or built; a die shows 1-6 and an empty tile nothing
    for i, space in enumerate(state.board):
        assert space.marker is None or space.tile is None
        if space.marker is not None:
            assert LOTS[i].name not in state.deck
        if space.tile is not None:
            assert (space.tile.owner is None) == (space.tile.value == 0)
            assert space.tile.value in range(7)
        if state.n == 2 and LOTS[i].block == "F":
            assert space.marker is None and space.tile is None
    # the cards: every card is in the deck or seen, once
    assert len(set(state.deck)) == len(state.deck)
    if state.phase not in ("deal",):
        assert set(state.deck) | set(state.drawn) <= set(CARDS)
    # settled boards have no boss tie between players
    if state.idle() and state.phase in ("draw", "play"):
        assert first_tie(state.board) is None
    awaiting = rules.awaiting(state)
    if awaiting.kind == "choice":
        assert awaiting.options
    if state.phase == "over":
        assert rules.outcome(state) is not None and awaiting.kind == "over"


def a_wrong_input(state: LordsState) -> Action:
    """An input the rules must refuse in ``state``."""
    awaiting = rules.awaiting(state)
    if awaiting.kind == "dice":
        assert awaiting.dice is not None
        return Roll(tuple(Die(1) for _ in range(awaiting.dice.count + 1)))
    if awaiting.kind == "card":
        seen = [c for c in CARDS if c not in state.deck and c != END_OF_GAME]
        return Card(seen[0]) if seen else Card("Z1")
    if state.phase == "play" and state.wait is None:
        return Card("A1")
    return EndTurn()


@settings(max_examples=25, deadline=None)
@given(game)
def test_random_legal_games_keep_every_invariant(params: tuple[int, int, bool]) -> None:
    seed, players, lay_off = params
    rng = random.Random(seed)
    state = new_game(players, lay_off)
    check(state, None)
    steps = 0
    while (action := random_input(rules, state, rng)) is not None:
        if rng.random() < 0.1:
            wrong = a_wrong_input(state)
            with pytest.raises(RuleViolation):
                rules.apply(state, wrong)
        after, events = rules.apply(state, action)
        check(after, state)
        state = after
        steps += 1
        assert steps < 5000, "a random game must end"
    assert state.phase == "over" and rules.outcome(state) is not None


@settings(max_examples=8, deadline=None)
@given(game)
def test_every_listed_input_is_accepted(params: tuple[int, int, bool]) -> None:
    seed, players, lay_off = params
    rng = random.Random(seed)
    state = new_game(players, lay_off)
    while (action := random_input(rules, state, rng)) is not None:
        if rng.random() < 0.2:
            for listed in rules.legal_actions(state)[:40]:
                after, _ = rules.apply(state, listed)
                check(after, state)
        state, _ = rules.apply(state, action)


@settings(max_examples=20, deadline=None)
@given(game, st.integers(0, 400))
def test_a_refused_input_changes_nothing_and_replay_is_exact(params: tuple[int, int, bool], cut: int) -> None:
    seed, players, lay_off = params
    rng = random.Random(seed)
    state = new_game(players, lay_off)
    actions = []
    while len(actions) < cut and (action := random_input(rules, state, rng)) is not None:
        state, _ = rules.apply(state, action)
        actions.append(action)
    if state.phase != "over":
        copy = replace(state)
        with pytest.raises(RuleViolation):
            rules.apply(state, a_wrong_input(state))
        assert state == copy
    again = new_game(players, lay_off)
    for action in actions:
        again, _ = rules.apply(again, rules.action_from_json(rules.action_to_json(action)))
    assert again == state
