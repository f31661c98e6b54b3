"""Phases 1 and 2: cards onto the tables, the secret choice of table, and the simultaneous throws.

The players throw at the same time, but the companion takes their dice one player at a time, in any
order: every player still to throw is awaited at once. A pass must be entered before anybody's
throw of that round (the rulebook wants it said aloud before the others throw). After the third
throw, chip throws go in rounds: players pay a chip each, then those who paid throw; the table is
asked again until nobody pays.
"""

from __future__ import annotations

from companion.games.base import Event
from companion.games.cincinnati.cards import DUEL, MONEY_VALUES, Card, label, labels, parse, remove_one, sort_cards
from companion.games.cincinnati.clearing import clear_tables
from companion.games.cincinnati.hands import TABLE_NAMES, hand, shown
from companion.games.cincinnati.seating import names, precedence, with_player
from companion.games.cincinnati.state import REGULAR_THROWS, CincinnatiState
from companion.games.cincinnati.throwdice import check_kept, faces_of
from companion.games.evolve import evolve
from companion.games.inputs import Die
from companion.games.messages import msg, nmsg
from companion.games.violations import RuleViolation
from companion.games.words import money

Result = tuple[CincinnatiState, list[Event]]


def reveal(state: CincinnatiState, value: int | str) -> Result:
    card = parse(value)
    if card is None:
        raise RuleViolation(
            msg(
                "There is no card {card}; the cards are {low} to {high}, duel and 2 chips.",
                card=str(value),
                low=money(min(MONEY_VALUES)),
                high=money(max(MONEY_VALUES)),
            )
        )
    if card not in state.unseen:
        raise RuleViolation(
            msg("Every card {card} is already out; check the card and enter it again.", card=label(card))
        )
    table = state.tables[state.dealt]
    if card == DUEL and state.round == 1:
        text = msg(
            "No duel card in the first round: shuffle it back into the deck and reveal another for table {table}.",
            table=table,
        )
        return state, [Event("duel_returned", text, {"table": table})]
    i = state.dealt
    on_tables = tuple(cards + (card,) if j == i else cards for j, cards in enumerate(state.on_tables))
    state = evolve(state, unseen=remove_one(state.unseen, card), on_tables=on_tables, dealt=i + 1)
    text = msg("Table {table} gets {card} (now {cards}).", table=table, card=label(card), cards=labels(on_tables[i]))
    events = [Event("card", text, {"table": table, "card": card})]
    if state.dealt < len(state.tables):
        return state, events
    events.append(Event("choose", msg("Each player throws under the cup, then chooses a table in secret."), {}))
    return evolve(state, phase="choose"), events


def choose(state: CincinnatiState, seat: int, table: str) -> Result:
    _check_seat(state, seat)
    player = state.players[seat]
    if table not in state.tables:
        raise RuleViolation(
            msg(
                "With {count} players only tables {tables} are in play.",
                count=len(state.players),
                tables=list(state.tables),
            )
        )
    if player.table is not None:
        raise RuleViolation(msg("{player} has already chosen a table this round.", player=player.name))
    state = with_player(state, seat, evolve(player, table=table))
    events = [Event("chosen", msg("{player} has chosen a table.", player=player.name), {"player": seat})]
    if any(p.table is None for p in state.players):
        return state, events
    by_table = [
        msg(
            "{table} ({name}): {players}",
            table=t,
            name=TABLE_NAMES[t],
            players=names(state, [s for s in state.seats if state.players[s].table == t]),
        )
        for t in state.tables
    ]
    choices = {str(s): state.players[s].table for s in state.seats}
    text = msg("Tables revealed: {tables}. Lift the cups.", tables=by_table)
    events.append(Event("revealed", text, {"tables": choices}))
    return _next_throw(evolve(state, phase="throw", throw=0), events)


def throw(state: CincinnatiState, dice: tuple[Die, ...], player: int | None, kept: tuple[int, ...] | None) -> Result:
    seat = _pending_seat(state, player)
    p = state.players[seat]
    chip = state.throw > REGULAR_THROWS
    faces = faces_of(dice, _reason(state.throw))
    if state.throw == 1 and kept:
        raise RuleViolation(msg("The first throw is all five dice; {player} keeps nothing yet.", player=p.name))
    check_kept(p.name, p.dice, faces, kept)
    state = with_player(state, seat, evolve(p, dice=faces))
    state = evolve(state, pending=tuple(s for s in state.pending if s != seat), passes_open=False)
    what = hand(faces).describe()
    if chip:
        text = nmsg(
            "{player}, chip throw: {dice} ({hand}, {n} pip).",
            "{player}, chip throw: {dice} ({hand}, {n} pips).",
            sum(faces),
            player=p.name,
            dice=shown(faces),
            hand=what,
        )
    else:
        text = nmsg(
            "{player}, throw {throw}: {dice} ({hand}, {n} pip).",
            "{player}, throw {throw}: {dice} ({hand}, {n} pips).",
            sum(faces),
            player=p.name,
            throw=state.throw,
            dice=shown(faces),
            hand=what,
        )
    events = [Event("throw", text, {"player": seat, "dice": list(faces), "throw": state.throw})]
    return _after_throw(state, events)


def pass_throw(state: CincinnatiState, player: int | None) -> Result:
    seat = _pending_seat(state, player)
    name = state.players[seat].name
    if state.throw == 1:
        raise RuleViolation(msg("Everyone throws all five dice the first time; {player} cannot pass it.", player=name))
    if state.throw > REGULAR_THROWS:
        raise RuleViolation(msg("{player} paid a chip for this throw and must throw.", player=name))
    if not state.passes_open:
        raise RuleViolation(
            msg(
                "A pass must be declared before anybody throws again; "
                "undo the throws entered, or enter {player}'s throw.",
                player=name,
            )
        )
    state = evolve(state, pending=tuple(s for s in state.pending if s != seat))
    text = msg("{player} passes throw {throw}.", player=name, throw=state.throw)
    events = [Event("pass", text, {"player": seat, "throw": state.throw})]
    return _after_throw(state, events)


def buy(state: CincinnatiState, seat: int) -> Result:
    _check_seat(state, seat)
    p = state.players[seat]
    if seat in state.buyers:
        raise RuleViolation(msg("{player} has already paid for this throw.", player=p.name))
    if p.chips < 1:
        raise RuleViolation(msg("{player} has no chip to pay for another throw.", player=p.name))
    state = with_player(state, seat, evolve(p, chips=p.chips - 1))
    state = evolve(state, supply=state.supply + 1, buyers=state.buyers + (seat,))
    text = msg("{player} pays a chip for one more throw.", player=p.name)
    events = [Event("buy", text, {"player": seat})]
    if can_buy(state):
        return state, events
    following, more = no_more(state)  # nobody is left to ask
    return following, events + more


def no_more(state: CincinnatiState) -> Result:
    if not state.buyers:
        return clear_tables(state, [Event("throws_over", msg("Nobody throws again: the tables are cleared."), {})])
    order = asking_order(state)
    pending = tuple(s for s in order if s in state.buyers)
    state = evolve(state, phase="throw", throw=state.throw + 1, pending=pending, buyers=())
    text = msg("Chip throw for {players}.", players=names(state, pending))
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
        raise RuleViolation(
            msg("There is no player in seat {seat}; seats go from 0 to {last}.", seat=seat, last=len(state.players) - 1)
        )


def _pending_seat(state: CincinnatiState, player: int | None) -> int:
    if player is None:
        return state.pending[0]
    _check_seat(state, player)
    if player not in state.pending:
        name = state.players[player].name
        if state.throw > REGULAR_THROWS:
            raise RuleViolation(msg("{player} did not pay a chip for this throw.", player=name))
        raise RuleViolation(
            msg("{player} has already thrown (or passed) throw {throw}.", player=name, throw=state.throw)
        )
    return player


def unseen_kinds(state: CincinnatiState) -> tuple[Card, ...]:
    """The kinds of card that can still turn up, in the usual order."""
    return tuple(dict.fromkeys(sort_cards(state.unseen)))
