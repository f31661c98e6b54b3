"""Cincinnati odds: category counts over all 7,776 throws, each keep against brute force over every
ordered re-throw, and the odds on engine states of simulated games."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.cincinnati.hands import hand, meets, table_key
from companion.games.cincinnati.rules import CincinnatiRules
from companion.games.cincinnati.simulate import random_input
from companion.odds import cincinnati as odds


def test_category_counts_over_all_7776_throws() -> None:
    # Derived by hand from the ranking (a small straight is checked before a pair): 6 five of a kind,
    # 6*5*5 four of a kind, 6*5*10 full houses, 2*120 large straights, 6*C(5,2)*20 three of a kind,
    # pairs 3600 of which 3 runs * 4 pair faces * 60 orders = 720 hold a 4-run (small straights), plus
    # 2 five-face sets with a 4-run (omit 2 or 5) * 120 = 240 more small straights, two pair 1800, and
    # the 2 remaining five-face sets (omit 3 or 4) * 120 = 240 hands with nothing.
    expected = {
        "five_of_a_kind": 6,
        "four_of_a_kind": 150,
        "large_straight": 240,
        "full_house": 300,
        "three_of_a_kind": 1200,
        "small_straight": 960,
        "two_pair": 1800,
        "pair": 2880,
        "nothing": 240,
    }
    assert odds.category_counts() == expected
    brute = Counter(hand(d).category.name.lower() for d in itertools.product(range(1, 7), repeat=5))
    assert dict(brute) == expected
    assert sum(expected.values()) == 6**5


def brute_keep(kept: tuple[int, ...], table: str, best: tuple[int, ...] | None) -> tuple[Counter[str], int, int]:
    cats: Counter[str] = Counter()
    meet = beat = 0
    for rest in itertools.product(range(1, 7), repeat=5 - len(kept)):
        dice = kept + rest
        cats[hand(dice).category.name.lower()] += 1
        if meets(table, dice):
            meet += 1
            beat += best is None or table_key(table, dice) > best
    return cats, meet, beat


@settings(max_examples=40, deadline=None)
@given(
    dice=st.lists(st.integers(1, 6), min_size=5, max_size=5),
    table=st.sampled_from("ABC"),
    other=st.one_of(st.none(), st.lists(st.integers(1, 6), min_size=5, max_size=5)),
)
def test_each_keep_matches_every_ordered_rethrow(dice: list[int], table: str, other: list[int] | None) -> None:
    best = table_key(table, other) if other is not None and meets(table, other) else None
    keeps = odds.keeps_of(tuple(sorted(dice)))
    assert len(set(keeps)) == len(keeps) and all(len(k) < 5 for k in keeps)
    for kept in keeps[:6]:  # the most-kept first: cheap to enumerate (at most 6^3 throws here)
        got = odds.keep_odds(kept, table, best, False)
        cats, meet, beat = brute_keep(kept, table, best)
        n = 6 ** (5 - len(kept))
        for name in odds.CATEGORIES:
            assert got["categories"][name] == pytest.approx(cats[name] / n, abs=1e-12)
        assert got["meets"] == pytest.approx(meet / n, abs=1e-12)
        assert got["beat"] == pytest.approx(beat / n, abs=1e-12)


def test_keeping_nothing_is_a_fresh_throw() -> None:
    fresh = odds.keep_odds((), "A", None, False)
    counts = odds.category_counts()
    for name, count in counts.items():
        assert fresh["categories"][name] == pytest.approx(count / 7776)
    three_or_better = counts["three_of_a_kind"] + counts["full_house"] + counts["four_of_a_kind"] + 6
    assert fresh["meets"] == pytest.approx(three_or_better / 7776)


def test_odds_on_simulated_games() -> None:
    rules = CincinnatiRules()
    shown = 0
    for seed in range(2):
        rng = random.Random(seed)
        state = rules.setup(["A", "B", "C", "D"], {"virtual_deck": False})
        for _ in range(300):
            report = odds.odds(state)
            for p in report["players"]:
                shown += 1
                assert p["seat"] in state.pending or report["phase"] == "duel"
                for k in p["keeps"]:
                    assert sum(k["categories"].values()) == pytest.approx(1.0)
                    assert 0 <= k["beat"] <= (k["meets"] if not p.get("duel") else 1) + 1e-12
                assert any(k["best"] for k in p["keeps"])
            action = random_input(rules, state, rng)
            if action is None:
                break
            state, _ = rules.apply(state, action)
    assert shown > 0
