"""The scoring track: spaces with breaks, so points buy less the further a player is.

Each payment moves the marker space by space while the points left still cover the gap to the next
space; whatever is left over is lost. Every casino's points are a payment of their own.
"""

from __future__ import annotations

from companion.games.lordsofvegas.board import TRACK

WINNING_SPACE = TRACK[-1]
_POSITION = {space: i for i, space in enumerate(TRACK)}


def advance(space: int, points: int) -> int:
    """The space reached from ``space`` by a payment of ``points``."""
    i = _POSITION[space]
    left = points
    while i + 1 < len(TRACK) and left >= TRACK[i + 1] - TRACK[i]:
        left -= TRACK[i + 1] - TRACK[i]
        i += 1
    return TRACK[i]


def is_space(value: int) -> bool:
    return value in _POSITION
