"""Invariants of Las Vegas under random legal play, and every awaited input being accepted."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.base import Die, RuleViolation
from companion.games.lasvegas.actions import DrawNote, Roll
from companion.games.lasvegas.banknotes import DECK, TOTAL
from companion.games.lasvegas.rules import LasVegasRules
from companion.games.lasvegas.simulate import random_input
from companion.games.lasvegas.state import OWN_DICE, ROUNDS, SPARE_WHITES, LasVegasState, whites_per_player

rules = LasVegasRules()
game = st.tuples(
    st.integers(0, 2**32),  # seed
    st.integers(2, 5),  # players
    st.booleans(),  # neutral dice (2-4 players only)
    st.integers(0, 4),  # start player (mod players)
)


def new_game(players: int, neutral: bool, first: int) -> LasVegasState:
    options = {"neutral_dice": neutral and players <= 4, "first_player": first % players}
    return rules.setup([f"P{i}" for i in range(players)], options)


def check_invariants(state: LasVegasState) -> None:
    n = len(state.players)
    # money: every note is in the deck, under it, on a casino or with a player
    notes = list(state.deck) + list(state.under) + [v for c in state.casinos for v in c.notes]
    notes += [v for w in state.won for v in w]
    assert sorted(notes, reverse=True) == list(DECK)
    assert sum(notes) == TOTAL
    # dice: 8 own per player, whites per the variant, all either in hand or on a casino this round
    whites = whites_per_player(n) if state.neutral_dice else 0
    spare = SPARE_WHITES if state.neutral_dice and n == 3 and state.phase not in ("stock", "spare") else 0
    for seat in range(n):
        on_casinos = sum(c.dice[seat] for c in state.casinos)
        assert state.own_left[seat] + on_casinos == OWN_DICE or state.phase == "over"
        assert 0 <= state.white_left[seat] <= whites
    if state.phase != "over":
        assert sum(c.white for c in state.casinos) + sum(state.white_left) == whites * n + spare
    # rounds and phases
    assert 1 <= state.round <= ROUNDS
    assert state.paid_round in (state.round - 1, ROUNDS)
    if state.phase == "stock":
        assert state.deck, "stocking waits only while a note can be drawn"
        assert all(c.total >= 50_000 for c in state.casinos[: (state.casino_to_stock() or 7) - 1])
    if state.phase in ("roll", "place"):
        assert state.dice_left(state.current) > 0
    if state.phase == "place":
        assert len(state.roll) == state.dice_left(state.current)
        assert rules.awaiting(state).options
    else:
        assert state.roll == ()
    if state.phase == "over":
        assert all(not c.notes and not any(c.dice) and not c.white for c in state.casinos)
        assert rules.outcome(state) is not None
    else:
        assert rules.outcome(state) is None


@settings(max_examples=100, deadline=None)
@given(game)
def test_random_legal_play_keeps_the_invariants_and_ends_after_four_rounds(params: tuple[int, int, bool, int]) -> None:
    seed, players, neutral, first = params
    rng = random.Random(seed)
    state = new_game(players, neutral, first)
    starts = [state.start]
    for _ in range(2_000):
        check_invariants(state)
        action = random_input(rules, state, rng)
        if action is None:
            break
        state, events = rules.apply(state, action)
        if any(e.kind == "new_round" for e in events):
            starts.append(state.start)
    else:
        raise AssertionError("the game did not end")
    assert state.phase == "over" and state.round == ROUNDS and state.paid_round == ROUNDS
    assert starts == [(first % players + r) % players for r in range(ROUNDS)]
    board = rules.scoreboard(state)
    assert sum(p["money"] for p in board["players"]) + board["deck"]["total"] + board["under"]["total"] == TOTAL


@settings(max_examples=25, deadline=None)
@given(game, st.data())
def test_every_awaited_input_is_accepted(params: tuple[int, int, bool, int], data: st.DataObject) -> None:
    """Walk a random game; at each step, any input the awaiting describes is accepted: any note value
    listed, any option, any faces for the dice spec's colours in any order."""
    seed, players, neutral, first = params
    rng = random.Random(seed)
    state = new_game(players, neutral, first)
    for _ in range(2_000):
        awaiting = rules.awaiting(state)
        if awaiting.kind == "over":
            break
        if awaiting.kind == "card":
            assert awaiting.card is not None
            for value in awaiting.card.values:
                rules.apply(state, DrawNote(value))
        elif awaiting.kind == "choice":
            assert awaiting.options
            for option in awaiting.options:
                rules.apply(state, option.action)
            assert rules.legal_actions(state) == [o.action for o in awaiting.options]
        else:
            spec = awaiting.dice
            assert spec is not None
            faces = data.draw(st.lists(st.sampled_from(spec.faces), min_size=spec.count, max_size=spec.count))
            colours = [c for c, k in spec.colours for _ in range(k)]
            order = data.draw(st.permutations(range(spec.count)))
            roll = tuple(Die(faces[i], colours[order[i]]) for i in range(spec.count))
            rules.apply(state, Roll(roll))
        action = random_input(rules, state, rng)
        assert action is not None
        state, _ = rules.apply(state, action)


@settings(max_examples=25, deadline=None)
@given(game, st.integers(-3, 3).filter(lambda d: d != 0))
def test_a_roll_with_the_wrong_number_of_dice_is_refused(params: tuple[int, int, bool, int], delta: int) -> None:
    seed, players, neutral, first = params
    rng = random.Random(seed)
    state = new_game(players, neutral, first)
    while rules.awaiting(state).kind != "dice":
        action = random_input(rules, state, rng)
        assert action is not None
        state, _ = rules.apply(state, action)
    action = random_input(rules, state, rng)
    assert isinstance(action, Roll)
    dice = list(action.dice)
    wrong = dice[:delta] if delta < 0 else dice + [Die(1, dice[0].colour)] * delta
    try:
        rules.apply(state, Roll(tuple(wrong)))
    except RuleViolation as exc:
        assert f"Expected {len(dice)} dice but {len(wrong)} were entered" in str(exc)
    else:
        raise AssertionError("a roll with the wrong number of dice was accepted")
