"""The 54 banknotes of Las Vegas, and how the table writes an amount.

The deck is game data, fixed by the rulebook: 2,500,000 in 54 notes. It is a module constant rather
than a seed file because it is nine numbers and the engine must not touch files.
"""

from __future__ import annotations

from collections.abc import Iterable

# value -> how many notes of that value the box holds
COMPOSITION: dict[int, int] = {
    10_000: 6,
    20_000: 8,
    30_000: 8,
    40_000: 6,
    50_000: 6,
    60_000: 5,
    70_000: 5,
    80_000: 5,
    90_000: 5,
}
VALUES: tuple[int, ...] = tuple(sorted(COMPOSITION))
DECK: tuple[int, ...] = tuple(sorted((v for v, n in COMPOSITION.items() for _ in range(n)), reverse=True))
"""Every note in the box, highest first (a multiset: the order of a real deck is the table's)."""
TOTAL = sum(DECK)
STOCK_MINIMUM = 50_000
"""A casino is stocked until its notes add up to at least this much."""

assert len(DECK) == 54 and TOTAL == 2_500_000


def highest_first(notes: Iterable[int]) -> tuple[int, ...]:
    return tuple(sorted(notes, reverse=True))


def remove_one(notes: tuple[int, ...], value: int) -> tuple[int, ...]:
    """``notes`` without one note of ``value`` (which must be there)."""
    i = notes.index(value)
    return notes[:i] + notes[i + 1 :]


def counted(notes: Iterable[int]) -> dict[int, int]:
    """How many notes of each value, by value ascending (for the tablet's note picker)."""
    out: dict[int, int] = {}
    for v in sorted(notes):
        out[v] = out.get(v, 0) + 1
    return out
