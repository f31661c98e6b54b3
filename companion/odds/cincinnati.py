"""Cincinnati: exact odds of the throw to come, for every choice of dice to leave standing.

Five dice have 252 distinct hands (multisets); each is ranked once with the engine's own ranking
(``hands.hand``, ``hands.meets``, ``hands.table_key``). Keeping a multiset ``K`` of ``k`` dice and
re-throwing ``5 - k`` gives the hand ``K + R`` with the multinomial probability of ``R``, so each
keep's distribution over categories, the chance to meet the player's table and the chance to beat the
best throw shown there are exact sums over at most 252 terms.
"""

from __future__ import annotations

import itertools
from collections import Counter
from functools import cache, lru_cache
from math import factorial
from typing import Any

from companion.games.cincinnati.hands import DICE, FACES, Category, hand, meets, table_key
from companion.games.cincinnati.state import REGULAR_THROWS, CincinnatiState

CATEGORIES = tuple(c.name.lower() for c in sorted(Category, reverse=True))  # five_of_a_kind ... nothing
Multiset = tuple[int, ...]


@cache
def rethrows(n: int) -> tuple[tuple[Multiset, float], ...]:
    """Every multiset of ``n`` fair dice with its probability."""
    out = []
    for combo in itertools.combinations_with_replacement(FACES, n):
        ways = factorial(n)
        for c in Counter(combo).values():
            ways //= factorial(c)
        out.append((combo, ways / 6**n))
    return tuple(out)


@cache
def category_counts() -> dict[str, int]:
    """How many of the 7,776 ordered throws of five dice fall in each category."""
    counts = dict.fromkeys(CATEGORIES, 0)
    for combo, p in rethrows(DICE):
        counts[hand(combo).category.name.lower()] += round(p * 6**DICE)
    return counts


@cache
def _ranked(dice: Multiset) -> tuple[str, tuple[int, ...], dict[str, tuple[int, ...] | None]]:
    """A sorted hand's category, ranking key and, per table, its key there (None: not met)."""
    h = hand(dice)
    at = {t: (table_key(t, dice) if meets(t, dice) else None) for t in "ABC"}
    return h.category.name.lower(), (int(h.category), *h.detail), at


@lru_cache(maxsize=4096)
def keep_odds(kept: Multiset, table: str | None, best: tuple[int, ...] | None, duel: bool) -> dict[str, Any]:
    """The throw after leaving ``kept`` standing: the chance of each category; at ``table`` the chance
    to meet its condition and to beat (or tie) ``best``, the best key shown there (None: nobody meets
    it yet). In a duel, ``best`` is the opponent's hand key and the ranking alone counts."""
    cats = dict.fromkeys(CATEGORIES, 0.0)
    meet = beat = tie = 0.0
    for rest, p in rethrows(DICE - len(kept)):
        category, rank, at = _ranked(tuple(sorted(kept + rest)))
        cats[category] += p
        key = rank if duel else (at[table] if table is not None else None)
        if key is None:
            continue
        meet += p
        beat += p if best is None or key > best else 0.0
        tie += p if best is not None and key == best else 0.0
    return {"categories": cats, "meets": 1.0 if duel else meet, "beat": beat, "tie": tie}


def keeps_of(dice: Multiset) -> list[Multiset]:
    """Every distinct choice of dice to leave standing (0-4 of them), most kept first."""
    out: set[Multiset] = set()
    for k in range(DICE):
        out.update(tuple(sorted(c)) for c in itertools.combinations(dice, k))
    return sorted(out, key=lambda m: (-len(m), [-f for f in sorted(m, reverse=True)]))


def _best_at_table(state: CincinnatiState, seat: int, table: str) -> tuple[int, ...] | None:
    keys = [
        table_key(table, p.dice)
        for s, p in enumerate(state.players)
        if s != seat and p.table == table and p.dice and meets(table, p.dice)
    ]
    return max(keys) if keys else None


def _player_odds(dice: Multiset, table: str | None, best: tuple[int, ...] | None, duel: bool) -> dict[str, Any]:
    rows = []
    for kept in keeps_of(dice):
        row = keep_odds(kept, table, best, duel)
        rows.append({"keep": list(kept), **row})
    target = "beat"
    top = max(r[target] for r in rows) if rows else 0.0
    for r in rows:
        r["best"] = r[target] == top
    standing = tuple(sorted(dice))
    now: dict[str, Any] = {"category": hand(standing).category.name.lower()}
    if duel:
        key = (int(hand(standing).category), *hand(standing).detail)
        now["beats"] = best is None or key > best
    elif table is not None:
        now["meets"] = meets(table, standing)
        now["beats"] = now["meets"] and (best is None or table_key(table, standing) > best)
    return {"dice": list(standing), "table": table, "now": now, "keeps": rows}


def odds(state: CincinnatiState) -> dict[str, Any]:
    """For each player about to re-throw: every keep's category odds and chance to beat the best
    throw shown at their table (or, in a duel, the other duellists' best hand)."""
    out: dict[str, Any] = {"game": "cincinnati", "phase": state.phase, "categories": list(CATEGORIES), "players": []}
    if state.phase == "throw" and state.throw > 1:
        for seat in state.pending:
            p = state.players[seat]
            if len(p.dice) != DICE or p.table is None:
                continue
            best = _best_at_table(state, seat, p.table)
            entry = _player_odds(tuple(p.dice), p.table, best, duel=False)
            out["players"].append({"seat": seat, "chip": state.throw > REGULAR_THROWS, **entry})
    elif state.phase == "duel" and state.duel is not None:
        duel = state.duel
        seat = duel.current
        mine = duel.dice_of(seat)
        if len(mine) == DICE:
            others = [duel.dice_of(s) for s in duel.order if s != seat and len(duel.dice_of(s)) == DICE]
            best = max(((int(hand(d).category), *hand(d).detail) for d in others), default=None)
            entry = _player_odds(tuple(mine), None, best, duel=True)
            out["players"].append({"seat": seat, "duel": True, **entry})
    return out
