"""The Las Vegas rulebook's worked examples, each played through the engine.

The rulebook gives the payout examples as pictures whose dice the text does not list; where a count is
not in the text, the test uses a layout that gives exactly the payout the text states (and says so).
"""

from __future__ import annotations

from dataclasses import replace

from companion.games.base import Die
from companion.games.lasvegas.actions import DrawNote, Place, Roll
from companion.games.lasvegas.banknotes import TOTAL, remove_one
from companion.games.lasvegas.payout import WHITE, pay
from companion.games.lasvegas.rules import LasVegasRules
from companion.games.lasvegas.state import Casino, LasVegasState
from companion.i18n.render import localize

rules = LasVegasRules()
ANNA, BENNO, CARLA, DENNY = range(4)
NAMES = ["Anna", "Benno", "Carla", "Denny"]


def own(colour: str, *faces: int) -> tuple[Die, ...]:
    return tuple(Die(f, colour) for f in faces)


def white(*faces: int) -> tuple[Die, ...]:
    return own("white", *faces)


def pay_out(casino: int, notes: tuple[int, ...], dice: dict[int, int], neutral: bool = False) -> LasVegasState:
    """Play the end of a round in which casino ``casino`` holds ``notes`` and ``dice`` (seat -> count,
    WHITE for the white dice) and the other casinos are empty. Denny holds the round's last die: it lands
    on this casino if he has dice in the layout, else on the next casino; then the casinos pay out."""
    state = rules.setup(NAMES, {"neutral_dice": neutral})
    counts = [dice.get(s, 0) for s in range(4)]
    land = casino if counts[DENNY] else casino % 6 + 1
    if counts[DENNY]:
        counts[DENNY] -= 1
    deck = state.deck
    for note in notes:
        deck = remove_one(deck, note)
    casinos = tuple(
        Casino(c.number, notes, tuple(counts), dice.get(WHITE, 0)) if c.number == casino else c for c in state.casinos
    )
    state = replace(
        state, phase="roll", current=DENNY, casinos=casinos, own_left=(0, 0, 0, 1), white_left=(0,) * 4, deck=deck
    )
    state, _ = rules.apply(state, Roll(own("yellow", land)))
    state, _ = rules.apply(state, Place(land))
    assert state.paid_round == 1 and state.round == 2 and state.phase == "stock"
    assert sum(state.deck) + sum(state.under) + sum(map(sum, state.won)) + sum(c.total for c in state.casinos) == TOTAL
    return state


# --- playing a turn ----------------------------------------------------------------------------


def test_rulebook_placement_example_benno_places_all_four_threes() -> None:
    state = rules.setup(NAMES, {})
    state = replace(state, phase="roll", current=BENNO, own_left=(8, 5, 8, 8))
    state, _ = rules.apply(state, Roll(own("blue", 3, 5, 3, 3, 3)))
    labels = [str(o.label) for o in rules.awaiting(state).options]
    assert labels == ["Casino 3: 4 dice", "Casino 5: 1 die"]
    state, _ = rules.apply(state, Place(3))
    # all four threes went to casino 3 (no way to put down only some of them); one die is left
    assert state.casinos[2].dice[BENNO] == 4
    assert state.own_left[BENNO] == 1
    assert state.current == CARLA


# --- ties and payout ---------------------------------------------------------------------------


def test_rulebook_tie_example_1_and_payout_example_1_caesars_palace() -> None:
    # Anna 5, Benno 3, Carla 3, Denny 1: Benno and Carla are tied and out; the casino holds 80,000,
    # 30,000 and 10,000. Anna takes 80,000, Denny 30,000; the 10,000 goes under the deck.
    notes = (80_000, 30_000, 10_000)
    result = pay(3, notes, {ANNA: 5, BENNO: 3, CARLA: 3, DENNY: 1})
    assert [t.seats for t in result.ties] == [(BENNO, CARLA)]
    assert result.won_by(ANNA) == 80_000 and result.won_by(DENNY) == 30_000
    assert result.under == (10_000,)
    state = pay_out(3, notes, {ANNA: 5, BENNO: 3, CARLA: 3, DENNY: 1})
    assert state.won == ((80_000,), (), (), (30_000,))
    assert 10_000 in state.under
    line = rules.scoreboard(state)["payout"]["lines"][2]
    assert localize(line, "en") == (
        "Casino 3: Anna $80,000 and Denny $30,000; Benno and Carla tied with 3 dice, out; $10,000 under the deck."
    )


def test_rulebook_tie_example_2_golden_nugget_everyone_out() -> None:
    # Anna and Carla 2 each, Benno and Denny 1 each: both pairs are tied, nobody is paid.
    notes = (50_000, 20_000)  # any notes: they all go under the deck
    result = pay(4, notes, {ANNA: 2, CARLA: 2, BENNO: 1, DENNY: 1})
    assert result.ranked == ()
    assert [t.seats for t in result.ties] == [(ANNA, CARLA), (BENNO, DENNY)]
    assert result.under == notes
    state = pay_out(4, notes, {ANNA: 2, CARLA: 2, BENNO: 1, DENNY: 1})
    assert state.won == ((), (), (), ())


def test_rulebook_payout_example_2_one_note_taken_one_under() -> None:
    # Benno takes 40,000, the other 40,000 goes under. (Layout: Benno 3, Anna and Carla tied at 1.)
    notes = (40_000, 40_000)
    dice = {BENNO: 3, ANNA: 1, CARLA: 1}
    result = pay(5, notes, dice)
    assert result.won_by(BENNO) == 40_000 and result.under == (40_000,)
    state = pay_out(5, notes, dice)
    assert state.won[BENNO] == (40_000,)


def test_rulebook_payout_example_3_not_enough_notes_for_everyone() -> None:
    # Carla 70,000, Benno 20,000, Denny empty-handed (fewest dice, no note left for him).
    notes = (70_000, 20_000)
    dice = {CARLA: 3, BENNO: 2, DENNY: 1}
    result = pay(6, notes, dice)
    assert [(s.seat, s.note) for s in result.ranked] == [(CARLA, 70_000), (BENNO, 20_000), (DENNY, None)]
    assert result.under == ()
    state = pay_out(6, notes, dice)
    assert state.won == ((), (20_000,), (70_000,), ())


# --- the neutral dice variant ------------------------------------------------------------------


def test_rulebook_neutral_dice_placement_example_carla() -> None:
    # Carla rolled two of her own 1s and a white 1, her own 5 and a white 6: she may put down the three
    # 1s together, or her 5, or the white 6.
    state = rules.setup(NAMES, {"neutral_dice": True})
    state = replace(state, phase="roll", current=CARLA, own_left=(8, 8, 3, 8), white_left=(2, 2, 2, 2))
    state, _ = rules.apply(state, Roll(own("green", 1, 1, 5) + white(1, 6)))
    labels = [str(o.label) for o in rules.awaiting(state).options]
    assert labels == ["Casino 1: 2 of yours and 1 white", "Casino 5: 1 of yours", "Casino 6: 1 white die"]
    ones, _ = rules.apply(state, Place(1))
    assert ones.casinos[0].dice[CARLA] == 2 and ones.casinos[0].white == 1
    assert (ones.own_left[CARLA], ones.white_left[CARLA]) == (1, 1)
    five, _ = rules.apply(state, Place(5))
    assert five.casinos[4].dice[CARLA] == 1 and five.casinos[4].white == 0
    six, _ = rules.apply(state, Place(6))
    assert six.casinos[5].white == 1 and six.casinos[5].dice[CARLA] == 0
    assert (six.own_left[CARLA], six.white_left[CARLA]) == (3, 1)


def test_rulebook_neutral_payout_example_1_white_dice_win_the_top_note() -> None:
    # The white dice win 80,000 (it goes under the deck); Benno takes 30,000. (Layout: white 2, Benno 1.)
    notes = (80_000, 30_000)
    result = pay(2, notes, {WHITE: 2, BENNO: 1})
    assert result.won_by(WHITE) == 80_000 and result.won_by(BENNO) == 30_000
    assert result.under == (80_000,)
    state = pay_out(2, notes, {WHITE: 2, BENNO: 1}, neutral=True)
    assert state.won[BENNO] == (30_000,)
    assert 80_000 in state.under


def test_rulebook_neutral_payout_example_2_white_dice_between_carla_and_anna() -> None:
    # Carla takes 70,000; the white dice win 40,000 (under the deck); Anna gets nothing.
    # (Layout: Carla 3, white 2, Anna 1.)
    notes = (70_000, 40_000)
    result = pay(1, notes, {CARLA: 3, WHITE: 2, ANNA: 1})
    assert [(s.seat, s.note) for s in result.ranked] == [(CARLA, 70_000), (WHITE, 40_000), (ANNA, None)]
    assert result.under == (40_000,)
    state = pay_out(1, notes, {CARLA: 3, WHITE: 2, ANNA: 1}, neutral=True)
    assert state.won[CARLA] == (70_000,) and state.won[ANNA] == ()
    assert 40_000 in state.under


# --- setup ---------------------------------------------------------------------------------------


def test_setup_stocks_each_casino_to_at_least_50000_in_order() -> None:
    state = rules.setup(NAMES, {})
    for value in (10_000, 30_000, 20_000):  # casino 1: 60,000
        assert state.casino_to_stock() == 1
        state, _ = rules.apply(state, DrawNote(value))
    for value in (50_000,) + (90_000,) * 4:  # casinos 2-6 take one note each
        state, _ = rules.apply(state, DrawNote(value))
    assert [c.notes for c in state.casinos] == [(30_000, 20_000, 10_000), (50_000,)] + [(90_000,)] * 4
    assert state.phase == "roll" and state.current == ANNA
    assert rules.roll_spec(state).count == 8
