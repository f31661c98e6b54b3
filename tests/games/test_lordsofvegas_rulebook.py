"""Every worked example of the Lords of Vegas rulebook, replayed through the engine."""

from __future__ import annotations

import pytest
from lordsofvegas_play import play  # type: ignore[import-not-found]

from companion.games.base import Die, RuleViolation
from companion.games.lordsofvegas.actions import (
    ArrangeDice,
    Build,
    Card,
    Gamble,
    Remodel,
    Reorganize,
    Roll,
    Sprawl,
)
from companion.games.lordsofvegas.board import lot_named
from companion.games.lordsofvegas.casinos import casino_at, casinos
from companion.games.lordsofvegas.position import position
from companion.games.lordsofvegas.rules import LordsOfVegasRules
from companion.games.lordsofvegas.state import LordsState
from companion.games.lordsofvegas.track import advance

rules = LordsOfVegasRules()
BLUE, GREEN, RED, YELLOW = 0, 1, 2, 3
FOUR = ["Blue", "Green", "Red", "Yellow"]


def boss_at(state: LordsState, lot: str) -> int | None:
    casino = casino_at(state.board, lot_named(lot).index)
    assert casino is not None
    return casino.boss


def value_at(state: LordsState, lot: str) -> int:
    tile = state.board[lot_named(lot).index].tile
    assert tile is not None
    return tile.value


def test_rulebook_starting_money_is_the_sum_of_the_two_cards() -> None:
    # cards worth $4 and $7 give $11: A6 (a 6 lot) and A1 (a 3 lot)
    state = rules.setup(["Ann", "Bob"], {})
    state, _ = play(state, Card("A6"), Card("B2"), Card("A1"), Card("B3"))
    assert state.money == (11, 15)
    assert state.marked(0) == (lot_named("A1").index, lot_named("A6").index)
    assert state.phase == "start" and "END" in state.deck


def test_rulebook_d8_gold_card_pays_lots_and_gold_casinos() -> None:
    state = position(
        FOUR,
        tiles={
            "F9": ("gold", YELLOW, 6),  # Yellow's 1-tile gold casino in the lower right
            "C1": ("gold", GREEN, 4),  # Green's 3-tile gold casino
            "C2": ("gold", GREEN, 2),
            "C4": ("gold", BLUE, 2),
            "A1": ("brown", RED, 3),
            "B2": ("purple", BLUE, 2),
        },
        markers={"E1": GREEN},
        current=YELLOW,
        phase="draw",
    )
    state, events = play(state, Card("D8"))
    assert state.board[lot_named("D8").index].marker == YELLOW
    assert state.money == (2, 1 + 6, 0, 1 + 6)  # Blue $2; Green $1 + $6; Yellow $1 + $6
    assert state.points == (0, 3, 0, 1)
    assert state.phase == "play" and state.current == YELLOW
    assert not any(e.data.get("casino") in ("A1", "B2") for e in events)


def test_rulebook_strip_example_which_casinos_touch_the_strip() -> None:
    state = position(
        FOUR,
        tiles={
            "A3": ("brown", RED, 3),  # 1-tile brown on The Strip
            "C3": ("gold", GREEN, 6),  # 3-tile gold on The Strip
            "C6": ("gold", GREEN, 4),
            "C9": ("gold", BLUE, 4),
            "B2": ("purple", YELLOW, 2),  # 1-tile purple off The Strip
            "E1": ("gold", YELLOW, 3),  # 1-tile gold off The Strip
        },
        current=BLUE,
        phase="draw",
    )
    strip = {c.name: c.strip for c in casinos(state.board)}
    assert strip == {"A3": True, "B2": False, "C3": True, "E1": False}
    state, _ = play(state, Card("D5"))  # a Strip card
    assert state.points == (0, 3, 1, 0)
    assert state.money == (1 + 4, 10, 3, 0)


@pytest.mark.parametrize(("paid", "reached"), [(1, 8), (2, 10), (3, 10), (4, 12), (5, 12)])
def test_rulebook_scoring_track_breaks_from_space_8(paid: int, reached: int) -> None:
    assert advance(8, paid) == reached


def test_rulebook_several_one_tile_casinos_cannot_pass_the_break() -> None:
    state = position(
        ["Red", "Yellow"],
        tiles={"A1": ("aqua", 0, 3), "B3": ("aqua", 0, 3), "D2": ("aqua", 0, 3)},
        points=(8, 0),
        phase="draw",
        current=1,
    )
    state, events = play(state, Card("A3"))  # an aqua card
    assert state.points == (8, 0)
    assert [e.data["to"] for e in events if e.kind == "scored"] == [8, 8, 8]


def test_rulebook_build_a2_costs_6_with_a_2() -> None:
    state = position(["Red", "Yellow"], markers={"A2": 0}, money=(20, 0))
    state, _ = play(state, Build("A2", "gold"))
    tile = state.board[lot_named("A2").index]
    assert tile.marker is None and tile.tile is not None
    assert (tile.tile.colour, tile.tile.owner, tile.tile.value) == ("gold", 0, 2)
    assert state.money == (14, 0)


def test_rulebook_sprawl_from_a2_into_a5_costs_18_and_must_be_gold() -> None:
    state = position(["Red", "Yellow"], tiles={"A2": ("gold", 0, 2)}, markers={"A3": 1}, money=(30, 0))
    with pytest.raises(RuleViolation, match="empty lot nobody owns"):
        rules.apply(state, Sprawl("A3", "gold"))
    with pytest.raises(RuleViolation, match="casino of brown"):
        rules.apply(state, Sprawl("A5", "brown"))
    state, _ = play(state, Sprawl("A5", "gold"))
    assert state.money == (12, 0)
    assert value_at(state, "A5") == 3
    casino = casino_at(state.board, lot_named("A2").index)
    assert casino is not None and casino.size == 2 and casino.colour == "gold"


def remodel_example() -> LordsState:
    """Red's gold casino A2 (2) + A5 (3) beside Yellow's 1-tile brown casino at A3 (5)."""
    return position(
        ["Red", "Yellow"],
        tiles={"A2": ("gold", 0, 2), "A5": ("gold", 0, 3), "A3": ("brown", 1, 5)},
        money=(30, 0),
        drawn=("A5",),
    )


def test_rulebook_remodel_gold_to_brown_costs_10_and_yellow_becomes_boss() -> None:
    state, _ = play(remodel_example(), Remodel("A2", "brown"))
    assert state.money == (20, 0)
    casino = casino_at(state.board, lot_named("A2").index)
    assert casino is not None and casino.colour == "brown" and casino.size == 3
    assert casino.boss == 1


def test_rulebook_reorganize_the_merged_casino_for_10() -> None:
    state, _ = play(remodel_example(), Remodel("A2", "brown"), Reorganize("A2"))
    assert state.money == (10, 0)
    awaiting = rules.awaiting(state)
    assert awaiting.kind == "dice" and awaiting.dice is not None and awaiting.dice.reason == "reorganize"
    assert awaiting.dice.colours == (("blue", 2), ("green", 1))
    roll = (Die(5, "blue"), Die(1, "blue"), Die(4, "green"))
    state, _ = play(state, Roll(roll))
    # Red has two new values to place and chooses where each goes
    assert rules.awaiting(state).kind == "choice"
    state, _ = play(state, ArrangeDice(("A2", "A5"), (5, 1)))
    assert (value_at(state, "A2"), value_at(state, "A5"), value_at(state, "A3")) == (5, 1, 4)
    assert boss_at(state, "A3") == 0
    with pytest.raises(RuleViolation, match="already reorganized this turn"):
        rules.apply(state, Reorganize("A2"))


def test_rulebook_gamble_yellow_bets_4_at_reds_casino_and_rolls_3() -> None:
    tiles = {"C1": ("aqua", 0, 6), "C2": ("aqua", 0, 2), "C4": ("aqua", 0, 1)}
    state = position(["Red", "Yellow"], tiles=tiles, money=(20, 20), current=1)
    assert ("C1", 15) in [
        (o.action.lot, o.action.amount) for o in rules.awaiting(state).options if isinstance(o.action, Gamble)
    ]
    state, _ = play(state, Gamble("C1", 4), Roll((Die(1), Die(2))))
    assert state.money == (16, 24)


def test_rulebook_gamble_limited_by_the_boss_money() -> None:
    tiles = {"C1": ("aqua", 0, 6), "C2": ("aqua", 0, 2), "C4": ("aqua", 0, 1), "C5": ("aqua", 0, 1)}
    state = position(["Blue", "Red"], tiles=tiles, money=(15, 40), current=1)
    with pytest.raises(RuleViolation, match=r"most you can bet at C1 is \$15"):
        rules.apply(state, Gamble("C1", 20))
    state, _ = play(state, Gamble("C1", 15))
    assert state.wait is not None


def test_rulebook_tie_example_green_remodels_into_reds_casino() -> None:
    # Green's gold casino (4 and 5) next to Red's brown casino (Red 5 and 2, Yellow 2)
    state = position(
        ["Green", "Red", "Yellow"],
        tiles={
            "C1": ("gold", 0, 4),
            "C4": ("gold", 0, 5),
            "C2": ("brown", 1, 5),
            "C3": ("brown", 1, 2),
            "C6": ("brown", 2, 2),
        },
        money=(10, 0, 0),
        colours=("green", "red", "yellow"),
    )
    state, events = play(state, Remodel("C1", "brown"))
    assert any(e.kind == "boss_tie" for e in events)
    awaiting = rules.awaiting(state)
    assert awaiting.kind == "dice" and awaiting.players == (0, 1)
    assert awaiting.dice is not None and awaiting.dice.reason == "boss tie"
    assert awaiting.dice.colours == (("green", 1), ("red", 1))
    state, _ = play(state, Roll((Die(3, "green"), Die(3, "red"))))
    assert boss_at(state, "C1") == 0 and state.idle()
    assert (value_at(state, "C4"), value_at(state, "C2"), value_at(state, "C1")) == (3, 3, 4)
