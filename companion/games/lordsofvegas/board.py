"""The printed board of Lords of Vegas: lots, blocks, The Strip, the property cards, the supply.

Everything is read once, at import, from ``seeds/lordsofvegas/board.json``; the geometry (which lots
touch, which touch The Strip) follows from each block's rows and the side The Strip runs along, so the
data file holds only what is printed. Lots are referred to by name (``"A2"``) in actions and JSON, and
by their index in :data:`LOTS` inside the engine.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from companion.assets import asset_dir
from companion.games.messages import Msg, msg
from companion.games.words import colour_word

BOARD_FILE = asset_dir("seeds") / "lordsofvegas" / "board.json"
STRIP = "strip"
"""What a Strip card pays, in place of a colour."""


@dataclass(frozen=True)
class Lot:
    index: int
    name: str
    block: str
    row: int
    col: int
    cost: int  # the build cost printed on the lot
    die: int  # the die value printed on the lot
    start: int  # money its card gives at setup
    card: str  # what its card pays: a tile colour or "strip"
    strip: bool  # an edge on The Strip
    neighbours: tuple[int, ...]  # orthogonal neighbours in the same block


def _load() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(BOARD_FILE.read_text(encoding="utf-8"))
    return data


def _lots(data: dict[str, Any]) -> tuple[Lot, ...]:
    columns: int = data["columns"]
    sides = {b["name"]: (b["rows"], b["strip_side"]) for b in data["blocks"]}
    places: dict[str, tuple[str, int, int]] = {}
    for entry in data["lots"]:
        name = entry["lot"]
        number = int(name[1:])
        places[name] = (name[0], (number - 1) // columns + 1, (number - 1) % columns + 1)
    index = {entry["lot"]: i for i, entry in enumerate(data["lots"])}
    where = {place: name for name, place in places.items()}
    lots = []
    for i, entry in enumerate(data["lots"]):
        name = entry["lot"]
        block, row, col = places[name]
        rows, side = sides[block]
        if not 1 <= row <= rows:
            raise ValueError(f"board.json: {name} lies outside block {block}")
        around = ((row - 1, col), (row, col - 1), (row, col + 1), (row + 1, col))
        neighbours = tuple(index[where[(block, r, c)]] for r, c in around if (block, r, c) in where)
        strip = col == (columns if side == "east" else 1)
        lots.append(
            Lot(i, name, block, row, col, entry["cost"], entry["die"], entry["start"], entry["card"], strip, neighbours)
        )
    return tuple(lots)


_DATA = _load()
LOTS: tuple[Lot, ...] = _lots(_DATA)
LOT_INDEX: dict[str, int] = {lot.name: lot.index for lot in LOTS}
COLOURS: tuple[str, ...] = tuple(c["colour"] for c in _DATA["companies"])
COMPANY: dict[str, str] = {c["colour"]: c["name"] for c in _DATA["companies"]}
TILES_PER_COLOUR: int = _DATA["tiles_per_colour"]
DICE_PER_PLAYER: int = _DATA["dice_per_player"]
MARKERS_PER_PLAYER: int = _DATA["markers_per_player"]
END_OF_GAME: str = _DATA["end_of_game_card"]
TRACK: tuple[int, ...] = tuple(_DATA["track"])
LOT_CARDS: tuple[str, ...] = tuple(lot.name for lot in LOTS)
"""The 48 cards that name a lot (45 of a colour, 3 that pay The Strip); End of Game names none."""
CARDS: tuple[str, ...] = (*LOT_CARDS, END_OF_GAME)
TWO_PLAYER_BLOCKED = "F"
"""The block out of play with two players."""


def lot_named(name: str) -> Lot:
    """The lot called ``name`` (``"A2"``); KeyError for a name not on the board."""
    return LOTS[LOT_INDEX[name.strip().upper()]]


def pays(card: str) -> str:
    """What a drawn card pays: a tile colour, or ``"strip"`` (the Strip cards and End of Game)."""
    return STRIP if card == END_OF_GAME else lot_named(card).card


def card_label(card: str) -> Msg:
    """``D8 (Sphinx, gold)``, ``A6 (The Strip)``, ``End of Game``."""
    if card == END_OF_GAME:
        return msg("End of Game")
    colour = pays(card)
    if colour == STRIP:
        return msg("{card} (The Strip)", card=card)
    return msg("{card} ({company}, {colour})", card=card, company=COMPANY[colour], colour=colour_word(colour))
