"""Every input of Lords of Vegas, as the journal stores it (``{"type": name, ...fields}``).

Lots are named as printed (``"A2"``), colours as the tiles (``"gold"``), players by seat index.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.games.codec import ActionCodec
from companion.games.inputs import Die

codec: ActionCodec[Any] = ActionCodec()


@codec.register("card")
@dataclass(frozen=True)
class Card:
    """A property card from the deck: dealt at setup, or drawn at the start of a turn (``"END"``:
    End of Game)."""

    card: str


@codec.register("start")
@dataclass(frozen=True)
class StartPlayer:
    """The winner of the table's roll-off, who takes the first turn."""

    seat: int


@codec.register("build")
@dataclass(frozen=True)
class Build:
    """A tile of ``colour`` and a die at the printed value on a lot the player has marked."""

    lot: str
    colour: str


@codec.register("sprawl")
@dataclass(frozen=True)
class Sprawl:
    """A tile of a casino's ``colour`` on an empty, unowned lot next to it, for twice the lot's cost."""

    lot: str
    colour: str


@codec.register("remodel")
@dataclass(frozen=True)
class Remodel:
    """Every tile of the casino on ``lot`` changes to ``colour``; $5 a tile."""

    lot: str
    colour: str


@codec.register("reorganize")
@dataclass(frozen=True)
class Reorganize:
    """Reroll every die of the casino on ``lot``; $1 a pip."""

    lot: str


@codec.register("gamble")
@dataclass(frozen=True)
class Gamble:
    """Bet ``amount`` at the casino on ``lot`` against its boss (once a turn)."""

    lot: str
    amount: int


@codec.register("lay_off")
@dataclass(frozen=True)
class LayOffChoice:
    """Lay-off variant: the boss lays half the bet off to the bank (``accept``) or takes it all."""

    accept: bool


@codec.register("roll")
@dataclass(frozen=True)
class Roll:
    """Dice as they landed, each in its owner's colour (the gamble's two dice need no colour)."""

    dice: tuple[Die, ...]


@codec.register("arrange")
@dataclass(frozen=True)
class ArrangeDice:
    """Rerolled values put back on the player's tiles: ``values[i]`` goes on ``lots[i]``."""

    lots: tuple[str, ...]
    values: tuple[int, ...]


@codec.register("give_up_lot")
@dataclass(frozen=True)
class GiveUpLot:
    """All ten markers are out: the player takes one off ``lot``, which becomes unowned."""

    lot: str


@codec.register("move_die")
@dataclass(frozen=True)
class MoveDie:
    """All twelve dice are out: the player moves the die off ``lot`` (that tile stays, unowned)."""

    lot: str


@codec.register("end_turn")
@dataclass(frozen=True)
class EndTurn:
    """The player is done; the next player to the left draws."""


@codec.register("trade")
@dataclass(frozen=True)
class Trade:
    """What two players hand each other, all at once: money, marked lots, dice on tiles (named by
    their lot; a die keeps its value). Either side may be empty (a gift)."""

    a: int
    b: int
    money_a: int = 0  # from a to b
    money_b: int = 0  # from b to a
    lots_a: tuple[str, ...] = ()
    lots_b: tuple[str, ...] = ()
    dice_a: tuple[str, ...] = ()
    dice_b: tuple[str, ...] = ()


Action = (
    Card
    | StartPlayer
    | Build
    | Sprawl
    | Remodel
    | Reorganize
    | Gamble
    | LayOffChoice
    | Roll
    | ArrangeDice
    | GiveUpLot
    | MoveDie
    | EndTurn
    | Trade
)
