"""Las Vegas odds: the quick payout agrees with the engine's, and the simulation's error bar holds the
value found by enumerating every roll on states small enough to enumerate."""

from __future__ import annotations

import random
import time

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.base import Die
from companion.games.lasvegas.actions import Place
from companion.games.lasvegas.payout import WHITE, pay
from companion.games.lasvegas.rules import LasVegasRules
from companion.games.lasvegas.simulate import random_input
from companion.games.lasvegas.state import Casino, LasVegasState
from companion.odds import lasvegas as odds

NOTES = st.lists(st.sampled_from([10_000, 20_000, 50_000, 90_000]), min_size=1, max_size=4).map(
    lambda xs: tuple(sorted(xs, reverse=True))
)


@settings(max_examples=200, deadline=None)
@given(notes=NOTES, counts=st.lists(st.integers(0, 4), min_size=3, max_size=6))
def test_takes_is_the_engine_payout(notes: tuple[int, ...], counts: list[int]) -> None:
    owners = {seat: k for seat, k in enumerate(counts[:-1])}
    owners[WHITE] = counts[-1]
    result = pay(1, notes, owners)
    got = odds.takes(notes, tuple(counts))
    for seat in range(len(counts) - 1):
        assert got[seat] == (result.won_by(seat) or 0)


def small_state(seed: int) -> LasVegasState:
    """Two players late in a round: a roll of 2 dice to place, the other player holding 1-2 dice."""
    rng = random.Random(seed)
    casinos = []
    for i in range(1, 7):
        notes = tuple(
            sorted(rng.sample([90_000, 60_000, 50_000, 30_000, 20_000, 10_000], rng.randint(1, 3)), reverse=True)
        )
        casinos.append(Casino(i, notes, (rng.randint(0, 2), rng.randint(0, 2)), 0))
    roll = tuple(Die(rng.randint(1, 6), "red") for _ in range(2))
    return LasVegasState(
        players=("A", "B"),
        colours=("red", "blue"),
        neutral_dice=False,
        virtual_deck=True,
        money_open=True,
        round=1,
        start=0,
        current=0,
        phase="place",
        deck=(),
        under=(),
        casinos=tuple(casinos),
        own_left=(2, rng.randint(1, 2)),
        white_left=(0, 0),
        won=((), ()),
        roll=roll,
    )


def test_error_bars_hold_the_enumerated_value() -> None:
    """Each choice's 95% interval should hold the exact value about 95% of the time; with fixed seeds
    the count is fixed too, and must be at least 90%."""
    held = total = 0
    for seed in range(12):
        state = small_state(seed)
        report = odds.odds(state, random.Random(seed), clock=time.perf_counter, budget_s=0.0)
        base = odds.Round.of(state)
        for choice in report["choices"]:
            after = base.copy()
            after.place(0, choice["face"], choice["own"], choice["white"])
            exact = odds.exact_expected(after, after.next_seat(0), 0)
            est = odds.estimate_from(
                after,
                after.next_seat(0),
                0,
                random.Random(seed * 7 + 1),
                clock=time.perf_counter,
                budget_s=0.0,
                min_rollouts=400,
            )
            total += 1
            held += abs(est.mean - exact) <= est.half_width or est.stderr == 0 and est.mean == exact
    assert total >= 12
    assert held / total >= 0.9, (held, total)


def test_a_placement_shows_each_players_take_now() -> None:
    rules = LasVegasRules()
    rng = random.Random(4)
    state = rules.setup(["A", "B", "C"], {"virtual_deck": True})
    while state.phase != "place":
        state, _ = rules.apply(state, random_input(rules, state, rng))
    ticks = iter(range(10**6))
    report = odds.odds(state, random.Random(1), clock=lambda: next(ticks) * 0.001, budget_s=0.05)
    faces = [p.face for p in state.placements()]
    assert [c["face"] for c in report["choices"]] == faces
    for c in report["choices"]:
        new, _ = rules.apply(state, Place(c["face"]))
        after = odds.Round.of(new)
        assert c["if_ended_now"] == [after.money(s) for s in range(3)]
        assert c["expected"]["rollouts"] >= 30 and c["expected"]["half_width"] >= 0
    assert sum(c["best"] for c in report["choices"]) >= 1
    assert sum(c["greedy"] for c in report["choices"]) == 1
