"""Cincinnati (AMIGO, 2006): the rules as a pure state machine.

Twelve rounds of four phases. 1: three cards from the deck go onto tables A, B and C (two cards and
tables A and C with three players). 2: every player throws five dice under a cup, chooses a table in
secret, and after the reveal throws twice more, keeping any dice; then players may buy more throws
with chips. 3: the tables are cleared in order A, B, C by the best throw that meets the table's
condition (A three of a kind or better, B a straight, C at most 11 pips); identical best throws duel
for it. 4: each duel card won is played against an opponent of its holder's choice; the winner of
the duel takes the loser's highest money card. The richest player, chips counted, wins.

The modules: ``cards`` the deck and chips, ``hands`` the ranking and the table conditions, ``state``,
``phase2`` cards, choice and throws, ``clearing`` phase 3 and the round's end, ``duels`` every duel,
``view`` the scoreboard, ``simulate`` the only random part. Rulings: docs/games/cincinnati.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Literal

from companion.games.base import Awaiting, Event, Option, Outcome, Rules
from companion.games.cincinnati import duels, phase2
from companion.games.cincinnati.actions import (
    Action,
    BuyThrow,
    Challenge,
    ChooseTable,
    NoMore,
    Pass,
    RevealCard,
    Throw,
    codec,
)
from companion.games.cincinnati.cards import (
    CHIPS_IN_GAME,
    DECK,
    MONEY_VALUES,
    START_CHIPS,
    label,
)
from companion.games.cincinnati.hands import TABLE_NAMES
from companion.games.cincinnati.seating import names
from companion.games.cincinnati.state import REGULAR_THROWS, CincinnatiState, Player
from companion.games.cincinnati.throwdice import spec
from companion.games.cincinnati.view import scoreboard
from companion.games.codec import ActionCodec
from companion.games.inputs import JSON, CardSpec
from companion.games.messages import Msg, msg, nmsg
from companion.games.violations import RuleViolation
from companion.games.words import money

OPTIONS = frozenset({"virtual_deck"})
ALL_TABLES: tuple[str, ...] = ("A", "B", "C")
THREE_PLAYER_TABLES: tuple[str, ...] = ("A", "C")


class CincinnatiRules(Rules[CincinnatiState, Action]):
    name: ClassVar[str] = "cincinnati"
    title: ClassVar[str] = "Cincinnati"
    min_players: ClassVar[int] = 3
    max_players: ClassVar[int] = 6
    codec: ClassVar[ActionCodec[Any]] = codec

    # --- setup -------------------------------------------------------------------------------
    def setup(self, players: Sequence[str], options: Mapping[str, JSON]) -> CincinnatiState:
        self.check_player_count(players)
        self.check_options(options, OPTIONS)
        virtual = self.flag(options, "virtual_deck")
        n = len(players)
        tables = THREE_PLAYER_TABLES if n == 3 else ALL_TABLES
        return CincinnatiState(
            players=tuple(Player(name.strip(), START_CHIPS) for name in players),
            tables=tables,
            virtual_deck=virtual,
            round=1,
            phase="cards",
            unseen=DECK,
            on_tables=((),) * len(tables),
            discard=(),
            supply=CHIPS_IN_GAME - START_CHIPS * n,
        )

    # --- queries -----------------------------------------------------------------------------
    def awaiting(self, state: CincinnatiState) -> Awaiting[Action]:
        phase = state.phase
        if phase == "over":
            outcome = self.outcome(state)
            return Awaiting("over", (), outcome.text if outcome else msg("The game is over."))
        if phase == "cards":
            return self._awaiting_card(state)
        if phase == "choose":
            return self._awaiting_choice(state)
        if phase == "throw":
            return self._awaiting_throw(state)
        if phase == "buy":
            return self._awaiting_buyers(state)
        if phase == "challenge":
            holder = state.duel_queue[0]
            name = state.players[holder].name
            options = tuple(
                Option[Action](Challenge(s), _challenge_label(state.players[s].name, state.players[s].money))
                for s in state.seats
                if s != holder
            )
            prompt = msg("{player} holds a duel card: name the opponent.", player=name)
            return Awaiting("choice", (holder,), prompt, options)
        return self._awaiting_duel(state)

    def _awaiting_card(self, state: CincinnatiState) -> Awaiting[Action]:
        table = state.tables[state.dealt]
        kinds = phase2.unseen_kinds(state)
        source: Literal["table", "companion"] = "companion" if state.virtual_deck else "table"
        if state.virtual_deck:
            prompt = msg(
                "Round {round}: the companion reveals the card for table {table} ({name}).",
                round=state.round,
                table=table,
                name=TABLE_NAMES[table],
            )
        else:
            prompt = msg(
                "Round {round}: reveal the top card of the deck and enter it for table {table} ({name}).",
                round=state.round,
                table=table,
                name=TABLE_NAMES[table],
            )
        options = tuple(Option[Action](RevealCard(k), label(k)) for k in kinds)
        return Awaiting("card", (), prompt, options, card=CardSpec("cincinnati", kinds), source=source)

    def _awaiting_choice(self, state: CincinnatiState) -> Awaiting[Action]:
        waiting = tuple(s for s in state.seats if state.players[s].table is None)
        options = tuple(
            Option[Action](ChooseTable(s, t), msg("Table {table} ({name})", table=t, name=TABLE_NAMES[t]))  # type: ignore[arg-type]
            for s in waiting
            for t in state.tables
        )
        prompt = msg("Choose a table in secret ({players} still to choose).", players=names(state, waiting))
        return Awaiting("secret", waiting, prompt, options)

    def _awaiting_throw(self, state: CincinnatiState) -> Awaiting[Action]:
        who = names(state, state.pending)
        dice = spec(f"throw {state.throw}" if state.throw <= REGULAR_THROWS else "chip throw")
        if state.throw == 1:
            prompt = msg("Throw 1: enter each player's five dice ({players}).", players=who)
        elif state.throw <= REGULAR_THROWS:
            if state.passes_open:
                prompt = msg(
                    "Throw {throw} of 3 for {players}: each keeps any dice and throws the rest. "
                    "A pass is entered before anyone's throw.",
                    throw=state.throw,
                    players=who,
                )
            else:
                prompt = msg(
                    "Throw {throw} of 3 for {players}: each keeps any dice and throws the rest.",
                    throw=state.throw,
                    players=who,
                )
        else:
            prompt = msg("Chip throw for {players}: each keeps any dice and throws the rest.", players=who)
        if not state.passes_open:
            return Awaiting("dice", state.pending, prompt, dice=dice)
        options = tuple(
            Option[Action](Pass(s), msg("{player} passes", player=state.players[s].name)) for s in state.pending
        )
        return Awaiting("choice", state.pending, prompt, options, dice=dice)

    def _awaiting_buyers(self, state: CincinnatiState) -> Awaiting[Action]:
        open_to = phase2.can_buy(state)
        none = msg("Nobody else throws again") if state.buyers else msg("Nobody throws again")
        options: list[Option[Action]] = [Option(NoMore(), none, True)]
        options += [
            Option(BuyThrow(s), msg("{player} pays a chip to throw again", player=state.players[s].name))
            for s in open_to
        ]
        asked = names(state, phase2.asking_order(state))
        if state.buyers:
            prompt = msg(
                "One more throw for a chip? Ask {players}, in this order. Paid so far: {paid}.",
                players=asked,
                paid=names(state, state.buyers),
            )
        else:
            prompt = msg("One more throw for a chip? Ask {players}, in this order.", players=asked)
        return Awaiting("choice", open_to, prompt, tuple(options))

    def _awaiting_duel(self, state: CincinnatiState) -> Awaiting[Action]:
        duel = state.duel
        assert duel is not None
        seat = duel.current
        name = state.players[seat].name
        what = (
            msg("In the tie-break duel for table {table}", table=duel.table or "")
            if duel.reason == "tie"
            else msg("In the duel")
        )
        if duel.asked is not None:
            chips = state.players[seat].chips
            prompt = nmsg(
                "{duel}, {player} may pay a chip ({n} left) and throw again, or stop.",
                "{duel}, {player} may pay a chip ({n} left) and throw again, or stop.",
                chips,
                duel=what,
                player=name,
            )
            stop = (Option[Action](NoMore(), msg("{player} stops", player=name)),)
            return Awaiting("choice", (seat,), prompt, stop, dice=spec("duel chip throw"))
        n = duel.throw_number
        dice = spec(f"duel throw {n}")
        if not duel.dice_of(seat):
            prompt = msg("{duel}, {player} throws all five dice (throw 1 of 3).", duel=what, player=name)
            return Awaiting("dice", (seat,), prompt, dice=dice)
        prompt = msg(
            "{duel}, {player} keeps any dice and throws the rest (throw {throw} of 3), or passes.",
            duel=what,
            player=name,
            throw=n,
        )
        passes = (Option[Action](Pass(seat), msg("{player} passes", player=name)),)
        return Awaiting("choice", (seat,), prompt, passes, dice=dice)

    def outcome(self, state: CincinnatiState) -> Outcome | None:
        if state.phase != "over":
            return None
        best = max(_standing(p) for p in state.players)
        winners = tuple(s for s in state.seats if _standing(state.players[s]) == best)
        score = best[0]
        if len(winners) == 1:
            text = msg(
                "{player} wins with {amount} (chips included).",
                player=state.players[winners[0]].name,
                amount=money(score),
            )
            return Outcome(winners, text)
        text = msg(
            "{players} share the win with {amount} each (chips included).",
            players=names(state, winners),
            amount=money(score),
        )
        return Outcome(winners, text)

    # --- transitions -------------------------------------------------------------------------
    def apply(self, state: CincinnatiState, action: Action) -> tuple[CincinnatiState, list[Event]]:
        new, events = self._apply(state, action)
        if new.phase == "over":
            outcome = self.outcome(new)
            assert outcome is not None
            events.append(Event("game_over", outcome.text, {"winners": list(outcome.winners)}))
        return new, events

    def _apply(self, state: CincinnatiState, action: Action) -> tuple[CincinnatiState, list[Event]]:
        phase = state.phase
        if phase == "over":
            raise RuleViolation(msg("The game is over; start a new one or undo."))
        expected = _EXPECTED[phase]
        if isinstance(action, RevealCard) and phase == "cards":
            return phase2.reveal(state, action.card)
        if isinstance(action, ChooseTable) and phase == "choose":
            return phase2.choose(state, action.player, action.table)
        if isinstance(action, Throw) and phase == "throw":
            return phase2.throw(state, action.dice, action.player, action.kept)
        if isinstance(action, Pass) and phase == "throw":
            return phase2.pass_throw(state, action.player)
        if isinstance(action, BuyThrow) and phase == "buy":
            return phase2.buy(state, action.player)
        if isinstance(action, NoMore) and phase == "buy":
            return phase2.no_more(state)
        if isinstance(action, Challenge) and phase == "challenge":
            return duels.start_card_duel(state, action.opponent)
        if phase == "duel":
            if isinstance(action, Throw):
                return duels.duel_throw(state, action.dice, action.player, action.kept)
            if isinstance(action, Pass):
                return duels.duel_pass(state, action.player)
            if isinstance(action, NoMore):
                return duels.duel_stop(state)
        raise RuleViolation(expected)

    # --- views -------------------------------------------------------------------------------
    def scoreboard(self, state: CincinnatiState) -> JSON:
        return scoreboard(state, self.awaiting(state).prompt, self.outcome(state))

    def private(self, state: CincinnatiState, seat: int) -> JSON:
        """A player's own table while the choices are still secret (theirs alone until the reveal)."""
        if state.phase != "choose" or not 0 <= seat < len(state.players):
            return None
        return {"table": state.players[seat].table}


_EXPECTED: dict[str, Msg] = {
    "cards": msg("Not now: reveal the cards for the tables first."),
    "choose": msg("Not now: every player chooses a table first."),
    "throw": msg("Not now: enter the throws (or passes) awaited."),
    "buy": msg("Not now: say who pays a chip for one more throw, or that nobody does."),
    "challenge": msg("Not now: the duel card's holder names an opponent first."),
    "duel": msg("Not now: the duel goes on: enter the duellist's throw, pass or stop."),
}


def _standing(player: Player) -> tuple[int, ...]:
    """Money with chips, then how many 35,000 cards, then 30,000 cards, and so on down."""
    return (player.score, *(player.money.count(v) for v in reversed(MONEY_VALUES)))


def _challenge_label(name: str, cards: tuple[int, ...]) -> Msg:
    if cards:
        return msg("Duel {player} (top card {amount})", player=name, amount=money(cards[0]))
    return msg("Duel {player} (no money card)", player=name)
