"""The settle detector: turn a stream of camera frames into one reading per roll.

Feed it every frame. While anything moves in the tray (dice rolling, a hand reaching in) it reports
nothing; nor while a hand rests still in the tray: the detector keeps a reference picture of the tray
from the last time it was still and empty of hands, and a large region that differs from it (far larger
than dice that moved) is a hand or an arm, not dice. Only a region that stays for ``hand_patience``
still frames is taken as a lasting change of the scene (a moved tray, a lamp switched on).

Once the picture has been still for a few frames it reads the dice, and it reports the
reading only when consecutive still frames agree on it. A die read with low confidence is read again
from the next still frames (a glint or a shadow often moves on), and only if it stays uncertain is the
reading reported with that die flagged, for the table to confirm. After a report it stays quiet until
the tray moves again, so one roll gives one reading.

    detector = SettleDetector(reader.read)
    for frame in camera:
        reading = detector.feed(frame)
        if reading is not None:
            ...  # hand it to the game
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace

import cv2
import numpy as np

from companion.vision.reading import DieReading, Reading
from companion.vision.tuning import UNCERTAIN

MOTION_LEVEL = 20  # grey levels: a pixel changed by more than this has moved
MOTION_FRACTION = 0.002  # the frame moved when more than this fraction of pixels changed
HAND_FRACTION = 0.04  # ... and something large (a hand, an arm) is in it when more than this did
HAND_AREA = 0.03  # a still region this large (fraction of the frame) unlike the reference is a hand
HAND_LEVEL = 30  # grey / colour levels: a pixel unlike the reference by more than this has changed


@dataclass(frozen=True)
class SettleConfig:
    still_frames: int = 3  # frames without motion before reading
    agree: int = 2  # consecutive still readings that must agree
    retries: int = 4  # extra still frames spent re-reading uncertain dice
    work_width: int = 160  # motion is judged on a frame scaled to this width
    hand_patience: int = 90  # still frames after which a large change is taken as the new scene


class SettleDetector:
    """States: "moving", "hand", "settling" (still, reading), "settled" (reported; waiting for motion)."""

    def __init__(self, read: Callable[[np.ndarray], Reading], config: SettleConfig | None = None) -> None:
        self._read = read
        self.config = config or SettleConfig()
        self.state = "moving"
        self._previous: np.ndarray | None = None
        self._small: np.ndarray | None = None  # the current frame at work scale (blurred BGR)
        self._reference: np.ndarray | None = None  # the tray when last still without a hand
        self._hand_frames = 0
        self._still = 0
        self._readings: list[Reading] = []

    def reset(self) -> None:
        """Forget the current roll (e.g. after the table corrected a reading by hand)."""
        self.state = "moving"
        self._still = 0
        self._readings = []

    def feed(self, frame: np.ndarray) -> Reading | None:
        moved = self._motion(frame)
        if moved > MOTION_FRACTION:
            self.state = "hand" if moved > HAND_FRACTION else "moving"
            self._still = 0
            self._readings = []
            return None
        if self.state == "settled":
            return None
        self._still += 1
        if self._still < self.config.still_frames:
            return None
        if self._hand_still():
            self.state = "hand"
            self._readings = []
            return None
        self.state = "settling"
        self._readings.append(self._read(frame))
        result = self._decide()
        if result is not None:
            self.state = "settled"
            self._readings = []
            self._reference = self._small
        return result

    def _hand_still(self) -> bool:
        """Is a large region of the (still) frame unlike the reference? Dice that moved change only
        die-sized spots; a hand or an arm resting in the tray changes one region many dice large."""
        small = self._small
        if small is None:
            return False
        if self._reference is None or self._reference.shape != small.shape:
            self._reference = small
            return False
        diff = cv2.absdiff(small, self._reference).max(axis=2)
        changed = (diff > HAND_LEVEL).astype(np.uint8)
        changed = cv2.morphologyEx(changed, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
        n, _, stats, _ = cv2.connectedComponentsWithStats(changed, connectivity=8)
        largest = int(stats[1:, cv2.CC_STAT_AREA].max()) if n > 1 else 0
        if largest <= HAND_AREA * changed.size:
            self._hand_frames = 0
            return False
        self._hand_frames += 1
        if self._hand_frames >= self.config.hand_patience:
            self._reference = small  # a lasting change of the scene, not a hand
            self._hand_frames = 0
            return False
        return True

    def _motion(self, frame: np.ndarray) -> float:
        h, w = frame.shape[:2]
        width = self.config.work_width
        small = cv2.resize(frame, (width, max(1, round(h * width / w))), interpolation=cv2.INTER_AREA)
        self._small = cv2.GaussianBlur(small, (3, 3), 0)
        grey = cv2.cvtColor(self._small, cv2.COLOR_BGR2GRAY)
        prev, self._previous = self._previous, grey
        if prev is None or prev.shape != grey.shape:
            return 1.0
        return float(np.count_nonzero(cv2.absdiff(grey, prev) > MOTION_LEVEL)) / grey.size

    def _decide(self) -> Reading | None:
        cfg = self.config
        recent = self._readings[-cfg.agree :]
        if len(recent) < cfg.agree or not all(_same_dice(recent[0], r) for r in recent[1:]):
            if len(self._readings) >= cfg.agree + cfg.retries:
                return _merge(self._readings[-cfg.agree :])
            return None
        merged = _merge(self._readings)
        if merged.uncertain and len(self._readings) < cfg.agree + cfg.retries:
            return None  # read the uncertain dice again from the next frames
        return merged


def _same_dice(a: Reading, b: Reading) -> bool:
    """Same number of dice at the same places showing the same values."""
    if len(a.dice) != len(b.dice):
        return False
    for da in a.dice:
        db = _nearest(da, b.dice)
        if db is None or db.value != da.value:
            return False
    return True


def _nearest(die: DieReading, dice: list[DieReading]) -> DieReading | None:
    size = max(die.box[2] - die.box[0], die.box[3] - die.box[1], 1)
    best = min(dice, key=lambda d: np.hypot(d.center[0] - die.center[0], d.center[1] - die.center[1]),
               default=None)
    if best is None or np.hypot(best.center[0] - die.center[0], best.center[1] - die.center[1]) > 0.5 * size:
        return None
    return best


def _merge(readings: list[Reading]) -> Reading:
    """Per die of the latest reading, the value most still frames agree on, with the best confidence
    among the agreeing reads; a die whose frames disagree keeps a confidence below ``UNCERTAIN``."""
    last = readings[-1]
    out: list[DieReading] = []
    for die in last.dice:
        seen = [d for r in readings if (d := _nearest(die, r.dice)) is not None]
        votes = Counter(d.value for d in seen)
        value, count = votes.most_common(1)[0]
        agreeing = [d for d in seen if d.value == value]
        best = max(agreeing, key=lambda d: d.confidence)
        conf = best.confidence if count == len(seen) else min(best.confidence, UNCERTAIN * 0.9)
        state = "settled" if conf >= UNCERTAIN else "unreadable"
        out.append(replace(best, confidence=conf, state=state, center=die.center, box=die.box))
    return Reading(out, sum(r.ms for r in readings), last.looked)  # where it looked: the annotated frame shows it
