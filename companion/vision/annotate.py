"""The annotated view the tablet shows: a box, the value and the confidence on every die."""

from __future__ import annotations

import cv2
import numpy as np

from companion.vision.reading import Reading

SURE = (60, 200, 60)  # BGR green: read with confidence
UNSURE = (0, 170, 255)  # amber: please confirm on the tablet
LOOKED = (200, 200, 200)  # grey: looked at there, found no die (a missed die shows up here)


def annotate(frame: np.ndarray, reading: Reading) -> np.ndarray:
    """A copy of ``frame`` with each die's box, value and confidence drawn; uncertain dice in amber;
    places the reader looked at and found no die as thin grey circles."""
    out = frame.copy()
    h = out.shape[0]
    scale = max(0.4, h / 900.0)
    thick = max(1, round(h / 400.0))
    for cx, cy, size in reading.looked:
        cv2.circle(out, (round(cx), round(cy)), max(2, round(size / 2)), LOOKED, thick, cv2.LINE_AA)
    for die in reading.dice:
        colour = UNSURE if die.uncertain else SURE
        x0, y0, x1, y1 = die.box
        cv2.rectangle(out, (x0, y0), (x1, y1), colour, thick, cv2.LINE_AA)
        text = f"{die.value} {100 * die.confidence:.0f}%"
        (tw, th), base = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thick)
        ty = y0 - 3 if y0 - th - base - 3 >= 0 else y1 + th + 3
        cv2.rectangle(out, (x0, ty - th - 2), (x0 + tw + 2, ty + base - 1), colour, -1)
        cv2.putText(out, text, (x0 + 1, ty - 1), cv2.FONT_HERSHEY_SIMPLEX, scale, (0, 0, 0), thick, cv2.LINE_AA)
    return out
