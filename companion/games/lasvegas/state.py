"""The state of a Las Vegas game: what lies on the table, in the players' hands and in the deck.

Frozen dataclasses of plain values, so a state is hashable, comparable and turns into JSON as is.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from companion.games.inputs import Die, Face
from companion.games.lasvegas.banknotes import STOCK_MINIMUM
from companion.games.lasvegas.payout import CasinoPayout

CASINOS = 6
FACES: tuple[Face, ...] = (1, 2, 3, 4, 5, 6)
OWN_DICE = 8
ROUNDS = 4
NEUTRAL = "white"
SPARE_WHITES = 2
PALETTE: tuple[str, ...] = ("red", "blue", "green", "yellow", "black")
"""Default dice colours by seat. The rulebook names none; white is kept for the neutral dice."""
Phase = Literal["stock", "spare", "roll", "place", "over"]


def whites_per_player(players: int) -> int:
    """White dice each player gets in the neutral dice variant: 4 with two players, 2 with three or four."""
    return 4 if players == 2 else 2


@dataclass(frozen=True)
class Casino:
    number: int
    notes: tuple[int, ...] = ()  # highest first
    dice: tuple[int, ...] = ()  # per seat
    white: int = 0

    @property
    def total(self) -> int:
        return sum(self.notes)


@dataclass(frozen=True)
class Placement:
    """The latest dice put down: whose, on which casino, how many own and how many white."""

    seat: int
    face: int
    own: int
    white: int


@dataclass(frozen=True)
class LasVegasState:
    players: tuple[str, ...]
    colours: tuple[str, ...]
    neutral_dice: bool
    virtual_deck: bool
    money_open: bool
    round: int
    start: int  # seat holding the start card this round
    current: int  # seat whose input is awaited
    phase: Phase
    deck: tuple[int, ...]  # notes still in the draw pile, highest first (order unknown to the engine)
    under: tuple[int, ...]  # notes put under the deck, highest first
    casinos: tuple[Casino, ...]
    own_left: tuple[int, ...]  # own dice each player still holds this round
    white_left: tuple[int, ...]  # white dice each player still holds this round
    won: tuple[tuple[int, ...], ...]  # notes each player has taken, highest first
    roll: tuple[Die, ...] = ()  # the roll waiting to be placed
    last_placement: Placement | None = None
    payouts: tuple[CasinoPayout, ...] = ()  # the latest round's payout, casino 1 to 6
    paid_round: int = 0  # the round ``payouts`` belongs to (0: none yet)

    def money(self, seat: int) -> int:
        return sum(self.won[seat])

    def dice_left(self, seat: int) -> int:
        return self.own_left[seat] + self.white_left[seat]

    def casino_to_stock(self) -> int | None:
        """The first casino, in order 1 to 6, holding less than 50,000 (None: all stocked)."""
        for c in self.casinos:
            if c.total < STOCK_MINIMUM:
                return c.number
        return None

    def placements(self) -> list[Placement]:
        """The ways to place the current roll, one per face shown, in face order."""
        if self.phase != "place":
            return []
        out = []
        for face in FACES:
            own = sum(1 for d in self.roll if d.face == face and d.colour != NEUTRAL)
            white = sum(1 for d in self.roll if d.face == face and d.colour == NEUTRAL)
            if own or white:
                out.append(Placement(self.current, int(face), own, white))
        return out
