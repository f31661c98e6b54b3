"""Cards: the deal at setup, and step 1 of a turn (draw, take over the lot, pay lots and casinos).

The order of a draw (rulings): take over the lot (moving a die or giving up a marker if the drawer has
none left), settle boss ties, then every marked lot pays $1, then the casinos the card names pay money,
then points, players in seat order from the drawer, each player's casinos smallest first. Reaching the
last space of the track stops everything at once.
"""

from __future__ import annotations

from companion.games.base import Event
from companion.games.evolve import evolve
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
    Paid,
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
from companion.games.lordsofvegas.words import dollars
from companion.games.messages import msg, nmsg
from companion.games.violations import RuleViolation
from companion.games.words import colour_word

SETUP_CARDS = 2


def blocked(state: LordsState, lot: int) -> bool:
    """With two players the F block is out of play."""
    return state.n == 2 and LOTS[lot].block == TWO_PLAYER_BLOCKED


def _check_card(state: LordsState, card: str) -> str:
    card = card.strip().upper() if card.strip().upper() in LOT_INDEX else card.strip()
    if card != END_OF_GAME and card not in LOT_INDEX:
        raise RuleViolation(msg("There is no card {card}; cards name a lot such as A2, or are End of Game.", card=card))
    if card not in state.deck:
        if card == END_OF_GAME:
            raise RuleViolation(msg("End of Game is not in the deck while the starting cards are dealt."))
        raise RuleViolation(
            msg("The card {card} has already been drawn; check the card and enter it again.", card=card)
        )
    return card


def deal(state: LordsState, card: str, events: list[Event]) -> LordsState:
    """One of the two starting cards: the player marks the lot and takes its starting money."""
    card = _check_card(state, card)
    seat = state.current
    name = state.players[seat]
    lot = LOT_INDEX[card]
    if blocked(state, lot):
        text = msg(
            "{card} is in the F block, out of play with two players: "
            "it goes back into the deck; deal {player} another.",
            card=card,
            player=name,
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
            msg(
                "{player} is dealt {card}: marks it and takes {amount}.", player=name, card=card, amount=dollars(start)
            ),
            {"player": seat, "card": card, "money": start},
        )
    )
    if min(dealt) < SETUP_CARDS:
        return evolve(state, current=dealt.index(min(dealt)))
    # the companion's own deck holds End of Game already: the table is not told to place it
    text = (
        msg("Every player has two lots; roll off for the first turn.")
        if state.virtual_deck
        else msg(
            "Every player has two lots. Put End of Game on top of the last quarter of the deck;"
            " roll off for the first turn."
        )
    )
    events.append(Event("dealt_all", text, {}))
    return evolve(state, phase="start", current=0, deck=(*deck, END_OF_GAME))


def draw(state: LordsState, card: str, events: list[Event]) -> LordsState:
    """Step 1 of a turn; the take-over happens now, the rest as steps (ties may need rerolls first)."""
    card = _check_card(state, card)
    seat = state.current
    name = state.players[seat]
    drawn = (*state.drawn, card)
    paid = Paid(len(drawn), card, seat)
    state = evolve(state, deck=tuple(c for c in state.deck if c != card), last_card=card, drawn=drawn, paid=paid)
    text = msg("{player} drew {card}.", player=name, card=card_label(card))
    events.append(Event("drew", text, {"player": seat, "card": card, "pays": pays(card)}))
    after: tuple[Step, ...] = (SettleTies(), Payout(card), AfterDraw(card))
    if card == END_OF_GAME:
        return push(state, *after[1:])
    lot = LOT_INDEX[card]
    if blocked(state, lot):
        events.append(
            Event(
                "blocked",
                msg("{card} is out of play with two players: nobody takes it over.", card=card),
                {"card": card},
            )
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
        events.append(Event("marked", msg("{player} marks {lot}.", player=name, lot=where), data))
        return push(state, CheckMarkers(seat, (lot,)))
    if tile.owner == seat:
        events.append(
            Event("own_tile", msg("{lot} already holds {player}'s die: nothing changes.", lot=where, player=name), data)
        )
        return state
    if tile.owner is None:
        value = LOTS[lot].die
        text = msg(
            "{player} puts a die showing {value} on the empty tile at {lot}.", player=name, value=value, lot=where
        )
        events.append(Event("claimed", text, data))
    else:
        value = tile.value
        old = state.players[tile.owner]
        text = msg(
            "{player} takes over {lot}: {old}'s {value} is replaced by {player}'s die showing {value}.",
            player=name,
            lot=where,
            old=old,
            value=value,
        )
        events.append(Event("taken_over", text, {**data, "from": tile.owner, "value": value}))
        state = with_tile(state, lot, evolve(tile, owner=None, value=0, rerolled=False))
    return push(state, PlaceDie(seat, lot, value))


def payout(state: LordsState, card: str, events: list[Event]) -> LordsState:
    """Marked lots pay $1, the casinos the card names pay money, then their bosses points; what was
    paid is kept in ``state.paid`` for the table's summary."""
    board = casinos(state.board)  # as the ties left it, before the payout
    state = _payout(state, card, events)
    if state.paid is not None:
        bosses = tuple(next((c.boss for c in board if c.name == tie[0]), None) for tie in state.paid.ties)
        state = evolve(state, paid=evolve(state.paid, done=True, bosses=bosses))
    return state


def _note(state: LordsState, kind: str, entry: tuple[object, ...]) -> LordsState:
    """Add ``entry`` to the draw's payout record under ``kind`` (``lots``, ``casinos`` or ``points``)."""
    paid = state.paid
    if paid is None:
        return state
    return evolve(state, paid=evolve(paid, **{kind: (*getattr(paid, kind), entry)}))


def _payout(state: LordsState, card: str, events: list[Event]) -> LordsState:
    for seat in state.seats_from(state.current):
        marked = len(state.marked(seat))
        if marked:
            state = _note(pay(state, seat, marked), "lots", (seat, marked))
            text = nmsg(
                "{player}'s {n} marked lot pays {amount}.",
                "{player}'s {n} marked lots pay {amount}.",
                marked,
                player=state.players[seat],
                amount=dollars(marked),
            )
            events.append(Event("lots_paid", text, {"player": seat, "money": marked}))
    paying = pays(card)
    open_casinos = [c for c in casinos(state.board) if c.pays_on(paying)]
    if not open_casinos:
        if paying == STRIP:
            text = msg("No casino on The Strip to pay.")
        else:
            text = msg("No casino of {colour} ({company}) to pay.", colour=colour_word(paying), company=COMPANY[paying])
        events.append(Event("no_casino", text, {"pays": paying}))
        return state
    for casino in open_casinos:
        for seat in casino.owners():
            amount = sum(v for _, o, v in casino.dice if o == seat)
            state = _note(pay(state, seat, amount), "casinos", (seat, casino.name, casino.colour, amount))
            text = msg(
                "{player} gets {amount} from the casino at {lot} ({colour}).",
                player=state.players[seat],
                amount=dollars(amount),
                lot=casino.name,
                colour=colour_word(casino.colour),
            )
            events.append(Event("casino_paid", text, {"player": seat, "casino": casino.name, "money": amount}))
    for seat in state.seats_from(state.current):
        mine = sorted((c for c in open_casinos if c.boss == seat), key=lambda c: (c.size, c.lots))
        for casino in mine:
            before = state.points[seat]
            after = advance(before, casino.size)
            points = tuple(after if i == seat else p for i, p in enumerate(state.points))
            state = evolve(state, points=points)
            state = _note(state, "points", (seat, casino.name, casino.colour, casino.size, before, after))
            lost = casino.size - (after - before)
            if lost:
                text = nmsg(
                    "{player} scores {n} point for the casino at {lot} ({colour}): "
                    "{before} to {after} ({lost} lost at a break).",
                    "{player} scores {n} points for the casino at {lot} ({colour}): "
                    "{before} to {after} ({lost} lost at a break).",
                    casino.size,
                    player=state.players[seat],
                    lot=casino.name,
                    colour=colour_word(casino.colour),
                    before=before,
                    after=after,
                    lost=lost,
                )
            else:
                text = nmsg(
                    "{player} scores {n} point for the casino at {lot} ({colour}): {before} to {after}.",
                    "{player} scores {n} points for the casino at {lot} ({colour}): {before} to {after}.",
                    casino.size,
                    player=state.players[seat],
                    lot=casino.name,
                    colour=colour_word(casino.colour),
                    before=before,
                    after=after,
                )
            data = {"player": seat, "casino": casino.name, "points": casino.size, "from": before, "to": after}
            events.append(Event("scored", text, data))
            if after >= WINNING_SPACE:
                text = msg(
                    "{player} reaches {points} points and wins at once!",
                    player=state.players[seat],
                    points=WINNING_SPACE,
                )
                events.append(Event("game_over", text, {"winners": [seat]}))
                return evolve(state, phase="over", winner=seat, todo=(), wait=None)
    return state


def after_draw(state: LordsState, card: str, events: list[Event]) -> LordsState:
    name = state.players[state.current]
    if card == END_OF_GAME:
        return evolve(state, phase="over")
    if blocked(state, LOT_INDEX[card]):
        events.append(
            Event(
                "draw_again",
                msg("{player} draws again (an F card with two players).", player=name),
                {"player": state.current},
            )
        )
        return evolve(state, phase="draw")
    return evolve(state, phase="play")
