"""The Cincinnati rulebook's worked examples and the project's rulings, each played through the engine.

The rulebook's examples name five players (Giulia, Caterina, Franco, Paolo, Susanna) and show the
dice in pictures; where the text does not give every die, the test uses dice that match what the
text says (and says so).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from companion.games.base import Die, RuleViolation
from companion.games.cincinnati.actions import (
    Action,
    BuyThrow,
    Challenge,
    ChooseTable,
    NoMore,
    Pass,
    RevealCard,
    Throw,
)
from companion.games.cincinnati.cards import CHIPS, DECK, DUEL, remove_one
from companion.games.cincinnati.rules import CincinnatiRules
from companion.games.cincinnati.state import CincinnatiState
from companion.i18n.render import localize

R = CincinnatiRules()
FIVE = ["Giulia", "Caterina", "Franco", "Paolo", "Susanna"]


class Game:
    """A game driven by name: ``g.throw("Paolo", 6, 6, 6, 6, 2)``; every event text is kept in ``log``."""

    def __init__(self, players: list[str] = FIVE, options: dict[str, Any] | None = None) -> None:
        self.state = R.setup(players, options or {})
        self.log: list[str] = []
        self.events: list[Any] = []

    def seat(self, name: str) -> int:
        return [p.name for p in self.state.players].index(name)

    def do(self, *actions: Action) -> Game:
        for action in actions:
            self.state, events = R.apply(self.state, action)
            self.events += events
            self.log += [str(e.text) for e in events]
        return self

    def refused(self, action: Action, match: str) -> None:
        before = self.state
        with pytest.raises(RuleViolation, match=match):
            R.apply(self.state, action)
        assert self.state == before

    def cards(self, *cards: int | str) -> Game:
        return self.do(*(RevealCard(c) for c in cards))

    def choose(self, **tables: str) -> Game:
        return self.do(*(ChooseTable(self.seat(n), t) for n, t in tables.items()))  # type: ignore[arg-type]

    def throw(self, name: str, *dice: int, kept: tuple[int, ...] | None = None) -> Game:
        return self.do(Throw(tuple(Die(f) for f in dice), self.seat(name), kept))

    def pass_(self, name: str) -> Game:
        return self.do(Pass(self.seat(name)))

    def final(self, **dice: tuple[int, ...]) -> Game:
        """Phase 2 in short: each player throws ``dice`` first and passes the other two throws; nobody
        buys a chip throw."""
        assert self.state.phase == "throw" and self.state.throw == 1
        for name, faces in dice.items():
            self.throw(name, *faces)
        for _ in (2, 3):
            for name in dice:
                self.pass_(name)
        if self.state.phase == "buy":
            self.do(NoMore())
        return self

    def give(self, name: str, *cards: int, chips: int | None = None) -> Game:
        """Hand a player money cards out of the deck (and set their chips, through the supply)."""
        seat = self.seat(name)
        p = self.state.players[seat]
        unseen = self.state.unseen
        for c in cards:
            unseen = remove_one(unseen, c)
        supply = self.state.supply
        if chips is not None:
            supply += p.chips - chips
            p = replace(p, chips=chips)
        p = replace(p, money=tuple(sorted(p.money + cards, reverse=True)))
        players = tuple(p if i == seat else q for i, q in enumerate(self.state.players))
        self.state = replace(self.state, players=players, unseen=unseen, supply=supply)
        return self

    def in_round(self, number: int) -> Game:
        self.state = replace(self.state, round=number)
        return self

    @property
    def board(self) -> Any:
        return R.scoreboard(self.state)

    def player(self, name: str) -> Any:
        return localize(self.board["players"][self.seat(name)], "en")

    def table(self, name: str) -> Any:
        return next(t for t in self.board["tables"] if t["table"] == name)


def count_cards(state: CincinnatiState) -> int:
    held = sum(len(p.money) + p.duel_cards for p in state.players)
    return len(state.unseen) + sum(map(len, state.on_tables)) + held + len(state.discard)


# --- phase 1 -----------------------------------------------------------------------------------


def test_rulebook_giulia_reveals_three_cards_onto_tables_a_b_c_in_order() -> None:
    g = Game().cards(25_000, CHIPS, 15_000)
    assert [t["cards"] for t in g.board["tables"]] == [[25_000], [CHIPS], [15_000]]
    assert g.state.phase == "choose"
    assert count_cards(g.state) == 36


def test_rulebook_a_duel_card_in_the_very_first_round_goes_back_and_is_replaced() -> None:
    g = Game().cards(DUEL)
    assert g.state.dealt == 0 and g.state.unseen.count(DUEL) == 6
    assert "shuffle it back" in g.log[-1]
    g.cards(30_000, DUEL, 15_000, 20_000)
    assert [t["cards"] for t in g.board["tables"]] == [[30_000], [15_000], [20_000]]
    # from the second round on, a duel card stays on its table
    g.in_round(2)
    g.state = replace(g.state, phase="cards", dealt=0)
    g.cards(DUEL)
    assert g.table("A")["cards"] == [30_000, DUEL]


def test_rulebook_cards_on_a_table_not_cleared_stay_and_new_ones_join_them() -> None:
    g = Game().cards(25_000, CHIPS, 15_000)
    g.choose(Giulia="B", Caterina="B", Franco="B", Paolo="B", Susanna="B")
    g.final(**{n: (1, 1, 5, 5, 6) for n in FIVE})  # nobody has a straight
    assert all(t["cards"] for t in g.board["tables"])
    assert g.state.round == 2 and g.state.phase == "cards"
    g.cards(35_000, 20_000, 30_000)
    assert [t["cards"] for t in g.board["tables"]] == [[25_000, 35_000], [CHIPS, 20_000], [15_000, 30_000]]
    assert g.table("A")["money"] == 60_000


# --- phase 2: the secret choice ------------------------------------------------------------------


def test_rulebook_choice_example_and_nothing_shows_before_the_reveal() -> None:
    g = Game().cards(25_000, CHIPS, 15_000)
    g.choose(Giulia="A", Caterina="B", Franco="B", Paolo="B")
    board = g.board
    assert [p["chosen"] for p in board["players"]] == [True, True, True, True, False]
    assert all(p["table"] is None for p in board["players"])
    assert all(t["players"] is None for t in board["tables"])
    chosen = [e for e in g.events if e.kind == "chosen"]
    assert len(chosen) == 4 and all(
        set(e.data) == {"player"} and str(e.text).endswith("has chosen a table.") for e in chosen
    )
    assert R.awaiting(g.state).kind == "secret" and R.awaiting(g.state).players == (g.seat("Susanna"),)
    g.choose(Susanna="C")
    assert [t["players"] for t in g.board["tables"]] == [[0], [1, 2, 3], [4]]
    assert "Tables revealed" in g.log[-1]
    assert g.events[-1].data["tables"] == {"0": "A", "1": "B", "2": "B", "3": "B", "4": "C"}
    assert g.state.phase == "throw" and g.state.throw == 1


def test_ruling_a_player_chooses_once_and_only_a_table_in_play() -> None:
    g = Game().cards(25_000, CHIPS, 15_000).choose(Giulia="A")
    g.refused(ChooseTable(0, "C"), "already chosen")
    g.refused(ChooseTable(7, "C"), "no player in seat 7")
    three = Game(["Ann", "Bob", "Cy"]).cards(25_000, 15_000)
    three.refused(ChooseTable(0, "B"), "only tables A and C")


def test_ruling_secret_choices_in_any_order_each_option_names_its_player() -> None:
    g = Game().cards(25_000, CHIPS, 15_000)
    options = R.awaiting(g.state).options
    assert len(options) == 15 and {o.action.player for o in options} == set(range(5))
    g.choose(Susanna="C", Giulia="A")
    assert R.awaiting(g.state).players == (1, 2, 3)
    assert {o.action.player for o in R.awaiting(g.state).options} == {1, 2, 3}


# --- phase 2: throws -----------------------------------------------------------------------------


def started(players: list[str] = FIVE, **tables: str) -> Game:
    g = Game(players).cards(25_000, CHIPS, 15_000) if len(players) > 3 else Game(players).cards(25_000, 15_000)
    return g.choose(**tables)


def test_rulebook_chip_throw_example_giulia_keeps_sixes_and_fours_and_makes_a_full_house() -> None:
    g = started(Giulia="A", Caterina="B", Franco="B", Paolo="B", Susanna="C")
    others = {
        "Caterina": (1, 2, 3, 4, 6),
        "Franco": (2, 2, 3, 5, 6),
        "Paolo": (1, 3, 4, 5, 5),
        "Susanna": (1, 1, 2, 3, 3),
    }
    g.throw("Giulia", 6, 6, 4, 1, 2)
    for name, dice in others.items():
        g.throw(name, *dice)
    for _ in (2, 3):  # the others pass, saying so before Giulia throws again
        for name in others:
            g.pass_(name)
        g.throw("Giulia", 6, 6, 4, *((3, 5) if g.state.throw == 2 else (4, 2)), kept=(6, 6, 4))
    assert g.player("Giulia")["hand"] == "two pair, 6s and 4s" and g.state.phase == "buy"
    supply = g.state.supply
    g.do(BuyThrow(g.seat("Giulia")), NoMore())
    assert g.player("Giulia")["chips"] == 2 and g.state.supply == supply + 1
    assert R.awaiting(g.state).players == (g.seat("Giulia"),) and R.awaiting(g.state).dice is not None
    g.throw("Giulia", 6, 6, 4, 4, 4, kept=(6, 6, 4, 4))
    assert g.player("Giulia")["hand"] == "full house, 4s over 6s"
    assert g.state.phase == "buy"  # everyone is asked again
    g.do(NoMore())
    assert any(line.startswith("Giulia clears table A (Atlantic) with full house") for line in g.log)


def test_rulebook_a_pass_is_declared_before_anyone_throws_again_and_is_not_made_up() -> None:
    g = started(Giulia="A", Caterina="B", Franco="B", Paolo="C", Susanna="C")
    for name in FIVE:
        g.throw(name, 1, 1, 1, 2, 3)
    assert R.awaiting(g.state).kind == "choice" and len(R.awaiting(g.state).options) == 5
    g.pass_("Paolo")
    g.throw("Giulia", 1, 1, 1, 6, 6, kept=(1, 1, 1))
    assert R.awaiting(g.state).kind == "dice" and not R.awaiting(g.state).options
    g.refused(Pass(g.seat("Susanna")), "before anybody throws again")
    g.refused(Throw(tuple(Die(f) for f in (1, 1, 1, 2, 3)), g.seat("Paolo")), "already thrown")
    for name in ("Caterina", "Franco", "Susanna"):
        g.throw(name, 1, 1, 1, 2, 3)
    assert g.state.throw == 3 and g.state.passes_open


def test_rulebook_the_first_throw_is_all_five_dice_and_cannot_be_passed() -> None:
    g = started(Giulia="A", Caterina="B", Franco="B", Paolo="C", Susanna="C")
    g.refused(Pass(0), "cannot pass")
    g.refused(Throw(tuple(Die(f) for f in (1, 1, 1, 2, 3)), 0, (1,)), "first throw is all five")
    g.refused(Throw(tuple(Die(f) for f in (1, 1, 1, 2)), 0), "Expected 5 dice")
    g.refused(Throw(tuple(Die(f) for f in (1, 1, 1, 2, 7)), 0), "cannot show 7")


def test_kept_dice_must_come_from_the_dice_standing_and_still_show() -> None:
    g = started(Giulia="A", Caterina="B", Franco="B", Paolo="C", Susanna="C")
    for name in FIVE:
        g.throw(name, 1, 1, 1, 2, 3)
    dice = tuple(Die(f) for f in (1, 1, 4, 4, 4))
    g.refused(Throw(dice, 0, (6,)), "cannot keep 6")
    g.refused(Throw(dice, 0, (1, 1, 1)), "not all in this throw")
    g.refused(Throw(tuple(Die(f) for f in (1, 1, 1, 2, 3)), 0, (1, 1, 1, 2, 3)), "enter a pass")
    g.do(Throw(dice, 0, (1, 1)))
    assert g.player("Giulia")["dice"] == [1, 1, 4, 4, 4]


def test_a_throw_without_a_player_is_the_first_awaited_players() -> None:
    g = started(Giulia="A", Caterina="B", Franco="B", Paolo="C", Susanna="C")
    first = R.awaiting(g.state).players[0]
    g.do(Throw(tuple(Die(f) for f in (2, 2, 2, 5, 6))))
    assert g.state.players[first].dice == (2, 2, 2, 5, 6)
    assert first not in R.awaiting(g.state).players


def test_rulebook_players_who_cannot_agree_throw_richest_first_then_around() -> None:
    g = Game().give("Franco", 35_000).give("Susanna", 35_000).cards(25_000, CHIPS, 15_000)
    g.choose(Giulia="A", Caterina="B", Franco="B", Paolo="C", Susanna="C")
    # Franco and Susanna are equally rich and have no throw yet: the lower seat first, then clockwise
    assert R.awaiting(g.state).players == (2, 3, 4, 0, 1)
    for name, dice in zip(
        FIVE, [(1, 1, 2, 2, 3), (1, 1, 2, 2, 3), (1, 1, 2, 2, 3), (1, 1, 2, 2, 3), (6, 6, 6, 2, 3)], strict=True
    ):
        g.throw(name, *dice)
    assert R.awaiting(g.state).players == (4, 0, 1, 2, 3)  # Susanna's three 6s beat Franco's two pair


def test_rulebook_chip_throws_asked_richest_first_then_around_until_nobody_pays() -> None:
    g = Game().give("Paolo", 30_000).cards(25_000, CHIPS, 15_000)
    g.choose(Giulia="A", Caterina="B", Franco="B", Paolo="C", Susanna="C")
    g.final(**dict.fromkeys(FIVE, (1, 2, 2, 5, 6)))
    assert g.state.phase != "buy"  # final() said nobody pays: phase 3 followed
    g = Game().give("Paolo", 30_000).cards(25_000, CHIPS, 15_000)
    g.choose(Giulia="A", Caterina="B", Franco="B", Paolo="C", Susanna="C")
    for name in FIVE:
        g.throw(name, 1, 2, 2, 5, 6)
    for _ in (2, 3):
        for name in FIVE:
            g.pass_(name)
    awaiting = R.awaiting(g.state)
    assert "Ask Paolo, Susanna, Giulia, Caterina, and Franco" in str(awaiting.prompt)
    assert awaiting.options[0].action == NoMore() and awaiting.options[0].recommended
    g.do(BuyThrow(g.seat("Susanna")), BuyThrow(g.seat("Caterina")))
    g.refused(BuyThrow(g.seat("Susanna")), "already paid")
    g.do(NoMore())
    assert R.awaiting(g.state).players == (g.seat("Susanna"), g.seat("Caterina"))
    g.refused(Pass(g.seat("Susanna")), "must throw")
    g.refused(Throw(tuple(Die(f) for f in (1, 2, 2, 5, 6)), g.seat("Paolo")), "did not pay")
    g.throw("Susanna", 1, 2, 2, 1, 1, kept=(1, 2, 2))
    g.throw("Caterina", 1, 2, 3, 4, 6, kept=(1, 2, 6))
    assert g.state.phase == "buy" and g.state.throw == 4
    g.do(BuyThrow(g.seat("Susanna")), NoMore())
    g.throw("Susanna", 1, 2, 1, 1, 1, kept=(1, 2, 1, 1))
    g.do(NoMore())
    assert g.state.phase != "buy"
    assert any(line.startswith("Susanna clears table C") for line in g.log)
    assert any(line.startswith("Caterina clears table B") for line in g.log)
    assert g.player("Susanna")["chips"] == 1


def test_ruling_a_player_without_chips_cannot_buy_and_with_no_chips_anywhere_nobody_is_asked() -> None:
    g = Game()
    for name in FIVE:
        g.give(name, chips=0)
    assert g.state.supply == 20
    g.cards(25_000, 30_000, 15_000).choose(Giulia="A", Caterina="B", Franco="B", Paolo="C", Susanna="C")
    for name in FIVE:
        g.throw(name, 1, 2, 2, 5, 6)
    for _ in (2, 3):
        for name in FIVE:
            g.pass_(name)
    assert g.state.phase != "buy"
    g = Game().give("Giulia", chips=0).cards(25_000, 30_000, 15_000)
    g.choose(Giulia="A", Caterina="B", Franco="B", Paolo="C", Susanna="C")
    g.final(**dict.fromkeys(FIVE, (1, 2, 2, 5, 6)))
    g2 = Game().give("Giulia", chips=0).cards(25_000, 30_000, 15_000)
    g2.choose(Giulia="A", Caterina="B", Franco="B", Paolo="C", Susanna="C")
    for name in FIVE:
        g2.throw(name, 1, 2, 2, 5, 6)
    for _ in (2, 3):
        for name in FIVE:
            g2.pass_(name)
    assert 0 not in R.awaiting(g2.state).players
    g2.refused(BuyThrow(0), "no chip")


# --- phase 3: clearing -----------------------------------------------------------------------------


def test_rulebook_clearing_example_one() -> None:
    """Paolo's four beats Franco's three at A; Caterina's small straight 3-6 beats Giulia's 1-4 at B;
    Susanna's 12 pips do not clear C. (The text names the hands; the other dice are ours.)"""
    g = started(Paolo="A", Franco="A", Giulia="B", Caterina="B", Susanna="C")
    g.final(
        Paolo=(5, 5, 5, 5, 2),
        Franco=(6, 6, 6, 2, 1),
        Giulia=(1, 2, 3, 4, 4),
        Caterina=(3, 4, 5, 6, 6),
        Susanna=(1, 2, 3, 3, 3),
    )
    assert g.player("Paolo")["cards"] == [25_000]
    assert g.player("Caterina")["chips"] == 5 and g.player("Giulia")["chips"] == 3
    assert g.table("C")["cards"] == [15_000]
    assert any("Table C is not cleared" in line for line in g.log)
    assert [c["winner"] for c in g.board["cleared"]] == [g.seat("Paolo"), g.seat("Caterina"), None]


def test_rulebook_clearing_example_two() -> None:
    """Giulia's straight clears B, Franco has none; at C Paolo 11, Susanna 8, Caterina 9 pips: Susanna;
    nobody chose A, so its cards stay."""
    g = started(Franco="B", Giulia="B", Paolo="C", Susanna="C", Caterina="C")
    g.final(
        Franco=(2, 2, 4, 5, 6),
        Giulia=(2, 3, 4, 5, 6),
        Paolo=(1, 2, 2, 3, 3),
        Susanna=(1, 1, 2, 2, 2),
        Caterina=(1, 2, 2, 2, 2),
    )
    assert g.player("Giulia")["chips"] == 5
    assert g.player("Susanna")["cards"] == [15_000]
    assert g.table("A")["cards"] == [25_000]
    assert any("Table A is not cleared: nobody plays there" in line for line in g.log)


def test_rulebook_the_tables_clear_in_order_and_chip_cards_are_discarded() -> None:
    g = started(Franco="B", Giulia="B", Paolo="C", Susanna="C", Caterina="C")
    g.final(**dict.fromkeys(["Franco", "Paolo", "Susanna", "Caterina"], (6, 6, 5, 5, 4)), Giulia=(1, 2, 3, 4, 5))
    assert g.state.discard == (CHIPS,)
    assert count_cards(g.state) == 36 and g.state.supply + sum(p.chips for p in g.state.players) == 20


def test_ruling_a_chips_card_gives_what_the_supply_holds_at_most_two_in_order_a_b_c() -> None:
    g = Game(["Ann", "Bob", "Cy", "Di", "Ed", "Flo"]).in_round(2)
    assert g.state.supply == 2
    g.state = replace(g.state, supply=3)
    g.state = replace(g.state, players=(replace(g.state.players[0], chips=2), *g.state.players[1:]))
    g.cards(CHIPS, CHIPS, 15_000).choose(Ann="A", Bob="B", Cy="C", Di="C", Ed="C", Flo="C")
    g.final(
        Ann=(4, 4, 4, 1, 2),
        Bob=(1, 2, 3, 4, 6),
        Cy=(6, 6, 6, 6, 6),
        Di=(6, 6, 6, 6, 6),
        Ed=(6, 6, 6, 6, 6),
        Flo=(6, 6, 6, 6, 6),
    )
    assert g.player("Ann")["chips"] == 4 and g.player("Bob")["chips"] == 4  # 2, then the 1 left
    assert g.state.supply == 0
    assert "1 chip from the supply" in next(line for line in g.log if line.startswith("Bob clears"))


def test_rulebook_identical_best_throws_at_a_table_duel_richest_first() -> None:
    g = Game().give("Franco", 20_000).cards(25_000, CHIPS, 15_000)
    g.choose(Paolo="A", Franco="A", Giulia="B", Caterina="B", Susanna="C")
    g.final(
        Paolo=(4, 4, 4, 2, 1),
        Franco=(4, 4, 4, 2, 1),
        Giulia=(1, 2, 3, 4, 4),
        Caterina=(1, 2, 3, 4, 2),
        Susanna=(6, 6, 6, 6, 6),
    )
    duel = g.state.duel
    assert duel is not None and duel.reason == "tie" and duel.table == "A"
    assert duel.order == (g.seat("Franco"), g.seat("Paolo"))
    assert g.board["tables"][1]["cards"] == [CHIPS], "table B waits until A is settled"
    # three throws each, alternating, Franco first
    g.throw("Franco", 1, 1, 2, 3, 4)
    g.refused(Throw(tuple(Die(f) for f in (1, 1, 2, 3, 4)), g.seat("Franco")), "Paolo's turn")
    g.throw("Paolo", 5, 5, 2, 3, 4)
    g.pass_("Franco").pass_("Paolo").pass_("Franco").pass_("Paolo")
    # chip throws, alternating too: Franco stops, Paolo stops
    assert R.awaiting(g.state).players == (g.seat("Franco"),)
    g.do(NoMore(), NoMore())
    assert any(line.startswith("Paolo clears table A") for line in g.log)
    assert g.player("Paolo")["cards"] == [25_000]
    # then B: Giulia's 1-2-3-4 with a 4 beats Caterina's with a 2 (same small straight, the fifth die)
    assert g.player("Giulia")["chips"] == 5


def test_rulebook_same_lowest_sum_at_c_more_ones_win() -> None:
    g = started(Paolo="C", Franco="C", Giulia="B", Caterina="B", Susanna="A")
    g.final(
        Paolo=(1, 1, 1, 3, 4),
        Franco=(1, 2, 2, 2, 3),
        Giulia=(6, 6, 6, 6, 6),
        Caterina=(6, 6, 6, 6, 6),
        Susanna=(1, 2, 3, 4, 6),
    )
    assert g.player("Paolo")["cards"] == [15_000]


def test_ruling_more_than_two_tied_duel_at_once_and_those_still_tied_duel_again() -> None:
    g = started(Paolo="C", Franco="C", Giulia="C", Caterina="B", Susanna="A")
    g.final(
        Paolo=(1, 1, 2, 2, 3),
        Franco=(1, 1, 2, 2, 3),
        Giulia=(1, 1, 2, 2, 3),
        Caterina=(6, 6, 6, 6, 6),
        Susanna=(1, 2, 3, 4, 6),
    )
    duel = g.state.duel
    assert duel is not None and duel.order == (0, 2, 3)  # all equally poor: seat order, Giulia first
    for _ in range(3):
        g.throw("Giulia", 6, 6, 6, 2, 1).throw("Franco", 6, 6, 6, 2, 1).throw("Paolo", 1, 2, 3, 5, 6)
    g.do(NoMore(), NoMore(), NoMore())
    duel = g.state.duel
    assert duel is not None and duel.order == (0, 2) and duel.table == "C"
    assert "the same again" in g.log[-1]
    g.throw("Giulia", 1, 1, 2, 3, 5).throw("Franco", 5, 5, 6, 6, 6)
    for _ in range(2):
        g.pass_("Giulia").pass_("Franco")
    g.do(NoMore(), NoMore())
    assert g.player("Franco")["cards"] == [15_000]  # the duel's best hand, a full house, takes table C


def test_ruling_a_tie_break_ending_identical_again_is_repeated() -> None:
    g = started(Paolo="A", Franco="A", Giulia="B", Caterina="B", Susanna="C")
    g.final(
        Paolo=(3, 3, 3, 1, 2),
        Franco=(3, 3, 3, 1, 2),
        Giulia=(6, 6, 6, 6, 6),
        Caterina=(6, 6, 6, 6, 6),
        Susanna=(6, 6, 6, 6, 6),
    )
    for _ in range(2):
        assert g.state.duel is not None and g.state.duel.order == (2, 3)
        g.throw("Franco", 2, 2, 4, 5, 6).throw("Paolo", 2, 2, 4, 5, 6)
        g.pass_("Franco").pass_("Paolo").pass_("Franco").pass_("Paolo")
        g.do(NoMore(), NoMore())
    assert g.state.duel is not None  # still tied: a third tie-break
    g.throw("Franco", 2, 2, 4, 5, 6).throw("Paolo", 2, 2, 4, 5, 1)
    g.pass_("Franco").pass_("Paolo").pass_("Franco").pass_("Paolo")
    g.do(NoMore(), NoMore())
    assert g.player("Franco")["cards"] == [25_000]


# --- phase 4: duels ----------------------------------------------------------------------------------


def duel_round(g: Game, holder: str = "Giulia") -> Game:
    """Round 2: a duel card on table A, cleared by ``holder`` alone with three 6s; nobody else clears."""
    g.in_round(2).cards(DUEL, 20_000, 30_000)
    tables = {n: "B" for n in FIVE}
    tables[holder] = "A"
    g.choose(**tables)
    dice = {n: (1, 1, 5, 5, 6) for n in FIVE}
    dice[holder] = (6, 6, 6, 2, 1)
    return g.final(**dice)


def test_rulebook_the_duel_holder_who_wins_takes_the_opponents_highest_money_card() -> None:
    g = duel_round(Game().give("Paolo", 35_000, 15_000))
    assert g.state.phase == "challenge" and R.awaiting(g.state).players == (0,)
    assert len(R.awaiting(g.state).options) == 4
    g.refused(Challenge(0), "cannot duel themselves")
    g.do(Challenge(g.seat("Paolo")))
    g.throw("Giulia", 6, 6, 6, 6, 1)
    g.throw("Paolo", 1, 2, 3, 5, 5)
    g.pass_("Giulia")
    g.throw("Paolo", 1, 2, 3, 5, 6, kept=(1, 2, 3, 5))
    g.pass_("Giulia").pass_("Paolo")
    g.do(NoMore())  # Giulia stops
    g.throw("Paolo", 1, 2, 3, 5, 2, kept=(1, 2, 3, 5))  # a chip throw, paid by throwing
    assert g.player("Paolo")["chips"] == 2
    g.do(NoMore(), NoMore())  # Giulia stops, Paolo stops: the duel is over
    assert g.player("Giulia")["cards"] == [35_000] and g.player("Paolo")["cards"] == [15_000]
    assert "takes Paolo's $35,000" in g.log[-2]
    assert g.state.round == 3 and g.state.discard.count(DUEL) == 1
    assert count_cards(g.state) == 36


def test_rulebook_the_challenged_player_who_wins_keeps_everything() -> None:
    g = duel_round(Game().give("Paolo", 35_000))
    g.do(Challenge(g.seat("Paolo")))
    g.throw("Giulia", 1, 2, 3, 5, 6).throw("Paolo", 2, 2, 1, 3, 6)
    g.pass_("Giulia").pass_("Paolo").pass_("Giulia").pass_("Paolo")
    g.do(NoMore(), NoMore())
    assert g.player("Paolo")["cards"] == [35_000] and g.player("Giulia")["cards"] == []
    assert "Paolo wins the duel" in g.log[-2]


def test_rulebook_identical_dice_in_a_duel_the_holder_loses() -> None:
    g = duel_round(Game().give("Paolo", 35_000))
    g.do(Challenge(g.seat("Paolo")))
    g.throw("Giulia", 6, 6, 6, 6, 6).throw("Paolo", 6, 6, 6, 6, 6)
    g.pass_("Giulia").pass_("Paolo").pass_("Giulia").pass_("Paolo")
    g.do(NoMore(), NoMore())
    assert g.player("Paolo")["cards"] == [35_000]
    assert "the holder of the duel card loses" in g.log[-2]


def test_rulebook_a_duel_won_against_a_player_without_money_takes_nothing() -> None:
    g = duel_round(Game())
    g.do(Challenge(g.seat("Paolo")))
    g.throw("Giulia", 6, 6, 6, 6, 6).throw("Paolo", 1, 2, 3, 5, 6)
    g.pass_("Giulia").pass_("Paolo").pass_("Giulia").pass_("Paolo")
    g.do(NoMore(), NoMore())
    assert g.player("Giulia")["cards"] == [] and "no money card" in g.log[-2]


def test_rulebook_chip_throws_in_a_duel_alternate_and_a_player_without_chips_is_skipped() -> None:
    g = duel_round(Game().give("Paolo", 35_000, chips=1))
    g.do(Challenge(g.seat("Paolo")))
    g.throw("Giulia", 1, 1, 2, 3, 5).throw("Paolo", 1, 1, 2, 3, 5)
    g.pass_("Giulia").pass_("Paolo").pass_("Giulia").pass_("Paolo")
    g.refused(Pass(0), "pays a chip to throw or stops")
    g.throw("Giulia", 1, 1, 4, 4, 5, kept=(1, 1, 5))
    assert R.awaiting(g.state).players == (g.seat("Paolo"),)
    g.throw("Paolo", 1, 1, 6, 6, 5, kept=(1, 1, 5))  # Paolo's last chip
    assert R.awaiting(g.state).players == (0,), "Paolo has no chip: only Giulia is asked"
    g.throw("Giulia", 1, 1, 4, 4, 4, kept=(1, 1, 4, 4))
    g.do(NoMore())
    assert g.player("Giulia")["chips"] == 1 and g.player("Paolo")["chips"] == 0
    assert g.player("Giulia")["cards"] == [35_000]
    assert g.state.supply + sum(p.chips for p in g.state.players) == 20


def test_ruling_duel_order_by_money_cards_then_this_rounds_throw_then_seat_and_one_duel_per_card() -> None:
    # Caterina richer in cards; Giulia with more chips (chips do not count); Franco and Paolo equal
    g = Game().give("Caterina", 30_000, chips=0).give("Giulia", 15_000, chips=8)
    g.give("Franco", 20_000).give("Paolo", 20_000).in_round(2)
    g.state = replace(g.state, phase="cards")
    g.cards(DUEL, DUEL, DUEL)
    g.choose(Giulia="A", Caterina="B", Franco="C", Paolo="C", Susanna="C")
    g.final(
        Giulia=(5, 5, 5, 1, 2),
        Caterina=(1, 2, 3, 4, 5),
        Franco=(1, 1, 1, 1, 2),
        Paolo=(1, 1, 1, 2, 3),
        Susanna=(6, 6, 6, 6, 6),
    )
    # Franco clears C; order: Caterina (30,000), Franco (20,000, four 1s beat Paolo's hand), Giulia
    assert g.state.duel_queue == (1, 2, 0)
    g2 = Game().in_round(2)
    g2.state = replace(g2.state, phase="cards")
    g2.cards(DUEL, 15_000, DUEL)
    g2.state = replace(g2.state, on_tables=((DUEL, DUEL), (15_000,), (DUEL,)), unseen=remove_one(g2.state.unseen, DUEL))
    g2.choose(Giulia="A", Caterina="B", Franco="C", Paolo="C", Susanna="C")
    g2.final(
        Giulia=(5, 5, 5, 1, 2),
        Caterina=(1, 2, 3, 5, 5),
        Franco=(1, 1, 1, 1, 2),
        Paolo=(6, 1, 1, 2, 3),
        Susanna=(6, 6, 6, 6, 6),
    )
    # equal money (none): Franco's four 1s beat Giulia's three 5s; Giulia holds two cards, two duels
    assert g2.state.duel_queue == (2, 0, 0)
    assert count_cards(g2.state) == 36


def test_ruling_seat_order_settles_equal_money_and_equal_throws() -> None:
    g = Game().in_round(2)
    g.state = replace(g.state, phase="cards")
    g.cards(DUEL, 15_000, DUEL)
    g.choose(Giulia="C", Caterina="B", Franco="A", Paolo="C", Susanna="C")
    g.final(
        Giulia=(1, 1, 1, 1, 2),
        Caterina=(1, 2, 3, 5, 5),
        Franco=(1, 1, 1, 1, 2),
        Paolo=(6, 1, 1, 2, 3),
        Susanna=(6, 6, 6, 6, 6),
    )
    assert g.state.duel_queue == (0, 2)


# --- end of the game and the three-player game -----------------------------------------------------


def test_rulebook_three_players_use_tables_a_and_c_two_cards_a_round_twelve_set_aside() -> None:
    g = Game(["Ann", "Bob", "Cy"])
    assert g.state.tables == ("A", "C") and g.state.supply == 11
    assert [t["table"] for t in g.board["tables"]] == ["A", "C"]
    assert g.board["deck"]["to_reveal"] == 24 and g.board["deck"]["set_aside"] == 12
    g.cards(25_000, 15_000)
    assert g.state.phase == "choose"
    assert {o.action.table for o in R.awaiting(g.state).options} == {"A", "C"}


def test_rulebook_the_game_ends_after_twelve_rounds_richest_wins_chips_counting_five_thousand() -> None:
    g = Game(["Ann", "Bob", "Cy"]).in_round(12).give("Ann", 35_000).give("Bob", 30_000, chips=5)
    g.cards(15_000, 20_000).choose(Ann="A", Bob="A", Cy="A")
    g.final(Ann=(1, 2, 3, 4, 6), Bob=(1, 2, 3, 4, 6), Cy=(1, 2, 3, 4, 6))
    outcome = R.outcome(g.state)
    assert g.state.phase == "over" and outcome is not None
    assert outcome.winners == (1,) and "55,000" in str(outcome.text)  # 30,000 + 5 chips beats 35,000 + 3 chips
    assert R.awaiting(g.state).kind == "over"
    g.refused(RevealCard(15_000), "game is over")


def test_ruling_equal_money_more_35000_cards_win_then_30000_then_a_shared_win() -> None:
    g = Game(["Ann", "Bob", "Cy"]).in_round(12).give("Ann", 35_000, 15_000).give("Bob", 30_000, 20_000)
    g.cards(25_000, 20_000).choose(Ann="C", Bob="C", Cy="C")
    g.final(Ann=(6, 6, 6, 6, 6), Bob=(6, 6, 6, 6, 6), Cy=(6, 6, 6, 6, 6))
    outcome = R.outcome(g.state)
    assert outcome is not None and outcome.winners == (0,)
    g = Game(["Ann", "Bob", "Cy"]).in_round(12).give("Ann", 30_000, 20_000).give("Bob", 25_000, 25_000)
    g.give("Cy", 30_000, 20_000)  # all 50,000 and 3 chips; Bob has no 30,000; Ann and Cy are alike
    g.cards(25_000, 20_000).choose(Ann="C", Bob="C", Cy="C")
    g.final(Ann=(6, 6, 6, 6, 6), Bob=(6, 6, 6, 6, 6), Cy=(6, 6, 6, 6, 6))
    outcome = R.outcome(g.state)
    assert outcome is not None and outcome.winners == (0, 2) and "share the win" in str(outcome.text)


# --- the interface -----------------------------------------------------------------------------------


def test_options_and_player_counts() -> None:
    with pytest.raises(RuleViolation, match="3 to 6 players"):
        R.setup(["A", "B"], {})
    with pytest.raises(RuleViolation, match="no option"):
        R.setup(["A", "B", "C"], {"house_rules": True})
    with pytest.raises(RuleViolation, match="on or off"):
        R.setup(["A", "B", "C"], {"virtual_deck": "yes"})
    state = R.setup(["A", "B", "C", "D"], {"virtual_deck": True})
    assert R.awaiting(state).source == "companion" and R.awaiting(state).kind == "card"
    assert R.awaiting(R.setup(["A", "B", "C", "D"], {})).source == "table"


def test_ruling_the_deck_and_the_chips() -> None:
    assert sorted(DECK, key=str) == sorted(
        [15_000] * 6 + [20_000] * 5 + [25_000] * 5 + [30_000] * 4 + [35_000] * 4 + [DUEL] * 6 + [CHIPS] * 6, key=str
    )
    for n in range(3, 7):
        state = R.setup([f"P{i}" for i in range(n)], {})
        assert all(p.chips == 3 for p in state.players) and state.supply == 20 - 3 * n


def test_a_card_that_is_no_card_or_is_used_up_is_refused() -> None:
    g = Game()
    g.refused(RevealCard(40_000), "no card")
    g.refused(RevealCard("joker"), "no card")
    g.in_round(2)
    for _ in range(4):
        g.state = replace(g.state, phase="cards", dealt=0)
        g.cards(35_000)
    g.state = replace(g.state, phase="cards", dealt=0)
    g.refused(RevealCard(35_000), "already out")
    g.cards("25,000")
    assert g.table("A")["cards"][-1] == 25_000


def test_inputs_out_of_their_phase_are_refused() -> None:
    g = Game()
    g.refused(ChooseTable(0, "A"), "reveal the cards")
    g.refused(NoMore(), "reveal the cards")
    g.cards(25_000, CHIPS, 15_000)
    g.refused(Throw(tuple(Die(f) for f in (1, 2, 3, 4, 5)), 0), "chooses a table first")
    g.refused(Challenge(1), "chooses a table first")


def test_actions_round_trip_through_json() -> None:
    actions: list[Action] = [
        RevealCard(25_000),
        RevealCard(DUEL),
        ChooseTable(2, "B"),
        Throw(tuple(Die(f) for f in (1, 2, 3, 4, 5)), 1, (1, 2)),
        Throw(tuple(Die(f) for f in (1, 2, 3, 4, 5))),
        Pass(3),
        BuyThrow(0),
        NoMore(),
        Challenge(4),
    ]
    for action in actions:
        assert R.action_from_json(R.action_to_json(action)) == action
    camera = R.action_from_json({"type": "roll", "dice": [{"face": 6, "colour": "red"}, 6, 6, 1, 2]})
    assert isinstance(camera, Throw) and camera.player is None


def test_when_everyone_with_chips_has_paid_the_chip_throw_starts_without_asking_further() -> None:
    g = Game(["Ann", "Bob", "Cy"]).give("Cy", chips=0).cards(25_000, 15_000).choose(Ann="A", Bob="C", Cy="C")
    for name in ("Ann", "Bob", "Cy"):
        g.throw(name, 1, 2, 2, 5, 6)
    for _ in (2, 3):
        for name in ("Ann", "Bob", "Cy"):
            g.pass_(name)
    assert R.awaiting(g.state).players == (0, 1)
    g.do(BuyThrow(0), BuyThrow(1))
    assert g.state.phase == "throw" and g.state.pending == (0, 1)
