"""Lords of Vegas: the rules as a pure state machine.

Setup: the table deals two lot cards to each player (entered as ``card`` inputs: the player marks the
lot and takes its starting money), then enters the winner of the roll-off. Each turn starts with the
card the player draws (a lot, a Strip card or End of Game): the take-over and the payouts happen inside
``apply``. Then the player chooses actions until ending the turn. Rerolls (boss ties, reorganize, the
gamble) are ``dice`` inputs in the middle of an action; the state keeps what is left to do until they
are settled. Trades are inputs accepted whenever nothing is under way. See docs/games/lordsofvegas.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Literal

from companion.games.base import Awaiting, Event, Option, Outcome, Rules
from companion.games.codec import ActionCodec
from companion.games.evolve import evolve
from companion.games.inputs import JSON, CardSpec
from companion.games.lordsofvegas import arrange as arranging
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
    codec,
)
from companion.games.lordsofvegas.board import LOT_CARDS, LOTS
from companion.games.lordsofvegas.building import build, remodel, sprawl
from companion.games.lordsofvegas.draw import deal, draw
from companion.games.lordsofvegas.exhaustion import give_up, give_up_options, move_die, move_die_options
from companion.games.lordsofvegas.flow import run
from companion.games.lordsofvegas.gamble import SPEC, gamble, gamble_roll, lay_off
from companion.games.lordsofvegas.moves import legal_play, play_options
from companion.games.lordsofvegas.reorganize import REASON as REORG
from companion.games.lordsofvegas.reorganize import reorg_roll, reorganize
from companion.games.lordsofvegas.state import (
    PALETTE,
    Arrange,
    CheckMarkers,
    GambleRoll,
    LayOff,
    LordsState,
    PlaceDie,
    ReorgRoll,
    TieRoll,
    Tile,
    empty_board,
)
from companion.games.lordsofvegas.ties import REASON as TIE
from companion.games.lordsofvegas.ties import tie_roll
from companion.games.lordsofvegas.trade import trade
from companion.games.lordsofvegas.view import scoreboard
from companion.games.lordsofvegas.words import and_list, dollars
from companion.games.messages import Msg, msg, nmsg
from companion.games.violations import RuleViolation
from companion.games.words import colour_word

OPTIONS = frozenset({"lay_off", "virtual_deck", "colours"})
DECK_NAME = "lordsofvegas"


class LordsOfVegasRules(Rules[LordsState, Action]):
    name: ClassVar[str] = "lordsofvegas"
    title: ClassVar[str] = "Lords of Vegas"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    codec: ClassVar[ActionCodec[Any]] = codec

    # --- setup -------------------------------------------------------------------------------
    def setup(self, players: Sequence[str], options: Mapping[str, JSON]) -> LordsState:
        self.check_player_count(players)
        self.check_options(options, OPTIONS)
        flags = {k: self.flag(options, k) for k in ("lay_off", "virtual_deck")}
        n = len(players)
        return LordsState(
            players=tuple(p.strip() for p in players),
            colours=_colours(options.get("colours"), n),
            lay_off=flags["lay_off"],
            virtual_deck=flags["virtual_deck"],
            phase="deal",
            current=0,
            board=empty_board(),
            money=(0,) * n,
            points=(0,) * n,
            deck=LOT_CARDS,
            dealt=(0,) * n,
        )

    # --- queries -----------------------------------------------------------------------------
    def awaiting(self, state: LordsState) -> Awaiting[Action]:
        name = state.players[state.current]
        if state.phase == "over":
            outcome = self.outcome(state)
            return Awaiting("over", (), outcome.text if outcome else msg("The game is over."))
        wait = state.wait
        if wait is not None:
            return _awaiting_wait(state, wait)
        source: Literal["table", "companion"] = "companion" if state.virtual_deck else "table"
        if state.phase == "deal":
            spec = CardSpec(DECK_NAME, state.deck)
            card = state.dealt[state.current] + 1
            prompt = msg("Deal {player} a card (their card {card} of 2).", player=name, card=card)
            return Awaiting("card", (state.current,), prompt, card=spec, source=source)
        if state.phase == "start":
            options = tuple(
                Option[Action](StartPlayer(seat), msg("{player} won the roll-off", player=p))
                for seat, p in enumerate(state.players)
            )
            prompt = msg("Each player rolls 2 dice: who rolled highest?")
            return Awaiting("choice", tuple(range(state.n)), prompt, options)
        if state.phase == "draw":
            prompt = msg("{player}: draw a card and enter it.", player=name)
            return Awaiting("card", (state.current,), prompt, card=CardSpec(DECK_NAME, state.deck), source=source)
        prompt = msg("{player}: build, sprawl, remodel, reorganize, gamble, or end the turn.", player=name)
        return Awaiting("choice", (state.current,), prompt, tuple(play_options(state)))

    def legal_actions(self, state: LordsState) -> list[Action]:
        """Every discrete input open now: all gamble amounts and, for a card, every card left.
        Trades are not listed (they are free-form and open whenever nothing is under way)."""
        awaiting = self.awaiting(state)
        if awaiting.kind == "card" and awaiting.card is not None:
            return [Card(str(c)) for c in awaiting.card.values]
        if state.phase == "play" and state.wait is None:
            return legal_play(state)
        return [o.action for o in awaiting.options]

    def outcome(self, state: LordsState) -> Outcome | None:
        if state.phase != "over":
            return None
        if state.winner is not None:
            text = msg("{player} reached {points} points and wins.", player=state.players[state.winner], points=90)
            return Outcome((state.winner,), text)
        best = max(zip(state.points, state.money, strict=True))
        leaders = tuple(i for i in range(state.n) if (state.points[i], state.money[i]) == best)
        names = and_list([state.players[i] for i in leaders])
        points, money = best
        if len(leaders) == 1:
            text = nmsg(
                "{player} wins with {n} point and {money}.",
                "{player} wins with {n} points and {money}.",
                points,
                player=names,
                money=dollars(money),
            )
            return Outcome(leaders, text)
        text = nmsg(
            "{players} share the win with {n} point and {money} each.",
            "{players} share the win with {n} points and {money} each.",
            points,
            players=names,
            money=dollars(money),
        )
        return Outcome(leaders, text)

    # --- transitions -------------------------------------------------------------------------
    def apply(self, state: LordsState, action: Action) -> tuple[LordsState, list[Event]]:
        if state.phase == "over":
            raise RuleViolation(msg("The game is over; start a new one or undo."))
        events: list[Event] = []
        if isinstance(action, Trade):
            state = trade(state, action, events)
        elif state.wait is not None:
            state = _settle(state, state.wait, action, events)
        else:
            state = _act(state, action, events)
        state = run(state, events)
        if state.phase == "over" and not any(e.kind == "game_over" for e in events):
            outcome = self.outcome(state)
            assert outcome is not None
            text = msg("The game is over. {outcome}", outcome=outcome.text)
            events.append(Event("game_over", text, {"winners": list(outcome.winners)}))
        return state, events

    def scoreboard(self, state: LordsState) -> JSON:
        return scoreboard(state, self.awaiting(state).prompt, self.outcome(state))


# --- dispatch --------------------------------------------------------------------------------


def _act(state: LordsState, action: Action, events: list[Event]) -> LordsState:
    if state.phase == "deal":
        if not isinstance(action, Card):
            raise RuleViolation(msg("Deal the starting cards first: two to each player."))
        return deal(state, action.card, events)
    if state.phase == "start":
        if not isinstance(action, StartPlayer):
            raise RuleViolation(msg("Enter who won the roll-off first."))
        if not 0 <= action.seat < state.n:
            raise RuleViolation(msg("The start player must be one of the players."))
        text = msg("{player} won the roll-off and takes the first turn.", player=state.players[action.seat])
        events.append(Event("start_player", text, {"player": action.seat}))
        return evolve(state, phase="draw", current=action.seat)
    if state.phase == "draw":
        if not isinstance(action, Card):
            raise RuleViolation(msg("{player} draws a card first.", player=state.players[state.current]))
        return draw(state, action.card, events)
    if isinstance(action, Build):
        return build(state, action.lot, action.colour, events)
    if isinstance(action, Sprawl):
        return sprawl(state, action.lot, action.colour, events)
    if isinstance(action, Remodel):
        return remodel(state, action.lot, action.colour, events)
    if isinstance(action, Reorganize):
        return reorganize(state, action.lot, events)
    if isinstance(action, Gamble):
        return gamble(state, action.lot, action.amount, events)
    if isinstance(action, EndTurn):
        return _end_turn(state, events)
    if isinstance(action, Card):
        raise RuleViolation(msg("This turn's card is drawn; the next card waits for the next turn."))
    raise RuleViolation(msg("That is not possible now: choose an action or end the turn."))


def _settle(state: LordsState, wait: Any, action: Action, events: list[Event]) -> LordsState:
    if isinstance(wait, TieRoll) and isinstance(action, Roll):
        return tie_roll(state, wait, action.dice, events)
    if isinstance(wait, ReorgRoll) and isinstance(action, Roll):
        return reorg_roll(state, wait, action.dice, events)
    if isinstance(wait, GambleRoll) and isinstance(action, Roll):
        return gamble_roll(state, wait, action.dice, events)
    if isinstance(wait, LayOff) and isinstance(action, LayOffChoice):
        return lay_off(state, wait, action.accept, events)
    if isinstance(wait, Arrange) and isinstance(action, ArrangeDice):
        return arranging.arrange(state, wait, action.lots, action.values, events)
    if isinstance(wait, PlaceDie) and isinstance(action, MoveDie):
        return move_die(state, wait, action.lot, events)
    if isinstance(wait, CheckMarkers) and isinstance(action, GiveUpLot):
        return give_up(state, wait, action.lot, events)
    raise RuleViolation(msg("Not now: {prompt}", prompt=_awaiting_wait(state, wait).prompt))


def _end_turn(state: LordsState, events: list[Event]) -> LordsState:
    board = tuple(
        evolve(s, tile=evolve(s.tile, rerolled=False)) if s.tile is not None and s.tile.rerolled else s
        for s in state.board
    )
    nxt = (state.current + 1) % state.n
    events.append(
        Event(
            "turn_ended",
            msg(
                "{player} ends the turn; {next} draws next.",
                player=state.players[state.current],
                next=state.players[nxt],
            ),
            {"player": state.current, "next": nxt},
        )
    )
    return evolve(state, board=board, current=nxt, phase="draw", gambled=False)


def _awaiting_wait(state: LordsState, wait: Any) -> Awaiting[Action]:
    if isinstance(wait, TieRoll):
        spec = arranging.roll_spec(state, wait.lots, TIE)
        seats = arranging.owners_of(state, wait.lots)
        names = and_list([state.players[s] for s in seats])
        return Awaiting("dice", seats, msg("Boss tie: {players} reroll the tied dice.", players=names), dice=spec)
    if isinstance(wait, ReorgRoll):
        spec = arranging.roll_spec(state, wait.lots, REORG)
        seats = arranging.owners_of(state, wait.lots)
        return Awaiting("dice", seats, msg("Reorganize: every player rerolls their dice of the casino."), dice=spec)
    if isinstance(wait, GambleRoll):
        prompt = msg(
            "{player}: roll two dice for the bet of {amount}.",
            player=state.players[wait.gambler],
            amount=dollars(wait.amount),
        )
        return Awaiting("dice", (wait.gambler,), prompt, dice=SPEC)
    if isinstance(wait, LayOff):
        boss = state.players[wait.boss]
        options: tuple[Option[Action], ...] = (
            Option[Action](LayOffChoice(False), msg("{player} takes the whole bet", player=boss), True),
            Option[Action](LayOffChoice(True), msg("{player} lays half off to the bank", player=boss)),
        )
        prompt = msg("{player}: lay off half the bet to the bank?", player=boss)
        return Awaiting("choice", (wait.boss,), prompt, options)
    if isinstance(wait, Arrange):
        lots = tuple(LOTS[lot].name for lot in wait.lots)
        options = tuple(
            Option[Action](
                ArrangeDice(lots, values),
                msg(
                    "{placed}",
                    placed=[msg("{value} on {lot}", value=v, lot=n) for n, v in zip(lots, values, strict=True)],
                ),
                best,
            )
            for values, best in arranging.arrangements(state, wait)
        )
        prompt = msg("{player}: put your new values back on your tiles.", player=state.players[wait.seat])
        return Awaiting("choice", (wait.seat,), prompt, options)
    if isinstance(wait, PlaceDie):
        options = tuple(
            Option[Action](MoveDie(LOTS[lot].name), _move_label(LOTS[lot].name, state.board[lot].tile))
            for lot in move_die_options(state, wait)
        )
        prompt = msg(
            "{player}: all your dice are out; which one moves to {lot}?",
            player=state.players[wait.seat],
            lot=LOTS[wait.lot].name,
        )
        return Awaiting("choice", (wait.seat,), prompt, options)
    assert isinstance(wait, CheckMarkers)
    options = tuple(
        Option[Action](GiveUpLot(LOTS[lot].name), msg("Give up {lot}", lot=LOTS[lot].name))
        for lot in give_up_options(state, wait)
    )
    prompt = msg("{player}: all your markers are out; which lot do you give up?", player=state.players[wait.seat])
    return Awaiting("choice", (wait.seat,), prompt, options)


def _move_label(lot: str, tile: Tile | None) -> Msg:
    if tile is None:
        return msg("Move the die off {lot} (empty)", lot=lot)
    return msg(
        "Move the die off {lot} ({colour}, showing {value})", lot=lot, colour=colour_word(tile.colour), value=tile.value
    )


def _colours(value: JSON, n: int) -> tuple[str, ...]:
    if value is None:
        return PALETTE[:n]
    if not isinstance(value, list | tuple) or not all(isinstance(c, str) for c in value):
        raise RuleViolation(msg("The player colours must be a list of colour names, one per player."))
    colours = tuple(c.strip().lower() for c in value)
    if len(colours) != n or any(not c for c in colours):
        raise RuleViolation(
            nmsg("Give one colour per player: {n} colour.", "Give one colour per player: {n} colours.", n)
        )
    if len(set(colours)) != n:
        raise RuleViolation(msg("Two players have the same colour; the camera could not tell their dice apart."))
    return colours
