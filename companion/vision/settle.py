"""The settle detector: turn a stream of camera frames into one reading per roll.

Feed it every frame. While anything moves in the tray (dice rolling, a hand reaching in) it reports
nothing. Once the picture has been still for a few frames it reads the dice, and it reports the
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

from companion.vision.reader import UNCERTAIN, DieReading, Reading

MOTION_LEVEL = 20  # grey levels: a pixel changed by more than this has moved
MOTION_FRACTION = 0.002  # the frame moved when more than this fraction of pixels changed
HAND_FRACTION = 0.04  # ... and something large (a hand, an arm) is in it when more than this did


@dataclass(frozen=True)
class SettleConfig:
    still_frames: int = 3  # frames without motion before reading
    agree: int = 2  # consecutive still readings that must agree
    retries: int = 4  # extra still frames spent re-reading uncertain dice
    work_width: int = 160  # motion is judged on a frame scaled to this width


class SettleDetector:
    """States: "moving", "hand", "settling" (still, reading), "settled" (reported; waiting for motion)."""

    def __init__(self, read: Callable[[np.ndarray], Reading], config: SettleConfig | None = None) -> None:
        self._read = read
        self.config = config or SettleConfig()
        self.state = "moving"
        self._previous: np.ndarray | None = None
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
        self.state = "settling"
        self._readings.append(self._read(frame))
        result = self._decide()
        if result is not None:
            self.state = "settled"
            self._readings = []
        return result

    def _motion(self, frame: np.ndarray) -> float:
        h, w = frame.shape[:2]
        width = self.config.work_width
        small = cv2.resize(frame, (width, max(1, round(h * width / w))), interpolation=cv2.INTER_AREA)
        grey = cv2.GaussianBlur(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), (3, 3), 0)
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
    return Reading(out, sum(r.ms for r in readings))
