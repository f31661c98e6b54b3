"""The scoreboard of Lords of Vegas as JSON for the tablet: players, board, casinos, deck, what is awaited."""

from __future__ import annotations

from collections import Counter

from companion.games.base import Outcome
from companion.games.inputs import JSON
from companion.games.lordsofvegas.board import (
    COLOURS,
    COMPANY,
    END_OF_GAME,
    LOTS,
    MARKERS_PER_PLAYER,
    STRIP,
    card_label,
    pays,
)
from companion.games.lordsofvegas.casinos import Casino, casinos
from companion.games.lordsofvegas.draw import SETUP_CARDS, blocked
from companion.games.lordsofvegas.state import GambleRoll, LayOff, LordsState, Space
from companion.games.lordsofvegas.words import and_list, dollars
from companion.games.messages import Msg, msg, nmsg
from companion.games.words import colour_word


def scoreboard(state: LordsState, prompt: Msg, outcome: Outcome | None) -> JSON:
    found = casinos(state.board)
    return {
        "game": "lordsofvegas",
        "phase": state.phase,
        "current": state.current,
        "prompt": prompt.to_json(),
        "lay_off": state.lay_off,
        "players": [_player(state, seat, found) for seat in range(state.n)],
        "lots": [_lot(state, i, s) for i, s in enumerate(state.board)],
        "casinos": [
            {
                "name": c.name,
                "colour": c.colour,
                "company": COMPANY[c.colour],
                "lots": [LOTS[i].name for i in c.lots],
                "size": c.size,
                "boss": c.boss,
                "strip": c.strip,
                "dice": [{"lot": LOTS[lot].name, "player": o, "value": v} for lot, o, v in c.dice],
            }
            for c in found
        ],
        "supply": {colour: state.tiles_left(colour) for colour in COLOURS},
        "deck": {
            "count": len(state.deck),
            "end_of_game_in": END_OF_GAME in state.deck,
            "end_of_game_can_come": _end_can_come(state),
        },
        "drawn": _drawn(state),
        "last_card": None
        if state.last_card is None
        else {"card": state.last_card, "label": card_label(state.last_card).to_json()},
        "bet": _bet(state),
        "paid": _paid(state),
        "outcome": None if outcome is None else outcome.to_json(),
    }


def _player(state: LordsState, seat: int, found: tuple[Casino, ...]) -> JSON:
    bossed = [c for c in found if c.boss == seat]
    return {
        "name": state.players[seat],
        "colour": state.colours[seat],
        "money": state.money[seat],
        "points": state.points[seat],
        "dice_on_board": state.dice_out(seat),
        "markers_on_board": len(state.marked(seat)),
        "markers_left": MARKERS_PER_PLAYER - len(state.marked(seat)),
        "boss_of": [c.name for c in bossed],
        "to_play": state.phase in ("draw", "play") and seat == state.current,
        "gambled": state.gambled and seat == state.current,
    }


def _lot(state: LordsState, i: int, space: Space) -> JSON:
    lot = LOTS[i]
    tile = space.tile
    return {
        "lot": lot.name,
        "cost": lot.cost,
        "die": lot.die,
        "strip": lot.strip,
        "card_drawn": lot.name not in state.deck,
        "out_of_play": blocked(state, i),
        "marker": space.marker,
        "tile": None
        if tile is None
        else {"colour": tile.colour, "player": tile.owner, "value": tile.value or None, "rerolled": tile.rerolled},
    }


def _end_can_come(state: LordsState) -> bool:
    """Whether End of Game can be the next card: it lies on top of the last quarter of the cards left
    after the deal, a quarter cut by eye, so from a third of them left on (the page offers it then)."""
    if END_OF_GAME not in state.deck or state.phase == "deal":
        return False
    lots_left = len(state.deck) - 1
    return 3 * lots_left <= len(LOTS) - SETUP_CARDS * state.n


def _drawn(state: LordsState) -> JSON:
    """Cards seen so far (dealt or drawn) by what they pay: the discard piles players count."""
    seen = [c for c in (*(lot.name for lot in LOTS), END_OF_GAME) if c not in state.deck]
    if state.phase == "deal":
        seen = [c for c in seen if c != END_OF_GAME]
    counts = Counter(pays(c) for c in seen)  # End of Game counts with the Strip cards
    return {colour: counts.get(colour, 0) for colour in (*COLOURS, STRIP)}


def _bet(state: LordsState) -> JSON:
    wait = state.wait
    if isinstance(wait, LayOff):
        return {
            "gambler": state.current,
            "boss": wait.boss,
            "casino": LOTS[wait.lot].name,
            "amount": wait.amount,
            "laid_off": None,
        }
    if isinstance(wait, GambleRoll):
        return {
            "gambler": wait.gambler,
            "boss": wait.boss,
            "casino": LOTS[wait.lot].name,
            "amount": wait.amount,
            "laid_off": wait.laid_off,
        }
    return None


def _paid(state: LordsState) -> JSON:
    """The latest draw's payout for the table's summary card: who got what, and boss ties rerolled first."""
    paid = state.paid
    if paid is None or not paid.done:
        return None
    players = []
    for seat in state.seats_from(paid.drawer):
        lines: list[Msg] = []
        money = points = 0
        for who, n in paid.lots:
            if who == seat:
                money += n
                lines.append(nmsg("{n} marked lot: {amount}", "{n} marked lots: {amount}", n, amount=dollars(n)))
        for who, casino, colour, amount in paid.casinos:
            if who == seat:
                money += amount
                hue, amount_msg = colour_word(colour), dollars(amount)
                lines.append(msg("casino at {lot} ({colour}): {amount}", lot=casino, colour=hue, amount=amount_msg))
        for who, casino, colour, size, before, after in paid.points:
            if who == seat:
                points += after - before
                lines.append(
                    nmsg(
                        "boss of the casino at {lot} ({colour}), {n} tile: track {before} to {after}",
                        "boss of the casino at {lot} ({colour}), {n} tiles: track {before} to {after}",
                        size,
                        lot=casino,
                        colour=colour_word(colour),
                        before=before,
                        after=after,
                    )
                )
        if lines:
            players.append({"seat": seat, "money": money, "points": points, "lines": [m.to_json() for m in lines]})
    ties = []
    for (casino, colour, seats), boss in zip(paid.ties, paid.bosses, strict=True):
        text = msg(
            "Boss tie at {lot} ({colour}) between {players}: rerolled, {boss} is the boss.",
            lot=casino,
            colour=colour_word(colour),
            players=and_list([state.players[s] for s in seats]),
            boss=msg("nobody") if boss is None else state.players[boss],
        )
        ties.append({"casino": casino, "players": list(seats), "boss": boss, "text": text.to_json()})
    paying = pays(paid.card)
    title = msg("{player} drew {card}.", player=state.players[paid.drawer], card=card_label(paid.card))
    return {
        "number": paid.number,
        "card": paid.card,
        "drawer": paid.drawer,
        "title": title.to_json(),
        "players": players,
        "ties": ties,
        "casinos_paid": bool(paid.casinos),
        "no_casino": None
        if paid.casinos
        else (
            msg("No casino on The Strip to pay.")
            if paying == STRIP
            else msg("No casino of {colour} ({company}) to pay.", colour=colour_word(paying), company=COMPANY[paying])
        ).to_json(),
    }
