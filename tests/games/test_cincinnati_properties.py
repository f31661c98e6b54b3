"""Invariants of Cincinnati under random legal play, every awaited input accepted, refusals harmless."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.base import Die, RuleViolation
from companion.games.cincinnati.actions import (
    Action,
    BuyThrow,
    Challenge,
    ChooseTable,
    NoMore,
    Pass,
    RevealCard,
    Throw,
)
from companion.games.cincinnati.cards import CHIPS_IN_GAME, DECK, DUEL
from companion.games.cincinnati.rules import CincinnatiRules
from companion.games.cincinnati.simulate import random_input
from companion.games.cincinnati.state import ROUNDS, CincinnatiState

R = CincinnatiRules()
games = st.tuples(st.integers(0, 2**32), st.integers(3, 6), st.booleans())


def new_game(players: int, virtual: bool) -> CincinnatiState:
    return R.setup([f"P{i}" for i in range(players)], {"virtual_deck": virtual})


def check(state: CincinnatiState) -> None:
    # cards: deck (with any set aside) + tables + players + discard = the 36 cards
    held = [c for p in state.players for c in p.money] + [DUEL] * sum(p.duel_cards for p in state.players)
    everywhere = [*state.unseen, *(c for t in state.on_tables for c in t), *held, *state.discard]
    assert Counter(everywhere) == Counter(DECK)
    # chips: supply + players = 20
    assert state.supply >= 0 and all(p.chips >= 0 for p in state.players)
    assert state.supply + sum(p.chips for p in state.players) == CHIPS_IN_GAME
    # rounds and cards still to come
    assert 1 <= state.round <= ROUNDS
    assert state.cards_to_reveal >= 0 and len(state.unseen) >= state.cards_to_reveal
    # dice: none or five per player, in the round and in a duel
    assert all(len(p.dice) in (0, 5) for p in state.players)
    if state.duel is not None:
        assert all(len(d) in (0, 5) for d in state.duel.dice)
        assert len(set(state.duel.order)) == len(state.duel.order) >= 2
    # secrecy: nothing in the view tells which table a player chose before all have chosen
    board = R.scoreboard(state)
    if state.phase in ("cards", "choose"):
        assert all(p["table"] is None for p in board["players"])
        assert all(t["players"] is None for t in board["tables"])
    if state.phase in ("throw", "buy", "duel", "challenge"):
        assert all(p.table in state.tables for p in state.players)
    awaiting = R.awaiting(state)
    if state.phase == "over":
        assert awaiting.kind == "over" and state.round == ROUNDS and state.cards_to_reveal == 0
        assert not state.duel_queue and sum(p.duel_cards for p in state.players) == 0
    else:
        assert awaiting.kind != "over"
        assert awaiting.players or awaiting.kind == "card"
        assert awaiting.options or awaiting.dice is not None


def roll_for(state: CincinnatiState, seat: int, rng: random.Random) -> Throw:
    return Throw(tuple(Die(rng.randint(1, 6)) for _ in range(5)), seat)


def check_inputs(state: CincinnatiState, rng: random.Random) -> None:
    """Every option offered and a fresh throw by each awaited player are accepted."""
    awaiting = R.awaiting(state)
    for option in awaiting.options:
        R.apply(state, option.action)
    if awaiting.dice is not None:
        for seat in awaiting.players:
            if state.duel is None or state.players[seat].chips or state.duel.asked is None:
                R.apply(state, roll_for(state, seat, rng))


WRONG: list[Action] = [
    RevealCard(45_000),
    ChooseTable(9, "A"),
    Throw((Die(1), Die(2))),
    Pass(9),
    BuyThrow(9),
    Challenge(9),
]


@settings(max_examples=20, deadline=None)
@given(games)
def test_random_legal_play_keeps_every_invariant_and_accepts_every_awaited_input(game: tuple[int, int, bool]) -> None:
    seed, players, virtual = game
    rng = random.Random(seed)
    state = new_game(players, virtual)
    steps = 0
    while (action := random_input(R, state, rng)) is not None:
        check(state)
        if steps % 3 == 0:
            check_inputs(state, rng)
            wrong = rng.choice(WRONG)
            with pytest.raises(RuleViolation):
                R.apply(state, wrong)
        state, events = R.apply(state, action)
        assert events
        steps += 1
    check(state)
    assert state.phase == "over" and R.outcome(state) is not None
    revealed = sum(len(t) for t in state.on_tables) + len(state.discard)
    revealed += sum(len(p.money) for p in state.players)
    assert revealed == (24 if players == 3 else 36)


@settings(max_examples=30, deadline=None)
@given(games, st.integers(0, 400))
def test_a_refused_input_changes_nothing(game: tuple[int, int, bool], stop: int) -> None:
    seed, players, virtual = game
    rng = random.Random(seed)
    state = new_game(players, virtual)
    for _ in range(stop):
        action = random_input(R, state, rng)
        if action is None:
            break
        state, _ = R.apply(state, action)
    before = replace(state)
    view = R.scoreboard(state)
    for wrong in [*WRONG, NoMore(), Pass(), ChooseTable(0, "B"), RevealCard(DUEL)]:
        try:
            R.apply(state, wrong)
        except RuleViolation:
            assert state == before and R.scoreboard(state) == view


def test_no_choice_leaks_through_events_before_the_reveal() -> None:
    rng = random.Random(5)
    state = new_game(5, False)
    while state.round < 4:
        action = random_input(R, state, rng)
        assert action is not None
        state, events = R.apply(state, action)
        for e in events:
            if e.kind == "chosen":
                assert set(e.data) == {"player"} and " table." in str(e.text) and "table A" not in str(e.text)
