"""The printed board, the 49 cards and the scoring track: the invariants of shared/games/lords-of-vegas.md."""

from __future__ import annotations

from collections import Counter

import pytest

from companion.games.lordsofvegas.board import (
    CARDS,
    COLOURS,
    COMPANY,
    DICE_PER_PLAYER,
    END_OF_GAME,
    LOTS,
    MARKERS_PER_PLAYER,
    STRIP,
    TILES_PER_COLOUR,
    TRACK,
    card_label,
    lot_named,
    pays,
)
from companion.games.lordsofvegas.track import WINNING_SPACE, advance


def test_48_lots_in_six_blocks() -> None:
    assert len(LOTS) == 48
    assert Counter(lot.block for lot in LOTS) == {"A": 6, "B": 6, "C": 12, "D": 9, "E": 6, "F": 9}


def test_cost_depends_only_on_the_die() -> None:
    assert {lot.die: lot.cost for lot in LOTS} == {1: 8, 2: 6, 3: 9, 4: 12, 5: 15, 6: 20}
    assert all(lot.cost == {1: 8, 2: 6, 3: 9, 4: 12, 5: 15, 6: 20}[lot.die] for lot in LOTS)


def test_die_counts() -> None:
    assert Counter(lot.die for lot in LOTS) == {1: 4, 2: 10, 3: 12, 4: 10, 5: 6, 6: 6}


def test_sixteen_lots_touch_the_strip_and_every_5_or_6_is_one_of_them() -> None:
    strip = {lot.name for lot in LOTS if lot.strip}
    assert strip == {"A3", "A6", "B1", "B4", "C3", "C6", "C9", "C12", "D1", "D4", "D7", "E3", "E6", "F1", "F4", "F7"}
    assert all(lot.strip for lot in LOTS if lot.die >= 5)


def test_starting_money_is_ten_minus_the_die() -> None:
    assert all(lot.start == 10 - lot.die for lot in LOTS)


@pytest.mark.parametrize(
    ("lot", "neighbours"),
    [
        ("A1", {"A2", "A4"}),
        ("A5", {"A2", "A4", "A6"}),
        ("C5", {"C2", "C4", "C6", "C8"}),
        ("C12", {"C9", "C11"}),
        ("D5", {"D2", "D4", "D6", "D8"}),
        ("E3", {"E2", "E6"}),
        ("F9", {"F6", "F8"}),
        ("B4", {"B1", "B5"}),
    ],
)
def test_neighbours_are_orthogonal_inside_a_block(lot: str, neighbours: set[str]) -> None:
    assert {LOTS[i].name for i in lot_named(lot).neighbours} == neighbours


def test_neighbours_are_symmetric_and_never_cross_a_street() -> None:
    for lot in LOTS:
        for nb in lot.neighbours:
            assert lot.index in LOTS[nb].neighbours
            assert LOTS[nb].block == lot.block


def test_49_cards_nine_per_colour_three_strip_and_end_of_game() -> None:
    assert len(CARDS) == 49 and len(set(CARDS)) == 49 and END_OF_GAME in CARDS
    counts = Counter(pays(c) for c in CARDS)
    assert counts == {**dict.fromkeys(COLOURS, 9), STRIP: 4}
    assert sorted(c for c in CARDS if c != END_OF_GAME and pays(c) == STRIP) == ["A6", "D5", "F8"]


@pytest.mark.parametrize(
    ("colour", "lots"),
    [
        ("purple", "A2 B3 B4 C3 C8 D6 D7 E2 F1"),
        ("gold", "A4 B1 C2 C7 C12 D8 E6 F3 F4"),
        ("aqua", "A3 B5 C5 C10 D3 D4 E3 F6 F7"),
        ("silver", "A5 B2 C1 C6 C11 D1 E4 F2 F9"),
        ("brown", "A1 B6 C4 C9 D2 D9 E1 E5 F5"),
    ],
)
def test_company_cards(colour: str, lots: str) -> None:
    assert {lot.name for lot in LOTS if lot.card == colour} == set(lots.split())


def test_companies_and_supply() -> None:
    assert COMPANY == {"purple": "Albion", "gold": "Sphinx", "aqua": "Vega", "silver": "Tivoli", "brown": "Pioneer"}
    assert TILES_PER_COLOUR * len(COLOURS) == 45
    assert (DICE_PER_PLAYER, MARKERS_PER_PLAYER) == (12, 10)
    assert str(card_label("D8")) == "D8 (Sphinx, gold)" and str(card_label("A6")) == "A6 (The Strip)"


def test_scoring_track_spaces() -> None:
    assert TRACK[:9] == tuple(range(9)) and 9 not in TRACK
    gaps = Counter(b - a for a, b in zip(TRACK, TRACK[1:], strict=False))
    assert gaps == {1: 8, 2: 6, 3: 4, 4: 3, 5: 2, 6: 2, 7: 1, 8: 1, 9: 1}
    assert TRACK[-1] == WINNING_SPACE == 90


def test_points_never_pass_90_and_leftovers_are_lost() -> None:
    assert advance(81, 100) == 90
    assert advance(81, 8) == 81
    assert advance(0, 9) == 8  # 8 spaces of one point; the ninth point cannot enter 10
    assert advance(0, 10) == 10
