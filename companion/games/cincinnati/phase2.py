"""Phases 1 and 2: cards onto the tables, the secret choice of table, and the simultaneous throws.

The players throw at the same time, but the companion takes their dice one player at a time, in any
order: every player still to throw is awaited at once. A pass must be entered before anybody's
throw of that round (the rulebook wants it said aloud before the others throw). After the third
throw, chip throws go in rounds: players pay a chip each, then those who paid throw; the table is
asked again until nobody pays.
"""

from __future__ import annotations

from companion.games.base import Die, Event, RuleViolation, evolve
from companion.games.cincinnati.cards import DUEL, Card, label, labels, parse, remove_one, sort_cards
from companion.games.cincinnati.clearing import clear_tables
from companion.games.cincinnati.hands import TABLE_NAMES, hand, shown
from companion.games.cincinnati.seating import names, precedence, with_player
from companion.games.cincinnati.state import REGULAR_THROWS, CincinnatiState
from companion.games.cincinnati.throwdice import check_kept, faces_of

Result = tuple[CincinnatiState, list[Event]]


def reveal(state: CincinnatiState, value: int | str) -> Result:
    card = parse(value)
    if card is None:
        raise RuleViolation(f"There is no card {value!r}; the cards are 15,000 to 35,000, duel and 2 chips.")
    if card not in state.unseen:
        raise RuleViolation(f"Every {label(card)} card is already out; check the card and enter it again.")
    table = state.tables[state.dealt]
    if card == DUEL and state.round == 1:
        text = f"No duel card in the first round: shuffle it back into the deck and reveal another for table {table}."
        return state, [Event("duel_returned", text, {"table": table})]
    i = state.dealt
    on_tables = tuple(cards + (card,) if j == i else cards for j, cards in enumerate(state.on_tables))
    state = evolve(state, unseen=remove_one(state.unseen, card), on_tables=on_tables, dealt=i + 1)
    text = f"Table {table} gets {label(card)} (now {labels(on_tables[i])})."
    events = [Event("card", text, {"table": table, "card": card})]
    if state.dealt < len(state.tables):
        return state, events
    tables = " or ".join(state.tables)
    events.append(Event("choose", f"Each player throws under the cup, then chooses table {tables} in secret.", {}))
    return evolve(state, phase="choose"), events


def choose(state: CincinnatiState, seat: int, table: str) -> Result:
    _check_seat(state, seat)
    player = state.players[seat]
    if table not in state.tables:
        raise RuleViolation(f"With {len(state.players)} players only tables {' and '.join(state.tables)} are in play.")
    if player.table is not None:
        raise RuleViolation(f"{player.name} has already chosen a table this round.")
    state = with_player(state, seat, evolve(player, table=table))
    events = [Event("chosen", f"{player.name} has chosen a table.", {"player": seat})]
    if any(p.table is None for p in state.players):
        return state, events
    by_table = "; ".join(
        f"{t} ({TABLE_NAMES[t]}): {names(state, [s for s in state.seats if state.players[s].table == t])}"
        for t in state.tables
    )
    choices = {str(s): state.players[s].table for s in state.seats}
    events.append(Event("revealed", f"Tables revealed: {by_table}. Lift the cups.", {"tables": choices}))
    return _next_throw(evolve(state, phase="throw", throw=0), events)


def throw(state: CincinnatiState, dice: tuple[Die, ...], player: int | None, kept: tuple[int, ...] | None) -> Result:
    seat = _pending_seat(state, player)
    p = state.players[seat]
    chip = state.throw > REGULAR_THROWS
    faces = faces_of(dice, _reason(state.throw))
    if state.throw == 1 and kept:
        raise RuleViolation(f"The first throw is all five dice; {p.name} keeps nothing yet.")
    check_kept(p.name, p.dice, faces, kept)
    state = with_player(state, seat, evolve(p, dice=faces))
    state = evolve(state, pending=tuple(s for s in state.pending if s != seat), passes_open=False)
    what = "chip throw" if chip else f"throw {state.throw}"
    text = f"{p.name}, {what}: {shown(faces)} ({hand(faces).describe()}, {sum(faces)} pips)."
    events = [Event("throw", text, {"player": seat, "dice": list(faces), "throw": state.throw})]
    return _after_throw(state, events)


def pass_throw(state: CincinnatiState, player: int | None) -> Result:
    seat = _pending_seat(state, player)
    name = state.players[seat].name
    if state.throw == 1:
        raise RuleViolation(f"Everyone throws all five dice the first time; {name} cannot pass it.")
    if state.throw > REGULAR_THROWS:
        raise RuleViolation(f"{name} paid a chip for this throw and must throw.")
    if not state.passes_open:
        raise RuleViolation(
            f"A pass must be declared before anybody throws again; undo the throws entered, or enter {name}'s throw."
        )
    state = evolve(state, pending=tuple(s for s in state.pending if s != seat))
    events = [Event("pass", f"{name} passes throw {state.throw}.", {"player": seat, "throw": state.throw})]
    return _after_throw(state, events)


def buy(state: CincinnatiState, seat: int) -> Result:
    _check_seat(state, seat)
    p = state.players[seat]
    if seat in state.buyers:
        raise RuleViolation(f"{p.name} has already paid for this throw.")
    if p.chips < 1:
        raise RuleViolation(f"{p.name} has no chip to pay for another throw.")
    state = with_player(state, seat, evolve(p, chips=p.chips - 1))
    state = evolve(state, supply=state.supply + 1, buyers=state.buyers + (seat,))
    text = f"{p.name} pays a chip for one more throw."
    events = [Event("buy", text, {"player": seat})]
    if can_buy(state):
        return state, events
    following, more = no_more(state)  # nobody is left to ask
    return following, events + more


def no_more(state: CincinnatiState) -> Result:
    if not state.buyers:
        return clear_tables(state, [Event("throws_over", "Nobody throws again: the tables are cleared.", {})])
    order = asking_order(state)
    pending = tuple(s for s in order if s in state.buyers)
    state = evolve(state, phase="throw", throw=state.throw + 1, pending=pending, buyers=())
    text = f"Chip throw for {names(state, pending)}."
    return state, [Event("chip_throws", text, {"players": list(pending)})]


def asking_order(state: CincinnatiState) -> tuple[int, ...]:
    """Whom the table asks about a chip throw, in the rulebook's order."""
    return precedence(state, state.seats)


def can_buy(state: CincinnatiState) -> tuple[int, ...]:
    return tuple(s for s in asking_order(state) if state.players[s].chips > 0 and s not in state.buyers)


def _after_throw(state: CincinnatiState, events: list[Event]) -> Result:
    if state.pending:
        return state, events
    return _next_throw(state, events)


def _next_throw(state: CincinnatiState, events: list[Event]) -> Result:
    if state.throw < REGULAR_THROWS:
        n = state.throw + 1
        pending = precedence(state, state.seats)
        return evolve(state, phase="throw", throw=n, pending=pending, passes_open=n > 1), events
    if not any(p.chips for p in state.players):
        return clear_tables(state, events)
    return evolve(state, phase="buy", pending=(), buyers=(), passes_open=False), events


def _reason(throw: int) -> str:
    return f"throw {throw}" if throw <= REGULAR_THROWS else "chip throw"


def _check_seat(state: CincinnatiState, seat: int) -> None:
    if seat not in state.seats:
        raise RuleViolation(f"There is no player in seat {seat}; seats go from 0 to {len(state.players) - 1}.")


def _pending_seat(state: CincinnatiState, player: int | None) -> int:
    if player is None:
        return state.pending[0]
    _check_seat(state, player)
    if player not in state.pending:
        name = state.players[player].name
        if state.throw > REGULAR_THROWS:
            raise RuleViolation(f"{name} did not pay a chip for this throw.")
        raise RuleViolation(f"{name} has already thrown (or passed) throw {state.throw}.")
    return player


def unseen_kinds(state: CincinnatiState) -> tuple[Card, ...]:
    """The kinds of card that can still turn up, in the usual order."""
    return tuple(dict.fromkeys(sort_cards(state.unseen)))
