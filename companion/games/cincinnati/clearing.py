"""Phases 3 and 4 between the duels: clearing the tables A, B, C in order, paying out what lies on
them, lining up the duel card holders, and ending the round or the game."""

from __future__ import annotations

from companion.games.base import Event
from companion.games.cincinnati.cards import CHIPS, CHIPS_PER_CARD, DUEL, is_money, labels
from companion.games.cincinnati.hands import TABLE_NAMES, describe_for, meets, table_key
from companion.games.cincinnati.seating import duel_order, names, precedence, with_player
from companion.games.cincinnati.state import ROUNDS, CincinnatiState, Clearing, Duel
from companion.games.evolve import evolve
from companion.games.messages import msg, nmsg


def clear_tables(state: CincinnatiState, events: list[Event]) -> tuple[CincinnatiState, list[Event]]:
    """Clear the tables from ``state.clearing`` on; stop at a tie for a tie-break duel."""
    state = evolve(state, phase="duel", pending=(), buyers=(), passes_open=False)
    if state.clearing == 0 and state.duel is None:
        state = evolve(state, cleared=())  # the previous round's results stay on show until now
    while state.clearing < len(state.tables):
        index = state.clearing
        table = state.tables[index]
        at_table = [s for s in state.seats if state.players[s].table == table]
        fit = [s for s in at_table if meets(table, state.players[s].dice)]
        if not fit:
            cards = labels(state.on_tables[index])
            if not at_table:
                text = msg(
                    "Table {table} is not cleared: nobody plays there; its cards stay ({cards}).",
                    table=table,
                    cards=cards,
                )
            else:
                text = msg(
                    "Table {table} is not cleared: {players} did not make it; its cards stay ({cards}).",
                    table=table,
                    players=names(state, at_table),
                    cards=cards,
                )
            events.append(Event("not_cleared", text, {"table": table, "players": at_table}))
            state = _note(state, Clearing(table, tuple(at_table), None, state.on_tables[index], text, state.round))
            state = evolve(state, clearing=index + 1)
            continue
        best = max(table_key(table, state.players[s].dice) for s in fit)
        top = [s for s in fit if table_key(table, state.players[s].dice) == best]
        if len(top) == 1:
            state = award(state, top[0], events)
            continue
        order = precedence(state, top)
        what = describe_for(table, state.players[top[0]].dice)
        text = msg(
            "Table {table}: {players} tie with the same throw ({hand}); they duel for it.",
            table=table,
            players=names(state, order),
            hand=what,
        )
        events.append(Event("tie", text, {"table": table, "players": list(order)}))
        duel = Duel("tie", order, ((),) * len(order), table=table)
        return evolve(state, duel=duel), events
    return start_card_duels(state, events)


def award(state: CincinnatiState, winner: int, events: list[Event]) -> CincinnatiState:
    """``winner`` clears the table being cleared: money cards to them, chips from the supply for each
    "2 chips" card (at most what the supply holds), duel cards kept for phase 4."""
    index = state.clearing
    table = state.tables[index]
    cards = state.on_tables[index]
    player = state.players[winner]
    money = tuple(sorted(player.money + tuple(c for c in cards if isinstance(c, int)), reverse=True))
    duels = sum(1 for c in cards if c == DUEL)
    chips_cards = sum(1 for c in cards if c == CHIPS)
    supply = state.supply
    chips = 0
    for _ in range(chips_cards):
        got = min(CHIPS_PER_CARD, supply)
        supply -= got
        chips += got
    player = evolve(player, money=money, chips=player.chips + chips, duel_cards=player.duel_cards + duels)
    state = with_player(state, winner, player)
    on_tables = tuple(() if i == index else c for i, c in enumerate(state.on_tables))
    discard = state.discard + (CHIPS,) * chips_cards
    how = describe_for(table, player.dice)
    if chips_cards:
        text = nmsg(
            "{player} clears table {table} ({name}) with {hand} and takes {cards}; {n} chip from the supply.",
            "{player} clears table {table} ({name}) with {hand} and takes {cards}; {n} chips from the supply.",
            chips,
            player=player.name,
            table=table,
            name=TABLE_NAMES[table],
            hand=how,
            cards=labels(cards),
        )
    else:
        text = msg(
            "{player} clears table {table} ({name}) with {hand} and takes {cards}.",
            player=player.name,
            table=table,
            name=TABLE_NAMES[table],
            hand=how,
            cards=labels(cards),
        )
    data = {
        "table": table,
        "player": winner,
        "cards": list(cards),
        "money": sum(c for c in cards if is_money(c) and isinstance(c, int)),
        "chips": chips,
        "duels": duels,
    }
    events.append(Event("cleared", text, data))
    at_table = tuple(s for s in state.seats if state.players[s].table == table)
    state = evolve(state, on_tables=on_tables, discard=discard, supply=supply, clearing=index + 1, duel=None)
    return _note(state, Clearing(table, at_table, winner, cards, text, state.round))


def _note(state: CincinnatiState, result: Clearing) -> CincinnatiState:
    return evolve(state, cleared=state.cleared + (result,))


def start_card_duels(state: CincinnatiState, events: list[Event]) -> tuple[CincinnatiState, list[Event]]:
    """Phase 4: the holders of duel cards in the rulings' order, or the end of the round."""
    queue = duel_order(state)
    state = evolve(state, duel=None, duel_queue=queue)
    if not queue:
        return end_round(state, events)
    text = msg("Duels: {players}, in this order.", players=names(state, queue))
    events.append(Event("duels", text, {"order": list(queue)}))
    return evolve(state, phase="challenge"), events


def next_card_duel(state: CincinnatiState, events: list[Event]) -> tuple[CincinnatiState, list[Event]]:
    """After a card duel: the holder gives the card up; the next holder names an opponent."""
    holder = state.duel_queue[0]
    player = state.players[holder]
    state = with_player(state, holder, evolve(player, duel_cards=player.duel_cards - 1))
    state = evolve(state, duel=None, duel_queue=state.duel_queue[1:], discard=state.discard + (DUEL,))
    if state.duel_queue:
        return evolve(state, phase="challenge"), events
    return end_round(state, events)


def end_round(state: CincinnatiState, events: list[Event]) -> tuple[CincinnatiState, list[Event]]:
    if state.round == ROUNDS:
        return evolve(state, phase="over", duel=None, duel_queue=()), events
    players = tuple(evolve(p, table=None, dice=()) for p in state.players)
    state = evolve(
        state,
        players=players,
        round=state.round + 1,
        phase="cards",
        dealt=0,
        throw=0,
        pending=(),
        passes_open=False,
        buyers=(),
        clearing=0,
        duel=None,
        duel_queue=(),
    )
    text = msg("Round {round}: reveal the cards for the tables.", round=state.round)
    events.append(Event("new_round", text, {"round": state.round}))
    return state, events
