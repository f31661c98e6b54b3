"""Cost of the odds calculators and the end-of-game statistics (a script, not a test: numbers only).

    .venv/bin/python benchmarks/odds.py [heckmeck|cincinnati|lasvegas|lordsofvegas|stats|all]

Each line printed is one JSON object ``{"bench": NAME, ...}`` with the median and best of several runs
in milliseconds. Cold runs clear the calculators' caches first (what the first request of a turn
pays); warm runs are what every later request of the same position or turn pays.
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # this checkout's package, not whichever the venv installed

from companion.games.base import Die  # noqa: E402
from companion.games.heckmeck.actions import Roll  # noqa: E402
from companion.games.heckmeck.rules import HeckmeckRules  # noqa: E402
from companion.odds import cincinnati, heckmeck, lasvegas, lordsofvegas  # noqa: E402

RUNS = 7


def timed(fn: Callable[[], Any], runs: int = RUNS, before: Callable[[], None] | None = None) -> dict[str, float]:
    """Wall time, and this process's CPU time (less swayed by other jobs on a shared machine)."""
    times, cpu = [], []
    for _ in range(runs):
        if before is not None:
            before()
        start, start_cpu = time.perf_counter(), time.process_time()
        fn()
        times.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
    return {
        "median_ms": round(statistics.median(times), 3),
        "best_ms": round(min(times), 3),
        "cpu_median_ms": round(statistics.median(cpu), 3),
        "cpu_best_ms": round(min(cpu), 3),
        "runs": runs,
    }


def emit(name: str, **data: Any) -> None:
    print(json.dumps({"bench": name, **data}), flush=True)


def bench_heckmeck() -> None:
    rules = HeckmeckRules()
    start = rules.setup(["A", "B", "C"], {})

    def clear() -> None:
        heckmeck.solver.cache_clear()

    emit(
        "heckmeck-turn-table",
        what="start of a turn, full grill: expected-worms DP + chance DP (cold)",
        **timed(lambda: heckmeck.odds(start), before=clear),
    )
    rolled, _ = rules.apply(start, Roll(tuple(Die(f) for f in ("worm", "worm", 4, 4, 4, 1, 2, 3))))
    heckmeck.odds(rolled)
    emit(
        "heckmeck-after-roll",
        what="every keep after a roll, the turn's table built (warm)",
        **timed(lambda: heckmeck.odds(rolled), runs=200),
    )
    emit(
        "heckmeck-after-roll-cold",
        what="every keep after a roll, nothing built yet",
        **timed(lambda: heckmeck.odds(rolled), before=clear),
    )
    emit(
        "heckmeck-reach-table",
        what="the 16 reach-at-least chances, computed (shipped written out)",
        **timed(lambda: heckmeck.reach_table(), runs=3, before=lambda: (heckmeck.reach_table.cache_clear(), clear())),
    )


def bench_cincinnati() -> None:
    from companion.odds.cincinnati import _ranked, keep_odds

    def clear() -> None:
        keep_odds.cache_clear()
        _ranked.cache_clear()

    emit(
        "cincinnati-all-keeps",
        what="31 keeps of 1 2 3 5 6 at table B, best shown: a small straight (cold)",
        **timed(lambda: cincinnati._player_odds((1, 2, 3, 5, 6), "B", (3, 4, 1), False), before=clear),
    )
    emit(
        "cincinnati-all-keeps-warm",
        what="the same, hands already ranked, keeps not cached",
        **timed(lambda: cincinnati._player_odds((1, 2, 3, 5, 6), "B", (3, 4, 1), False), before=keep_odds.cache_clear),
    )


def bench_lasvegas() -> None:
    from companion.games.lasvegas.rules import LasVegasRules
    from companion.games.lasvegas.simulate import random_input

    rules = LasVegasRules()
    rng = random.Random(1)
    state = rules.setup(["A", "B", "C", "D"], {"virtual_deck": True})
    while state.phase != "place":
        state, _ = rules.apply(state, random_input(rules, state, rng))
    for budget in (0.1, 0.2, 0.5):
        start = time.perf_counter()
        report = lasvegas.odds(state, random.Random(2), clock=time.perf_counter, budget_s=budget)
        spent = time.perf_counter() - start
        rollouts = sum(c["expected"]["rollouts"] for c in report["choices"])
        widths = [round(c["expected"]["half_width"]) for c in report["choices"]]
        emit(
            "lasvegas-first-turn",
            what="4 players, first roll of a round (31 dice still to come)",
            budget_s=budget,
            spent_ms=round(spent * 1000, 1),
            rollouts=rollouts,
            rollouts_per_s=round(rollouts / spent),
            half_widths=widths,
        )

    # a fixed number of rollouts, timed in CPU time: what a rollout costs without the other jobs' share
    base = lasvegas.Round.of(state)
    choice = state.placements()[0]
    after = base.copy()
    after.place(state.current, choice.face, choice.own, choice.white)
    nxt = after.next_seat(state.current)

    def fixed() -> None:
        lasvegas.estimate_from(
            after, nxt, state.current, random.Random(3), clock=time.perf_counter, budget_s=0.0, min_rollouts=300
        )

    emit("lasvegas-300-rollouts", what="300 rollouts of the rest of that round", **timed(fixed, runs=3))


def bench_lordsofvegas() -> None:
    emit(
        "lordsofvegas-gamble",
        what="one gamble's odds",
        **timed(lambda: lordsofvegas.gamble_odds(5, 40, True), runs=200),
    )
    for owners in ((0, 1), (0, 0, 1), (0, 0, 1, 2), (0, 0, 1, 1)):
        emit(
            "lordsofvegas-reorganize-exact",
            owners=list(owners),
            **timed(lambda o=owners: lordsofvegas.resolve((), o), runs=5, before=lordsofvegas.resolve.cache_clear),
        )
    owners6 = (0, 0, 0, 1, 1, 2)
    freq, err, _, runs = lordsofvegas.sample_reorganize(
        owners6, random.Random(1), clock=time.perf_counter, budget_s=0.1
    )
    emit(
        "lordsofvegas-reorganize-sampled",
        owners=list(owners6),
        budget_s=0.1,
        runs=runs,
        half_width=round(1.96 * max(err.values()), 4),
    )


def bench_stats() -> None:
    from companion.store.record import replay_lines
    from companion.store.stats import game_stats
    from companion.table.simulate import simulated_lines

    for game, players, options in (
        ("heckmeck", [f"P{i}" for i in range(7)], {}),
        ("lasvegas", ["A", "B", "C", "D", "E"], {"virtual_deck": True}),
        ("cincinnati", [f"P{i}" for i in range(6)], {"virtual_deck": True}),
        ("lordsofvegas", ["A", "B", "C", "D"], {}),
    ):
        timeline = replay_lines(simulated_lines(game, players, options, seed=1))
        emit("stats", game=game, inputs=len(timeline.steps), **timed(lambda t=timeline: game_stats(t), runs=5))


BENCHES = {
    "heckmeck": bench_heckmeck,
    "cincinnati": bench_cincinnati,
    "lasvegas": bench_lasvegas,
    "lordsofvegas": bench_lordsofvegas,
    "stats": bench_stats,
}

if __name__ == "__main__":
    names = sys.argv[1:] or ["all"]
    for name in BENCHES if names == ["all"] else names:
        BENCHES[name]()
