"""Five dice as a hand: the rulebook's ranking, and what each table asks for.

The ranking, best first: five of a kind, four of a kind, large straight, full house, three of a kind,
small straight, two pair, pair, and (the project's ruling) hands with none of these, which compare
their dice highest first. Within a category the tie-breaks are the rulebook's. Every :class:`Hand`
key below keeps *all* five dice, so two hands compare equal exactly when their dice are the same:
that is the "identical result" on which duels and tie-breaks turn.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum

from companion.games.messages import Msg, msg, nmsg

FACES: tuple[int, ...] = (1, 2, 3, 4, 5, 6)
DICE = 5
TABLE_NAMES: dict[str, str] = {"A": "Atlantic", "B": "Ballroom", "C": "Caesar's"}
"""The casinos' printed names: proper names, the same in every language."""
TABLE_C_LIMIT = 11
SMALL_RUNS: tuple[tuple[int, ...], ...] = ((3, 4, 5, 6), (2, 3, 4, 5), (1, 2, 3, 4))  # best first
LARGE_RUNS: tuple[frozenset[int], ...] = (frozenset((2, 3, 4, 5, 6)), frozenset((1, 2, 3, 4, 5)))


class Category(IntEnum):
    """Hand categories; a higher value beats a lower one."""

    NOTHING = 0
    PAIR = 1
    TWO_PAIR = 2
    SMALL_STRAIGHT = 3
    THREE_OF_A_KIND = 4
    FULL_HOUSE = 5
    LARGE_STRAIGHT = 6
    FOUR_OF_A_KIND = 7
    FIVE_OF_A_KIND = 8

    @property
    def words(self) -> str:
        return self.name.lower().replace("_", " ")


THREE_OR_BETTER = frozenset(
    {Category.THREE_OF_A_KIND, Category.FULL_HOUSE, Category.FOUR_OF_A_KIND, Category.FIVE_OF_A_KIND}
)
STRAIGHTS = frozenset({Category.SMALL_STRAIGHT, Category.LARGE_STRAIGHT})


@dataclass(frozen=True, order=True)
class Hand:
    """A ranked hand: compare hands with ``<`` and ``==``; ``detail`` holds the tie-breaking faces."""

    category: Category
    detail: tuple[int, ...]

    def describe(self) -> Msg:
        c, d = self.category, self.detail
        if c == Category.FIVE_OF_A_KIND:
            return msg("five {face}s", face=d[0])
        if c == Category.FOUR_OF_A_KIND:
            return msg("four {face}s", face=d[0])
        if c == Category.LARGE_STRAIGHT:
            return msg("large straight {low}-{high}", low=d[0] - 4, high=d[0])
        if c == Category.FULL_HOUSE:
            return msg("full house, {face}s over {other}s", face=d[0], other=d[1])
        if c == Category.THREE_OF_A_KIND:
            return msg("three {face}s", face=d[0])
        if c == Category.SMALL_STRAIGHT:
            return msg("small straight {low}-{high}", low=d[0] - 3, high=d[0])
        if c == Category.TWO_PAIR:
            return msg("two pair, {face}s and {other}s", face=d[0], other=d[1])
        if c == Category.PAIR:
            return msg("pair of {face}s", face=d[0])
        return msg("no combination")


def _check(dice: Sequence[int]) -> list[int]:
    faces = sorted(dice, reverse=True)
    if len(faces) != DICE or any(f not in FACES for f in faces):
        raise ValueError(f"a hand is five faces 1-6, not {list(dice)}")
    return faces


def hand(dice: Sequence[int]) -> Hand:
    """Rank five dice (any order)."""
    faces = _check(dice)
    counts = Counter(faces)
    # faces grouped: most copies first, then higher face first
    groups = sorted(counts, key=lambda f: (counts[f], f), reverse=True)
    shape = sorted(counts.values(), reverse=True)
    if shape == [5]:
        return Hand(Category.FIVE_OF_A_KIND, (groups[0],))
    if shape == [4, 1]:
        return Hand(Category.FOUR_OF_A_KIND, (groups[0], groups[1]))
    if frozenset(faces) in LARGE_RUNS:
        return Hand(Category.LARGE_STRAIGHT, (faces[0],))
    if shape == [3, 2]:
        return Hand(Category.FULL_HOUSE, (groups[0], groups[1]))
    if shape == [3, 1, 1]:
        return Hand(Category.THREE_OF_A_KIND, tuple(groups))  # the three, then the higher, the lower single
    for run in SMALL_RUNS:
        if set(run) <= counts.keys():
            rest = list(faces)
            for f in run:
                rest.remove(f)
            return Hand(Category.SMALL_STRAIGHT, (run[-1], rest[0]))
    if shape == [2, 2, 1]:
        return Hand(Category.TWO_PAIR, tuple(groups))  # higher pair, lower pair, the fifth die
    if shape == [2, 1, 1, 1]:
        return Hand(Category.PAIR, tuple(groups))  # the pair, then the others highest first
    return Hand(Category.NOTHING, tuple(faces))


def meets(table: str, dice: Sequence[int]) -> bool:
    """Whether a throw fulfils a table's condition: A three of a kind or better (full house, four, five
    included), B a small or large straight, C at most 11 pips."""
    if table == "A":
        return hand(dice).category in THREE_OR_BETTER
    if table == "B":
        return hand(dice).category in STRAIGHTS
    if table == "C":
        return sum(_check(dice)) <= TABLE_C_LIMIT
    raise ValueError(f"no table {table!r}")


def table_key(table: str, dice: Sequence[int]) -> tuple[int, ...]:
    """A key where higher is better among throws that meet ``table``'s condition.

    A and B use the ranking. C: fewer pips first, then more 1s, then more 2s, and so on.
    """
    if table in ("A", "B"):
        h = hand(dice)
        return (int(h.category), *h.detail)
    faces = _check(dice)
    return (-sum(faces), *(faces.count(f) for f in FACES))


def describe_for(table: str, dice: Sequence[int]) -> Msg:
    """``full house, 6s over 2s`` at A and B; ``9 pips`` at C."""
    if table == "C":
        total = sum(dice)
        return nmsg("{n} pip", "{n} pips", total)
    return hand(dice).describe()


def shown(dice: Sequence[int]) -> str:
    """``6 6 4 4 2``: dice highest first, as the log shows them."""
    return " ".join(str(f) for f in sorted(dice, reverse=True))
