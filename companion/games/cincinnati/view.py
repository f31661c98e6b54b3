"""The scoreboard of Cincinnati as JSON for the tablet.

While the players are choosing, it says *who* has chosen but never *which* table: the choices appear
only once the last player has chosen (the reveal).
"""

from __future__ import annotations

from companion.games.base import Outcome
from companion.games.cincinnati.cards import CHIP_VALUE, CHIPS_IN_GAME, KINDS, label
from companion.games.cincinnati.hands import TABLE_NAMES, describe_for, hand, meets
from companion.games.cincinnati.state import REGULAR_THROWS, ROUNDS, CincinnatiState, Clearing, Duel, Player
from companion.games.inputs import JSON
from companion.games.messages import Msg


def scoreboard(state: CincinnatiState, prompt: Msg, outcome: Outcome | None) -> JSON:
    secret = state.phase in ("cards", "choose")
    return {
        "game": "cincinnati",
        "round": state.round,
        "rounds": ROUNDS,
        "phase": state.phase,
        "prompt": prompt.to_json(),
        "virtual_deck": state.virtual_deck,
        "throw": _throw_json(state),
        "tables": [_table_json(state, t, secret) for t in state.tables],
        "players": [_player_json(state, s, secret) for s in state.seats],
        "supply": state.supply,
        "chips_in_game": CHIPS_IN_GAME,
        "deck": {
            "unseen": len(state.unseen),
            "to_reveal": state.cards_to_reveal,
            "set_aside": len(state.unseen) - state.cards_to_reveal,
            "kinds": [{"card": k, "label": label(k).to_json(), "count": state.unseen.count(k)} for k in KINDS],
        },
        "discard": len(state.discard),
        "cleared": [_clearing_json(c) for c in state.cleared],
        "cleared_round": state.cleared[0].round if state.cleared else None,
        "duel": None if state.duel is None else _duel_json(state, state.duel),
        "duel_queue": list(state.duel_queue),
        "outcome": None if outcome is None else outcome.to_json(),
    }


def _throw_json(state: CincinnatiState) -> JSON:
    if state.phase not in ("throw", "buy"):
        return None
    return {
        "number": state.throw,
        "of": REGULAR_THROWS,
        "chip": state.throw > REGULAR_THROWS or state.phase == "buy",
        "pending": list(state.pending),
        "passes_open": state.passes_open,
        "buyers": list(state.buyers),
    }


def _table_json(state: CincinnatiState, table: str, secret: bool) -> JSON:
    cards = state.table_cards(table)
    players = None if secret else [s for s in state.seats if state.players[s].table == table]
    return {
        "table": table,
        "name": TABLE_NAMES[table],
        "cards": list(cards),
        "labels": [label(c).to_json() for c in cards],
        "money": sum(c for c in cards if isinstance(c, int)),
        "players": players,
    }


def _player_json(state: CincinnatiState, seat: int, secret: bool) -> JSON:
    p: Player = state.players[seat]
    table = None if secret else p.table
    dice = list(p.dice)
    return {
        "name": p.name,
        "money": p.cash,
        "cards": list(p.money),
        "chips": p.chips,
        "score": p.score,
        "chip_value": CHIP_VALUE * p.chips,
        "duel_cards": p.duel_cards,
        "chosen": p.table is not None,
        "table": table,
        "dice": dice,
        "hand": hand(p.dice).describe().to_json() if p.dice else None,
        "pips": sum(p.dice) if p.dice else None,
        "meets": meets(table, p.dice) if table and p.dice else None,
        "result": describe_for(table, p.dice).to_json() if table and p.dice else None,
        "to_throw": seat in state.pending,
    }


def _clearing_json(c: Clearing) -> JSON:
    return {
        "table": c.table,
        "players": list(c.players),
        "winner": c.winner,
        "cards": list(c.cards),
        "text": c.text.to_json(),
    }


def _duel_json(state: CincinnatiState, duel: Duel) -> JSON:
    return {
        "reason": duel.reason,
        "table": duel.table,
        "holder": duel.holder,
        "order": list(duel.order),
        "current": duel.current,
        "throw": duel.throw_number,
        "chip_throws": duel.asked is not None,
        "dice": [list(d) for d in duel.dice],
        "hands": [hand(d).describe().to_json() if d else None for d in duel.dice],
    }
