"""Lords of Vegas: the gamble's exact odds and value, who is boss after a reorganization, and what
each casino is expected to pay on the coming draw.

Gamble: two dice, 36 equally likely throws; each total is settled by the engine's own ``settle``
(boss paying at most what they have, the lay-off split), so the expected values follow the rules
exactly. Reorganize: every die of the casino is rerolled, then tied top dice of different players are
rerolled until one player holds the top (``ties``). The chance of each boss and each owner's expected
pips are exact: rolls are enumerated per owner as multisets; a tie moves to a position with fewer
dice left standing or, if every die rerolls again into the same tie, back to itself, which is solved
in closed form (value = sum over other outcomes / (1 - chance of the same tie)).
Coming draw: each unseen lot card is equally likely next, End of Game once the cards above it are
gone; a casino pays its owners their pips and its boss its size in points when the card names its
colour or The Strip (for a casino on The Strip). The take-over of the drawn lot is not modelled.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Callable
from functools import cache, lru_cache
from math import factorial
from typing import Any

import numpy as np

from companion.games.base import RuleViolation
from companion.games.lordsofvegas.board import END_OF_GAME, LOTS, pays
from companion.games.lordsofvegas.casinos import Casino, casinos
from companion.games.lordsofvegas.gamble import DOUBLE, WIN, gamble_targets, settle
from companion.games.lordsofvegas.reorganize import check_reorganize
from companion.games.lordsofvegas.state import GambleRoll, LayOff, LordsState
from companion.games.lordsofvegas.track import advance

Z95 = 1.96
TOTALS: dict[int, float] = {t: (6 - abs(t - 7)) / 36 for t in range(2, 13)}
Dice = tuple[tuple[int, int], ...]  # (owner, value), sorted


def gamble_odds(amount: int, boss_money: int, laid_off: bool) -> dict[str, Any]:
    """The bet's outcome chances and expected money moved (positive: to the gambler)."""
    gambler = boss = bank = 0.0
    for total, p in TOTALS.items():
        s = settle(amount, total, boss_money, laid_off)
        gambler += p * s.gambler
        boss -= p * s.boss
        bank -= p * s.bank
    return {
        "amount": amount,
        "laid_off": laid_off,
        "p_double": sum(TOTALS[t] for t in DOUBLE),
        "p_win": sum(TOTALS[t] for t in WIN),
        "p_lose": 1 - sum(TOTALS[t] for t in (*DOUBLE, *WIN)),
        "gambler": gambler,
        "boss_gets": boss,
        "bank_gets": bank,
    }


@cache
def _owner_rolls(owners: tuple[int, ...]) -> tuple[tuple[Dice, float], ...]:
    """Every roll of one die per entry of ``owners`` as (owner, value) multisets with probability."""
    groups = Counter(owners)
    per_owner = []
    for owner, count in sorted(groups.items()):
        rows = []
        for combo in itertools.combinations_with_replacement(range(1, 7), count):
            ways = factorial(count)
            for c in Counter(combo).values():
                ways //= factorial(c)
            rows.append((tuple((owner, v) for v in combo), ways / 6**count))
        per_owner.append(rows)
    out = []
    for parts in itertools.product(*per_owner):
        dice = tuple(d for part, _ in parts for d in part)
        p = 1.0
        for _, q in parts:
            p *= q
        out.append((dice, p))
    return tuple(out)


@lru_cache(maxsize=4096)
def resolve(
    standing: Dice, rolling: tuple[int, ...]
) -> tuple[tuple[tuple[int, float], ...], tuple[tuple[int, float], ...]]:
    """Roll one die for each owner in ``rolling`` beside the ``standing`` dice, then settle boss ties:
    (chance of each boss, expected pips of each owner).

    A tie is a position (dice standing, owners rerolling); rerolls can lead back to an earlier
    position, so every position reachable is collected and the absorbing Markov chain solved:
    ``x = (I - Q)^-1 b`` with ``Q`` the chances between tie positions and ``b`` what each position
    yields when a roll settles the boss at once."""
    owners = sorted({o for o, _ in standing} | set(rolling))
    column = {o: i for i, o in enumerate(owners)}
    index: dict[tuple[Dice, tuple[int, ...]], int] = {(standing, rolling): 0}
    order = [(standing, rolling)]
    moves: list[dict[int, float]] = []
    settled: list[np.ndarray] = []  # per position: chance of each boss, then expected pips of each owner
    k = len(owners)
    i = 0
    while i < len(order):
        still, again = order[i]
        row: dict[int, float] = {}
        gain = np.zeros(2 * k)
        for rolled, p in _owner_rolls(again):
            dice = still + rolled
            top = max(v for _, v in dice)
            at_top = [(o, v) for o, v in dice if v == top]
            tops = {o for o, _ in at_top}
            if len(tops) == 1:
                gain[column[tops.pop()]] += p
                for o, v in dice:
                    gain[k + column[o]] += p * v
                continue
            nxt = (tuple(sorted(d for d in dice if d[1] != top)), tuple(sorted(o for o, _ in at_top)))
            j = index.get(nxt)
            if j is None:
                j = index[nxt] = len(order)
                order.append(nxt)
            row[j] = row.get(j, 0.0) + p
        moves.append(row)
        settled.append(gain)
        i += 1
    n = len(order)
    q = np.zeros((n, n))
    for a, row in enumerate(moves):
        for b, p in row.items():
            q[a, b] = p
    x = np.linalg.solve(np.eye(n) - q, np.array(settled))[0]
    return (
        tuple((o, float(x[column[o]])) for o in owners if x[column[o]] > 0),
        tuple((o, float(x[k + column[o]])) for o in owners),
    )


EXACT_UP_TO = 4
"""Casinos with more dice than this are sampled: the tie positions reachable grow too fast (8 dice of
three owners take minutes to enumerate)."""


def sample_reorganize(
    owners: tuple[int, ...], rng: random.Random, *, clock: Callable[[], float], budget_s: float, min_runs: int = 2000
) -> tuple[dict[int, float], dict[int, float], dict[int, float], int]:
    """Reroll ``owners``' dice and settle ties, many times: (boss frequencies, their standard errors,
    mean pips per owner, runs)."""
    start = clock()
    bosses: Counter[int] = Counter()
    pips: Counter[int] = Counter()
    runs = 0
    while runs < min_runs or clock() - start < budget_s:
        values = [rng.randint(1, 6) for _ in owners]
        while True:
            top = max(values)
            at_top = [i for i, v in enumerate(values) if v == top]
            if len({owners[i] for i in at_top}) == 1:
                break
            for i in at_top:
                values[i] = rng.randint(1, 6)
        bosses[owners[at_top[0]]] += 1
        for o, v in zip(owners, values, strict=True):
            pips[o] += v
        runs += 1
    freq = {o: bosses[o] / runs for o in sorted(set(owners))}
    err = {o: math.sqrt(f * (1 - f) / runs) for o, f in freq.items()}
    return freq, err, {o: pips[o] / runs for o in sorted(set(owners))}, runs


def reorganize_odds(
    state: LordsState, casino: Casino, rng: random.Random, *, clock: Callable[[], float], budget_s: float
) -> dict[str, Any]:
    owners = tuple(sorted(o for _, o, _ in casino.dice))
    out: dict[str, Any] = {"lot": casino.name, "colour": casino.colour, "cost": casino.pips(), "boss": casino.boss}
    if len(owners) <= EXACT_UP_TO:
        bosses, pips = resolve((), owners)
        chance, errors, mean = dict(bosses), None, dict(pips)
        out["method"] = "exact"
    else:
        chance, errors, mean, runs = sample_reorganize(owners, rng, clock=clock, budget_s=budget_s)
        out["method"] = "sampled"
        out["runs"] = runs
    out["p_boss_keeps"] = chance.get(casino.boss, 0.0) if casino.boss is not None else None
    out["p_mine"] = chance.get(state.current, 0.0)
    out["bosses"] = [
        {"seat": o, "p": chance.get(o, 0.0), **({"half_width": Z95 * errors[o]} if errors else {})}
        for o in sorted(set(owners))
    ]
    out["pips_now"] = [{"seat": o, "pips": sum(v for _, oo, v in casino.dice if oo == o)} for o in sorted(set(owners))]
    out["pips_after"] = [{"seat": o, "pips": mean.get(o, 0.0)} for o in sorted(set(owners))]
    return out


def next_card(state: LordsState) -> dict[str, float]:
    """The chance of each card being drawn next."""
    lots = [c for c in state.deck if c != END_OF_GAME]
    if END_OF_GAME in state.deck:
        below = (len(LOTS) - 2 * state.n) // 4  # cards put under End of Game at setup (simulate.py)
        if len(lots) <= below:
            return {END_OF_GAME: 1.0}
    return {c: 1 / len(lots) for c in lots} if lots else {}


def payout_odds(state: LordsState) -> list[dict[str, Any]]:
    chances = next_card(state)
    out = []
    for casino in casinos(state.board):
        if not casino.dice:
            continue
        p = sum(q for card, q in chances.items() if casino.pays_on(pays(card)))
        money = {o: sum(v for _, oo, v in casino.dice if oo == o) for o in casino.owners()}
        points = 0
        if casino.boss is not None:
            now = state.points[casino.boss]
            points = advance(now, casino.size) - now
        out.append(
            {
                "lot": casino.name,
                "colour": casino.colour,
                "strip": casino.strip,
                "size": casino.size,
                "boss": casino.boss,
                "p_pays": p,
                "money": [{"seat": o, "amount": m, "expected": p * m} for o, m in sorted(money.items())],
                "points": points,
                "expected_points": p * points,
            }
        )
    return out


def odds(
    state: LordsState,
    rng: random.Random,
    *,
    clock: Callable[[], float],
    budget_s: float = 0.2,
    stake: int | None = None,
) -> dict[str, Any]:
    """Gambles open now (at ``stake``, else the largest bet), the bet being settled, reorganizations
    open now (large casinos sampled with ``rng`` within ``budget_s``), each casino's payout on the
    coming draw."""
    out: dict[str, Any] = {"game": "lordsofvegas", "phase": state.phase, "player": state.current}
    wait = state.wait
    if isinstance(wait, GambleRoll):
        out["bet"] = gamble_odds(wait.amount, state.money[wait.boss], wait.laid_off)
    elif isinstance(wait, LayOff):
        out["bet"] = gamble_odds(wait.amount, state.money[wait.boss], False)
        out["bet_laid_off"] = gamble_odds(wait.amount, state.money[wait.boss], True)
    gambles = []
    if state.phase == "play" and state.idle():
        for casino, top in gamble_targets(state):
            amount = top if stake is None else max(1, min(stake, top))
            entry = {
                "lot": casino.name,
                "colour": casino.colour,
                "boss": casino.boss,
                "max": top,
                **gamble_odds(amount, state.money[casino.boss or 0], False),
            }
            if state.lay_off:
                entry["if_laid_off"] = gamble_odds(amount, state.money[casino.boss or 0], True)
            gambles.append(entry)
        reorganizations = []
        open_now = []
        for casino in casinos(state.board):
            if state.current not in casino.owners():
                continue
            try:
                check_reorganize(state, casino.name)
            except RuleViolation:
                continue
            open_now.append(casino)
        for casino in open_now:
            share = budget_s / len(open_now)
            reorganizations.append(reorganize_odds(state, casino, rng, clock=clock, budget_s=share))
        out["reorganize"] = reorganizations
    out["gambles"] = gambles
    out["payouts"] = payout_odds(state) if state.phase in ("draw", "play") else []
    return out
