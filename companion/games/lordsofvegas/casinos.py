"""Casinos on the board: groups of same-coloured tiles joined edge to edge inside one block.

A casino is found again from the tiles each time it is needed (it is a fact of the board, never
stored), so merges by building, sprawling or remodelling need no bookkeeping.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache

from companion.games.lordsofvegas.board import LOTS, STRIP
from companion.games.lordsofvegas.state import Space, Tile


@dataclass(frozen=True)
class Casino:
    colour: str
    lots: tuple[int, ...]  # in board order; the first names the casino
    dice: tuple[tuple[int, int, int], ...]  # (lot, owner, value) of every tile holding a die
    strip: bool  # an edge on The Strip

    @property
    def size(self) -> int:
        return len(self.lots)

    @property
    def name(self) -> str:
        return LOTS[self.lots[0]].name

    # Cached: a casino is immutable, and boss and tie checks run after every change of the board.
    @cached_property
    def top(self) -> int:
        return max((v for _, _, v in self.dice), default=0)

    @cached_property
    def boss(self) -> int | None:
        """The owner of the single largest die (None: no dice, or the top is tied between players)."""
        top = self.top
        owners = {o for _, o, v in self.dice if v == top}
        return owners.pop() if len(owners) == 1 else None

    @cached_property
    def tied(self) -> tuple[int, ...]:
        """Lots of the top dice when they belong to two or more players (else empty)."""
        top = self.top
        at_top = [(lot, o) for lot, o, v in self.dice if v == top]
        return tuple(lot for lot, _ in at_top) if len({o for _, o in at_top}) > 1 else ()

    def pips(self) -> int:
        return sum(v for _, _, v in self.dice)

    def owners(self) -> tuple[int, ...]:
        """Players with a die here, by seat."""
        return tuple(sorted({o for _, o, _ in self.dice}))

    def pays_on(self, paying: str) -> bool:
        return self.strip if paying == STRIP else self.colour == paying


@lru_cache(maxsize=4096)
def casinos(board: tuple[Space, ...]) -> tuple[Casino, ...]:
    """Every casino on ``board``, ordered by its first lot."""
    seen: set[int] = set()
    found = []
    for start, space in enumerate(board):
        if space.tile is None or start in seen:
            continue
        colour = space.tile.colour
        group, frontier = {start}, [start]
        while frontier:
            lot = frontier.pop()
            for nb in LOTS[lot].neighbours:
                tile = board[nb].tile
                if nb not in group and tile is not None and tile.colour == colour:
                    group.add(nb)
                    frontier.append(nb)
        seen |= group
        lots = tuple(sorted(group))
        dice = tuple((lot, t.owner, t.value) for lot in lots if (t := _tile(board, lot)).owner is not None)
        found.append(Casino(colour, lots, dice, any(LOTS[lot].strip for lot in lots)))
    return tuple(found)


def casino_at(board: tuple[Space, ...], lot: int) -> Casino | None:
    """The casino with a tile on ``lot``, if any."""
    for casino in casinos(board):
        if lot in casino.lots:
            return casino
    return None


def first_tie(board: tuple[Space, ...]) -> Casino | None:
    """The first casino, in board order, whose top dice belong to different players."""
    return next((c for c in casinos(board) if c.tied), None)


def _tile(board: tuple[Space, ...], lot: int) -> Tile:
    tile = board[lot].tile
    assert tile is not None
    return tile
