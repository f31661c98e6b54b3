"""The scoreboard of Las Vegas as JSON for the tablet: casinos, dice, roll, deck, money, payout."""

from __future__ import annotations

from companion.games.base import Outcome
from companion.games.inputs import JSON
from companion.games.lasvegas.banknotes import counted
from companion.games.lasvegas.payout import WHITE, CasinoPayout, describe
from companion.games.lasvegas.state import NEUTRAL, ROUNDS, Casino, LasVegasState, Placement
from companion.games.messages import Msg, msg


def scoreboard(state: LasVegasState, prompt: Msg, outcome: Outcome | None) -> JSON:
    """Everything the table tracks. Each player's money is included; ``money_hidden`` tells the page
    to show it only to a player who asks to peek, until the end or with the open-money option."""
    return {
        "game": "lasvegas",
        "round": state.round,
        "rounds": ROUNDS,
        "phase": state.phase,
        "start_player": state.start,
        "current": state.current,
        "prompt": prompt.to_json(),
        "neutral_dice": state.neutral_dice,
        "virtual_deck": state.virtual_deck,
        "money_hidden": not state.money_open and state.phase != "over",
        "players": [_player_json(state, i) for i in range(len(state.players))],
        "casinos": [_casino_json(state, c) for c in state.casinos],
        "stocking": state.casino_to_stock() if state.phase == "stock" else None,
        "roll": _roll_json(state),
        "last_placement": _placement_json(state.last_placement, state),
        "deck": {"count": len(state.deck), "total": sum(state.deck), "notes": _counts_json(state.deck)},
        "under": {"count": len(state.under), "total": sum(state.under)},
        "payout": {
            "round": state.paid_round,
            "lines": [describe(p, state.players).to_json() for p in state.payouts],
            "casinos": [payout_json(p, state) for p in state.payouts],
        }
        if state.payouts
        else None,
        "outcome": None if outcome is None else outcome.to_json(),
    }


def without_money(board: JSON) -> JSON:
    """The scoreboard with each player's banknotes taken out while money stays face down (their
    count stays: a pile's height is seen across the table)."""
    assert isinstance(board, dict)
    if not board.get("money_hidden"):
        return board
    players = [{k: v for k, v in p.items() if k not in ("money", "notes")} for p in board["players"]]
    return {**board, "players": players}


def own_money(state: LasVegasState, seat: int) -> JSON:
    """What one seat's phone shows of its own banknotes."""
    if not 0 <= seat < len(state.players):
        return None
    return {"money": state.money(seat), "notes": list(state.won[seat]), "hidden": not state.money_open}


def _player_json(state: LasVegasState, seat: int) -> JSON:
    return {
        "name": state.players[seat],
        "colour": state.colours[seat],
        "dice_left": state.own_left[seat],
        "white_left": state.white_left[seat],
        "money": state.money(seat),
        "notes": list(state.won[seat]),
        "note_count": len(state.won[seat]),
        "start_player": seat == state.start,
        "to_play": state.phase in ("roll", "place", "spare") and seat == state.current,
    }


def _casino_json(state: LasVegasState, casino: Casino) -> JSON:
    counts = [(k, i) for i, k in enumerate(casino.dice) if k]
    if casino.white:
        counts.append((casino.white, WHITE))
    counts.sort(key=lambda c: -c[0])
    dice = [{**_owner_json(seat, state), "count": k} for k, seat in counts]
    return {"number": casino.number, "notes": list(casino.notes), "total": casino.total, "dice": dice}


def _roll_json(state: LasVegasState) -> JSON:
    if state.phase != "place":
        return None
    return {
        "player": state.current,
        "dice": [d.to_json() for d in state.roll],
        "by_face": [{"face": p.face, "own": p.own, "white": p.white} for p in state.placements()],
    }


def _counts_json(notes: tuple[int, ...]) -> JSON:
    return [{"value": v, "count": k} for v, k in counted(notes).items()]


def _placement_json(p: Placement | None, state: LasVegasState) -> JSON:
    if p is None:
        return None
    return {"player": p.seat, "name": state.players[p.seat], "casino": p.face, "own": p.own, "white": p.white}


def _owner_json(seat: int, state: LasVegasState) -> dict[str, JSON]:
    if seat == WHITE:
        return {"seat": WHITE, "name": msg("white dice").to_json(), "colour": NEUTRAL}
    return {"seat": seat, "name": state.players[seat], "colour": state.colours[seat]}


def payout_json(p: CasinoPayout, state: LasVegasState) -> JSON:
    def who(seat: int) -> dict[str, JSON]:
        return _owner_json(seat, state)

    return {
        "casino": p.casino,
        "notes": list(p.notes),
        "paid": [{**who(s.seat), "dice": s.dice, "note": s.note} for s in p.ranked],
        "ties": [{"dice": t.dice, "players": [who(s) for s in t.seats]} for t in p.ties],
        "under": list(p.under),
        "text": describe(p, state.players).to_json(),
    }
