"""Duels: a tie-break among players with the same best throw at a table (phase 3), or a duel card's
holder against the opponent they named (phase 4).

The duellists throw in turn, three throws each, always the holder (or for a tie-break the richest)
first. Then chip throws go round in the same order: the duellist asked either throws again for a
chip (a throw entered *is* the purchase) or stops; the duel ends when every duellist in a row has
stopped (those without chips are skipped). The best hand by the ranking wins. Identical dice: a card
duel is lost by its holder; a tie-break is thrown again by those still tied.
"""

from __future__ import annotations

from companion.games.base import Die, Event, RuleViolation, evolve
from companion.games.cincinnati.cards import amount
from companion.games.cincinnati.clearing import award, clear_tables, next_card_duel
from companion.games.cincinnati.hands import hand, shown
from companion.games.cincinnati.seating import names, precedence, with_player
from companion.games.cincinnati.state import CincinnatiState, Duel
from companion.games.cincinnati.throwdice import check_kept, faces_of

Result = tuple[CincinnatiState, list[Event]]


def start_card_duel(state: CincinnatiState, opponent: int) -> Result:
    holder = state.duel_queue[0]
    if opponent == holder:
        raise RuleViolation(f"{state.players[holder].name} cannot duel themselves; name another player.")
    if opponent not in state.seats:
        raise RuleViolation("Name one of the players as the opponent.")
    duel = Duel("card", (holder, opponent), ((), ()), holder=holder)
    h, o = state.players[holder], state.players[opponent]
    text = f"{h.name} challenges {o.name} to a duel; {h.name} throws first."
    return evolve(state, phase="duel", duel=duel), [Event("challenge", text, {"holder": holder, "opponent": opponent})]


def _seat(state: CincinnatiState, duel: Duel, player: int | None) -> int:
    seat = duel.current if player is None else player
    if seat != duel.current:
        who = state.players[seat].name if seat in state.seats else f"Seat {seat}"
        raise RuleViolation(f"It is {state.players[duel.current].name}'s turn in the duel, not {who}'s.")
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
            raise RuleViolation(f"{name} has no chip left to pay for another throw.")
        state = with_player(state, seat, evolve(p, chips=p.chips - 1))
        state = evolve(state, supply=state.supply + 1)
    i = duel.order.index(seat)
    duel = evolve(duel, dice=tuple(faces if j == i else d for j, d in enumerate(duel.dice)))
    what = "pays a chip and throws" if chip else f"throws ({duel.throw_number} of 3)"
    text = f"Duel: {name} {what}: {shown(faces)}, {hand(faces).describe()}."
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
        raise RuleViolation(f"The three throws are over; {name} either pays a chip to throw or stops.")
    if not duel.dice_of(seat):
        raise RuleViolation(f"{name} has no dice standing yet: the first throw cannot be passed.")
    text = f"Duel: {name} passes throw {duel.throw_number}."
    duel = evolve(duel, turns=duel.turns + 1)
    return _advance(evolve(state, duel=duel), [Event("duel_pass", text, {"player": seat})])


def duel_stop(state: CincinnatiState) -> Result:
    duel = state.duel
    assert duel is not None
    if duel.asked is None:
        raise RuleViolation("The duellists make their three throws before anyone can stop.")
    seat = duel.current
    text = f"Duel: {state.players[seat].name} throws no more."
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
        text = f"{names(state, order)} threw the same again ({best.describe()}); they duel once more."
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
            text = f"{h.name} wins the duel ({best.describe()}) and takes {o.name}'s {amount(card)}."
        else:
            card = 0
            text = f"{h.name} wins the duel ({best.describe()}), but {o.name} has no money card to take."
        events.append(Event("duel_won", text, {"winner": holder, "loser": opponent, "card": card}))
    else:
        why = "with the same dice, the holder of the duel card loses" if len(top) == 2 else best.describe()
        text = f"{o.name} wins the duel against {h.name} ({why}) and keeps everything."
        events.append(Event("duel_won", text, {"winner": opponent, "loser": holder, "card": 0}))
    return next_card_duel(state, events)
