"""Las Vegas rules and the project's rulings (shared/games/rulings.md), one test or more per ruling."""

from __future__ import annotations

import inspect
import random
from dataclasses import replace

import pytest

from companion.games import get_rules
from companion.games.base import Die, MalformedAction, RuleViolation
from companion.games.lasvegas import actions, banknotes, options, payout, view, words
from companion.games.lasvegas import rules as rules_module
from companion.games.lasvegas import state as state_module
from companion.games.lasvegas.actions import DrawNote, Place, Roll
from companion.games.lasvegas.banknotes import COMPOSITION, DECK, TOTAL
from companion.games.lasvegas.payout import WHITE, pay
from companion.games.lasvegas.rules import LasVegasRules
from companion.games.lasvegas.simulate import play, random_input
from companion.games.lasvegas.state import Casino, LasVegasState
from companion.i18n.render import localize

rules = LasVegasRules()
NAMES = ["Anna", "Benno", "Carla", "Denny"]


def dice(colour: str, *faces: int) -> tuple[Die, ...]:
    return tuple(Die(f, colour) for f in faces)


def stocked(players: list[str] | None = None, **options: object) -> LasVegasState:
    """A new game with the six casinos stocked with one note each: 90,000 on 1-5, 80,000 on 6."""
    state = rules.setup(players or NAMES, dict(options))
    for value in (90_000,) * 5 + (80_000,):
        state, _ = rules.apply(state, DrawNote(value))
    return state


def money_everywhere(state: LasVegasState) -> int:
    return sum(state.deck) + sum(state.under) + sum(c.total for c in state.casinos) + sum(map(sum, state.won))


# --- ruling: the deck ------------------------------------------------------------------------------


def test_ruling_deck_is_54_notes_worth_2_500_000() -> None:
    assert len(DECK) == 54 and TOTAL == 2_500_000 == sum(DECK)
    assert COMPOSITION == {
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
    card = rules.awaiting(rules.setup(NAMES, {})).card
    assert card is not None and card.deck == "banknotes"
    assert card.values == tuple(range(10_000, 100_000, 10_000))


# --- ruling: payout --------------------------------------------------------------------------------


def test_ruling_ties_are_removed_at_any_rank() -> None:
    # the two leaders tie and are out; third and fourth take the top notes
    result = pay(1, (90_000, 60_000, 20_000), {0: 4, 1: 4, 2: 2, 3: 1})
    assert [(s.seat, s.note) for s in result.ranked] == [(2, 90_000), (3, 60_000)]
    assert result.under == (20_000,)
    # a tie lower down removes only the tied players
    result = pay(1, (90_000, 60_000), {0: 4, 1: 2, 2: 2, 3: 1})
    assert [(s.seat, s.note) for s in result.ranked] == [(0, 90_000), (3, 60_000)]


def test_ruling_white_dice_are_an_extra_player_that_cancels_a_tie() -> None:
    # Anna ties with the white dice: both are out, and Benno with one die takes the top note
    result = pay(1, (70_000, 30_000), {0: 2, WHITE: 2, 1: 1})
    assert [t.seats for t in result.ties] == [(0, WHITE)]
    assert [(s.seat, s.note) for s in result.ranked] == [(1, 70_000)]
    assert result.under == (30_000,)


def test_ruling_white_dice_winnings_and_unclaimed_notes_go_under_the_deck() -> None:
    result = pay(6, (90_000, 50_000, 10_000), {WHITE: 3, 0: 1})
    assert result.won_by(WHITE) == 90_000 and result.won_by(0) == 50_000
    assert result.under == (90_000, 10_000)


def test_ruling_empty_deck_then_the_notes_under_it_are_shuffled_and_used() -> None:
    state = rules.setup(NAMES, {})
    state = replace(state, deck=(10_000,), under=(80_000, 20_000))
    state, events = rules.apply(state, DrawNote(10_000))
    assert [e.kind for e in events] == ["stocked", "reshuffled"]
    assert state.deck == (80_000, 20_000) and state.under == ()
    card = rules.awaiting(state).card
    assert card is not None and card.values == (20_000, 80_000)


def test_ruling_no_notes_left_anywhere_the_round_is_played_with_what_the_casinos_hold() -> None:
    state = rules.setup(NAMES, {})
    state = replace(state, deck=(20_000,), under=())
    state, events = rules.apply(state, DrawNote(20_000))
    assert events[-1].kind == "out_of_notes"
    assert state.phase == "roll" and state.casinos[0].total == 20_000


def test_ruling_casinos_are_stocked_strictly_in_order_and_50000_is_enough() -> None:
    state = rules.setup(NAMES, {})
    state, _ = rules.apply(state, DrawNote(50_000))
    assert state.casino_to_stock() == 2, "exactly 50,000 completes a casino"
    state, _ = rules.apply(state, DrawNote(40_000))
    assert state.casino_to_stock() == 2, "the next note still goes to casino 2"
    state, events = rules.apply(state, DrawNote(10_000))
    assert events[0].data["casino"] == 2 and state.casino_to_stock() == 3


# --- ruling: money kept face down ---------------------------------------------------------------


def test_ruling_money_is_hidden_by_default_open_as_an_option_and_shown_at_the_end() -> None:
    assert rules.scoreboard(rules.setup(NAMES, {}))["money_hidden"] is True
    assert rules.scoreboard(rules.setup(NAMES, {"money_open": True}))["money_hidden"] is False
    final, _ = play(NAMES, {}, seed=3)
    board = rules.scoreboard(final)
    assert board["money_hidden"] is False
    assert [p["money"] for p in board["players"]] == [sum(w) for w in final.won]


# --- ruling: the end -----------------------------------------------------------------------------


def over(*won: tuple[int, ...]) -> LasVegasState:
    return replace(rules.setup(NAMES[: len(won)], {}), phase="over", round=4, won=won)


def test_ruling_end_most_money_wins() -> None:
    outcome = rules.outcome(over((90_000,), (50_000, 30_000)))
    assert outcome is not None and outcome.winners == (0,)
    assert str(outcome.text) == "Anna wins with $90,000 in 1 banknote."


def test_ruling_end_tie_on_money_most_banknotes_wins() -> None:
    outcome = rules.outcome(over((90_000,), (50_000, 40_000), (80_000,)))
    assert outcome is not None and outcome.winners == (1,)


def test_ruling_end_tie_on_money_and_notes_is_a_shared_win() -> None:
    outcome = rules.outcome(over((50_000, 40_000), (10_000,), (60_000, 30_000)))
    assert outcome is not None and outcome.winners == (0, 2)
    assert "share the win" in str(outcome.text)
    assert rules.awaiting(over((1,), (1,))).kind == "over"


# --- ruling: white dice belong to the roller's pool -------------------------------------------


def test_ruling_player_with_only_white_dice_left_keeps_rolling_and_places_white_only() -> None:
    state = stocked(NAMES[:2], neutral_dice=True)
    state = replace(state, own_left=(0, 0), white_left=(2, 0), current=0)
    spec = rules.awaiting(state).dice
    assert spec is not None and spec.colours == (("white", 2),)
    state, _ = rules.apply(state, Roll(dice("white", 4, 6)))
    assert [str(o.label) for o in rules.awaiting(state).options] == ["Casino 4: 1 white die", "Casino 6: 1 white die"]
    state, _ = rules.apply(state, Place(6))
    assert state.current == 0 and state.phase == "roll", "Benno has nothing left: Anna rolls again"
    assert state.casinos[5].white == 1


def test_white_dice_are_rolled_and_placed_with_own_dice_of_the_chosen_face() -> None:
    state = stocked(NAMES[:2], neutral_dice=True)
    state, _ = rules.apply(state, Roll(dice("red", 4, 4, 4, 1, 2, 2, 3, 5) + dice("white", 4, 1, 6, 6)))
    labels = [str(o.label) for o in rules.awaiting(state).options]
    assert "Casino 4: 3 of yours and 1 white" in labels
    state, events = rules.apply(state, Place(4))
    assert str(events[0].text) == "Anna put 3 dice and 1 white on casino 4."
    assert state.casinos[3].dice[0] == 3 and state.casinos[3].white == 1
    assert (state.own_left[0], state.white_left[0]) == (5, 3)


# --- ruling (all games): the table is the random generator; undo is a replay ---------------------


def test_ruling_the_engine_draws_no_random_numbers() -> None:
    for module in (rules_module, actions, options, words, payout, banknotes, state_module, view):
        source = inspect.getsource(module)
        assert "import random" not in source and "from random" not in source


def test_ruling_same_inputs_give_the_same_game_and_apply_never_changes_a_state() -> None:
    final, actions = play(NAMES, {"neutral_dice": True}, seed=11)
    state = rules.setup(NAMES, {"neutral_dice": True})
    history = [state]
    for action in actions:
        before = rules.state_to_json(state)
        state, _ = rules.apply(state, action)
        assert rules.state_to_json(history[-1]) == before
        history.append(state)
    assert state == final
    # undo = replay of one input fewer
    again = rules.setup(NAMES, {"neutral_dice": True})
    for action in actions[:-1]:
        again, _ = rules.apply(again, action)
    assert again == history[-2]


# --- the neutral dice variant --------------------------------------------------------------------


@pytest.mark.parametrize(("players", "whites"), [(2, 4), (3, 2), (4, 2)])
def test_neutral_dice_per_player(players: int, whites: int) -> None:
    state = stocked(NAMES[:players], neutral_dice=True)
    assert state.white_left == (whites,) * players
    spec = rules.roll_spec(replace(state, phase="roll"))
    assert spec.count == 8 + whites
    assert spec.colours == (("red", 8), ("white", whites))


def test_neutral_dice_variant_is_for_two_to_four_players() -> None:
    with pytest.raises(RuleViolation, match="2 to 4 players"):
        rules.setup(NAMES + ["Emil"], {"neutral_dice": True})


def test_three_players_start_player_throws_the_two_spare_white_dice_each_round() -> None:
    state = stocked(NAMES[:3], neutral_dice=True)
    awaiting = rules.awaiting(state)
    assert state.phase == "spare" and awaiting.kind == "dice" and awaiting.players == (0,)
    assert awaiting.dice is not None and awaiting.dice.colours == (("white", 2),)
    with pytest.raises(RuleViolation, match="2 white"):
        rules.apply(state, Roll(dice("red", 3, 3)))
    state, events = rules.apply(state, Roll(dice("white", 3, 5)))
    assert events[0].kind == "spare_whites"
    assert state.casinos[2].white == 1 and state.casinos[4].white == 1
    assert state.phase == "roll" and state.current == 0
    assert state.white_left == (2, 2, 2), "the players' own white dice are untouched"
    # round 2: the new start player throws them
    rng = random.Random(5)
    while state.round == 1:
        action = random_input(rules, state, rng)
        assert action is not None
        state, _ = rules.apply(state, action)
    while state.phase == "stock":
        action = random_input(rules, state, rng)
        assert action is not None
        state, _ = rules.apply(state, action)
    assert state.phase == "spare" and rules.awaiting(state).players == (1,)


def test_without_the_variant_three_players_have_no_spare_throw() -> None:
    assert stocked(NAMES[:3]).phase == "roll"


# --- turns and rounds ----------------------------------------------------------------------------


def test_players_with_no_dice_left_are_skipped() -> None:
    state = replace(stocked(), own_left=(2, 0, 0, 3), current=0)
    state, _ = rules.apply(state, Roll(dice("red", 2, 2)))
    state, _ = rules.apply(state, Place(2))
    assert state.current == 3
    state, _ = rules.apply(state, Roll(dice("yellow", 1, 1, 5)))
    state, _ = rules.apply(state, Place(1))
    assert state.current == 3, "only Denny has dice: he rolls again and again"


def test_four_rounds_start_player_moves_left_and_payout_after_the_last_die() -> None:
    state = rules.setup(NAMES, {"first_player": 2})
    rng = random.Random(8)
    starts = []
    rounds_paid = []
    while (action := random_input(rules, state, rng)) is not None:
        if state.phase == "stock" and state.casino_to_stock() == 1 and state.casinos[0].total == 0:
            starts.append(state.start)
        state, events = rules.apply(state, action)
        if any(e.kind == "payout" for e in events):
            rounds_paid.append(state.paid_round)
            assert sum(state.dice_left(i) for i in range(4)) in (0, 32)
            assert len([e for e in events if e.kind == "payout"]) == 6
    assert starts == [2, 3, 0, 1]
    assert rounds_paid == [1, 2, 3, 4]
    assert state.phase == "over"


# --- input checks --------------------------------------------------------------------------------


def test_a_reading_with_the_wrong_number_of_dice_is_refused() -> None:
    state = stocked()
    with pytest.raises(RuleViolation, match="Expected 8 dice but 7 were entered"):
        rules.apply(state, Roll(dice("red", 1, 2, 3, 4, 5, 6, 1)))
    state = stocked(neutral_dice=True)
    with pytest.raises(RuleViolation, match="8 red and 2 white"):
        rules.apply(state, Roll(dice("red", 1, 2, 3, 4, 5, 6, 1, 2, 3) + dice("white", 4)))


def test_a_reading_with_another_players_colour_is_refused() -> None:
    with pytest.raises(RuleViolation, match="8 red"):
        rules.apply(stocked(), Roll(dice("red", 1, 2, 3, 4, 5, 6, 1) + dice("blue", 2)))


def test_colour_may_be_left_out_when_the_roll_has_one_colour_and_case_does_not_matter() -> None:
    state, _ = rules.apply(stocked(), Roll(tuple(Die(f) for f in (1, 1, 2, 3, 4, 5, 6, 6))))
    assert {d.colour for d in state.roll} == {"red"}
    state, _ = rules.apply(stocked(neutral_dice=True), Roll(dice("Red", *[1] * 8) + dice("WHITE", 2, 2)))
    assert state.phase == "place"
    with pytest.raises(RuleViolation, match="colour"):
        rules.apply(stocked(neutral_dice=True), Roll(tuple(Die(1) for _ in range(10))))


def test_faces_other_than_one_to_six_are_refused() -> None:
    with pytest.raises(RuleViolation, match="cannot show 7"):
        rules.apply(stocked(), Roll(dice("red", 1, 2, 3, 4, 5, 6, 1, 7)))


def test_notes_that_are_not_in_the_deck_are_refused() -> None:
    state = rules.setup(NAMES, {})
    with pytest.raises(RuleViolation, match=r"no \$15,000 banknote"):
        rules.apply(state, DrawNote(15_000))
    state = replace(state, deck=tuple(v for v in state.deck if v != 60_000))
    with pytest.raises(RuleViolation, match=r"Every \$60,000 banknote is already out"):
        rules.apply(state, DrawNote(60_000))


def test_inputs_out_of_turn_are_refused_and_change_nothing() -> None:
    fresh = rules.setup(NAMES, {})
    with pytest.raises(RuleViolation, match="casino 1 still needs a banknote"):
        rules.apply(fresh, Roll(dice("red", *[1] * 8)))
    with pytest.raises(RuleViolation, match="roll the dice first"):
        rules.apply(fresh, Place(1))
    state = stocked()
    with pytest.raises(RuleViolation, match="stocked"):
        rules.apply(state, DrawNote(10_000))
    rolled, _ = rules.apply(state, Roll(dice("red", 1, 1, 2, 2, 3, 3, 4, 4)))
    with pytest.raises(RuleViolation, match="No die shows 5"):
        rules.apply(rolled, Place(5))
    with pytest.raises(RuleViolation, match="Place the dice already rolled"):
        rules.apply(rolled, Roll(dice("red", *[1] * 8)))
    final, _ = play(NAMES, {}, seed=1)
    with pytest.raises(RuleViolation, match="over"):
        rules.apply(final, DrawNote(10_000))
    assert random_input(rules, final, random.Random(0)) is None


# --- setup options -------------------------------------------------------------------------------


def test_setup_colours_default_and_custom() -> None:
    assert rules.setup(NAMES, {}).colours == ("red", "blue", "green", "yellow")
    state = rules.setup(NAMES[:2], {"colours": ["Orange", "purple"]})
    assert state.colours == ("orange", "purple")
    assert rules.roll_spec(replace(state, phase="roll")).colours == (("orange", 8),)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"colours": ["red"]}, "one dice colour per player"),
        ({"colours": ["red", "red"]}, "same dice colour"),
        ({"colours": ["red", "white"], "neutral_dice": True}, "neutral dice"),
        ({"colours": "red"}, "list of colour names"),
        ({"neutral_dice": "yes"}, "on or off"),
        ({"first_player": 2}, "start player"),
        ({"house_rules": True}, "no option house_rules"),
    ],
)
def test_setup_refuses_bad_options(options: dict[str, object], message: str) -> None:
    with pytest.raises(RuleViolation, match=message):
        rules.setup(NAMES[:2], options)


def test_setup_player_counts_and_registry() -> None:
    assert isinstance(get_rules("lasvegas"), LasVegasRules)
    with pytest.raises(RuleViolation, match="2 to 5 players"):
        rules.setup(["Solo"], {})
    with pytest.raises(RuleViolation, match="2 to 5 players"):
        rules.setup([f"P{i}" for i in range(6)], {})
    assert rules.setup([f"P{i}" for i in range(5)], {}).colours[-1] == "black"


def test_virtual_deck_option_changes_only_the_prompt() -> None:
    plain = rules.setup(NAMES, {})
    virtual = rules.setup(NAMES, {"virtual_deck": True})
    assert "companion draws" in str(rules.awaiting(virtual).prompt)
    assert "enter its value" in str(rules.awaiting(plain).prompt)
    assert rules.scoreboard(virtual)["virtual_deck"] is True
    rng = random.Random(0)
    action = random_input(rules, virtual, rng)
    assert isinstance(action, DrawNote) and action.value in virtual.deck


# --- actions as JSON -----------------------------------------------------------------------------


def test_actions_round_trip_through_json() -> None:
    for action in (DrawNote(40_000), Place(4), Roll(dice("red", 1, 2) + dice("white", 3))):
        data = rules.action_to_json(action)
        assert rules.action_from_json(data) == action
    assert rules.action_to_json(Place(4)) == {"type": "place", "face": 4}
    assert rules.action_to_json(Roll((Die(3, "white"),))) == {"type": "roll", "dice": [{"face": 3, "colour": "white"}]}
    with pytest.raises(MalformedAction):
        rules.action_from_json({"type": "note", "value": "lots"})


# --- scoreboard ----------------------------------------------------------------------------------


def test_scoreboard_shows_casinos_roll_deck_and_payout() -> None:
    state = stocked(neutral_dice=True)
    casinos = list(state.casinos)
    casinos[3] = Casino(4, (90_000, 20_000), (1, 2, 0, 0), 1)
    state = replace(state, casinos=tuple(casinos))
    state, _ = rules.apply(state, Roll(dice("red", 4, 4, 4, 1, 1, 2, 2, 3) + dice("white", 4, 6)))
    board = localize(rules.scoreboard(state), "en")
    casino4 = board["casinos"][3]
    assert casino4["notes"] == [90_000, 20_000]
    assert casino4["dice"] == [
        {"seat": 1, "name": "Benno", "colour": "blue", "count": 2},
        {"seat": 0, "name": "Anna", "colour": "red", "count": 1},
        {"seat": WHITE, "name": "white dice", "colour": "white", "count": 1},
    ]
    assert board["roll"]["player"] == 0
    assert {"face": 4, "own": 3, "white": 1} in board["roll"]["by_face"]
    assert board["players"][0]["to_play"] is True and board["players"][0]["start_player"] is True
    assert board["deck"]["count"] == 48 and board["under"] == {"count": 0, "total": 0}
    assert board["payout"] is None and board["money_hidden"] is True
    final, _ = play(NAMES, {"neutral_dice": True}, seed=2)
    board = localize(rules.scoreboard(final), "en")
    assert board["payout"]["round"] == 4 and len(board["payout"]["lines"]) == 6
    assert all(line.startswith(f"Casino {i}:") for i, line in enumerate(board["payout"]["lines"], 1))
    assert money_everywhere(final) == TOTAL
