"""Cutting fixed-size square patches out of a frame, for the classifier and the profile."""

from __future__ import annotations

import cv2
import numpy as np

PATCH = 32  # classifier input side, px


def patch(frame: np.ndarray, cx: float, cy: float, size: float, out: int = PATCH) -> np.ndarray:
    """A square of side ``size`` centred on (cx, cy), resampled to ``out`` px; the outside is replicated."""
    half = size / 2.0
    scale = out / max(size, 1.0)
    m = np.array([[scale, 0.0, (half - cx) * scale], [0.0, scale, (half - cy) * scale]], np.float32)
    interp = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
    result: np.ndarray = cv2.warpAffine(frame, m, (out, out), flags=interp, borderMode=cv2.BORDER_REPLICATE)
    return result
