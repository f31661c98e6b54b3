"""Cards: the deal at setup, and step 1 of a turn (draw, take over the lot, pay lots and casinos).

The order of a draw (rulings): take over the lot (moving a die or giving up a marker if the drawer has
none left), settle boss ties, then every marked lot pays $1, then the casinos the card names pay money,
then points, players in seat order from the drawer, each player's casinos smallest first. Reaching the
last space of the track stops everything at once.
"""

from __future__ import annotations

from companion.games.base import Event, RuleViolation, evolve
from companion.games.lordsofvegas.board import (
    COMPANY,
    END_OF_GAME,
    LOT_INDEX,
    LOTS,
    STRIP,
    TWO_PLAYER_BLOCKED,
    card_label,
    pays,
)
from companion.games.lordsofvegas.casinos import casinos
from companion.games.lordsofvegas.state import (
    AfterDraw,
    CheckMarkers,
    LordsState,
    Payout,
    PlaceDie,
    SettleTies,
    Space,
    Step,
    pay,
    push,
    with_space,
    with_tile,
)
from companion.games.lordsofvegas.track import WINNING_SPACE, advance
from companion.games.lordsofvegas.words import dollars, plural

SETUP_CARDS = 2


def blocked(state: LordsState, lot: int) -> bool:
    """With two players the F block is out of play."""
    return state.n == 2 and LOTS[lot].block == TWO_PLAYER_BLOCKED


def _check_card(state: LordsState, card: str) -> str:
    card = card.strip().upper() if card.strip().upper() in LOT_INDEX else card.strip()
    if card != END_OF_GAME and card not in LOT_INDEX:
        raise RuleViolation(f"There is no card {card!r}; cards name a lot such as A2, or are End of Game.")
    if card not in state.deck:
        if card == END_OF_GAME:
            raise RuleViolation("End of Game is not in the deck while the starting cards are dealt.")
        raise RuleViolation(f"The card {card} has already been drawn; check the card and enter it again.")
    return card


def deal(state: LordsState, card: str, events: list[Event]) -> LordsState:
    """One of the two starting cards: the player marks the lot and takes its starting money."""
    card = _check_card(state, card)
    seat = state.current
    name = state.players[seat]
    lot = LOT_INDEX[card]
    if blocked(state, lot):
        text = (
            f"{card} is in the F block, out of play with two players: it goes back into the deck; deal {name} another."
        )
        events.append(Event("returned", text, {"player": seat, "card": card}))
        return state
    start = LOTS[lot].start
    state = with_space(state, lot, Space(marker=seat))
    state = pay(state, seat, start)
    dealt = tuple(d + 1 if i == seat else d for i, d in enumerate(state.dealt))
    deck = tuple(c for c in state.deck if c != card)
    state = evolve(state, deck=deck, dealt=dealt)
    events.append(
        Event(
            "dealt",
            f"{name} is dealt {card}: marks it and takes {dollars(start)}.",
            {"player": seat, "card": card, "money": start},
        )
    )
    if min(dealt) < SETUP_CARDS:
        return evolve(state, current=dealt.index(min(dealt)))
    events.append(
        Event(
            "dealt_all",
            "Every player has two lots. Put End of Game on top of the last quarter of the deck;"
            " roll off for the first turn.",
            {},
        )
    )
    return evolve(state, phase="start", current=0, deck=(*deck, END_OF_GAME))


def draw(state: LordsState, card: str, events: list[Event]) -> LordsState:
    """Step 1 of a turn; the take-over happens now, the rest as steps (ties may need rerolls first)."""
    card = _check_card(state, card)
    seat = state.current
    name = state.players[seat]
    state = evolve(state, deck=tuple(c for c in state.deck if c != card), last_card=card, drawn=(*state.drawn, card))
    events.append(Event("drew", f"{name} drew {card_label(card)}.", {"player": seat, "card": card, "pays": pays(card)}))
    after: tuple[Step, ...] = (SettleTies(), Payout(card), AfterDraw(card))
    if card == END_OF_GAME:
        return push(state, *after[1:])
    lot = LOT_INDEX[card]
    if blocked(state, lot):
        events.append(
            Event("blocked", f"{card} is out of play with two players: nobody takes it over.", {"card": card})
        )
        return push(state, *after[1:])
    return _take_over(push(state, *after), lot, events)


def _take_over(state: LordsState, lot: int, events: list[Event]) -> LordsState:
    seat = state.current
    name = state.players[seat]
    space = state.board[lot]
    where = LOTS[lot].name
    data = {"player": seat, "lot": where}
    tile = space.tile
    if tile is None:
        state = with_space(state, lot, Space(marker=seat))
        events.append(Event("marked", f"{name} marks {where}.", data))
        return push(state, CheckMarkers(seat, (lot,)))
    if tile.owner == seat:
        events.append(Event("own_tile", f"{where} already holds {name}'s die: nothing changes.", data))
        return state
    if tile.owner is None:
        value = LOTS[lot].die
        events.append(Event("claimed", f"{name} puts a die showing {value} on the empty tile at {where}.", data))
    else:
        value = tile.value
        old = state.players[tile.owner]
        text = f"{name} takes over {where}: {old}'s {value} is replaced by {name}'s die showing {value}."
        events.append(Event("taken_over", text, {**data, "from": tile.owner, "value": value}))
        state = with_tile(state, lot, evolve(tile, owner=None, value=0, rerolled=False))
    return push(state, PlaceDie(seat, lot, value))


def payout(state: LordsState, card: str, events: list[Event]) -> LordsState:
    """Marked lots pay $1, the casinos the card names pay money, then their bosses points."""
    for seat in state.seats_from(state.current):
        marked = len(state.marked(seat))
        if marked:
            state = pay(state, seat, marked)
            verb = "pays" if marked == 1 else "pay"
            text = f"{state.players[seat]}'s {plural(marked, 'marked lot')} {verb} {dollars(marked)}."
            events.append(Event("lots_paid", text, {"player": seat, "money": marked}))
    paying = pays(card)
    what = "casinos on The Strip" if paying == STRIP else f"{paying} ({COMPANY[paying]}) casinos"
    open_casinos = [c for c in casinos(state.board) if c.pays_on(paying)]
    if not open_casinos:
        events.append(Event("no_casino", f"No {what} to pay.", {"pays": paying}))
        return state
    for casino in open_casinos:
        for seat in casino.owners():
            amount = sum(v for _, o, v in casino.dice if o == seat)
            state = pay(state, seat, amount)
            text = f"{state.players[seat]} gets {dollars(amount)} from the {casino.colour} casino at {casino.name}."
            events.append(Event("casino_paid", text, {"player": seat, "casino": casino.name, "money": amount}))
    for seat in state.seats_from(state.current):
        mine = sorted((c for c in open_casinos if c.boss == seat), key=lambda c: (c.size, c.lots))
        for casino in mine:
            before = state.points[seat]
            after = advance(before, casino.size)
            points = tuple(after if i == seat else p for i, p in enumerate(state.points))
            state = evolve(state, points=points)
            lost = f" ({casino.size - (after - before)} lost at a break)" if after - before < casino.size else ""
            what = f"{plural(casino.size, 'point')} for the {casino.colour} casino at {casino.name}"
            text = f"{state.players[seat]} scores {what}: {before} to {after}{lost}."
            data = {"player": seat, "casino": casino.name, "points": casino.size, "from": before, "to": after}
            events.append(Event("scored", text, data))
            if after >= WINNING_SPACE:
                text = f"{state.players[seat]} reaches {WINNING_SPACE} points and wins at once!"
                events.append(Event("game_over", text, {"winners": [seat]}))
                return evolve(state, phase="over", winner=seat, todo=(), wait=None)
    return state


def after_draw(state: LordsState, card: str, events: list[Event]) -> LordsState:
    name = state.players[state.current]
    if card == END_OF_GAME:
        return evolve(state, phase="over")
    if blocked(state, LOT_INDEX[card]):
        events.append(
            Event("draw_again", f"{name} draws again (an F card with two players).", {"player": state.current})
        )
        return evolve(state, phase="draw")
    return evolve(state, phase="play")
