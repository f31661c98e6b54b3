"""The Cincinnati hand ranking and the tables' conditions, checked over every roll of five dice."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from companion.games.cincinnati.hands import Category, hand, meets, table_key

ALL_ROLLS = list(itertools.product(range(1, 7), repeat=5))


def classic(dice: tuple[int, ...]) -> Category:
    """The poker-dice category, where a small straight is no category of its own but a pair or nothing."""
    category = hand(dice).category
    if category != Category.SMALL_STRAIGHT:
        return category
    return Category.PAIR if len(set(dice)) == 4 else Category.NOTHING


def test_every_roll_of_five_dice_counts_as_the_style_guide_says() -> None:
    counts = Counter(classic(r) for r in ALL_ROLLS)
    assert len(ALL_ROLLS) == 7776
    assert counts == {
        Category.FIVE_OF_A_KIND: 6,
        Category.FOUR_OF_A_KIND: 150,
        Category.FULL_HOUSE: 300,
        Category.LARGE_STRAIGHT: 240,
        Category.THREE_OF_A_KIND: 1200,
        Category.TWO_PAIR: 1800,
        Category.PAIR: 3600,
        Category.NOTHING: 480,
    }


def test_every_roll_in_cincinnati_categories_small_straights_taken_from_pairs_and_nothing() -> None:
    counts = Counter(hand(r).category for r in ALL_ROLLS)
    assert counts[Category.SMALL_STRAIGHT] == 960  # 720 with a pair, 240 with five different faces
    assert counts[Category.PAIR] == 3600 - 720
    assert counts[Category.NOTHING] == 480 - 240
    assert sum(counts.values()) == 7776


def test_hands_are_equal_exactly_when_the_dice_are_the_same() -> None:
    by_hand: dict[object, set[tuple[int, ...]]] = {}
    for r in ALL_ROLLS:
        by_hand.setdefault(hand(r), set()).add(tuple(sorted(r)))
    assert all(len(v) == 1 for v in by_hand.values())
    assert len(by_hand) == 252  # the multisets of five dice
    for table in ("A", "B", "C"):
        keys = {table_key(table, r) for r in ALL_ROLLS}
        assert len(keys) == 252


def test_rulebook_ranking_of_categories_best_first() -> None:
    ladder = [
        (6, 6, 6, 6, 6),  # five of a kind
        (1, 1, 1, 1, 2),  # four of a kind
        (1, 2, 3, 4, 5),  # large straight
        (1, 1, 1, 2, 2),  # full house
        (1, 1, 1, 2, 3),  # three of a kind
        (1, 2, 3, 4, 1),  # small straight
        (1, 1, 2, 2, 3),  # two pair
        (1, 1, 2, 3, 5),  # pair
        (6, 5, 4, 2, 1),  # none of these
    ]
    hands = [hand(d) for d in ladder]
    assert hands == sorted(hands, reverse=True)
    assert [h.category for h in hands] == sorted(Category, reverse=True)


@pytest.mark.parametrize(
    ("better", "worse"),
    [
        ((6, 6, 6, 6, 6), (5, 5, 5, 5, 5)),  # five 6s beat five 5s
        ((6, 6, 6, 6, 1), (5, 5, 5, 5, 6)),  # four 6s beat four 5s
        ((4, 4, 4, 4, 3), (4, 4, 4, 4, 2)),  # equal fours: the fifth die
        ((2, 3, 4, 5, 6), (1, 2, 3, 4, 5)),  # large straight 2-6 beats 1-5
        ((3, 3, 3, 1, 1), (2, 2, 2, 6, 6)),  # full house: the higher three
        ((3, 3, 3, 2, 2), (3, 3, 3, 1, 1)),  # same three: the higher pair
        ((6, 6, 6, 1, 2), (5, 5, 5, 6, 4)),  # three 6s beat three 5s
        ((5, 5, 5, 4, 1), (5, 5, 5, 3, 2)),  # same three: the higher other die
        ((3, 4, 5, 6, 1), (2, 3, 4, 5, 5)),  # small straight 3-6 beats 2-5
        ((2, 3, 4, 5, 1), (1, 2, 3, 4, 6)),  # 2-5 beats 1-4 (a 6 with 1-4 is no 2-5)
        ((1, 2, 3, 4, 4), (1, 2, 3, 4, 2)),  # same small straight: the higher fifth die
        ((6, 6, 3, 3, 1), (6, 6, 1, 1, 5)),  # two pair: the higher pair, then the lower
        ((6, 6, 1, 1, 5), (5, 5, 4, 4, 3)),
        ((5, 5, 4, 4, 3), (5, 5, 4, 4, 2)),  # same two pairs: the fifth die
        ((6, 6, 5, 4, 1), (6, 6, 5, 3, 2)),  # pair: then the third die, the fourth ...
        ((6, 6, 1, 2, 3), (5, 5, 6, 4, 2)),  # pair of 6s beats pair of 5s
    ],
)
def test_rulebook_ranking_examples(better: tuple[int, ...], worse: tuple[int, ...]) -> None:
    assert hand(better) > hand(worse)


def test_ruling_a_hand_with_no_combination_ranks_below_a_pair_and_compares_highest_first() -> None:
    nothing = [r for r in ALL_ROLLS if hand(r).category == Category.NOTHING]
    worst_pair = hand((1, 1, 2, 3, 5))
    assert all(hand(r) < worst_pair for r in nothing)
    assert hand((6, 5, 4, 2, 1)) > hand((6, 5, 3, 2, 1))  # 6 and 5 equal, then 4 beats 3
    assert {tuple(sorted(r)) for r in nothing} == {(1, 2, 3, 5, 6), (1, 2, 4, 5, 6)}


def test_ruling_three_of_a_kind_against_the_same_three_the_other_two_decide_higher_first() -> None:
    assert hand((4, 4, 4, 6, 1)) > hand((4, 4, 4, 5, 3))  # 6 beats 5, whatever the lower die
    assert hand((4, 4, 4, 6, 2)) > hand((4, 4, 4, 6, 1))  # equal higher: the lower one
    assert hand((4, 4, 4, 6, 2)) == hand((2, 4, 6, 4, 4))


def test_rulebook_table_a_needs_three_of_a_kind_and_four_five_or_full_house_contain_one() -> None:
    assert meets("A", (2, 2, 2, 5, 6))
    assert meets("A", (2, 2, 2, 5, 5))
    assert meets("A", (2, 2, 2, 2, 6))
    assert meets("A", (2, 2, 2, 2, 2))
    assert not meets("A", (2, 2, 5, 5, 6))
    assert not meets("A", (1, 2, 3, 4, 5))
    # five > four > full house > three at the table
    order = [(1, 1, 1, 1, 1), (6, 6, 6, 6, 5), (6, 6, 6, 5, 5), (6, 6, 6, 5, 4)]
    keys = [table_key("A", d) for d in order]
    assert keys == sorted(keys, reverse=True)


def test_rulebook_table_b_needs_a_straight_ranked_large_2_6_first() -> None:
    order = [(2, 3, 4, 5, 6), (1, 2, 3, 4, 5), (3, 4, 5, 6, 6), (2, 3, 4, 5, 5), (1, 2, 3, 4, 4)]
    assert all(meets("B", d) for d in order)
    keys = [table_key("B", d) for d in order]
    assert keys == sorted(keys, reverse=True)
    assert not meets("B", (1, 2, 3, 5, 6))
    assert not meets("B", (6, 6, 6, 6, 6))


def test_rulebook_table_c_needs_at_most_eleven_lowest_wins_then_more_ones() -> None:
    assert meets("C", (1, 2, 2, 3, 3)) and meets("C", (1, 1, 1, 4, 4)) and not meets("C", (1, 1, 2, 4, 4))
    assert table_key("C", (1, 1, 1, 1, 4)) > table_key("C", (1, 1, 1, 2, 3))  # 8 pips, four 1s
    assert table_key("C", (1, 1, 1, 3, 4)) > table_key("C", (1, 2, 2, 2, 3))  # the rulebook's example
    assert table_key("C", (1, 1, 1, 3, 3)) > table_key("C", (1, 2, 2, 2, 2))  # 9 pips each: three 1s beat one
    assert table_key("C", (1, 1, 2, 2, 3)) > table_key("C", (1, 1, 2, 2, 4))  # 9 pips beat 10


def test_a_hand_is_five_faces_one_to_six() -> None:
    with pytest.raises(ValueError):
        hand((1, 2, 3, 4))
    with pytest.raises(ValueError):
        hand((1, 2, 3, 4, 7))
