"""Las Vegas (Rüdiger Dorn): the rules as a pure state machine.

A round has three parts. The six casinos are stocked in order from the deck: the table draws a note
and enters its value (or, with the virtual deck, the session draws one through ``simulate``), until
the casino holds at least 50,000. Then the players take turns, starting with the start player: each
rolls every die still in hand and puts all the dice of one face on the casino of that number; a player
with nothing left is skipped. When the last die is down, the casinos pay out in order 1 to 6 (see
``payout``). After four rounds the richest player wins; the start player moves one seat on each round.

The neutral dice variant (2-4 players) gives each player some white dice that are rolled and placed
with their own; the white dice are paid like one more player whose notes go under the deck. With three
players the two spare white dice are thrown by the start player before the first turn of each round.
Rulings where the rulebook is silent are listed in docs/games/lasvegas.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Literal

from companion.games.base import Awaiting, Event, Option, Outcome, Rules
from companion.games.codec import ActionCodec
from companion.games.evolve import evolve
from companion.games.inputs import JSON, CardSpec, DiceSpec, Die
from companion.games.lasvegas.actions import Action, DrawNote, Place, Roll, codec
from companion.games.lasvegas.banknotes import DECK, VALUES, highest_first, remove_one
from companion.games.lasvegas.options import OPTIONS, dice_colours
from companion.games.lasvegas.payout import WHITE, describe, pay
from companion.games.lasvegas.state import (
    CASINOS,
    FACES,
    NEUTRAL,
    OWN_DICE,
    ROUNDS,
    SPARE_WHITES,
    Casino,
    LasVegasState,
    whites_per_player,
)
from companion.games.lasvegas.view import own_money, payout_json, scoreboard, without_money
from companion.games.lasvegas.words import placed_text, placement_label, roll_prompt
from companion.games.messages import msg, nmsg
from companion.games.violations import RuleViolation
from companion.games.words import colour_word, face_word, money


class LasVegasRules(Rules[LasVegasState, Action]):
    name: ClassVar[str] = "lasvegas"
    title: ClassVar[str] = "Las Vegas"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 5
    codec: ClassVar[ActionCodec[Any]] = codec

    # --- setup -------------------------------------------------------------------------------
    def setup(self, players: Sequence[str], options: Mapping[str, JSON]) -> LasVegasState:
        self.check_player_count(players)
        self.check_options(options, OPTIONS)
        flags = {k: self.flag(options, k) for k in ("neutral_dice", "virtual_deck", "money_open")}
        neutral = flags["neutral_dice"]
        n = len(players)
        if neutral and n > 4:
            raise RuleViolation(msg("The neutral dice variant is for 2 to 4 players."))
        first = options.get("first_player", 0)
        if not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < n:
            raise RuleViolation(msg("The start player must be one of the players."))
        colours = dice_colours(options.get("colours"), n, neutral)
        whites = whites_per_player(n) if neutral else 0
        state = LasVegasState(
            players=tuple(p.strip() for p in players),
            colours=colours,
            neutral_dice=neutral,
            virtual_deck=flags["virtual_deck"],
            money_open=flags["money_open"],
            round=1,
            start=first,
            current=first,
            phase="stock",
            deck=DECK,
            under=(),
            casinos=_empty_casinos(n),
            own_left=(OWN_DICE,) * n,
            white_left=(whites,) * n,
            won=((),) * n,
        )
        return state

    # --- queries -----------------------------------------------------------------------------
    def roll_spec(self, state: LasVegasState) -> DiceSpec:
        """The dice the current player must roll: every own and white die still in hand."""
        seat = state.current
        if state.phase == "spare":
            return DiceSpec(SPARE_WHITES, FACES, ((NEUTRAL, SPARE_WHITES),), reason="spare white dice")
        parts = ((state.colours[seat], state.own_left[seat]), (NEUTRAL, state.white_left[seat]))
        return DiceSpec(state.dice_left(seat), FACES, tuple(p for p in parts if p[1] > 0))

    def awaiting(self, state: LasVegasState) -> Awaiting[Action]:
        who = (state.current,)
        name = state.players[state.current]
        if state.phase == "over":
            outcome = self.outcome(state)
            return Awaiting("over", (), outcome.text if outcome else msg("The game is over."))
        if state.phase == "stock":
            number = state.casino_to_stock()
            assert number is not None
            held = state.casinos[number - 1].total
            if state.virtual_deck:
                prompt = msg(
                    "Round {round}: casino {casino} holds {amount}; the companion draws a banknote.",
                    round=state.round,
                    casino=number,
                    amount=money(held),
                )
            else:
                prompt = msg(
                    "Round {round}: casino {casino} holds {amount}; draw a banknote, enter its value.",
                    round=state.round,
                    casino=number,
                    amount=money(held),
                )
            values = tuple(sorted(set(state.deck)))
            notes = tuple(Option[Action](DrawNote(v), msg("Banknote {amount}", amount=money(v))) for v in values)
            source: Literal["table", "companion"] = "companion" if state.virtual_deck else "table"
            return Awaiting("card", (state.start,), prompt, notes, card=CardSpec("banknotes", values), source=source)
        if state.phase == "spare":
            prompt = msg(
                "{player}: throw the two spare white dice; each goes on the casino of its number.", player=name
            )
            return Awaiting("dice", who, prompt, dice=self.roll_spec(state))
        if state.phase == "roll":
            return Awaiting("dice", who, roll_prompt(state, state.current), dice=self.roll_spec(state))
        options = state.placements()
        only = len(options) == 1
        prompt = msg("{player}: choose a number; all dice showing it go on that casino.", player=name)
        return Awaiting(
            "choice",
            who,
            prompt,
            options=tuple(Option(Place(p.face), placement_label(p, state.neutral_dice), only) for p in options),
        )

    def outcome(self, state: LasVegasState) -> Outcome | None:
        if state.phase != "over":
            return None
        seats = range(len(state.players))
        best = max((state.money(i), len(state.won[i])) for i in seats)
        leaders = tuple(i for i in seats if (state.money(i), len(state.won[i])) == best)
        amount, count = best
        if len(leaders) == 1:
            text = nmsg(
                "{player} wins with {amount} in {n} banknote.",
                "{player} wins with {amount} in {n} banknotes.",
                count,
                player=state.players[leaders[0]],
                amount=money(amount),
            )
            return Outcome(leaders, text)
        text = nmsg(
            "{players} share the win with {amount} in {n} banknote each.",
            "{players} share the win with {amount} in {n} banknotes each.",
            count,
            players=[state.players[i] for i in leaders],
            amount=money(amount),
        )
        return Outcome(leaders, text)

    # --- transitions -------------------------------------------------------------------------
    def apply(self, state: LasVegasState, action: Action) -> tuple[LasVegasState, list[Event]]:
        if state.phase == "over":
            raise RuleViolation(msg("The game is over; start a new one or undo."))
        if isinstance(action, DrawNote):
            return self._draw(state, action.value)
        if isinstance(action, Roll):
            return self._roll(state, action.dice)
        if isinstance(action, Place):
            return self._place(state, action.face)
        raise RuleViolation(msg("That is not a move of this game."))

    def _draw(self, state: LasVegasState, value: int) -> tuple[LasVegasState, list[Event]]:
        if state.phase != "stock":
            raise RuleViolation(msg("The casinos are stocked for this round; no banknote is drawn now."))
        if value not in VALUES:
            raise RuleViolation(
                msg(
                    "There is no {amount} banknote; the banknotes go from {low} to {high}.",
                    amount=money(value),
                    low=money(min(VALUES)),
                    high=money(max(VALUES)),
                )
            )
        if value not in state.deck:
            raise RuleViolation(
                msg(
                    "Every {amount} banknote is already out of the deck; check the banknote and enter it again.",
                    amount=money(value),
                )
            )
        number = state.casino_to_stock()
        assert number is not None
        casino = state.casinos[number - 1]
        casino = evolve(casino, notes=highest_first(casino.notes + (value,)))
        state = evolve(state, deck=remove_one(state.deck, value), casinos=_with(state.casinos, casino))
        held = money(casino.total)
        text = msg("Casino {casino} gets {amount} ({total} in all).", casino=number, amount=money(value), total=held)
        events = [Event("stocked", text, {"casino": number, "note": value, "total": casino.total})]
        return self._continue_stocking(state, events)

    def _continue_stocking(self, state: LasVegasState, events: list[Event]) -> tuple[LasVegasState, list[Event]]:
        """Stay in the stocking phase while a casino is short and a note can be drawn; else start play."""
        while state.casino_to_stock() is not None:
            if state.deck:
                return state, events
            if not state.under:
                text = msg("No banknotes are left anywhere; the casinos play with what they hold.")
                events.append(Event("out_of_notes", text, {"casino": state.casino_to_stock()}))
                break
            text = nmsg(
                "The deck is empty: shuffle the {n} banknote from under it; it is the deck now.",
                "The deck is empty: shuffle the {n} banknotes from under it; they are the deck now.",
                len(state.under),
            )
            events.append(Event("reshuffled", text, {"notes": len(state.under)}))
            state = evolve(state, deck=state.under, under=())
        if state.neutral_dice and len(state.players) == 3:
            return evolve(state, phase="spare", current=state.start), events
        return evolve(state, phase="roll", current=state.start), events

    def _roll(self, state: LasVegasState, dice: tuple[Die, ...]) -> tuple[LasVegasState, list[Event]]:
        if state.phase == "stock":
            number = state.casino_to_stock()
            raise RuleViolation(
                msg("Stock the casinos first: casino {casino} still needs a banknote.", casino=number or 0)
            )
        if state.phase == "place":
            raise RuleViolation(msg("Place the dice already rolled first: choose one of the numbers shown."))
        spec = self.roll_spec(state)
        dice = _normalise(dice, spec)
        spec.check(dice)
        name = state.players[state.current]
        shown = [msg("{face} {colour}", face=face_word(d.face), colour=colour_word(d.colour or "")) for d in dice]
        shown = [shown[i] for i in sorted(range(len(dice)), key=lambda i: _die_order(dice[i]))]
        data = {"player": state.current, "dice": [d.to_json() for d in dice]}
        if state.phase == "spare":
            casinos = state.casinos
            for d in dice:
                c = casinos[int(d.face) - 1]
                casinos = _with(casinos, evolve(c, white=c.white + 1))
            text = msg(
                "{player} threw the spare white dice: {dice}; they go on those casinos.", player=name, dice=shown
            )
            state = evolve(state, casinos=casinos, phase="roll")
            return state, [Event("spare_whites", text, data)]
        state = evolve(state, roll=tuple(sorted(dice, key=_die_order)), phase="place")
        return state, [Event("rolled", msg("{player} rolled {dice}.", player=name, dice=shown), data)]

    def _place(self, state: LasVegasState, face: int) -> tuple[LasVegasState, list[Event]]:
        if state.phase != "place":
            raise RuleViolation(msg("There is no roll to place; roll the dice first."))
        choice = next((p for p in state.placements() if p.face == face), None)
        if choice is None:
            faces = [p.face for p in state.placements()]
            raise RuleViolation(msg("No die shows {face} in this roll; choose one of {faces}.", face=face, faces=faces))
        seat = state.current
        casino = state.casinos[face - 1]
        dice = list(casino.dice)
        dice[seat] += choice.own
        casino = evolve(casino, dice=tuple(dice), white=casino.white + choice.white)
        own_left = _add(state.own_left, seat, -choice.own)
        white_left = _add(state.white_left, seat, -choice.white)
        state = evolve(
            state,
            casinos=_with(state.casinos, casino),
            own_left=own_left,
            white_left=white_left,
            roll=(),
            last_placement=choice,
        )
        text = placed_text(choice, state.players[seat])
        data = {"player": seat, "casino": face, "own": choice.own, "white": choice.white}
        return self._next_turn(state, [Event("placed", text, data)])

    def _next_turn(self, state: LasVegasState, events: list[Event]) -> tuple[LasVegasState, list[Event]]:
        n = len(state.players)
        for step in range(1, n + 1):
            seat = (state.current + step) % n
            if state.dice_left(seat):
                return evolve(state, current=seat, phase="roll"), events
        return self._pay_out(state, events)

    def _pay_out(self, state: LasVegasState, events: list[Event]) -> tuple[LasVegasState, list[Event]]:
        n = len(state.players)
        won = [list(w) for w in state.won]
        under = list(state.under)
        payouts = []
        for casino in state.casinos:
            counts = {seat: k for seat, k in enumerate(casino.dice)}
            counts[WHITE] = casino.white
            result = pay(casino.number, casino.notes, counts)
            payouts.append(result)
            for share in result.ranked:
                if share.note is not None and share.seat != WHITE:
                    won[share.seat].append(share.note)
            under.extend(result.under)
            events.append(Event("payout", describe(result, state.players), payout_json(result, state)))
        state = evolve(
            state,
            won=tuple(highest_first(w) for w in won),
            under=highest_first(under),
            casinos=_empty_casinos(n),
            payouts=tuple(payouts),
            paid_round=state.round,
            last_placement=None,
        )
        if state.round == ROUNDS:
            state = evolve(state, phase="over", current=state.start)
            outcome = self.outcome(state)
            assert outcome is not None
            events.append(Event("game_over", outcome.text, {"winners": list(outcome.winners)}))
            return state, events
        start = (state.start + 1) % n
        whites = whites_per_player(n) if state.neutral_dice else 0
        state = evolve(
            state,
            round=state.round + 1,
            start=start,
            current=start,
            phase="stock",
            own_left=(OWN_DICE,) * n,
            white_left=(whites,) * n,
        )
        text = msg(
            "Round {round}: {player} has the start card; stock the casinos.",
            round=state.round,
            player=state.players[start],
        )
        events.append(Event("new_round", text, {"round": state.round, "start": start}))
        return self._continue_stocking(state, events)

    # --- views -------------------------------------------------------------------------------
    def scoreboard(self, state: LasVegasState) -> JSON:
        return scoreboard(state, self.awaiting(state).prompt, self.outcome(state))

    def shown(self, state: LasVegasState) -> JSON:
        return without_money(self.scoreboard(state))

    def private(self, state: LasVegasState, seat: int) -> JSON:
        return own_money(state, seat)


# --- helpers ---------------------------------------------------------------------------------


def _empty_casinos(n: int) -> tuple[Casino, ...]:
    return tuple(Casino(i, (), (0,) * n, 0) for i in range(1, CASINOS + 1))


def _with(casinos: tuple[Casino, ...], casino: Casino) -> tuple[Casino, ...]:
    return tuple(casino if c.number == casino.number else c for c in casinos)


def _add(values: tuple[int, ...], seat: int, delta: int) -> tuple[int, ...]:
    return tuple(v + delta if i == seat else v for i, v in enumerate(values))


def _normalise(dice: tuple[Die, ...], spec: DiceSpec) -> tuple[Die, ...]:
    """Colour names in lower case; a die entered without colour takes the only colour the roll can have."""
    only = spec.colours[0][0] if len(spec.colours) == 1 else None
    out = []
    for d in dice:
        colour = d.colour.strip().lower() if d.colour else only
        out.append(Die(d.face, colour))
    return tuple(out)


def _die_order(d: Die) -> tuple[int, bool]:
    return (int(d.face) if isinstance(d.face, int) else 0, d.colour == NEUTRAL)
