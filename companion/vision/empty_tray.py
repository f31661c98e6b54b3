"""The empty tray as the fixed camera sees it, and where a frame differs from it.

On the table the camera and the tray do not move, so a photo of the empty tray, taken at calibration,
shows the reader where something now lies that was not there before: a die the detector doubts (a dark
die on dark felt, a translucent one) still differs from the empty felt. The reader uses the places that
differ as windows to classify and as a witness for doubtful detections (``reader.py``).

Where no empty photo exists, the per-pixel median of several calibration photos with the dice in
different places is one (``from_frames``), as long as no spot holds a die in most of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

MIN_DIFF = 28.0  # colour distance (Lab, blurred) that counts as a change
AREA_RANGE = (0.25, 6.0)  # blobs of this many die areas are kept (several touching dice make one blob)


@dataclass(frozen=True)
class EmptyTray:
    image: np.ndarray  # BGR, the frame size

    @classmethod
    def from_frames(cls, frames: Sequence[np.ndarray]) -> EmptyTray:
        """The per-pixel median of frames of one camera (dice in different places each time)."""
        stack = np.stack([np.asarray(f, np.uint8) for f in frames])
        return cls(np.median(stack, axis=0).astype(np.uint8))

    def save(self, path: Path | str) -> None:
        if not cv2.imwrite(str(path), self.image):
            raise OSError(f"cannot write {path}")

    @classmethod
    def load(cls, path: Path | str) -> EmptyTray:
        img = cv2.imread(str(path))
        if img is None:
            raise OSError(f"cannot read the empty tray from {path}")
        return cls(img)

    def difference(self, frame: np.ndarray) -> np.ndarray:
        """Per pixel, how far the frame's colour is from the empty tray's (Lab, light evened out)."""
        ref: np.ndarray = self.image
        if ref.shape[:2] != frame.shape[:2]:
            ref = cv2.resize(ref, (frame.shape[1], frame.shape[0]), interpolation=cv2.INTER_AREA)
        a = cv2.cvtColor(cv2.GaussianBlur(frame, (5, 5), 0), cv2.COLOR_BGR2LAB).astype(np.float32)
        b = cv2.cvtColor(cv2.GaussianBlur(ref, (5, 5), 0), cv2.COLOR_BGR2LAB).astype(np.float32)
        b[..., 0] *= (float(np.median(a[..., 0])) + 1.0) / (float(np.median(b[..., 0])) + 1.0)  # brighter room
        out: np.ndarray = np.sqrt(((a - b) ** 2).sum(axis=2))
        return out

    def changes(self, frame: np.ndarray, die_size: float) -> list[tuple[float, float, float]]:
        """Die-sized places where the frame differs from the empty tray: (cx, cy, window side). A blob
        larger than a die (dice touching) gives a window on each die-sized peak of its distance map."""
        if die_size <= 0:
            return []
        diff = self.difference(frame)
        k = max(3, int(die_size * 0.15) | 1)
        opened = cv2.morphologyEx((diff > MIN_DIFF).astype(np.uint8), cv2.MORPH_OPEN, np.ones((k, k), np.uint8))
        mask = cv2.morphologyEx(opened, cv2.MORPH_CLOSE, np.ones((k, k), np.uint8))
        n, labels, stats, centroids = cv2.connectedComponentsWithStats(mask)
        area = die_size * die_size
        out: list[tuple[float, float, float]] = []
        for i in range(1, n):
            a = float(stats[i, cv2.CC_STAT_AREA])
            if not AREA_RANGE[0] * area <= a <= AREA_RANGE[1] * area:
                continue
            if a <= 1.6 * area:
                out.append((float(centroids[i][0]), float(centroids[i][1]), die_size * 1.15))
                continue
            dist = cv2.distanceTransform((labels == i).astype(np.uint8), cv2.DIST_L2, 5)
            peaks = (dist >= cv2.dilate(dist, np.ones((3, 3), np.uint8))) & (dist > die_size * 0.3)
            ys, xs = np.nonzero(peaks)
            for j in np.argsort(-dist[ys, xs]):
                x, y = float(xs[j]), float(ys[j])
                if all(np.hypot(x - cx, y - cy) > die_size * 0.7 for cx, cy, _ in out):
                    out.append((x, y, die_size * 1.15))
        return out
