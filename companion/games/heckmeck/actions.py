"""The inputs of Heckmeck, as the journal stores them (``{"type": name, ...fields}``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.games.codec import ActionCodec
from companion.games.inputs import Die

codec: ActionCodec[Any] = ActionCodec()


@codec.register("roll")
@dataclass(frozen=True)
class Roll:
    """The faces showing after the player threw the dice that are not yet kept."""

    dice: tuple[Die, ...]


@codec.register("take")
@dataclass(frozen=True)
class Take:
    """Keep every die of one face from the current roll."""

    face: int | str


@codec.register("claim")
@dataclass(frozen=True)
class Claim:
    """End the turn taking ``tile``: from the grill, or from ``victim``'s stack when stealing."""

    tile: int
    victim: int | None = None


@codec.register("stop")
@dataclass(frozen=True)
class Stop:
    """End the turn without a claim: a failed turn (only legal when nothing can be claimed)."""


Action = Roll | Take | Claim | Stop
