"""Hard negatives for the face classifier: the places on the train ("fit") photos where the die detector
or the reader itself took something for a die and no labelled die is.

Why: a classifier retrained with the newer real sets vouched for the tray's screws and the desk clutter
that the detector proposes, and nell-byler-d6 got 74 extra dice on 60 photos
(docs/log/classifier-new-sets-2026-11-27.md). Plain background windows are drawn at random and seldom
land on such things; these are the very windows the reader asks the classifier about.

Only the photos passed in are read (make_patches.py passes the train or, with ``--dev``, the fit
photos); held-back photos never are.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from companion.vision.detector import DieDetector
from companion.vision.reader import DiceReader
from companion.vision.tuning import DETECT_WINDOW, DOUBT

Place = tuple[float, float, float]  # centre x, y and the window side the reader would use, frame px
Die = tuple[float, float, float]  # a labelled die's top face x, y and the whole die's side, frame px


def off_dice(places: Sequence[Place], dice: Sequence[Die], *, near: float) -> list[Place]:
    """The places whose centre is further than ``near`` die sides from every labelled die (make_patches
    passes its ``NEAR``, the rule its windows are labelled "not a die" by)."""
    return [p for p in places if all(math.dist(p[:2], d[:2]) > near * d[2] for d in dice)]


class Miner:
    """The detector's detections (from ``DOUBT``, the lowest score the reader classifies) and the dice the
    reader with the detector reports, with each classifier of ``models`` (None: the shipped one)."""

    def __init__(self, models: Sequence[str | Path | None] = (None,)) -> None:
        self.detector = DieDetector()
        self.readers = [DiceReader(m, detector=self.detector) for m in models]

    def places(self, frame: np.ndarray) -> list[Place]:
        dets = self.detector.detect(frame, threshold=DOUBT)
        found: list[Place] = [(d.cx, d.cy, d.size * DETECT_WINDOW) for d in dets]
        for reader in self.readers:
            for die in reader.read(frame).dice:
                side = (die.box[2] - die.box[0]) * 1.1  # the reader's box is its window / 1.1 (reader.py)
                found.append((die.center[0], die.center[1], float(side)))
        return dedupe(found)


def dedupe(places: Sequence[Place]) -> list[Place]:
    """One place where several lie within half a window of each other (the first one found)."""
    kept: list[Place] = []
    for p in places:
        if all(math.dist(p[:2], k[:2]) > 0.5 * max(p[2], k[2]) for k in kept):
            kept.append(p)
    return kept
