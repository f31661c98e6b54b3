"""The rules of Lords of Vegas and every ruling of shared/games/rulings.md, one behaviour per test."""

from __future__ import annotations

from dataclasses import replace

import pytest
from lordsofvegas_play import play  # type: ignore[import-not-found]

from companion.games import get_rules
from companion.games.base import Die, RuleViolation
from companion.games.lordsofvegas.actions import (
    Action,
    ArrangeDice,
    Build,
    Card,
    EndTurn,
    Gamble,
    GiveUpLot,
    LayOffChoice,
    MoveDie,
    Remodel,
    Reorganize,
    Roll,
    Sprawl,
    StartPlayer,
    Trade,
)
from companion.games.lordsofvegas.board import LOTS, lot_named
from companion.games.lordsofvegas.casinos import casino_at
from companion.games.lordsofvegas.gamble import settle
from companion.games.lordsofvegas.position import position
from companion.games.lordsofvegas.rules import LordsOfVegasRules
from companion.games.lordsofvegas.state import LordsState, Space, Tile

rules = LordsOfVegasRules()


def tile(state: LordsState, lot: str) -> Tile:
    t = state.board[lot_named(lot).index].tile
    assert t is not None
    return t


def boss_at(state: LordsState, lot: str) -> int | None:
    casino = casino_at(state.board, lot_named(lot).index)
    assert casino is not None
    return casino.boss


def refused(state: LordsState, action: Action, match: str) -> None:
    with pytest.raises(RuleViolation, match=match):
        rules.apply(state, action)


# --- setup ---------------------------------------------------------------------------------------


def test_registered_and_player_counts() -> None:
    assert isinstance(get_rules("lordsofvegas"), LordsOfVegasRules)
    with pytest.raises(RuleViolation, match="2 to 4 players"):
        rules.setup(["A", "B", "C", "D", "E"], {})
    with pytest.raises(RuleViolation, match="no option"):
        rules.setup(["A", "B"], {"house_rules": True})


def test_setup_deals_two_cards_each_then_the_roll_off_names_the_start_player() -> None:
    state = rules.setup(["Ann", "Bob", "Cy"], {})
    awaiting = rules.awaiting(state)
    assert awaiting.kind == "card" and awaiting.card is not None and "END" not in awaiting.card.values
    state, _ = play(state, *(Card(c) for c in ("A1", "B1", "C1", "A2", "B2", "C2")))
    assert state.phase == "start" and state.dealt == (2, 2, 2)
    assert rules.awaiting(state).kind == "choice"
    refused(state, Card("D1"), "roll-off")
    state, _ = play(state, StartPlayer(2))
    assert state.phase == "draw" and state.current == 2
    assert "END" in state.deck and len(state.deck) == 49 - 6


def test_a_card_already_drawn_is_refused() -> None:
    state, _ = play(rules.setup(["Ann", "Bob"], {}), Card("A1"))
    refused(state, Card("A1"), "already been drawn")
    refused(state, Card("Z9"), "no card")
    refused(state, Card("END"), "not in the deck")


def test_ruling_two_players_an_f_card_at_setup_goes_back_and_another_is_dealt() -> None:
    state = rules.setup(["Ann", "Bob"], {})
    after, events = play(state, Card("F3"))
    assert after == state and events[0].kind == "returned"


def test_ruling_two_players_an_f_card_in_play_pays_and_the_player_draws_again() -> None:
    state = position(["Ann", "Bob"], tiles={"C1": ("gold", 1, 4)}, markers={"A1": 0}, phase="draw")
    state, events = play(state, Card("F3"))  # gold
    assert state.phase == "draw" and state.current == 0
    assert state.board[lot_named("F3").index] == Space()
    assert state.money == (1, 4) and state.points == (0, 1)
    assert events[-1].kind == "draw_again"
    state, _ = play(state, Card("F4"), Card("A2"))  # again gold, then an A card
    assert state.phase == "play" and state.money == (1 + 1 + 2, 8) and state.points == (0, 2)


def test_ruling_two_players_f_lots_cannot_be_built_or_sprawled() -> None:
    state = position(["Ann", "Bob"], tiles={"D7": ("gold", 0, 5)}, money=(100, 0))
    assert {o.lot for o in rules.legal_actions(state) if isinstance(o, Sprawl)} == {"D4", "D8"}
    state = position(["Ann", "Bob"], tiles={"F4": ("gold", 0, 5)}, money=(100, 0))
    refused(state, Sprawl("F5", "gold"), "empty lot nobody owns")


# --- the draw ------------------------------------------------------------------------------------


def test_ruling_drawing_a_lot_holding_your_own_die_changes_nothing() -> None:
    state = position(["Ann", "Bob"], tiles={"A5": ("gold", 0, 6)}, phase="draw")
    state, events = play(state, Card("A5"))  # silver: the gold casino does not pay
    assert tile(state, "A5") == Tile("gold", 0, 6) and state.money == (0, 0)
    assert events[1].kind == "own_tile"


def test_ruling_drawing_a_lot_with_an_empty_tile_puts_a_die_at_the_printed_value() -> None:
    state = position(["Ann", "Bob"], tiles={"A5": ("gold", None, 0), "A4": ("gold", 1, 2)}, phase="draw")
    state, _ = play(state, Card("A5"))
    assert tile(state, "A5") == Tile("gold", 0, 3)
    assert boss_at(state, "A4") == 0


def test_rulebook_drawing_a_sprawled_lot_takes_the_die_over_at_the_same_value() -> None:
    state = position(["Ann", "Bob"], tiles={"A4": ("gold", 1, 6), "A5": ("gold", 1, 5)}, phase="draw")
    state, events = play(state, Card("A5"))
    assert tile(state, "A5") == Tile("gold", 0, 5)
    assert boss_at(state, "A4") == 1
    assert any(e.kind == "taken_over" for e in events)


def test_ruling_a_take_over_that_ties_the_boss_is_settled_before_the_payout() -> None:
    state = position(["Ann", "Bob"], tiles={"A4": ("gold", 1, 5), "A5": ("gold", 1, 5)}, phase="draw")
    state, events = play(state, Card("A5"))  # silver card: nothing pays but the lots
    assert state.wait is not None and rules.awaiting(state).dice is not None
    assert not any(e.kind == "casino_paid" for e in events)
    state, events = play(state, Roll((Die(2, "blue"), Die(4, "green"))))
    assert boss_at(state, "A4") == 1 and state.phase == "play"


def test_ruling_order_of_a_draw_lots_then_casino_money_then_points_from_the_drawer() -> None:
    state = position(
        ["Ann", "Bob", "Cy"],
        tiles={"C1": ("gold", 0, 4), "E4": ("gold", 2, 3), "B1": ("gold", 1, 5)},
        markers={"A1": 2, "A2": 0},
        current=1,
        phase="draw",
    )
    _, events = play(state, Card("A4"))  # gold
    kinds = [e.kind for e in events if e.kind in ("lots_paid", "casino_paid", "scored")]
    assert kinds == ["lots_paid"] * 3 + ["casino_paid"] * 3 + ["scored"] * 3
    scored = [e.data["player"] for e in events if e.kind == "scored"]
    assert scored == [1, 2, 0]  # seat order from the drawer (Bob)


def test_ruling_a_casino_with_no_dice_has_no_boss_and_scores_nobody() -> None:
    state = position(["Ann", "Bob"], tiles={"C1": ("gold", None, 0), "C2": ("gold", None, 0)}, phase="draw")
    state, _ = play(state, Card("A4"))
    assert state.points == (0, 0)
    assert boss_at(state, "C1") is None


def test_rulebook_points_go_smallest_casino_first() -> None:
    tiles = {"C1": ("gold", 0, 4), "C2": ("gold", 0, 2), "E6": ("gold", 0, 6)}
    state = position(["Ann", "Bob"], tiles=tiles, points=(7, 0), phase="draw", current=1)
    # 1 point first (7 -> 8), then 2 (8 -> 10); the other order would give 7 -> 8 -> 8
    state, _ = play(state, Card("A4"))
    assert state.points == (10, 0)


def test_ruling_reaching_90_wins_at_once() -> None:
    nine = {f"C{i}": ("gold", 0, 2) for i in range(1, 10)}
    state = position(["Ann", "Bob"], tiles=nine, points=(81, 0), markers={"A1": 1}, phase="draw", current=1)
    state, events = play(state, Card("A4"))
    assert state.phase == "over" and state.winner == 0 and state.points == (81 + 9, 0)
    outcome = rules.outcome(state)
    assert outcome is not None and outcome.winners == (0,)
    assert events[-1].kind == "game_over" and rules.awaiting(state).kind == "over"
    refused(state, EndTurn(), "over")


def test_ruling_90_stops_everything_the_next_player_does_not_score() -> None:
    nine_a = {f"C{i}": ("gold", 0, 2) for i in range(1, 10)}
    nine_b = {f"D{i}": ("gold", 1, 2) for i in range(1, 10)}
    state = position(["Ann", "Bob"], tiles={**nine_a, **nine_b}, points=(81, 81), phase="draw", current=1)
    state, events = play(state, Card("A4"))
    assert state.winner == 1 and state.points == (81, 90)
    assert [e.data["player"] for e in events if e.kind == "scored"] == [1]


def test_ruling_end_of_game_pays_lots_and_the_strip_and_the_drawer_gets_no_turn() -> None:
    tiles = {"A3": ("gold", 0, 5), "A2": ("gold", 1, 2), "B2": ("aqua", 1, 6)}
    state = position(["Ann", "Bob"], tiles=tiles, markers={"E1": 1}, phase="draw", current=1, money=(0, 3))
    state, events = play(state, Card("END"))
    assert state.phase == "over"
    assert state.money == (5, 3 + 1 + 2)  # B2 is off The Strip: nothing from it
    assert state.points == (2, 0)
    outcome = rules.outcome(state)
    assert outcome is not None and outcome.winners == (0,)
    assert events[-1].kind == "game_over"
    refused(state, EndTurn(), "over")


def test_ruling_winner_most_points_then_money_then_shared() -> None:
    over = position(["Ann", "Bob", "Cy"], points=(10, 10, 4), money=(5, 9, 50), phase="over")
    outcome = rules.outcome(over)
    assert outcome is not None and outcome.winners == (1,)
    outcome = rules.outcome(replace(over, money=(9, 9, 50)))
    assert outcome is not None and outcome.winners == (0, 1) and "share" in str(outcome.text)


# --- building ------------------------------------------------------------------------------------


def test_build_needs_your_marker_the_money_and_a_tile_of_the_colour() -> None:
    state = position(["Ann", "Bob"], markers={"A2": 0, "A3": 1}, money=(5, 0))
    refused(state, Build("A3", "gold"), "lot you have marked")
    refused(state, Build("A2", "gold"), r"costs \$6M and you have \$5M")
    full = {f"C{i}": ("gold", 1, 1) for i in range(1, 10)}
    state = position(["Ann", "Bob"], markers={"A2": 0}, tiles=full, money=(50, 0))
    refused(state, Build("A2", "gold"), "Only 0 tiles of gold are left")
    refused(state, Build("A2", "pink"), "Tiles come in")
    refused(state, Build("Q2", "gold"), "no lot")


def test_ruling_build_that_ties_the_top_with_another_player_rerolls_until_one_is_highest() -> None:
    tiles = {"A2": ("gold", 1, 3), "A5": ("gold", 2, 2)}
    state = position(["Ann", "Bob", "Cy"], markers={"A1": 0}, tiles=tiles, money=(20, 0, 0))
    state, _ = play(state, Build("A1", "gold"))  # Ann's 3 ties Bob's 3
    awaiting = rules.awaiting(state)
    assert awaiting.players == (0, 1) and awaiting.dice is not None and awaiting.dice.count == 2
    # both roll 2: now Ann, Bob and Cy share the top 2, so all three reroll
    state, _ = play(state, Roll((Die(2, "blue"), Die(2, "green"))))
    awaiting = rules.awaiting(state)
    assert awaiting.players == (0, 1, 2) and awaiting.dice is not None and awaiting.dice.count == 3
    # Ann and Bob roll below Cy's new 4... Cy is the boss: a third player profits
    state, _ = play(state, Roll((Die(1, "blue"), Die(1, "green"), Die(4, "red"))))
    assert boss_at(state, "A1") == 2 and state.idle()


def test_ruling_ties_of_one_players_dice_or_below_the_top_need_no_reroll() -> None:
    tiles = {"A2": ("gold", 0, 3), "A5": ("gold", 1, 2), "A6": ("gold", 2, 2)}
    state = position(["Ann", "Bob", "Cy"], markers={"A1": 0}, tiles=tiles, money=(20, 0, 0))
    state, _ = play(state, Build("A1", "gold"))  # Ann's two 3s; Bob's and Cy's 2s tie below the top
    assert state.idle() and boss_at(state, "A1") == 0


def test_rulebook_dice_exhaustion_moves_a_die_and_leaves_the_tile_unowned() -> None:
    twelve = {f"C{i}": ("gold" if i < 7 else "aqua", 0, 1) for i in range(1, 13)}
    state = position(["Ann", "Bob"], markers={"A2": 0}, tiles=twelve, money=(20, 0))
    state, events = play(state, Build("A2", "brown"))
    awaiting = rules.awaiting(state)
    assert awaiting.kind == "choice" and len(awaiting.options) == 12
    refused(state, MoveDie("A2"), "another tile")
    refused(state, EndTurn(), "Not now")
    state, _ = play(state, MoveDie("C12"))
    assert tile(state, "A2") == Tile("brown", 0, 2) and tile(state, "C12") == Tile("aqua")
    assert state.dice_out(0) == 12
    casino = casino_at(state.board, lot_named("C12").index)
    assert casino is not None and casino.size == 6  # the unowned tile still counts


def test_ruling_the_reorganized_mark_moves_with_a_die_forced_off_its_tile() -> None:
    twelve = {f"C{i}": ("gold" if i < 7 else "aqua", 0, 1) for i in range(1, 13)}
    state = position(["Ann", "Bob"], markers={"A2": 0}, tiles=twelve, money=(20, 0))
    board = list(state.board)
    board[lot_named("C12").index] = Space(tile=Tile("aqua", 0, 1, rerolled=True))
    state = replace(state, board=tuple(board))
    state, _ = play(state, Build("A2", "brown"), MoveDie("C12"))
    assert tile(state, "A2").rerolled
    refused(state, Reorganize("A2"), "already reorganized")


def test_ruling_marker_exhaustion_gives_up_one_of_the_other_lots() -> None:
    ten = {name: 0 for name in ("A1", "A2", "A3", "A4", "A5", "B1", "B2", "B3", "B4", "B5")}
    state = position(["Ann", "Bob"], markers=ten, phase="draw")
    state, events = play(state, Card("C1"))
    awaiting = rules.awaiting(state)
    assert awaiting.kind == "choice" and len(awaiting.options) == 10
    refused(state, GiveUpLot("C1"), "not one of them")
    state, _ = play(state, GiveUpLot("B5"))
    assert state.board[lot_named("B5").index] == Space() and state.board[lot_named("C1").index].marker == 0
    assert state.phase == "play" and state.money == (10, 0)  # ten marked lots pay $1 each


def test_sprawl_needs_the_boss_and_double_the_cost() -> None:
    tiles = {"A2": ("gold", 0, 2), "A1": ("gold", 1, 3)}
    state = position(["Ann", "Bob"], tiles=tiles, money=(30, 0))
    refused(state, Sprawl("A5", "gold"), "where you are the boss")
    state = position(["Ann", "Bob"], tiles={"A2": ("gold", 0, 2)}, money=(17, 0))
    refused(state, Sprawl("A5", "gold"), r"costs \$18")


def test_sprawl_can_join_two_casinos_of_the_colour() -> None:
    tiles = {"A4": ("gold", 0, 6), "A6": ("gold", 1, 2)}
    state = position(["Ann", "Bob"], tiles=tiles, money=(30, 0))
    state, _ = play(state, Sprawl("A5", "gold"))
    casino = casino_at(state.board, lot_named("A4").index)
    assert casino is not None and casino.size == 3 and casino.boss == 0


def test_ruling_remodel_must_change_the_colour_and_needs_tiles_for_every_tile() -> None:
    tiles = {"A2": ("gold", 0, 2), "A5": ("gold", 0, 3)}
    state = position(["Ann", "Bob"], tiles=tiles, money=(30, 0))
    refused(state, Remodel("A2", "gold"), "must change its colour")
    eight = {f"C{i}": ("aqua", 1, 1) for i in range(1, 9)}
    state = position(["Ann", "Bob"], tiles={**tiles, **eight}, money=(30, 0))
    refused(state, Remodel("A2", "aqua"), "Only 1 tile of aqua")
    state = position(["Ann", "Bob"], tiles={"A2": ("gold", 1, 2)}, money=(30, 0))
    refused(state, Remodel("A2", "aqua"), "not the boss")


# --- reorganize ----------------------------------------------------------------------------------


def test_reorganize_needs_a_die_there_not_the_boss() -> None:
    tiles = {"A2": ("gold", 0, 2), "A5": ("gold", 1, 5)}
    state = position(["Ann", "Bob"], tiles=tiles, money=(7, 0))
    state, _ = play(state, Reorganize("A5"))
    assert state.money == (0, 0)
    state = position(["Ann", "Bob"], tiles={"A5": ("gold", 1, 5)}, money=(70, 0))
    refused(state, Reorganize("A5"), "need a die")


def test_ruling_a_casino_holding_a_die_rerolled_this_turn_cannot_be_reorganized_after_a_merge() -> None:
    state = position(["Ann", "Bob"], tiles={"A1": ("gold", 0, 2), "A2": ("aqua", 0, 1)}, money=(50, 0))
    state, _ = play(state, Reorganize("A1"), Roll((Die(2, "blue"),)))
    assert tile(state, "A1").rerolled
    state, _ = play(state, Remodel("A2", "gold"))  # A2's casino merges with the rerolled A1
    refused(state, Reorganize("A2"), "already reorganized")
    state, _ = play(state, EndTurn())
    assert not any(s.tile.rerolled for s in state.board if s.tile is not None)


def test_ruling_after_a_reorganize_each_owner_arranges_their_own_values() -> None:
    tiles = {"C1": ("gold", 0, 1), "C2": ("gold", 0, 1), "C4": ("gold", 1, 6), "C5": ("gold", 1, 1)}
    state = position(["Ann", "Bob"], tiles=tiles, money=(20, 0), drawn=("C2", "C5"))
    state, _ = play(state, Reorganize("C1"), Roll((Die(6, "blue"), Die(2, "blue"), Die(5, "green"), Die(3, "green"))))
    assert state.wait is not None and rules.awaiting(state).players == (0,)
    options = rules.awaiting(state).options
    assert len(options) == 2 and sum(o.recommended for o in options) == 1
    refused(state, ArrangeDice(("C1", "C2"), (6, 6)), "exactly the values")
    refused(state, ArrangeDice(("C1", "C4"), (6, 2)), "each of your tiles")
    state, _ = play(state, ArrangeDice(("C1", "C2"), (2, 6)))
    assert rules.awaiting(state).players == (1,)
    best = next(o.action for o in rules.awaiting(state).options if o.recommended)
    assert best == ArrangeDice(("C4", "C5"), (3, 5))  # the high value on C5, whose card is out
    state, _ = play(state, best)
    assert [tile(state, n).value for n in ("C1", "C2", "C4", "C5")] == [2, 6, 3, 5]
    assert boss_at(state, "C1") == 0 and all(tile(state, n).rerolled for n in ("C1", "C2", "C4", "C5"))


# --- gamble --------------------------------------------------------------------------------------


def gamble_position(money: tuple[int, int] = (50, 50), lay_off: bool = False) -> LordsState:
    tiles = {"C1": ("aqua", 0, 6), "C2": ("aqua", 0, 2)}
    return position(["Ann", "Bob"], tiles=tiles, money=money, current=1, lay_off=lay_off)


def test_ruling_gamble_limits_five_a_tile_your_money_the_boss_money_at_least_1() -> None:
    state = gamble_position()
    refused(state, Gamble("C1", 11), r"most you can bet at C1 is \$10")
    refused(state, Gamble("C1", 0), r"at least \$1")
    refused(gamble_position((50, 7)), Gamble("C1", 8), r"\$7")
    refused(gamble_position((6, 50)), Gamble("C1", 7), r"\$6")
    refused(state, Gamble("A1", 1), "no casino")
    mine = replace(state, current=0)
    refused(mine, Gamble("C1", 1), "You are the boss")
    amounts = [a.amount for a in rules.legal_actions(state) if isinstance(a, Gamble)]
    assert amounts == list(range(1, 11))


def test_gamble_once_a_turn() -> None:
    state, _ = play(gamble_position(), Gamble("C1", 5), Roll((Die(3), Die(4))))
    assert state.money == (55, 45)
    refused(state, Gamble("C1", 1), "already gambled")
    state, _ = play(state, EndTurn(), Card("A1"), EndTurn())
    assert not state.gambled


@pytest.mark.parametrize(
    ("total", "ann", "bob"),
    [(2, 40, 60), (12, 40, 60), (3, 45, 55), (4, 45, 55), (9, 45, 55), (10, 45, 55), (11, 45, 55)]
    + [(5, 55, 45), (6, 55, 45), (7, 55, 45), (8, 55, 45)],
)
def test_rulebook_gamble_payout_table(total: int, ann: int, bob: int) -> None:
    first = min(6, total - 1)
    state, _ = play(gamble_position(), Gamble("C1", 5), Roll((Die(first), Die(total - first))))
    assert state.money == (ann, bob)


def test_rulebook_a_boss_who_cannot_pay_double_pays_what_they_have() -> None:
    state, _ = play(gamble_position((8, 50)), Gamble("C1", 8), Roll((Die(1), Die(1))))
    assert state.money == (0, 58)


def test_ruling_lay_off_is_a_variant_off_by_default() -> None:
    state, _ = play(gamble_position(), Gamble("C1", 5))
    assert rules.awaiting(state).kind == "dice"


@pytest.mark.parametrize(
    ("accept", "dice", "ann", "bob", "issued"),
    [
        (True, (1, 2), 50 - 2, 50 + 5, 3),  # win $5: Ann pays 2 (half, rounded down), the bank 3
        (True, (6, 6), 50 - 5, 50 + 10, 5),  # win $10: Ann 5, the bank 5
        (True, (3, 4), 50 + 2, 50 - 5, -3),  # lose $5: Ann gets 2, the bank 3
        (False, (3, 4), 50 + 5, 50 - 5, 0),
    ],
)
def test_ruling_lay_off_variant_half_rounded_down_the_bank_the_rest(
    accept: bool, dice: tuple[int, int], ann: int, bob: int, issued: int
) -> None:
    state, _ = play(gamble_position(lay_off=True), Gamble("C1", 5))
    awaiting = rules.awaiting(state)
    assert awaiting.kind == "choice" and awaiting.players == (0,)
    refused(state, Roll((Die(1), Die(2))), "Not now")
    state, _ = play(state, LayOffChoice(accept), Roll(tuple(Die(d) for d in dice)))
    assert state.money == (ann, bob)
    assert state.issued - 100 == issued == sum(state.money) - 100


def test_settle_is_the_field_bet() -> None:
    assert settle(4, 3, 100, False).gambler == 4
    assert settle(4, 12, 100, False).gambler == 8
    assert settle(4, 7, 100, False).gambler == -4


# --- trades --------------------------------------------------------------------------------------


def test_ruling_a_trade_happens_at_once_and_a_die_keeps_its_value() -> None:
    tiles = {"A2": ("gold", 0, 5), "A5": ("gold", 0, 2), "B2": ("aqua", 1, 6)}
    state = position(["Ann", "Bob"], tiles=tiles, markers={"C1": 1}, money=(0, 10))
    state, events = play(state, Trade(0, 1, money_b=10, dice_a=("A5",), lots_b=("C1",)))
    assert tile(state, "A5") == Tile("gold", 1, 2)
    assert state.board[lot_named("C1").index].marker == 0
    assert state.money == (10, 0)
    assert events[0].kind == "traded"


def test_ruling_trades_may_not_leave_anyone_below_0_or_above_12_dice() -> None:
    state = position(["Ann", "Bob"], money=(5, 0))
    refused(state, Trade(0, 1, money_a=6), "below")
    state2, _ = play(state, Trade(0, 1, money_a=5))  # a gift
    assert state2.money == (0, 5)
    twelve = {f"C{i}": ("gold", 1, 1) for i in range(1, 13)}
    state = position(["Ann", "Bob"], tiles={**twelve, "A1": ("aqua", 0, 3)})
    refused(state, Trade(0, 1, dice_a=("A1",)), "more than 12 dice")
    refused(state, Trade(0, 1, lots_a=("A1",)), "no marker")
    refused(state, Trade(0, 0, money_a=1), "two different players")
    refused(state, Trade(0, 1), "nothing")
    refused(state, Trade(0, 1, money_a=-1), "positive")


def test_ruling_no_trade_while_a_reroll_or_choice_is_pending() -> None:
    state, _ = play(gamble_position(), Gamble("C1", 5))
    refused(state, Trade(0, 1, money_a=1), "wait until")
    state = rules.setup(["Ann", "Bob"], {})
    refused(state, Trade(0, 1, money_a=1), "wait until")


def test_ruling_trades_are_open_before_the_draw_too_and_ties_after_them_reroll() -> None:
    tiles = {"A2": ("gold", 0, 5), "A5": ("gold", 0, 5), "A4": ("gold", 1, 2)}
    state = position(["Ann", "Bob"], tiles=tiles, phase="draw")
    state, events = play(state, Trade(0, 1, dice_a=("A5",)))
    assert any(e.kind == "boss_tie" for e in events)
    state, _ = play(state, Roll((Die(6, "blue"), Die(1, "green"))))
    assert state.phase == "draw" and state.idle() and boss_at(state, "A2") == 0


def test_ruling_marker_exhaustion_applies_to_lots_received_in_a_trade() -> None:
    ten = {name: 1 for name in ("A1", "A2", "A3", "A4", "A5", "B1", "B2", "B3", "B4", "B5")}
    state = position(["Ann", "Bob"], markers={**ten, "C1": 0})
    state, _ = play(state, Trade(0, 1, lots_a=("C1",)))
    awaiting = rules.awaiting(state)
    assert awaiting.players == (1,) and GiveUpLot("C1") not in [o.action for o in awaiting.options]
    state, _ = play(state, GiveUpLot("A1"))
    assert len(state.marked(1)) == 10 and state.idle()


# --- turns ---------------------------------------------------------------------------------------


def test_end_turn_passes_to_the_left() -> None:
    state = position(["Ann", "Bob", "Cy"], current=2)
    state, _ = play(state, EndTurn())
    assert state.current == 0 and state.phase == "draw"
    refused(state, EndTurn(), "draws a card first")


def test_every_play_option_is_accepted() -> None:
    tiles = {"A2": ("gold", 0, 2), "A5": ("gold", 1, 1), "C1": ("aqua", 1, 4)}
    state = position(["Ann", "Bob"], tiles=tiles, markers={"A1": 0, "B1": 0}, money=(60, 30))
    options = rules.awaiting(state).options
    kinds = {type(o.action).__name__ for o in options}
    assert kinds == {"EndTurn", "Build", "Sprawl", "Remodel", "Reorganize", "Gamble"}
    assert [o for o in options if o.recommended] == [options[0]]
    for action in rules.legal_actions(state):
        rules.apply(state, action)


def test_scoreboard_shows_the_table() -> None:
    tiles = {"A2": ("gold", 0, 2), "A5": ("gold", 1, 1)}
    state = position(["Ann", "Bob"], tiles=tiles, markers={"A1": 0}, money=(60, 30), points=(12, 3))
    board = rules.scoreboard(state)
    assert board["players"][0]["money"] == 60 and board["players"][0]["points"] == 12
    assert board["players"][0]["boss_of"] == ["A2"]
    assert board["casinos"][0]["lots"] == ["A2", "A5"] and board["supply"]["gold"] == 7
    assert board["lots"][0]["marker"] == 0 and len(board["lots"]) == len(LOTS)
    assert board["prompt"]["params"]["player"] == "Ann"


def test_ruling_a_boss_tie_reroll_does_not_mark_a_die_but_a_trade_keeps_the_mark() -> None:
    tiles = {"A2": ("gold", 0, 5), "A5": ("gold", 1, 2)}
    state = position(["Ann", "Bob"], tiles=tiles, markers={"A1": 1}, money=(0, 20), current=1)
    state, _ = play(state, Build("A1", "gold"))  # no tie: Bob's 3 is below Ann's 5
    state, _ = play(state, Reorganize("A1"), Roll((Die(6, "blue"), Die(6, "green"), Die(1, "green"))))
    state, _ = play(state, ArrangeDice(("A1", "A5"), (6, 1)))
    assert state.wait is not None  # Ann's 6 and Bob's 6 tie
    state, _ = play(state, Roll((Die(4, "blue"), Die(2, "green"))))
    assert boss_at(state, "A2") == 0 and all(tile(state, n).rerolled for n in ("A1", "A2", "A5"))
    state = position(["Ann", "Bob"], tiles={"A2": ("gold", 0, 1), "B2": ("aqua", 1, 3)}, money=(5, 0))
    state, _ = play(state, Reorganize("A2"), Roll((Die(4, "blue"),)), Trade(0, 1, dice_a=("A2",)))
    assert tile(state, "A2") == Tile("gold", 1, 4, rerolled=True)


def test_virtual_deck_lets_the_companion_draw() -> None:
    state = rules.setup(["Ann", "Bob"], {"virtual_deck": True})
    assert rules.awaiting(state).source == "companion"
    assert rules.awaiting(position(["Ann", "Bob"])).source == "table"


def test_actions_round_trip_through_json_and_bad_json_is_refused() -> None:
    from companion.games.base import MalformedAction

    state = position(["Ann", "Bob"], tiles={"A2": ("gold", 0, 2)}, markers={"A1": 0}, money=(60, 30))
    for action in [*rules.legal_actions(state), Trade(0, 1, money_a=3, lots_a=("A1",))]:
        assert rules.action_from_json(rules.action_to_json(action)) == action
    with pytest.raises(MalformedAction):
        rules.action_from_json({"type": "gamble", "lot": "A2", "amount": "lots"})


def test_scoreboard_and_state_are_json() -> None:
    import json

    state = position(["Ann", "Bob"], tiles={"A2": ("gold", 0, 2)}, markers={"A1": 0}, money=(60, 30))
    json.dumps(rules.scoreboard(state))
    json.dumps(rules.state_to_json(state))
