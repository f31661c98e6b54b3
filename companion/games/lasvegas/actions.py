"""The inputs of Las Vegas, as the journal stores them (``{"type": name, ...fields}``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.games.codec import ActionCodec
from companion.games.inputs import Die

codec: ActionCodec[Any] = ActionCodec()


@codec.register("note")
@dataclass(frozen=True)
class DrawNote:
    """A banknote drawn from the deck to stock the next casino that holds less than 50,000."""

    value: int


@codec.register("roll")
@dataclass(frozen=True)
class Roll:
    """The dice as they landed: the player's own colour and white (or the spare white dice)."""

    dice: tuple[Die, ...]


@codec.register("place")
@dataclass(frozen=True)
class Place:
    """Put every die of ``face`` from the roll, own and white, on casino ``face``."""

    face: int


Action = DrawNote | Roll | Place
