"""Building a profile of the table's dice: from labelled photos, or one confirmed die at a time.

The guided calibration (roll the set a few times, confirm each reading on the tablet) and the
``companion dice calibrate DIR`` command both end here. Each confirmed die gives the patch the reader
itself would cut for it; windows well away from every die become "not a die" examples, so the table's
own tray, walls and props are learnt too (those the reader itself takes for dice first), and small
windows on each die's pips become "side" examples, so that a pip is not learnt to be a 1.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import numpy as np

from companion.vision import FACES
from companion.vision.crops import patch
from companion.vision.evaluate import LabelledDie
from companion.vision.profile_adapt import Profile
from companion.vision.reader import DiceReader
from companion.vision.reading import DieReading

NOT_A_DIE = 7
MAX_BACKGROUND_PER_IMAGE = 12
# "side" windows on a labelled die's pips (``add_pip_windows``): this share of the die wide, at its
# centre and this share of its side towards each corner (a 1's pip, the corner pips of the others)
PIP_WINDOW = 0.45
PIP_SHIFT = 0.25
PIP_PLACES = ((0, 0), (1, 1), (1, -1), (-1, 1), (-1, -1))


def class_of(value: int | str) -> int:
    return FACES.index(value)


def add_confirmed(profile: Profile, reader: DiceReader, frame: np.ndarray, die: DieReading,
                  value: int | str) -> None:
    """Keep a die the table confirmed (or corrected) as a labelled patch."""
    x0, y0, x1, y1 = die.box
    size = max(x1 - x0, y1 - y0) * 1.1
    profile.add(patch(frame, die.center[0], die.center[1], size, reader.classifier.patch), class_of(value))


def add_labelled_frame(profile: Profile, reader: DiceReader, frame: np.ndarray,
                       labels: list[LabelledDie]) -> list[float]:
    """Add every labelled die of one photo, plus some "not a die" windows; returns the die sizes used."""
    wins = reader.window_patches(frame)
    sizes: list[float] = []
    for lab in labels:
        near = [w for w in wins if math.dist((w[0], w[1]), lab.center) < 0.45 * max(lab.size, w[2] / 1.1)]
        if near:
            cx, cy, size, p = min(near, key=lambda w: math.dist((w[0], w[1]), lab.center))
            profile.add(p, class_of(lab.value))
        else:
            size = lab.size * 1.25
        # A label-centred patch too: the reader may place its window either way.
        profile.add(patch(frame, lab.center[0], lab.center[1], size, reader.classifier.patch),
                    class_of(lab.value), view=bool(near))
        sizes.append(size / 1.1)
    add_pip_windows(profile, reader, frame, [(lab.center, lab.size) for lab in labels])
    add_background(profile, reader, frame, [(lab.center, lab.size) for lab in labels], wins)
    return sizes


def add_pip_windows(profile: Profile, reader: DiceReader, frame: np.ndarray,
                    dice: Sequence[tuple[tuple[float, float], float]]) -> None:
    """Windows a little under half a die wide on each die's centre and towards its corners, taught as
    "side" (a window on a die that is not its top face, as in training). In a close-up one pip fills
    such a window the way a 1's face fills a die's: a profile of the table's faces alone taught the last
    layer that these are 1s, and the reader found extra dice on the pips of dice it had never seen."""
    if "side" not in reader.classifier.classes:
        return  # an older model, without the class
    side_class = reader.classifier.classes.index("side")
    for (cx, cy), size in dice:
        for dx, dy in PIP_PLACES:
            x, y = cx + dx * PIP_SHIFT * size, cy + dy * PIP_SHIFT * size
            profile.add(patch(frame, x, y, size * PIP_WINDOW, reader.classifier.patch), side_class)


def add_background(profile: Profile, reader: DiceReader, frame: np.ndarray,
                   dice: Sequence[tuple[tuple[float, float], float]],
                   wins: list[tuple[float, float, float, np.ndarray]] | None = None,
                   limit: int = MAX_BACKGROUND_PER_IMAGE) -> int:
    """Up to ``limit`` "not a die" windows away from every die of ``dice`` (centre, side): what the reader
    itself takes for a die comes first (the tray's own marks and props it gets wrong), then segmentation's
    windows. Only for a frame where every die is known: a die left out would be taught as "not a die"."""
    misread = []
    for die in reader.read(frame).dice:
        (cx, cy), size = die.center, (die.box[2] - die.box[0]) * 1.1
        misread.append((cx, cy, size, patch(frame, cx, cy, size, reader.classifier.patch)))
    added = 0
    for cx, cy, size, p in misread + (reader.window_patches(frame) if wins is None else wins):
        if added >= limit:
            break
        if all(math.dist((cx, cy), centre) > 0.8 * max(side, size) for centre, side in dice):
            profile.add(p, NOT_A_DIE)
            added += 1
    return added


def build_profile(reader: DiceReader, photos: Iterable[tuple[np.ndarray, list[LabelledDie]]]) -> Profile:
    """A profile from labelled photos of the table's dice."""
    profile = Profile()
    for frame, labels in photos:
        add_labelled_frame(profile, reader, frame, labels)
    # The die size stays unset (0): photos of a set may be taken from different heights. Tray
    # calibration, with its markers, is what fixes the scale.
    return profile
