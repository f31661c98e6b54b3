"""The state of a Lords of Vegas game: the board, the players' money and points, the deck, and what
is left to do of the draw or action under way.

Frozen dataclasses of plain values. An action that needs more input half way (a boss tie to reroll,
a die to move when all twelve are out, a marker to give up, dice to put back after a reorganization,
the gamble's roll) leaves a ``wait`` (the input it needs now) and ``todo`` (the steps that follow, in
order), so the state always says exactly where the game stands.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from companion.games.evolve import evolve
from companion.games.lordsofvegas.board import DICE_PER_PLAYER, LOTS, TILES_PER_COLOUR

Phase = Literal["deal", "start", "draw", "play", "over"]
PALETTE: tuple[str, ...] = ("blue", "green", "red", "yellow")
"""The player colours in the box; the default by seat."""


@dataclass(frozen=True)
class Tile:
    """A casino tile on a lot, with the die in its hole (``owner`` None: no die, nobody owns it)."""

    colour: str
    owner: int | None = None
    value: int = 0
    rerolled: bool = False  # this die was reorganized this turn


@dataclass(frozen=True)
class Space:
    """One lot of the board: empty, marked by a player, or built on."""

    marker: int | None = None
    tile: Tile | None = None


EMPTY = Space()


# --- inputs awaited in the middle of a draw or an action ----------------------------------------
@dataclass(frozen=True)
class TieRoll:
    """Tied top dice of different players in one casino reroll (``lots``: where the tied dice sit)."""

    lots: tuple[int, ...]


@dataclass(frozen=True)
class ReorgRoll:
    """Every die of the casino being reorganized is rerolled."""

    seat: int  # who reorganizes
    lots: tuple[int, ...]


@dataclass(frozen=True)
class Arrange:
    """A player puts rerolled ``values`` back on their own ``lots``, in the order they choose."""

    seat: int
    lots: tuple[int, ...]
    values: tuple[int, ...]
    rerolled: bool  # the values come from a reorganization (marked), not from a boss tie


@dataclass(frozen=True)
class PlaceDie:
    """``seat`` puts a die showing ``value`` on the tile at ``lot`` (from the supply, or moved off
    another tile when all their dice are on the board)."""

    seat: int
    lot: int
    value: int


@dataclass(frozen=True)
class CheckMarkers:
    """``seat`` may hold at most ten marked lots; beyond that one not in ``keep`` is given up."""

    seat: int
    keep: tuple[int, ...]


@dataclass(frozen=True)
class LayOff:
    """The lay-off variant: the boss of the casino decides whether half the bet goes to the bank."""

    boss: int
    lot: int
    amount: int


@dataclass(frozen=True)
class GambleRoll:
    gambler: int
    boss: int
    lot: int
    amount: int
    laid_off: bool


# --- steps that follow without input -------------------------------------------------------------
@dataclass(frozen=True)
class SettleTies:
    """Look for a casino whose top dice belong to different players; reroll them until none is left."""


@dataclass(frozen=True)
class Payout:
    """The drawn card pays: every marked lot $1, then the casinos it names money, then points."""

    card: str


@dataclass(frozen=True)
class AfterDraw:
    """The draw is resolved: play, draw again (an F card with two players), or the game is over."""

    card: str


@dataclass(frozen=True)
class Paid:
    """What one draw paid, kept until the next draw: the tablet shows it as a card the table dismisses.
    ``done`` is set once the payout is over (boss ties of the draw are rerolled before it)."""

    number: int  # the draw in play, counting from 1
    card: str
    drawer: int
    lots: tuple[tuple[int, int], ...] = ()  # (seat, money) for marked lots
    casinos: tuple[tuple[int, str, str, int], ...] = ()  # (seat, casino, colour, money)
    points: tuple[tuple[int, str, str, int, int, int], ...] = ()  # (seat, casino, colour, points, from, to)
    ties: tuple[tuple[str, str, tuple[int, ...]], ...] = ()  # boss ties rerolled first: (casino, colour, seats)
    bosses: tuple[int | None, ...] = ()  # who came out boss of each tied casino, set with ``done``
    done: bool = False


Wait = TieRoll | ReorgRoll | Arrange | PlaceDie | CheckMarkers | LayOff | GambleRoll
Step = Wait | SettleTies | Payout | AfterDraw


@dataclass(frozen=True)
class LordsState:
    players: tuple[str, ...]
    colours: tuple[str, ...]  # each player's dice and marker colour
    lay_off: bool  # the gamble lay-off variant
    virtual_deck: bool  # the companion draws the cards
    phase: Phase
    current: int  # whose turn (during the deal: who gets the next card)
    board: tuple[Space, ...]  # one per lot, in board order
    money: tuple[int, ...]
    points: tuple[int, ...]  # a space of the scoring track
    deck: tuple[str, ...]  # cards not yet seen, in board order (End of Game last once play starts)
    dealt: tuple[int, ...] = ()  # cards dealt so far per player at setup
    gambled: bool = False  # the current player has gambled this turn
    wait: Wait | None = None
    todo: tuple[Step, ...] = ()
    last_card: str | None = None
    drawn: tuple[str, ...] = ()  # cards drawn in play, in order (the discard piles)
    winner: int | None = None  # who reached the last space of the track
    issued: int = 0  # money the bank has paid out, less what it took back (always the players' total)
    paid: Paid | None = None  # the latest draw's payout

    @property
    def n(self) -> int:
        return len(self.players)

    def dice_out(self, seat: int) -> int:
        """Dice of ``seat`` on the board."""
        return sum(1 for s in self.board if s.tile is not None and s.tile.owner == seat)

    def dice_in_hand(self, seat: int) -> int:
        return DICE_PER_PLAYER - self.dice_out(seat)

    def marked(self, seat: int) -> tuple[int, ...]:
        """Lots marked by ``seat``, in board order."""
        return tuple(i for i, s in enumerate(self.board) if s.marker == seat)

    def dice_lots(self, seat: int) -> tuple[int, ...]:
        """Lots whose tile holds a die of ``seat``, in board order."""
        return tuple(i for i, s in enumerate(self.board) if s.tile is not None and s.tile.owner == seat)

    def tiles_left(self, colour: str) -> int:
        """Tiles of ``colour`` still in the supply."""
        used = sum(1 for s in self.board if s.tile is not None and s.tile.colour == colour)
        return TILES_PER_COLOUR - used

    def idle(self) -> bool:
        """Nothing is under way: no input pending, no step left (trades are open)."""
        return self.wait is None and not self.todo

    def seats_from(self, seat: int) -> tuple[int, ...]:
        """Every seat in turn order starting with ``seat``."""
        return tuple((seat + k) % self.n for k in range(self.n))


def with_space(state: LordsState, lot: int, space: Space) -> LordsState:
    board = list(state.board)
    board[lot] = space
    return evolve(state, board=tuple(board))


def with_tile(state: LordsState, lot: int, tile: Tile | None) -> LordsState:
    return with_space(state, lot, evolve(state.board[lot], tile=tile))


def add(values: tuple[int, ...], seat: int, delta: int) -> tuple[int, ...]:
    return tuple(v + delta if i == seat else v for i, v in enumerate(values))


def pay(state: LordsState, seat: int, delta: int) -> LordsState:
    """Money from the bank to ``seat`` (negative: to the bank)."""
    return evolve(state, money=add(state.money, seat, delta), issued=state.issued + delta)


def transfer(state: LordsState, giver: int, receiver: int, amount: int) -> LordsState:
    """Money from one player to another."""
    return evolve(state, money=add(add(state.money, giver, -amount), receiver, amount))


def push(state: LordsState, *steps: Step) -> LordsState:
    """Do ``steps`` next, before whatever was left to do."""
    return evolve(state, todo=(*steps, *state.todo))


def empty_board() -> tuple[Space, ...]:
    return (EMPTY,) * len(LOTS)
