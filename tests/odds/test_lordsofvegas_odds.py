"""Lords of Vegas odds: the gamble against all 36 throws, the reorganization's boss chances against a
depth-limited enumeration of every reroll, the sampler against the exact values, and the odds on
simulated games."""

from __future__ import annotations

import itertools
import random
import time
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.lordsofvegas.gamble import settle
from companion.games.lordsofvegas.rules import LordsOfVegasRules
from companion.games.lordsofvegas.simulate import random_input
from companion.odds import lordsofvegas as odds


@settings(max_examples=60, deadline=None)
@given(amount=st.integers(1, 40), boss_money=st.integers(0, 80), laid_off=st.booleans())
def test_gamble_matches_all_36_throws(amount: int, boss_money: int, laid_off: bool) -> None:
    gambler = boss = 0.0
    wins = 0
    for a, b in itertools.product(range(1, 7), repeat=2):
        s = settle(amount, a + b, boss_money, laid_off)
        gambler += s.gambler / 36
        boss -= s.boss / 36
        wins += not 5 <= a + b <= 8  # the rulebook: 5 to 8 lose, every other total wins
    got = odds.gamble_odds(amount, boss_money, laid_off)
    assert got["gambler"] == pytest.approx(gambler)
    assert got["boss_gets"] == pytest.approx(boss)
    assert got["p_double"] + got["p_win"] == pytest.approx(wins / 36)
    assert got["p_double"] + got["p_win"] + got["p_lose"] == pytest.approx(1)


def test_the_field_bet_loses_a_ninth_of_the_stake_on_average_against_a_rich_boss() -> None:
    # 2 and 12 pay double (2/36), 3, 4, 9, 10, 11 pay even (14/36), 5-8 lose (20/36): (4 + 14 - 20)/36
    assert odds.gamble_odds(18, 1000, False)["gambler"] == pytest.approx(-1.0)


def brute_bosses(owners: tuple[int, ...], depth: int = 7) -> dict[int, float]:
    """Chance of each boss, enumerating every ordered reroll up to ``depth`` rounds of ties."""

    @cache
    def go(fixed: tuple[tuple[int, int], ...], rolling: tuple[int, ...], left: int) -> tuple[tuple[int, float], ...]:
        out: dict[int, float] = {}
        if left == 0:
            return ()
        n = 6 ** len(rolling)
        for values in itertools.product(range(1, 7), repeat=len(rolling)):
            dice = fixed + tuple(zip(rolling, values, strict=True))
            top = max(v for _, v in dice)
            tops = {o for o, v in dice if v == top}
            if len(tops) == 1:
                o = tops.pop()
                out[o] = out.get(o, 0.0) + 1 / n
                continue
            rest = tuple(sorted(d for d in dice if d[1] != top))
            again = tuple(sorted(o for o, v in dice if v == top))
            for o, p in go(rest, again, left - 1):
                out[o] = out.get(o, 0.0) + p / n
        return tuple(sorted(out.items()))

    return dict(go((), owners, depth))


@pytest.mark.parametrize("owners", [(0, 1), (0, 0, 1), (0, 1, 2), (0, 0, 1, 1), (0, 0, 0, 1)])
def test_reorganize_boss_chances_match_enumeration(owners: tuple[int, ...]) -> None:
    exact, pips = odds.resolve((), owners)
    brute = brute_bosses(owners)
    for o, p in exact:
        assert brute.get(o, 0.0) == pytest.approx(p, abs=1e-5)  # the enumeration stops after 7 tie rounds
    assert sum(p for _, p in exact) == pytest.approx(1.0)
    assert sum(q for _, q in pips) > 0


def test_symmetric_owners_are_equally_likely_bosses() -> None:
    assert dict(odds.resolve((), (0, 1))[0]) == pytest.approx({0: 0.5, 1: 0.5})
    assert dict(odds.resolve((), (0, 0, 1, 1))[0]) == pytest.approx({0: 0.5, 1: 0.5})
    three = dict(odds.resolve((), (0, 0, 1))[0])
    assert three[0] > 0.5 > three[1]


def test_sampler_error_bars_hold_the_exact_chances() -> None:
    owners = (0, 0, 1, 2)
    exact = dict(odds.resolve((), owners)[0])
    freq, err, _, runs = odds.sample_reorganize(
        owners, random.Random(3), clock=time.perf_counter, budget_s=0.0, min_runs=20000
    )
    assert runs == 20000
    for o, p in exact.items():
        assert abs(freq[o] - p) <= 1.96 * err[o] + 1e-9


def test_odds_on_a_simulated_game() -> None:
    rules = LordsOfVegasRules()
    rng = random.Random(2)
    state = rules.setup(["A", "B", "C"], {"lay_off": True})
    seen: set[str] = set()
    for n in range(400):
        report = odds.odds(state, random.Random(n), clock=time.perf_counter, budget_s=0.01)
        for g in report["gambles"]:
            seen.add("gamble")
            assert 1 <= g["amount"] <= g["max"] and "if_laid_off" in g
        for r in report.get("reorganize", []):
            seen.add("reorganize")
            assert sum(b["p"] for b in r["bosses"]) == pytest.approx(
                1.0, abs=0.05 if r["method"] == "sampled" else 1e-9
            )
        for p in report["payouts"]:
            seen.add("payout")
            assert 0 <= p["p_pays"] <= 1
        if "bet" in report:
            seen.add("bet")
        if report["payouts"]:
            assert abs(sum(odds.next_card(state).values()) - 1) < 1e-9
        action = random_input(rules, state, rng)
        if action is None:
            break
        state, _ = rules.apply(state, action)
    assert {"gamble", "payout", "bet"} <= seen
