"""The state of a Heckmeck game, and the dice and tiles it is played with: what lies on the grill, in
the players' stacks and beside the tray this turn.

Frozen dataclasses of plain values, so a state is hashable, comparable and turns into JSON as is.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from companion.games.inputs import Face

WORM = "worm"
FACES: tuple[Face, ...] = (1, 2, 3, 4, 5, WORM)
DICE = 8
TILES: tuple[int, ...] = tuple(range(21, 37))
Phase = Literal["roll", "take", "decide", "claim", "over"]


POINTS: dict[Face, int] = {1: 1, 2: 2, 3: 3, 4: 4, 5: 5, WORM: 5}  # a worm counts five
ORDER: dict[Face, int] = {f: i for i, f in enumerate(FACES)}  # how dice are listed: 1-5, then worms


def worms_on(tile: int) -> int:
    """Worms printed on a tile: 21-24 one, 25-28 two, 29-32 three, 33-36 four."""
    return (tile - 17) // 4


def face_points(face: Face) -> int:
    return 5 if face == WORM else int(face)


def face_name(face: Face) -> str:
    """A face as the record writes it (``"worm"`` or the number); :func:`face_word` is how it is said."""
    return "worm" if face == WORM else str(face)


@dataclass(frozen=True)
class HeckmeckState:
    players: tuple[str, ...]
    short_variant: bool
    grill: tuple[int, ...]  # face-up tiles still on the grill, ascending
    face_down: tuple[int, ...]  # tiles turned over, out of the game
    stacks: tuple[tuple[int, ...], ...]  # per player, bottom first; the last one is on top
    current: int
    phase: Phase
    roll: tuple[Face, ...] = ()  # the faces of the latest roll, while a face must be taken
    kept: tuple[Face, ...] = ()  # dice set aside this turn, in the order taken
    turn: int = 1

    @property
    def kept_total(self) -> int:
        return sum(POINTS[f] for f in self.kept)

    @property
    def dice_left(self) -> int:
        return DICE - len(self.kept)
