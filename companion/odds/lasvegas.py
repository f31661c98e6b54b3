"""Las Vegas: what each face the rolling player may choose does to the casinos, and the money it is
worth against the dice still to be rolled this round.

*Now* is exact: the casino's payout if the round ended after the placement (the engine's ``pay``).
*Expected money* is estimated by simulating the rest of the round many times: every later roll is
random, and every player (the chooser included) places greedily, taking the face that raises what
they would take if the round ended then the most (ties: the face placing more dice, then the lower
face). The estimate comes with its standard error and a 95% half-width (1.96 standard errors); the
caller supplies the seeded generator, the clock and the time budget, so the calculator itself is pure.
``exact_expected`` enumerates every roll instead, for states small enough (tests).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from itertools import combinations_with_replacement
from typing import Any

from companion.games.lasvegas.payout import WHITE, pay
from companion.games.lasvegas.state import CASINOS, LasVegasState

Z95 = 1.96


def takes(notes: tuple[int, ...], counts: tuple[int, ...]) -> tuple[int, ...]:
    """What each owner takes from one casino if the round ended now: ``counts`` per seat, the white
    dice last; the same rule as ``payout.pay`` (tied groups out, the rest take notes most dice first)."""
    by_count: dict[int, list[int]] = {}
    for seat, k in enumerate(counts):
        if k:
            by_count.setdefault(k, []).append(seat)
    money = [0] * len(counts)
    i = 0
    for k in sorted(by_count, reverse=True):
        seats = by_count[k]
        if len(seats) == 1 and i < len(notes):
            money[seats[0]] = notes[i]
            i += 1
    return tuple(money)


@dataclass
class Round:
    """The rest of a round as plain lists: per casino its notes (highest first) and dice per seat with
    the white dice last; the dice each seat still holds."""

    notes: list[tuple[int, ...]]
    counts: list[list[int]]
    own: list[int]
    white: list[int]

    @classmethod
    def of(cls, state: LasVegasState) -> Round:
        return cls(
            [c.notes for c in state.casinos],
            [[*c.dice, c.white] for c in state.casinos],
            list(state.own_left),
            list(state.white_left),
        )

    def __post_init__(self) -> None:
        # what each casino pays now, per seat: kept up to date by ``place`` (the simulation's hot path)
        self.now = [takes(self.notes[i], tuple(self.counts[i])) for i in range(CASINOS)]

    def copy(self) -> Round:
        new = object.__new__(Round)
        new.notes, new.counts = self.notes, [list(c) for c in self.counts]
        new.own, new.white, new.now = list(self.own), list(self.white), list(self.now)
        return new

    def money(self, seat: int) -> int:
        return sum(paid[seat] for paid in self.now)

    def gain(self, seat: int, face: int, own: int, white: int) -> int:
        after_row = list(self.counts[face - 1])
        after_row[seat] += own
        after_row[-1] += white
        return takes(self.notes[face - 1], tuple(after_row))[seat] - self.now[face - 1][seat]

    def place(self, seat: int, face: int, own: int, white: int) -> None:
        row = self.counts[face - 1]
        row[seat] += own
        row[-1] += white
        self.now[face - 1] = takes(self.notes[face - 1], tuple(row))
        self.own[seat] -= own
        self.white[seat] -= white

    def next_seat(self, seat: int) -> int | None:
        n = len(self.own)
        for step in range(1, n + 1):
            s = (seat + step) % n
            if self.own[s] + self.white[s]:
                return s
        return None


def choose(r: Round, seat: int, own: dict[int, int], white: dict[int, int]) -> int:
    """The greedy face for a roll with ``own``/``white`` dice per face."""
    faces = sorted(set(own) | set(white))
    return max(
        faces, key=lambda f: (r.gain(seat, f, own.get(f, 0), white.get(f, 0)), own.get(f, 0) + white.get(f, 0), -f)
    )


def _roll(n: int, rng: random.Random) -> dict[int, int]:
    out: dict[int, int] = {}
    for _ in range(n):
        f = rng.randint(1, 6)
        out[f] = out.get(f, 0) + 1
    return out


def rollout(r: Round, seat: int | None, rng: random.Random) -> Round:
    """Play the round out from ``seat``'s roll (None: nobody holds dice) with random rolls."""
    while seat is not None:
        own, white = _roll(r.own[seat], rng), _roll(r.white[seat], rng)
        face = choose(r, seat, own, white)
        r.place(seat, face, own.get(face, 0), white.get(face, 0))
        seat = r.next_seat(seat)
    return r


@cache
def _multisets(n: int) -> tuple[tuple[dict[int, int], float], ...]:
    out = []
    for combo in combinations_with_replacement(range(1, 7), n):
        counts: dict[int, int] = {}
        for f in combo:
            counts[f] = counts.get(f, 0) + 1
        ways = math.factorial(n)
        for c in counts.values():
            ways //= math.factorial(c)
        out.append((counts, ways / 6**n))
    return tuple(out)


def exact_expected(r: Round, seat: int | None, me: int) -> float:
    """``me``'s expected money at the round's end, every roll enumerated, the same greedy play."""
    if seat is None:
        return float(r.money(me))
    total = 0.0
    for own, p_own in _multisets(r.own[seat]):
        for white, p_white in _multisets(r.white[seat]):
            face = choose(r, seat, own, white)
            nxt = r.copy()
            nxt.place(seat, face, own.get(face, 0), white.get(face, 0))
            total += p_own * p_white * exact_expected(nxt, nxt.next_seat(seat), me)
    return total


@dataclass(frozen=True)
class Estimate:
    mean: float
    stderr: float
    rollouts: int

    @property
    def half_width(self) -> float:
        return Z95 * self.stderr

    def to_json(self) -> dict[str, Any]:
        return {"mean": self.mean, "stderr": self.stderr, "half_width": self.half_width, "rollouts": self.rollouts}


def _casino_json(notes: tuple[int, ...], counts: list[int]) -> dict[str, Any]:
    """A casino's payout if the round ended now: what each seat takes, who is tied out."""
    owners = {seat: k for seat, k in enumerate(counts[:-1])}
    owners[WHITE] = counts[-1]
    result = pay(0, notes, owners)
    return {
        "paid": [{"seat": s.seat, "dice": s.dice, "note": s.note} for s in result.ranked],
        "tied_out": [{"dice": t.dice, "seats": list(t.seats)} for t in result.ties],
    }


def odds(
    state: LasVegasState, rng: random.Random, *, clock: Callable[[], float], budget_s: float = 0.2
) -> dict[str, Any]:
    """Every face the rolling player may choose: its casino now, everyone's take if the round ended now,
    and the chooser's expected money at the round's end (simulated, with its error bar)."""
    out: dict[str, Any] = {"game": "lasvegas", "phase": state.phase, "player": state.current, "choices": []}
    if state.phase != "place":
        return out
    me = state.current
    base = Round.of(state)
    options = state.placements()
    share = budget_s / max(len(options), 1)
    roll_own = {p.face: p.own for p in options}
    roll_white = {p.face: p.white for p in options}
    greedy = choose(base, me, roll_own, roll_white)
    for p in options:
        after = base.copy()
        after.place(me, p.face, p.own, p.white)
        nxt = after.next_seat(me)
        est = estimate_from(after, nxt, me, rng, clock=clock, budget_s=share)
        out["choices"].append(
            {
                "face": p.face,
                "own": p.own,
                "white": p.white,
                "casino_before": _casino_json(base.notes[p.face - 1], base.counts[p.face - 1]),
                "casino_after": _casino_json(after.notes[p.face - 1], after.counts[p.face - 1]),
                "if_ended_now": [after.money(s) for s in range(len(state.players))],
                "expected": est.to_json(),
                "greedy": p.face == greedy,
            }
        )
    if out["choices"]:
        top = max(c["expected"]["mean"] for c in out["choices"])
        for c in out["choices"]:
            c["best"] = c["expected"]["mean"] == top
    out["policy"] = "greedy"
    return out


def estimate_from(
    after: Round,
    nxt: int | None,
    me: int,
    rng: random.Random,
    *,
    clock: Callable[[], float],
    budget_s: float,
    min_rollouts: int = 30,
    max_rollouts: int = 100_000,
) -> Estimate:
    """Mean and standard error of ``me``'s money at the round's end over rollouts from ``after`` with
    ``nxt`` to roll (None: the round is over), until the time budget is spent (at least ``min_rollouts``)."""
    if nxt is None:
        return Estimate(float(after.money(me)), 0.0, 1)
    start = clock()
    n, total, squares = 0, 0.0, 0.0
    while n < max_rollouts and (n < min_rollouts or clock() - start < budget_s):
        money = rollout(after.copy(), nxt, rng).money(me)
        n += 1
        total += money
        squares += money * money
    mean = total / n
    var = max(squares / n - mean * mean, 0.0) * n / (n - 1) if n > 1 else 0.0
    return Estimate(mean, math.sqrt(var / n), n)
