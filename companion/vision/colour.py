"""Die body colour names from pixels: white, black, red, blue, green, yellow, or other."""

from __future__ import annotations

import cv2
import numpy as np

from companion.vision.crops import patch
from companion.vision.order import median_rows

# Hue ranges on OpenCV's 0-180 scale.
_HUES = (("red", 0, 9), ("yellow", 16, 38), ("green", 38, 88), ("blue", 88, 132), ("red", 165, 181))


def body_colour(frame: np.ndarray, cx: float, cy: float, size: float) -> str:
    """The body colour of the die in the window centred on (cx, cy): the most common colour of its face
    pixels, leaving out pips (the minority that differ most from the face) and the tray around it."""
    crop = patch(frame, cx, cy, size * 0.6, 24)
    hsv = cv2.cvtColor(crop, cv2.COLOR_BGR2HSV).reshape(-1, 3).astype(np.float32)
    bgr = crop.reshape(-1, 3).astype(np.float32)
    face = median_rows(bgr)
    near = np.sqrt(((bgr - face) ** 2).sum(axis=1))
    k = int(0.6 * (near.size - 1))
    body = hsv[near <= np.partition(near, k)[k]]
    return name_colour(body)


def name_colour(hsv: np.ndarray) -> str:
    """Name the colour of a set of HSV pixels (rows of h, s, v)."""
    if hsv.size == 0:
        return "other"
    h, s, v = (float(x) for x in median_rows(hsv))
    if v < 60 or (v < 90 and s < 90):
        return "black"
    if s < 55 and v > 120:
        return "white"
    if s < 70:
        return "other"
    # Hue is circular; take the median of hue votes among saturated pixels.
    sat = hsv[hsv[:, 1] >= 70]
    hue = float(np.median(sat[:, 0])) if len(sat) else h
    for name, lo, hi in _HUES:
        if lo <= hue < hi:
            return name
    return "other"
