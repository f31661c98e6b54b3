"""Building a profile of the table's dice: from labelled photos, or one confirmed die at a time.

The guided calibration (roll the set a few times, confirm each reading on the tablet) and the
``companion dice calibrate DIR`` command both end here. Each confirmed die gives the patch the reader
itself would cut for it; windows well away from every die become "not a die" examples, so the table's
own tray, walls and props are learnt too. Those the reader itself takes for dice come first.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import numpy as np

from companion.vision import FACES
from companion.vision.crops import patch
from companion.vision.evaluate import LabelledDie
from companion.vision.profile_adapt import Profile
from companion.vision.reader import DiceReader, DieReading

NOT_A_DIE = 7
MAX_BACKGROUND_PER_IMAGE = 12


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
    add_background(profile, reader, frame, [(lab.center, lab.size) for lab in labels], wins)
    return sizes


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
