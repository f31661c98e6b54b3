"""Training frames for the table's own detector: its confirmed dice cut out and laid on its own tray.

A fixed camera sees the same dice on the same felt under the same lamp all evening, so the few rolls
the table confirmed can be multiplied: every confirmed die is cut out (its box and a little felt
around it, the edge feathered) and pasted, turned a little, scaled a little and lit a little
differently, onto the empty tray (or, without one, onto the free places of a confirmed roll's own
photo, whose dice stay labelled), in many arrangements, sometimes touching. A pasted die's label is
where it was pasted; it never lies outside the tray, which is taken as the part of the frame where
the confirmed dice lay. ``teach_detector.py`` refits the detector's last layers on these frames.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.evaluate import LabelledDie

CUT_MARGIN = 1.3  # a cut is this many die sides wide: the die and a ring of its own felt
FEATHER = 0.12  # the mask's edge fades over this share of the die's side
SCALE = (0.9, 1.1)  # a pasted die's size against the confirmed one
TURN = 25.0  # degrees either way a pasted die is turned
DIE_GAIN = (0.85, 1.15)  # one die's brightness
FRAME_GAIN = (0.75, 1.25)  # the whole frame's brightness (the lamp)
TOUCH = 0.3  # the chance a die is laid against one already pasted
MAX_DICE = 12
MIRRORS = (None, 0, 1, -1)  # cv2.flip codes a composite is drawn with
TRIES = 40  # places tried for one die before it is left out


@dataclass(frozen=True)
class Roll:
    """A confirmed roll: the camera's frame and its dice (face, centre, side), and the empty tray of
    the same camera when the table captured one (None: paste on the roll's free places)."""

    frame: np.ndarray
    dice: list[LabelledDie]
    empty: np.ndarray | None = None


@dataclass(frozen=True)
class Cut:
    image: np.ndarray  # n x n x 3 uint8, the die in the middle
    mask: np.ndarray  # n x n float32, 1 on the die, fading to 0 past its edge
    side: float  # the die's side in px
    value: int | str


def cut_dice(rolls: Sequence[Roll]) -> list[Cut]:
    """Every confirmed die wholly inside its frame (with its margin), cut out with a feathered mask."""
    cuts: list[Cut] = []
    for roll in rolls:
        h, w = roll.frame.shape[:2]
        for die in roll.dice:
            n = int(math.ceil(die.size * CUT_MARGIN)) | 1
            x0, y0 = int(round(die.center[0] - n / 2)), int(round(die.center[1] - n / 2))
            if die.size < 4 or x0 < 0 or y0 < 0 or x0 + n > w or y0 + n > h:
                continue
            square = np.zeros((n, n), np.float32)
            half, mid = die.size / 2, (n - 1) / 2
            a, b = int(round(mid - half)), int(round(mid + half)) + 1
            square[a:b, a:b] = 1
            k = max(3, int(die.size * FEATHER) | 1)
            mask: np.ndarray = cv2.GaussianBlur(square, (k, k), 0)
            cuts.append(Cut(roll.frame[y0:y0 + n, x0:x0 + n].copy(), mask, die.size, die.value))
    return cuts


def tray_area(rolls: Sequence[Roll]) -> tuple[float, float, float, float]:
    """Where dice may be pasted: the box around every confirmed die's box (x0, y0, x1, y1)."""
    boxes = [(d.center[0] - d.size / 2, d.center[1] - d.size / 2, d.center[0] + d.size / 2, d.center[1] + d.size / 2)
             for r in rolls for d in r.dice]
    if not boxes:
        raise ValueError("no confirmed dice to learn the tray from")
    arr = np.array(boxes)
    return float(arr[:, 0].min()), float(arr[:, 1].min()), float(arr[:, 2].max()), float(arr[:, 3].max())


def compose(background: np.ndarray, cuts: Sequence[Cut], area: tuple[float, float, float, float],
            rng: np.random.Generator, count: int, taken: Sequence[LabelledDie] = ()
            ) -> tuple[np.ndarray, list[LabelledDie]]:
    """``count`` dice drawn from ``cuts`` pasted inside ``area`` of ``background``, away from the dice
    already there (``taken``, which stay labelled); returns the frame and every die's label."""
    out = background.astype(np.float32)
    placed = list(taken)
    for _ in range(count):
        cut = cuts[int(rng.integers(len(cuts)))]
        scale = float(rng.uniform(*SCALE))
        side = cut.side * scale
        spot = _place(placed, side, area, rng)
        if spot is None:
            continue
        _paste(out, cut, spot, scale, float(rng.uniform(-TURN, TURN)), float(rng.uniform(*DIE_GAIN)))
        placed.append(LabelledDie(cut.value, spot, side))
    out *= float(rng.uniform(*FRAME_GAIN))
    return np.clip(out, 0, 255).astype(np.uint8), placed


def _place(placed: Sequence[LabelledDie], side: float, area: tuple[float, float, float, float],
           rng: np.random.Generator) -> tuple[float, float] | None:
    """A centre for a die of ``side`` whose box lies inside ``area`` and overlaps no placed die: against
    one of them (touching) ``TOUCH`` of the time, else anywhere."""
    x0, y0, x1, y1 = area[0] + side / 2, area[1] + side / 2, area[2] - side / 2, area[3] - side / 2
    if x1 < x0 or y1 < y0:
        return None
    for _ in range(TRIES):
        if placed and rng.random() < TOUCH:
            other = placed[int(rng.integers(len(placed)))]
            angle = rng.uniform(0, 2 * math.pi)
            along = max(abs(math.cos(angle)), abs(math.sin(angle)))  # boxes touch along the nearer axis
            reach = (other.size + side) / 2 * float(rng.uniform(1.0, 1.1)) / along
            x, y = other.center[0] + reach * math.cos(angle), other.center[1] + reach * math.sin(angle)
        else:
            x, y = float(rng.uniform(x0, x1)), float(rng.uniform(y0, y1))
        if not (x0 <= x <= x1 and y0 <= y <= y1):
            continue
        if all(max(abs(x - d.center[0]), abs(y - d.center[1])) >= 0.98 * (d.size + side) / 2 for d in placed):
            return x, y
    return None


def _paste(out: np.ndarray, cut: Cut, centre: tuple[float, float], scale: float, turn: float, gain: float) -> None:
    """Blend the cut, turned and scaled about its middle, into ``out`` (float32) at ``centre``."""
    n = cut.image.shape[0]
    reach = int(math.ceil(n * scale * 0.75)) + 1
    h, w = out.shape[:2]
    cx, cy = centre
    rx0, ry0 = max(0, int(cx) - reach), max(0, int(cy) - reach)
    rx1, ry1 = min(w, int(cx) + reach + 1), min(h, int(cy) + reach + 1)
    m = cv2.getRotationMatrix2D(((n - 1) / 2, (n - 1) / 2), turn, scale)
    m[0, 2] += cx - rx0 - (n - 1) / 2
    m[1, 2] += cy - ry0 - (n - 1) / 2
    size = (rx1 - rx0, ry1 - ry0)
    img = cv2.warpAffine(cut.image, m, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
    alpha = cv2.warpAffine(cut.mask, m, size, flags=cv2.INTER_LINEAR, borderValue=0.0)[..., None]
    roi = out[ry0:ry1, rx0:rx1]
    roi[:] = roi * (1 - alpha) + img * gain * alpha


def flipped(frame: np.ndarray, dice: Sequence[LabelledDie], code: int | None) -> tuple[np.ndarray, list[LabelledDie]]:
    """The frame mirrored (``cv2.flip`` code: 0 top to bottom, 1 left to right, -1 both; None: as it is)
    and its dice with it."""
    if code is None:
        return frame, list(dice)
    h, w = frame.shape[:2]
    fx, fy = code in (1, -1), code in (0, -1)
    return cv2.flip(frame, code), [LabelledDie(d.value, (w - 1 - d.center[0] if fx else d.center[0],
                                                         h - 1 - d.center[1] if fy else d.center[1]), d.size)
                                   for d in dice]


def composites(rolls: Sequence[Roll], n: int, seed: int = 0) -> list[tuple[np.ndarray, list[LabelledDie]]]:
    """``n`` frames of the rolls' dice laid anew (``lay``), as a list."""
    return list(lay(rolls, n, seed))


def lay(rolls: Sequence[Roll], n: int, seed: int = 0) -> Iterator[tuple[np.ndarray, list[LabelledDie]]]:
    """``n`` frames of the rolls' dice laid anew: on the empty tray where a roll has one, else on a
    roll's own photo beside its dice, one at a time (a hundred frames of a large camera would fill a
    Pi's memory). Every frame is the size of its roll's; three in four are mirrored (a tray's rim and
    screws seen on one side only must not become what a die is not)."""
    rng = np.random.default_rng(seed)
    cuts = cut_dice(rolls)
    if not cuts:
        return
    area = tray_area(rolls)
    most = max(MAX_DICE, max(len(r.dice) for r in rolls))
    for _ in range(n):
        roll = rolls[int(rng.integers(len(rolls)))]
        count = int(rng.integers(1, most + 1))
        if roll.empty is not None:
            back = roll.empty if roll.empty.shape == roll.frame.shape else cv2.resize(
                roll.empty, (roll.frame.shape[1], roll.frame.shape[0]), interpolation=cv2.INTER_AREA)
            made = compose(back, cuts, area, rng, count)
        else:
            made = compose(roll.frame, cuts, area, rng, max(0, count - len(roll.dice)), roll.dice)
        yield flipped(*made, MIRRORS[int(rng.integers(len(MIRRORS)))])
