"""Invariants of Heckmeck under random legal (and illegal) play."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.base import Die, RuleViolation
from companion.games.heckmeck.actions import Roll, Take
from companion.games.heckmeck.rules import HeckmeckRules
from companion.games.heckmeck.simulate import random_input
from companion.games.heckmeck.state import DICE, FACES, TILES, WORM, HeckmeckState, worms_on

rules = HeckmeckRules()


def check_invariants(state: HeckmeckState) -> None:
    tiles = list(state.grill) + list(state.face_down) + [t for s in state.stacks for t in s]
    assert sorted(tiles) == list(TILES), "the 16 tiles are conserved"
    assert list(state.grill) == sorted(state.grill) and list(state.face_down) == sorted(state.face_down)
    board_worms = sum(worms_on(t) for t in tiles)
    assert board_worms == 40
    assert 0 <= len(state.kept) <= DICE
    assert len(set(state.kept)) == len(Counter(state.kept))
    if state.phase == "take":
        assert len(state.roll) + len(state.kept) == DICE
        assert rules.takeable(state), "a roll with nothing to keep ends the turn at once"
    else:
        assert state.roll == ()
    if state.phase == "roll":
        assert state.kept == ()
    if state.phase == "claim":
        assert rules.claims(state)
    if state.phase == "over":
        assert state.grill == ()
    else:
        assert state.grill, "the game goes on only while a tile is face up on the grill"
        assert 0 <= state.current < len(state.players)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 7), short=st.booleans())
def test_random_legal_play_keeps_the_invariants_and_ends(seed: int, players: int, short: bool) -> None:
    rng = random.Random(seed)
    state = rules.setup([f"P{i}" for i in range(players)], {"short_variant": short})
    for _ in range(20_000):
        check_invariants(state)
        action = random_input(rules, state, rng)
        if action is None:
            break
        state, events = rules.apply(state, action)
        assert events
    assert state.phase == "over"
    outcome = rules.outcome(state)
    assert outcome is not None and outcome.winners
    worms = [sum(worms_on(t) for t in s) for s in state.stacks]
    assert all(worms[w] == max(worms) for w in outcome.winners)


action_json = st.one_of(
    st.builds(lambda f: {"type": "take", "face": f}, st.sampled_from([0, 1, 5, 6, "worm", "x"])),
    st.builds(
        lambda t, v: {"type": "claim", "tile": t, "victim": v}, st.integers(19, 38), st.none() | st.integers(-1, 7)
    ),
    st.builds(lambda d: {"type": "roll", "dice": d}, st.lists(st.sampled_from([*range(1, 7), "worm"]), max_size=9)),
    st.just({"type": "stop"}),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=3),
)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), attempts=st.lists(action_json, min_size=1, max_size=30))
def test_any_input_is_either_applied_or_refused_without_change(seed: int, attempts: list[Any]) -> None:
    rng = random.Random(seed)
    state = rules.setup(["A", "B", "C"], {})
    for attempt in attempts:
        # a few legal moves between the arbitrary ones, to reach varied states
        for _ in range(rng.randint(0, 6)):
            action = random_input(rules, state, rng)
            if action is None:
                return
            state, _ = rules.apply(state, action)
        before = state
        try:
            state, _ = rules.apply(state, rules.action_from_json(attempt))
        except RuleViolation as exc:
            assert str(exc) and state is before
        check_invariants(state)


def test_every_first_roll_offers_exactly_its_distinct_faces() -> None:
    """Enumerate all 1,287 distinct first rolls of eight dice: the take options are the faces shown."""
    start = rules.setup(["A", "B"], {})
    count = 0
    for faces in itertools.combinations_with_replacement(FACES, DICE):
        count += 1
        state, _ = rules.apply(start, Roll(tuple(Die(f) for f in faces)))
        options = [o.action for o in rules.awaiting(state).options]
        assert options == [Take(f) for f in FACES if f in faces]
        for option in options:
            after, events = rules.apply(state, option)
            n = faces.count(option.face)  # type: ignore[union-attr]
            if n == DICE:  # all eight dice kept: the turn ends at once (a claim or a failure)
                assert after.phase in ("claim", "roll")
            else:
                assert after.kept.count(option.face) == n and after.phase == "decide"  # type: ignore[union-attr]
    assert count == 1287


def test_second_roll_without_a_new_face_always_fails() -> None:
    start = rules.setup(["A", "B"], {})
    first, _ = rules.apply(start, Roll(tuple(Die(f) for f in (WORM, WORM, 1, 1, 1, 1, 1, 1))))
    kept, _ = rules.apply(first, Take(1))  # six 1s kept, two dice left
    for pair in itertools.product(FACES, repeat=2):
        after, events = rules.apply(kept, Roll(tuple(Die(f) for f in pair)))
        if set(pair) <= {1}:
            assert events[-1].kind == "failed" and after.current == 1
        else:
            assert after.phase == "take"
