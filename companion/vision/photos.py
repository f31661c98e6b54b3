"""Reading a photo from disk for the ``companion`` commands, with a reason when it cannot be read."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np


def read_photo(path: str | Path) -> np.ndarray:
    """The photo as a BGR frame. Raises ``FileNotFoundError`` when there is no such file (checked
    first: OpenCV would only print a warning of its own and give nothing) and ``OSError`` when the
    file is not an image OpenCV can decode."""
    p = Path(path)
    if not p.is_file():
        raise FileNotFoundError(f"{path}: no such file")
    frame = cv2.imread(str(p))
    if frame is None:
        raise OSError(f"{path}: not an image OpenCV can read (JPEG, PNG, BMP, TIFF, WebP)")
    return frame
