"""The inputs of Cincinnati, as the journal stores them (``{"type": name, ...fields}``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from companion.games.codec import ActionCodec
from companion.games.inputs import Die

codec: ActionCodec[Any] = ActionCodec()


@codec.register("card")
@dataclass(frozen=True)
class RevealCard:
    """The card turned up for the next table (A, then B, then C): 15000-35000, ``"duel"`` or ``"chips"``."""

    card: int | str


@codec.register("choose")
@dataclass(frozen=True)
class ChooseTable:
    """A player's secret choice of table for this round."""

    player: int
    table: Literal["A", "B", "C"]


@codec.register("roll")
@dataclass(frozen=True)
class Throw:
    """A player's five dice after a throw: the dice left standing and the new ones together.

    ``player`` may be left out when one player is awaited, or to mean the first player awaited (the
    camera reads trays in the order the prompt gives). ``kept``, if given, lists the faces the player
    left standing; they must be among the player's dice before and after the throw.
    """

    dice: tuple[Die, ...]
    player: int | None = None
    kept: tuple[int, ...] | None = None


@codec.register("pass")
@dataclass(frozen=True)
class Pass:
    """A player leaves all five dice standing and gives up this throw (it is not made up later)."""

    player: int | None = None


@codec.register("buy")
@dataclass(frozen=True)
class BuyThrow:
    """After the three throws of phase 2: a player pays a chip to the supply for one more throw."""

    player: int


@codec.register("no_more")
@dataclass(frozen=True)
class NoMore:
    """Phase 2: nobody else pays for a throw this time. In a duel: the duellist asked stops buying throws."""


@codec.register("challenge")
@dataclass(frozen=True)
class Challenge:
    """The holder of a duel card names the opponent of the duel."""

    opponent: int


Action = RevealCard | ChooseTable | Throw | Pass | BuyThrow | NoMore | Challenge
