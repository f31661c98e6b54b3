"""Duels: a tie-break among players with the same best throw at a table (phase 3), or a duel card's
holder against the opponent they named (phase 4).

The duellists throw in turn, three throws each, always the holder (or for a tie-break the richest)
first. Then chip throws go round in the same order: the duellist asked either throws again for a
chip (a throw entered *is* the purchase) or stops; the duel ends when every duellist in a row has
stopped (those without chips are skipped). The best hand by the ranking wins. Identical dice: a card
duel is lost by its holder; a tie-break is thrown again by those still tied.
"""

from __future__ import annotations

from companion.games.base import Event
from companion.games.cincinnati.clearing import award, clear_tables, next_card_duel
from companion.games.cincinnati.hands import hand, shown
from companion.games.cincinnati.seating import names, precedence, with_player
from companion.games.cincinnati.state import CincinnatiState, Duel
from companion.games.cincinnati.throwdice import check_kept, faces_of
from companion.games.evolve import evolve
from companion.games.inputs import Die
from companion.games.messages import Param, msg
from companion.games.violations import RuleViolation
from companion.games.words import money

Result = tuple[CincinnatiState, list[Event]]


def start_card_duel(state: CincinnatiState, opponent: int) -> Result:
    holder = state.duel_queue[0]
    if opponent == holder:
        raise RuleViolation(
            msg("{player} cannot duel themselves; name another player.", player=state.players[holder].name)
        )
    if opponent not in state.seats:
        raise RuleViolation(msg("Name one of the players as the opponent."))
    duel = Duel("card", (holder, opponent), ((), ()), holder=holder)
    h, o = state.players[holder], state.players[opponent]
    text = msg("{player} challenges {opponent} to a duel; {player} throws first.", player=h.name, opponent=o.name)
    return evolve(state, phase="duel", duel=duel), [Event("challenge", text, {"holder": holder, "opponent": opponent})]


def _seat(state: CincinnatiState, duel: Duel, player: int | None) -> int:
    seat = duel.current if player is None else player
    if seat != duel.current:
        who: Param = state.players[seat].name if seat in state.seats else msg("seat {seat}", seat=seat)
        raise RuleViolation(
            msg("It is {player}'s turn in the duel, not {other}'s.", player=state.players[duel.current].name, other=who)
        )
    return seat


def duel_throw(
    state: CincinnatiState, dice: tuple[Die, ...], player: int | None, kept: tuple[int, ...] | None
) -> Result:
    duel = state.duel
    assert duel is not None
    seat = _seat(state, duel, player)
    name = state.players[seat].name
    chip = duel.asked is not None
    faces = faces_of(dice, "duel chip throw" if chip else f"duel throw {duel.throw_number}")
    before = duel.dice_of(seat)
    check_kept(name, before, faces, kept)
    events: list[Event] = []
    if chip:
        p = state.players[seat]
        if p.chips < 1:
            raise RuleViolation(msg("{player} has no chip left to pay for another throw.", player=name))
        state = with_player(state, seat, evolve(p, chips=p.chips - 1))
        state = evolve(state, supply=state.supply + 1)
    i = duel.order.index(seat)
    duel = evolve(duel, dice=tuple(faces if j == i else d for j, d in enumerate(duel.dice)))
    if chip:
        text = msg(
            "Duel: {player} pays a chip and throws: {dice}, {hand}.",
            player=name,
            dice=shown(faces),
            hand=hand(faces).describe(),
        )
    else:
        text = msg(
            "Duel: {player} throws ({throw} of 3): {dice}, {hand}.",
            player=name,
            throw=duel.throw_number,
            dice=shown(faces),
            hand=hand(faces).describe(),
        )
    events.append(Event("duel_throw", text, {"player": seat, "dice": list(faces), "chip": chip}))
    # after a chip throw the next duellist is asked; after a regular throw the next one throws
    duel = evolve(duel, asked=(i + 1) % len(duel.order), stopped=0) if chip else evolve(duel, turns=duel.turns + 1)
    return _advance(evolve(state, duel=duel), events)


def duel_pass(state: CincinnatiState, player: int | None) -> Result:
    duel = state.duel
    assert duel is not None
    seat = _seat(state, duel, player)
    name = state.players[seat].name
    if duel.asked is not None:
        raise RuleViolation(
            msg("The three throws are over; {player} either pays a chip to throw or stops.", player=name)
        )
    if not duel.dice_of(seat):
        raise RuleViolation(msg("{player} has no dice standing yet: the first throw cannot be passed.", player=name))
    text = msg("Duel: {player} passes throw {throw}.", player=name, throw=duel.throw_number)
    duel = evolve(duel, turns=duel.turns + 1)
    return _advance(evolve(state, duel=duel), [Event("duel_pass", text, {"player": seat})])


def duel_stop(state: CincinnatiState) -> Result:
    duel = state.duel
    assert duel is not None
    if duel.asked is None:
        raise RuleViolation(msg("The duellists make their three throws before anyone can stop."))
    seat = duel.current
    text = msg("Duel: {player} throws no more.", player=state.players[seat].name)
    duel = evolve(duel, asked=(duel.asked + 1) % len(duel.order), stopped=duel.stopped + 1)
    return _advance(evolve(state, duel=duel), [Event("duel_stop", text, {"player": seat})])


def _advance(state: CincinnatiState, events: list[Event]) -> Result:
    """Move past duellists who cannot buy a throw; settle the duel when it is over."""
    duel = state.duel
    assert duel is not None
    if duel.asked is None and duel.turns < duel.regular_turns:
        return state, events
    if duel.asked is None:
        duel = evolve(duel, asked=0, stopped=0)
    k = len(duel.order)
    while duel.stopped < k and state.players[duel.current].chips == 0:
        assert duel.asked is not None
        duel = evolve(duel, asked=(duel.asked + 1) % k, stopped=duel.stopped + 1)
    state = evolve(state, duel=duel)
    if duel.stopped < k:
        return state, events
    return _settle(state, duel, events)


def _settle(state: CincinnatiState, duel: Duel, events: list[Event]) -> Result:
    hands = {seat: hand(duel.dice_of(seat)) for seat in duel.order}
    best = max(hands.values())
    top = [seat for seat in duel.order if hands[seat] == best]
    if duel.reason == "tie":
        if len(top) == 1:
            return clear_tables(award(state, top[0], events), events)
        order = precedence(state, top, duel.dice_of)
        text = msg(
            "{players} threw the same again ({hand}); they duel once more.",
            players=names(state, order),
            hand=best.describe(),
        )
        events.append(Event("tie", text, {"table": duel.table, "players": list(order)}))
        return evolve(state, duel=Duel("tie", order, ((),) * len(order), table=duel.table)), events
    holder, opponent = duel.order
    assert duel.holder == holder
    h, o = state.players[holder], state.players[opponent]
    if top == [holder]:
        if o.money:
            card = o.money[0]
            state = with_player(state, opponent, evolve(o, money=o.money[1:]))
            state = with_player(state, holder, evolve(h, money=tuple(sorted(h.money + (card,), reverse=True))))
            text = msg(
                "{player} wins the duel ({hand}) and takes {opponent}'s {amount}.",
                player=h.name,
                hand=best.describe(),
                opponent=o.name,
                amount=money(card),
            )
        else:
            card = 0
            text = msg(
                "{player} wins the duel ({hand}), but {opponent} has no money card to take.",
                player=h.name,
                hand=best.describe(),
                opponent=o.name,
            )
        events.append(Event("duel_won", text, {"winner": holder, "loser": opponent, "card": card}))
    else:
        why = msg("with the same dice, the holder of the duel card loses") if len(top) == 2 else best.describe()
        text = msg(
            "{player} wins the duel against {opponent} ({why}) and keeps everything.",
            player=o.name,
            opponent=h.name,
            why=why,
        )
        events.append(Event("duel_won", text, {"winner": opponent, "loser": holder, "card": 0}))
    return next_card_duel(state, events)
