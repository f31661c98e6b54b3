"""The Heckmeck turn DP against brute force through the engine itself, on states small enough to
enumerate every roll, and against its own invariants on Hypothesis-generated states."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.base import Die
from companion.games.heckmeck.actions import Claim, Roll, Stop, Take
from companion.games.heckmeck.rules import HeckmeckRules
from companion.games.heckmeck.simulate import random_input
from companion.games.heckmeck.state import FACES, TILES, WORM, HeckmeckState
from companion.odds import heckmeck as odds

rules = HeckmeckRules()


def rolls(n: int) -> list[tuple[tuple[Any, ...], float]]:
    """Every multiset of ``n`` faces with its probability."""
    out = []
    for combo in itertools.combinations_with_replacement(FACES, n):
        ways = math.factorial(n)
        for c in Counter(combo).values():
            ways //= math.factorial(c)
        out.append((combo, ways / 6**n))
    return out


def brute(state: HeckmeckState, score: Any) -> tuple[float, float]:
    """(best objective, chance of a tile under that play) by trying every input the engine allows,
    until the turn ends; ``score(events)`` values an ending from its events."""
    me, turn = state.current, state.turn

    def after(new: HeckmeckState, events: list[Any]) -> tuple[float, float]:
        if new.turn != turn or new.phase == "over":
            claimed = any(e.kind == "claimed" for e in events)
            return score(events), 1.0 if claimed else 0.0
        return value(new)

    def value(s: HeckmeckState) -> tuple[float, float]:
        assert s.current == me
        choices: list[tuple[float, float]] = []
        if s.phase in ("roll", "decide"):
            total, chance = 0.0, 0.0
            for faces, p in rolls(s.dice_left):
                v, c = after(*rules.apply(s, Roll(tuple(Die(f) for f in faces))))
                total += p * v
                chance += p * c
            choices.append((total, chance))
        if s.phase in ("decide", "claim"):
            for claim in rules.claims(s):
                choices.append(after(*rules.apply(s, claim)))
            if s.phase == "decide" and not rules.claims(s):
                choices.append(after(*rules.apply(s, Stop())))
        if s.phase == "take":
            for face in rules.takeable(s):
                choices.append(after(*rules.apply(s, Take(face))))
        best = max(v for v, _ in choices)
        return best, max(c for v, c in choices if v >= best - 1e-12)  # ties: the engine may pick either

    return value(state)


def worm_score(state: HeckmeckState) -> Any:
    own = state.stacks[state.current]
    lost = (own[-1] - 17) // 4 if own else 0

    def score(events: list[Any]) -> float:
        for e in events:
            if e.kind == "claimed":
                return float(e.data["worms"])
        return float(-lost)

    return score


def chance_score(events: list[Any]) -> float:
    return 1.0 if any(e.kind == "claimed" for e in events) else 0.0


@st.composite
def small_states(draw: Any) -> HeckmeckState:
    """A turn under way with 1-3 dice left, on a random grill with random stack tops."""
    tiles = list(TILES)
    rnd = random.Random(draw(st.integers(0, 2**32)))
    rnd.shuffle(tiles)
    players = draw(st.integers(2, 4))
    grill = tuple(sorted(tiles[: draw(st.integers(1, 10))]))
    rest = tiles[len(grill) :]
    stacks = tuple((rest.pop(),) if rest and draw(st.booleans()) else () for _ in range(players))
    left = draw(st.integers(1, 3))
    faces = draw(st.lists(st.sampled_from(FACES), min_size=1, max_size=min(5, 8 - left), unique=True))
    counts = [1] * len(faces)
    for _ in range(8 - left - len(faces)):
        counts[draw(st.integers(0, len(faces) - 1))] += 1
    kept = tuple(f for f, c in zip(faces, counts, strict=True) for _ in range(c))
    return HeckmeckState(tuple(f"P{i}" for i in range(players)), False, grill, (), stacks, 0, "decide", (), kept)


@settings(max_examples=20, deadline=None)
@given(state=small_states())
def test_roll_on_matches_brute_force_through_the_engine(state: HeckmeckState) -> None:
    board = odds.board_of(state)
    mask, left, total = odds.mask_of(state.kept), state.dice_left, state.kept_total
    worms = odds.TurnSolver(board, odds.worm_weights(board))
    dist = worms.roll(mask, left, total)
    expected, chance = brute(state, worm_score(state))
    # the brute force may also claim at once; compare the roll-on value through a roll-only state
    roll_only = brute(_roll_only(state), worm_score(state))
    assert worms.value(dist) == pytest.approx(roll_only[0], abs=1e-9)
    assert abs(dist.sum() - 1) < 1e-9 and (dist >= -1e-15).all()
    best_now = max(worms.value(dist), worms._claim_value(mask, total) or -math.inf)
    assert best_now == pytest.approx(expected, abs=1e-9)
    safe = odds.TurnSolver(board, odds.chance_weights(), vector=False)
    assert safe.roll_value(mask, left, total) == pytest.approx(brute(_roll_only(state), chance_score)[0], abs=1e-9)


def _roll_only(state: HeckmeckState) -> HeckmeckState:
    """The same position, but the roll is forced (phase ``roll`` does not offer a claim)."""
    return HeckmeckState(**{**state.__dict__, "phase": "roll"})


@settings(max_examples=25, deadline=None)
@given(state=small_states(), seed=st.integers(0, 2**32))
def test_every_keep_matches_brute_force(state: HeckmeckState, seed: int) -> None:
    rng = random.Random(seed)
    rolled = tuple(rng.choice(FACES) for _ in range(state.dice_left))
    new, _ = rules.apply(state, Roll(tuple(Die(f) for f in rolled)))
    if new.turn != state.turn:
        return  # nothing could be kept: the turn failed at once
    report = odds.odds(new)
    faces = [k["face"] for k in report["keeps"]]
    assert faces == rules.takeable(new)
    for keep in report["keeps"]:
        after, events = rules.apply(new, Take(keep["face"]))
        expected = worm_score(new)(events) if after.turn != new.turn else brute(after, worm_score(new))[0]
        assert keep["worms"] == pytest.approx(expected, abs=1e-9)
        assert sum(e["p"] for e in keep["endings"]) == pytest.approx(1.0)
        assert keep["p_tile"] <= keep["p_tile_max"] + 1e-9
    assert sum(k["best"] for k in report["keeps"]) >= 1
    top = max(k["worms"] for k in report["keeps"])
    assert all(k["worms"] == top for k in report["keeps"] if k["best"])


def test_reach_table_falls_with_the_target_and_its_first_entry_is_any_tile() -> None:
    reach = odds.reach_table()
    assert reach == pytest.approx(odds.REACH, abs=1e-12)  # the table written out in the module
    assert len(reach) == 16 and all(a > b for a, b in zip(reach, reach[1:], strict=False))
    whole = odds.solver(odds.Board(TILES), "chance").roll_value(0, 8, 0)
    assert reach[0] == pytest.approx(whole)  # any tile needs 21 or more with a worm
    assert 0 < reach[-1] < reach[0] < 1


def test_reach_with_few_dice_matches_brute_force() -> None:
    """From 3 dice left with a worm kept and 30 points (5 worms + 5 fives) the chance of 36+."""
    state = HeckmeckState(("A", "B"), False, (36,), (), ((), ()), 0, "roll", (), (WORM,) * 3 + (5,) * 2)
    board = odds.Board((36,))
    dp = odds.solver(board, "chance").roll_value(odds.mask_of(state.kept), 3, 25)
    assert dp == pytest.approx(brute(state, chance_score)[0], abs=1e-12)


def test_a_steal_is_an_ending_with_its_victim() -> None:
    # A holds 5 worms and a 4 and must roll 2 dice; B's top tile is 33; only 36 is on the grill
    state = HeckmeckState(("A", "B"), False, (36,), (), ((), (33,)), 0, "decide", (), (WORM,) * 5 + (4,))
    report = odds.odds(state)
    steals = [e for e in report["reroll"]["endings"] if e["victim"] == 1]
    assert steals and all(e["tile"] == 33 for e in steals)
    assert report["reroll"]["p_tile"] == pytest.approx(
        1 - [e for e in report["reroll"]["endings"] if e["tile"] is None][0]["p"]
    )


def test_odds_follow_a_whole_simulated_game() -> None:
    rng = random.Random(5)
    state = rules.setup(["A", "B", "C"], {})
    seen: Counter[str] = Counter()
    for _ in range(150):  # the first turns: each new turn builds a new table (a few tenths of a second)
        report = odds.odds(state)
        seen[state.phase] += 1
        if state.phase == "roll" and not state.kept:
            assert (
                len(report["reach"]) == 16
                and 0 <= report["start"]["p_tile"] <= report["start"]["p_tile_max"] + 1e-12 <= 1 + 1e-12
            )
        if state.phase == "take":
            assert [k["face"] for k in report["keeps"]] == rules.takeable(state)
        if state.phase == "decide":
            assert report["best"] in ("stop", "reroll")
            assert (report["stop"] is None) == (not rules.claims(state))
        action = random_input(rules, state, rng)
        state, _ = rules.apply(state, action)
    assert seen["take"] and seen["decide"] and seen["roll"]
    over = HeckmeckState(**{**state.__dict__, "phase": "over"})
    assert odds.odds(over) == {"game": "heckmeck", "player": state.current, "phase": "over"}


def test_claim_prefers_more_worms_and_a_steal_on_equal_worms() -> None:
    board = odds.Board((21, 26), steal=(27,))
    assert board.claim(20) is None
    assert board.claim(25) == 0  # 21
    assert board.claim(27) == 16 + 27 - 21  # 27 steal (2 worms) over 26 (2 worms)
    assert odds.Board((29,), steal=(27,)).claim(29) == 29 - 21
    _ = Claim  # the engine's claim is what the DP's endings stand for
