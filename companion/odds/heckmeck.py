"""Heckmeck: exact turn odds by dynamic programming over (faces kept, dice left, sum).

A turn is a finite Markov decision process. Its state between rolls is the set of faces already kept
(six bits: at most 64 sets), the number of dice left (0-8) and the sum kept so far; whether a worm is
kept is one of those bits. From a state the player either claims a tile (only with a worm kept) or
rolls the dice left; after a roll they keep every die of one face not kept yet, or the turn fails when
there is none. The value of a state is the distribution over how the turn ends (each grill tile, each
steal, or a failed turn) under the continuation that maximises an objective; the objective is a
weight per ending (expected worms won, or the chance of ending with any tile).

Each roll of ``n`` dice is enumerated as a multiset over the faces still free plus one "already kept"
class (at most C(n + 6, 6) outcomes, 1,287 for eight dice), with its multinomial probability, so the
numbers are exact (floating point sums of exact fractions). States are memoised per board: a board is
what the endings are worth this turn (the tiles on the grill, the tiles on top of other players'
stacks, the worms on the player's own top tile), so the table is built once a turn and every roll of
that turn is then a lookup.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache
from math import factorial
from typing import Any

import numpy as np

from companion.games.heckmeck.state import DICE, FACES, TILES, WORM, HeckmeckState, worms_on

POINTS = (1, 2, 3, 4, 5, 5)  # by face index: faces 1-5, then the worm
WORM_BIT = 1 << 5
FULL = (1 << 6) - 1
N_TILES = len(TILES)
BUST = 2 * N_TILES  # ending index of a failed turn; 0-15 a grill tile, 16-31 a steal
ENDINGS = BUST + 1
MAX_SUM = 5 * DICE


def face_index(face: Any) -> int:
    return FACES.index(face)


@dataclass(frozen=True)
class Board:
    """What the endings of this turn are worth: the grill, the stealable tops, the tile at risk."""

    grill: tuple[int, ...]
    steal: tuple[int, ...] = ()
    at_risk: int = 0  # worms on the player's own top tile, lost if the turn fails

    def claim(self, total: int) -> int | None:
        """The best ending open with ``total`` and a worm kept: the most worms, a steal on a tie."""
        best: int | None = None
        below = [t for t in self.grill if t <= total]
        if below:
            best = below[-1] - TILES[0]
        if total in self.steal:
            steal = N_TILES + total - TILES[0]
            if best is None or worms_on(total) >= worms_on(below[-1]):
                best = steal
        return best


def worm_weights(board: Board) -> np.ndarray:
    """Expected worms won: a tile's worms, or minus the worms of the top tile lost on a failed turn."""
    w = np.array([worms_on(t) for t in TILES] * 2 + [-board.at_risk], dtype=float)
    return w


def chance_weights() -> np.ndarray:
    """The chance of ending the turn with any tile."""
    w = np.ones(ENDINGS)
    w[BUST] = 0.0
    return w


@cache
def _outcomes(n: int, m: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every roll of ``n`` dice as counts over ``m`` free faces (columns) plus one kept class, and its
    probability: multinomial, each free face 1/6, the kept class (6 - m)/6."""
    rows: list[tuple[int, ...]] = []

    def parts(left: int, slots: int, prefix: tuple[int, ...]) -> None:
        if slots == 1:
            rows.append((*prefix, left))
            return
        for c in range(left + 1):
            parts(left - c, slots - 1, (*prefix, c))

    parts(n, m + 1, ())
    kept_p = (6 - m) / 6
    probs = []
    for row in rows:
        ways = factorial(n)
        for c in row:
            ways //= factorial(c)
        probs.append(ways * (1 / 6) ** (n - row[-1]) * kept_p ** row[-1])
    counts = np.array(rows, dtype=np.intp).reshape(len(rows), m + 1)[:, :m]
    return counts, np.array(probs), np.arange(len(rows)), np.arange(m)


class TurnSolver:
    """The memoised turn DP for one board and one objective.

    With ``vector`` the value of a state is its distribution over endings (from which the objective
    follows); without, only the objective is kept (a scalar, several times cheaper), which is all the
    chance of reaching a tile needs.
    """

    def __init__(self, board: Board, weights: np.ndarray, *, vector: bool = True) -> None:
        self.board = board
        self.weights = weights
        self.vector = vector
        self._claims = [board.claim(s) for s in range(MAX_SUM + 1)]
        self._after: dict[tuple[int, int, int], Any] = {}
        self._after_value: dict[tuple[int, int, int], float] = {}
        self._roll: dict[tuple[int, int, int], Any] = {}
        self._roll_value: dict[tuple[int, int, int], float] = {}
        self._one_hot = np.eye(ENDINGS)
        self._bust = float(weights[BUST])

    def value(self, dist: np.ndarray) -> float:
        return float(dist @ self.weights)

    def claim_now(self, mask: int, total: int) -> np.ndarray | None:
        """The ending of claiming now, or None when no tile can be taken (no worm, or nothing reached)."""
        if not mask & WORM_BIT:
            return None
        index = self._claims[total]
        return None if index is None else self._one_hot[index]

    def _claim_value(self, mask: int, total: int) -> float | None:
        if not mask & WORM_BIT:
            return None
        index = self._claims[total]
        return None if index is None else float(self.weights[index])

    def after(self, mask: int, left: int, total: int) -> Any:
        """The endings (or the objective, scalar mode) from just after a keep: claim, or roll on; out of
        dice or faces, claim or fail."""
        key = (mask, left, total)
        if key not in self._after_value:
            self._solve_after(key)
        return self._after[key]

    def after_value(self, mask: int, left: int, total: int) -> float:
        key = (mask, left, total)
        if key not in self._after_value:
            self._solve_after(key)
        return self._after_value[key]

    def _solve_after(self, key: tuple[int, int, int]) -> None:
        mask, left, total = key
        claim = self._claim_value(mask, total)
        if left == 0 or mask == FULL:
            value = claim if claim is not None else self._bust
            index = BUST if claim is None else self._claims[total]
            dist = self._one_hot[index] if self.vector else value
        else:
            roll_value = self.roll_value(mask, left, total)
            if claim is not None and claim >= roll_value:
                value = claim
                dist = self._one_hot[self._claims[total]] if self.vector else value
            else:
                value = roll_value
                dist = self._roll[(mask, left, total)]
        self._after[key] = dist
        self._after_value[key] = value

    def roll(self, mask: int, left: int, total: int) -> Any:
        """The endings (or the objective) of rolling ``left`` dice now and keeping the best face shown."""
        key = (mask, left, total)
        if key not in self._roll_value:
            self._solve_roll(key)
        return self._roll[key]

    def roll_value(self, mask: int, left: int, total: int) -> float:
        key = (mask, left, total)
        if key not in self._roll_value:
            self._solve_roll(key)
        return self._roll_value[key]

    def _solve_roll(self, key: tuple[int, int, int]) -> None:
        mask, left, total = key
        free = [f for f in range(6) if not mask & (1 << f)]
        counts, probs, rows, faces = _outcomes(left, len(free))
        width = left + 1
        known = self._after_value
        scores = []
        for f in free:
            row = [-np.inf] * width
            bit, points = mask | (1 << f), POINTS[f]
            for c in range(1, width):
                after = (bit, left - c, total + c * points)
                value = known.get(after)
                row[c] = value if value is not None else self.after_value(*after)
            scores.append(row)
        table = np.array(scores)[faces, counts]  # (outcomes, free faces)
        choice = np.argmax(table, axis=1)
        best = table[rows, choice]
        ok = best > -np.inf
        value = float(probs[ok] @ best[ok]) + float(probs[~ok].sum()) * self._bust
        if self.vector:
            index = choice[ok] * width + counts[rows[ok], choice[ok]]
            mass = np.bincount(index, weights=probs[ok], minlength=len(free) * width)
            dist = np.zeros(ENDINGS)
            for i in np.flatnonzero(mass):  # only the keeps some roll actually leads to
                j, c = divmod(int(i), width)
                f = free[j]
                dist += mass[i] * self._after[(mask | (1 << f), left - c, total + c * POINTS[f])]
            dist[BUST] += probs[~ok].sum()
            self._roll[key] = dist
        else:
            self._roll[key] = value
        self._roll_value[key] = value


@lru_cache(maxsize=8)
def solver(board: Board, objective: str) -> TurnSolver:
    """One solver per board and objective (``worms`` or ``chance``), kept for the whole turn. A few
    only: a full table of endings is about 1.3 MB."""
    if objective == "worms":
        return TurnSolver(board, worm_weights(board))
    return TurnSolver(board, chance_weights(), vector=False)


def mask_of(kept: tuple[Any, ...]) -> int:
    mask = 0
    for face in kept:
        mask |= 1 << face_index(face)
    return mask


REACH: tuple[float, ...] = (
    0.8930267371507447, 0.8556015864378133, 0.807738507474197, 0.7483733338698371,
    0.6803307111795179, 0.6069901896971659, 0.5247594468429347, 0.43542046541050783,
    0.34629328714934443, 0.26378951946478824, 0.19401493580508164, 0.13581252064274818,
    0.08677521589317956, 0.05261759391422362, 0.028907505367945428, 0.015678145193880094,
)  # fmt: skip
"""``reach_table()`` for 21-36, written out: it never changes, and computing it costs about a second
and a half here (16 solves); tests/odds checks the two agree."""


@lru_cache(maxsize=1)
def reach_table() -> tuple[float, ...]:
    """The start-of-turn chance of ending with at least 21, 22, ... 36 (a worm kept), playing for it."""
    return tuple(solver(Board((t,)), "chance").roll_value(0, DICE, 0) for t in TILES)


def board_of(state: HeckmeckState) -> Board:
    me = state.current
    tops = tuple(sorted(s[-1] for seat, s in enumerate(state.stacks) if seat != me and s))
    own = state.stacks[me]
    return Board(state.grill, tops, worms_on(own[-1]) if own else 0)


def endings(dist: np.ndarray, state: HeckmeckState) -> list[dict[str, Any]]:
    """The endings with a chance above zero: ``{"tile", "victim" (seat or None), "p"}``; a failed turn
    is ``{"tile": None}``."""
    owner = {s[-1]: seat for seat, s in enumerate(state.stacks) if s and seat != state.current}
    out: list[dict[str, Any]] = []
    for i, p in enumerate(dist):
        if p <= 1e-12:
            continue
        if i == BUST:
            out.append({"tile": None, "victim": None, "p": float(p)})
        elif i < N_TILES:
            out.append({"tile": TILES[i], "victim": None, "p": float(p)})
        else:
            tile = TILES[i - N_TILES]
            out.append({"tile": tile, "victim": owner.get(tile), "p": float(p)})
    return out


def summary(dist: np.ndarray, worms: TurnSolver, state: HeckmeckState) -> dict[str, Any]:
    return {
        "p_tile": float(1.0 - dist[BUST]),
        "worms": worms.value(dist),
        "endings": endings(dist, state),
    }


def odds(state: HeckmeckState) -> dict[str, Any]:
    """Everything the odds panel shows for the player to move. Under the continuation that maximises
    expected worms: each legal keep (``take`` phase), rolling on against claiming now (``decide``), the
    turn from its start (``roll`` with nothing kept); ``p_tile_max`` is the best chance of any tile."""
    out: dict[str, Any] = {"game": "heckmeck", "player": state.current, "phase": state.phase}
    if state.phase == "over":
        return out
    board = board_of(state)
    worms = solver(board, "worms")
    chance = solver(board, "chance")
    mask, left, total = mask_of(state.kept), state.dice_left, state.kept_total
    if state.phase == "roll" and not state.kept:
        dist = worms.roll(0, DICE, 0)
        out["start"] = {**summary(dist, worms, state), "p_tile_max": chance.roll_value(0, DICE, 0)}
        out["reach"] = [{"tile": t, "p": p} for t, p in zip(TILES, REACH, strict=True)]
    elif state.phase in ("roll", "decide"):
        dist = worms.roll(mask, left, total)
        out["reroll"] = {**summary(dist, worms, state), "p_tile_max": chance.roll_value(mask, left, total)}
        claim = worms.claim_now(mask, total)
        out["stop"] = None if claim is None else summary(claim, worms, state)
        out["best"] = "stop" if claim is not None and worms.value(claim) >= worms.value(dist) else "reroll"
    elif state.phase == "take":
        keeps = []
        for face in FACES:
            if face not in state.roll or face in state.kept:
                continue
            n = state.roll.count(face)
            f = face_index(face)
            args = (mask | (1 << f), left - n, total + n * POINTS[f])
            dist = worms.after(*args)
            keeps.append(
                {
                    "face": face,
                    "count": n,
                    "total": args[2],
                    **summary(dist, worms, state),
                    "p_tile_max": chance.after_value(*args),
                }
            )
        if keeps:
            top = max(k["worms"] for k in keeps)
            for k in keeps:
                k["best"] = k["worms"] == top
        out["keeps"] = keeps
    elif state.phase == "claim":
        claim = worms.claim_now(mask, total)
        out["stop"] = None if claim is None else summary(claim, worms, state)
    return out


__all__ = ["Board", "TurnSolver", "WORM", "odds", "reach_table", "solver"]
