"""The Heckmeck rulebook's worked examples (figures 3-7), each replayed through the engine."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.games.base import Die, RuleViolation
from companion.games.heckmeck.actions import Claim, Roll, Stop, Take
from companion.games.heckmeck.rules import HeckmeckRules
from companion.games.heckmeck.state import TILES, WORM, HeckmeckState, worms_on

W = WORM
rules = HeckmeckRules()


def roll(state: HeckmeckState, *faces: int | str) -> HeckmeckState:
    return rules.apply(state, Roll(tuple(Die(f) for f in faces)))[0]


def take(state: HeckmeckState, face: int | str) -> HeckmeckState:
    return rules.apply(state, Take(face))[0]


def table(players: int = 5, **changes: object) -> HeckmeckState:
    """A fresh game with the state fields in ``changes`` overridden (grill, stacks, current ...)."""
    names = ["Jonathan", "Heather", "Nicole", "Tom", "Steven"][:players]
    return replace(rules.setup(names, {}), **changes)  # type: ignore[arg-type]


def test_figure_3_keep_one_new_face_per_roll() -> None:
    state = roll(table(), W, W, 1, 3, 3, 5, 6 - 1, 2)  # any first roll holding two worms
    state = take(state, W)
    assert state.kept == (W, W) and state.dice_left == 6
    state = roll(state, W, W, W, 4, 4, 1)
    # three worms were rolled but worms are already kept: only 1 and 4 may be kept now
    assert set(rules.takeable(state)) == {1, 4}
    with pytest.raises(RuleViolation, match="already kept"):
        take(state, W)
    state = take(state, 4)
    assert state.kept_total == 18
    state = roll(state, 4, 4, 5, W)
    assert rules.takeable(state) == [5]
    state = take(state, 5)
    assert state.kept_total == 23 and state.dice_left == 3
    # to go on, the next roll must show a 1, 2 or 3
    assert {1, 2, 3} == set(range(1, 6)) - set(f for f in state.kept if f != W)


def test_figure_4a_take_the_exact_tile_from_the_grill() -> None:
    state = take(roll(table(), W, W, 1, 1, 3, 3, 5, 2), W)
    state = take(roll(state, 4, 4, 1, 1, 3, 3), 4)
    state = roll(state, 2, 2, 2, 4)
    assert rules.takeable(state) == [2]  # the 4 is already kept
    state = take(state, 2)
    assert state.kept_total == 24
    options = rules.legal_actions(state)
    assert options == [Claim(24)]
    state, events = rules.apply(state, Claim(24))
    assert state.stacks[0] == (24,) and 24 not in state.grill
    assert events[0].kind == "claimed"


def kept(state: HeckmeckState, faces: tuple[int | str, ...]) -> HeckmeckState:
    """The current player has just kept ``faces`` and may roll on or stop."""
    return replace(state, kept=faces, phase="decide")


def test_figure_4b_steal_the_exact_top_tile() -> None:
    state = table(current=4, stacks=((), (21,), (), (), ()), grill=TILES[1:])
    state = kept(state, (W, 4, 4, 4, 4))  # 21
    claims = rules.legal_actions(state)
    assert claims[0] == Claim(21, victim=1)
    state, events = rules.apply(state, Claim(21, victim=1))
    assert state.stacks[1] == () and state.stacks[4] == (21,)
    assert "stole 21 from Heather" in str(events[0].text)


def test_figure_4c_own_tile_and_covered_tile_cannot_be_taken() -> None:
    # Nicole shows 23 on her own stack; 22 lies under 30 in Tom's stack; 21 is on the grill.
    grill = tuple(t for t in TILES if t not in (22, 23, 30))
    state = table(current=2, stacks=((), (), (23,), (22, 30), ()), grill=grill)
    state = kept(state, (W, W, W, 4, 4))  # 23
    assert rules.legal_actions(state) == [Claim(21)]
    with pytest.raises(RuleViolation):
        rules.apply(state, Claim(23, victim=2))
    with pytest.raises(RuleViolation):
        rules.apply(state, Claim(22, victim=3))


def test_figure_4d_next_lower_tile_when_the_total_is_gone() -> None:
    # 31, 30 and 29 lie covered in other stacks; 28 is the highest grill tile below 31
    grill = tuple(t for t in TILES if t not in (21, 22, 23, 29, 30, 31))
    state = table(current=3, stacks=((31, 21), (30, 22), (29, 23), (), ()), grill=grill)
    state = kept(state, (W, W, W, 5, 5, 3, 3))  # 31
    assert rules.legal_actions(state) == [Claim(28)]
    state, _ = rules.apply(state, Claim(28))
    assert state.stacks[3] == (28,)


def test_figure_4e_steal_or_take_lower_is_the_players_choice() -> None:
    state = table(current=1, stacks=((26,), (), (), (), ()), grill=tuple(t for t in TILES if t != 26))
    state = kept(state, (W, W, 4, 4, 4, 4))  # 26
    awaiting = rules.awaiting(state)
    assert [o.action for o in awaiting.options] == [Claim(26, victim=0), Claim(25)]
    assert awaiting.options[0].recommended and not awaiting.options[1].recommended
    state, _ = rules.apply(state, Claim(25))  # Heather overlooks Jonathan's 26
    assert state.stacks == ((26,), (25,), (), (), ())


def test_figure_5_a_new_tile_covers_the_stack() -> None:
    state = table(current=2, stacks=((), (), (22, 25), (), ()), grill=tuple(t for t in TILES if t not in (22, 25)))
    state = kept(state, (W, W, W, 5, 5, 3))  # 28
    state, _ = rules.apply(state, Claim(28))
    assert state.stacks[2] == (22, 25, 28)
    # only the top tile can now be stolen; 25 is safe
    thief = kept(replace(state, current=3), (W, W, W, W, 5))  # 25
    assert Claim(25, victim=2) not in rules.legal_actions(thief)


def test_figure_6a_a_roll_with_no_new_face_fails_the_turn() -> None:
    state = table(current=2, stacks=((), (), (27,), (), ()), grill=tuple(t for t in TILES if t != 27))
    state = replace(kept(state, (W, 5, 5, 4, 4)), phase="decide")
    state, events = rules.apply(state, Roll((Die(W), Die(5), Die(4))))
    kinds = [e.kind for e in events]
    assert kinds[:3] == ["rolled", "no_new_face", "failed"]
    assert state.stacks[2] == () and 27 in state.grill  # returned
    assert 36 in state.face_down  # and the highest tile turned over
    assert state.current == 3 and state.phase == "roll" and state.kept == ()


def test_figure_6b_no_worm_no_tile() -> None:
    state = kept(table(current=1), (4, 4, 5, 5, 3, 3, 3))  # 31 but no worm
    assert rules.claims(state) == []
    with pytest.raises(RuleViolation, match="worm"):
        rules.apply(state, Claim(31))
    state, events = rules.apply(state, Stop())
    assert events[-1].kind == "failed" and state.current == 2


def test_figure_6c_total_reached_but_nothing_to_take() -> None:
    # Tom owns 25; every tile below 25 is gone; his last roll of two 1s brings him to 25.
    grill = tuple(t for t in TILES if t > 25)
    state = table(current=3, stacks=((21, 22), (24, 23), (), (25,), ()), grill=grill)
    state = kept(state, (W, W, W, 3, 3, 2))  # 23 with six dice
    state, events = rules.apply(state, Roll((Die(1), Die(1))))
    state2, events2 = rules.apply(state, Take(1))
    assert [e.kind for e in events2] == ["kept", "cannot_claim", "failed"]
    assert state2.stacks[3] == ()  # his 25 went back to the grill
    assert 36 in state2.face_down


def test_figure_7a_returning_a_tile_turns_the_highest_over() -> None:
    grill = tuple(t for t in TILES if t not in (35, 36, 27))
    state = table(current=3, stacks=((), (), (), (27,), ()), grill=grill, face_down=(35, 36))
    state = kept(state, (5, 5))
    state, events = rules.apply(state, Stop())
    assert 27 in state.grill and 34 in state.face_down and 34 not in state.grill
    assert "34 is turned over" in str(events[-1].text)


def test_figure_7b_a_returned_tile_that_is_highest_stays_face_up() -> None:
    grill = tuple(t for t in TILES if t < 30)
    face_down = tuple(t for t in TILES if t > 30)
    state = table(current=1, stacks=((), (30,), (), (), ()), grill=grill, face_down=face_down)
    state, events = rules.apply(kept(state, (5,)), Stop())
    assert state.grill[-1] == 30 and state.face_down == face_down
    assert events[-1].data["flipped"] is None


def test_short_variant_turns_a_returned_highest_tile_over() -> None:
    grill = tuple(t for t in TILES if t < 30)
    face_down = tuple(t for t in TILES if t > 30)
    state = table(current=1, stacks=((), (30,), (), (), ()), grill=grill, face_down=face_down)
    state = replace(state, short_variant=True)
    state, events = rules.apply(kept(state, (5,)), Stop())
    assert 30 not in state.grill and 30 in state.face_down
    assert "face down" in str(events[-1].text)


def test_short_variant_still_flips_the_highest_when_the_returned_tile_is_lower() -> None:
    state = table(current=1, stacks=((), (22,), (), (), ()), grill=tuple(t for t in TILES if t != 22))
    state = replace(state, short_variant=True)
    state, _ = rules.apply(kept(state, (5,)), Stop())
    assert 22 in state.grill and 36 in state.face_down


def test_failed_turn_with_no_tiles_flips_nothing() -> None:
    state, events = rules.apply(kept(table(current=0), (5,)), Stop())
    assert state.grill == TILES and state.face_down == ()
    assert events[-1].data == {"player": 0, "returned": None, "flipped": None}


def test_totals_above_36_claim_the_highest_tile() -> None:
    state = kept(table(), (W, W, W, W, W, 5, 5, 5))  # 40
    assert rules.legal_actions(state) == [Claim(36)]


def test_stop_is_refused_when_a_tile_can_be_taken() -> None:
    state = kept(table(), (W, W, W, 5, 5))  # 25
    with pytest.raises(RuleViolation, match="choose one of the tiles"):
        rules.apply(state, Stop())


def test_all_six_faces_kept_ends_the_rolling() -> None:
    state = kept(table(), (W, 5, 4, 3, 2))  # 19, three dice left
    state = roll(state, 1, 1, 1)
    state, events = rules.apply(state, Take(1))
    # 22 with all six faces kept: no further roll can add a face, so the claim is forced
    assert state.phase == "claim" and rules.legal_actions(state) == [Claim(22)]
    assert rules.awaiting(state).dice is None


def test_game_ends_when_the_grill_is_empty_and_ties_go_to_the_highest_tile() -> None:
    state = table(players=2, stacks=((21, 22, 25, 36), (23, 24, 26, 35)), grill=(27,), face_down=tuple(range(28, 35)))
    # worms: A = 1+1+2+4 = 8; B = 1+1+2+4 = 8 before the last claim
    state = kept(replace(state, current=1), (W, W, W, W, 5, 2))  # 27
    state, events = rules.apply(state, Claim(27))
    assert state.phase == "over" and events[-1].kind == "game_over"
    outcome = rules.outcome(state)
    assert outcome is not None and outcome.winners == (1,)  # 8 + 2 = 10 worms against 8
    # a tie on worms goes to whoever holds the highest tile
    tied = replace(state, stacks=((21, 22, 25, 36), (23, 24, 26, 35)))
    tie_outcome = rules.outcome(tied)
    assert tie_outcome is not None and tie_outcome.winners == (0,)


def test_a_complete_tie_is_a_shared_win() -> None:
    state = table(players=3, stacks=((), (), ()), grill=(), face_down=TILES, phase="over")
    outcome = rules.outcome(state)
    assert outcome is not None and outcome.winners == (0, 1, 2)
    assert "share" in str(outcome.text)


def test_worms_per_tile() -> None:
    assert [worms_on(t) for t in (21, 24, 25, 28, 29, 32, 33, 36)] == [1, 1, 2, 2, 3, 3, 4, 4]
    assert sum(worms_on(t) for t in TILES) == 40


@pytest.mark.parametrize(("players", "ok"), [(1, False), (2, True), (7, True), (8, False)])
def test_player_count(players: int, ok: bool) -> None:
    names = [f"P{i}" for i in range(players)]
    if ok:
        assert len(rules.setup(names, {}).stacks) == players
    else:
        with pytest.raises(RuleViolation, match="2 to 7"):
            rules.setup(names, {})


def test_roll_with_wrong_number_of_dice_is_refused() -> None:
    with pytest.raises(RuleViolation, match="Expected 8 dice"):
        roll(table(), 1, 2, 3)
    with pytest.raises(RuleViolation, match="cannot show 6"):
        roll(table(), 1, 2, 3, 4, 5, 6, 1, 2)
