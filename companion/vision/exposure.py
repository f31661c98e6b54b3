"""Brightening dim frames before they are read.

Segmentation and the pip counter compare colour differences with fixed floors (a tray's texture must
not become dice). In dim light every difference shrinks with the light, so a dim frame loses its dice
below those floors, or keeps only the darkest pips, which then look like small dice. Scaling a dim
frame up until its brightest parts (the dice, a light tray) are at a normal level gives them back the
contrast of a well-lit frame. A frame that is already bright enough is passed on untouched.
"""

from __future__ import annotations

import cv2
import numpy as np

from companion.vision.order import percentile

BRIGHT = 170.0  # the brightest 1% of a frame (Lab lightness, 0-255) at least this bright is left alone
MAX_GAIN = 3.0  # more than this would mostly amplify noise
_PROBE = 64  # the brightness is measured on about this many pixels along the shorter side


def gain(frame: np.ndarray) -> float:
    """The factor that brings a frame's brightest 1% up to ``BRIGHT`` (1.0 when already there)."""
    h, w = frame.shape[:2]
    k = max(1, min(w, h) // _PROBE)  # every k-th pixel each way: averaging first costs ten times more
    small = np.ascontiguousarray(frame[::k, ::k])
    light = cv2.cvtColor(small, cv2.COLOR_BGR2LAB)[..., 0]
    top = percentile(light.ravel().astype(np.float32), 99)
    return float(np.clip(BRIGHT / max(top, 1.0), 1.0, MAX_GAIN))


def normalise(frame: np.ndarray) -> np.ndarray:
    """The frame, brightened if it is dim (the same array if it is not)."""
    g = gain(frame)
    if g <= 1.0:
        return frame
    return cv2.convertScaleAbs(frame, alpha=g)
