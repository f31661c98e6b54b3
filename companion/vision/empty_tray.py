"""The empty tray as the fixed camera sees it, and where a frame differs from it.

On the table the camera and the tray do not move, so a photo of the empty tray, taken at calibration,
shows the reader where something now lies that was not there before: a die the detector doubts (a dark
die on dark felt, a translucent one) still differs from the empty felt. The reader uses the places that
differ as windows to classify and as a witness for doubtful detections (``find.py``, ``find_with_detector.py``).

Where no empty photo exists, the per-pixel median of several calibration photos with the dice in
different places is one (``from_frames``), as long as no spot holds a die in most of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.vision.tray import find_tray
from companion.vision.tray_region import TrayRegion, from_picture

MIN_DIFF = 28.0  # colour distance (Lab, blurred) that counts as a change, unless the noise was measured
LEVEL_RANGE = (6.0, 40.0)  # measured from the camera's noise (``capture``), the level stays in this range
NOISE_MARGIN = 3.0  # ... at this many times the noise's 99.9th percentile between still empty frames
AREA_RANGE = (0.25, 6.0)  # blobs of this many die areas are kept (several touching dice make one blob)
STALE_SHARE = 0.4  # a frame that differs from the empty tray over more of it than this no longer matches it
# (a lamp moved or switched, the camera knocked): a full tray of dice with their shadows covers far less
SHADOWED = 1.1  # a die and its shadow differ over about this many die sides
SHARE_WIDTH = 160  # the share is judged on both pictures shrunk to this width
EDGE_LEVEL = 80.0  # Sobel magnitude (grey, at SHARE_WIDTH) of a strong edge; felt grain stays far below
EDGE_PIXELS = 40  # a reference with fewer strong edge pixels than this has nothing to tell a move by
EDGES_KEPT = 0.5  # the camera moved when fewer than this share of the reference's strong edges remain
WORK_WIDTH = 640  # where dice lie is judged on both shrunk to this width


@dataclass(frozen=True)
class EmptyTray:
    image: np.ndarray  # BGR, the frame size
    level: float = MIN_DIFF  # colour distance that counts as a change (``capture`` sets it from the noise)
    _cache: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False)  # shrunk copies, last mask

    @classmethod
    def from_frames(cls, frames: Sequence[np.ndarray]) -> EmptyTray:
        """The per-pixel median of frames of one camera (dice in different places each time)."""
        stack = np.stack([np.asarray(f, np.uint8) for f in frames])
        return cls(np.median(stack, axis=0).astype(np.uint8))

    @classmethod
    def capture(cls, frames: Sequence[np.ndarray]) -> EmptyTray:
        """The empty tray from a few still frames of it: their per-pixel median, and the level of
        change that counts from how much the frames differ from it (the camera's own noise), so that a
        quiet camera sees a dark die on dark felt and a noisy one does not see dice in its noise."""
        if len(frames) < 2:
            raise ValueError("the empty tray needs at least two frames to measure the camera's noise")
        median = cls.from_frames(frames).image
        small = _shrunk(median, WORK_WIDTH)[0]
        noise = max(float(np.percentile(_blurred(_distance(_shrunk(np.asarray(f, np.uint8), WORK_WIDTH)[0], small)),
                                        99.9)) for f in frames)
        return cls(median, float(np.clip(NOISE_MARGIN * noise, *LEVEL_RANGE)))

    def save(self, path: Path | str) -> None:
        """The picture and its level in one file (numpy's .npz: a zip whose checksums catch damage)."""
        with open(path, "wb") as fh:
            np.savez_compressed(fh, image=self.image, level=np.float32(self.level))

    @classmethod
    def load(cls, path: Path | str) -> EmptyTray:
        """Raises ``ValueError`` for a file that is not a whole empty-tray picture, ``OSError`` when
        it cannot be read at all."""
        try:
            with np.load(path, allow_pickle=False) as data:
                image, level = np.asarray(data["image"]), float(data["level"])
        except OSError:
            raise
        except Exception as exc:  # a truncated or damaged zip, a missing array, bad bytes
            raise ValueError(f"{path} is not a whole empty-tray picture ({exc})") from exc
        if image.dtype != np.uint8 or image.ndim != 3 or image.shape[2] != 3 or min(image.shape[:2]) < 16:
            raise ValueError(f"{path} holds no colour picture of a tray")
        if not np.isfinite(level) or not 0 < level <= 255:
            raise ValueError(f"{path} holds an impossible level of change ({level})")
        return cls(image, level)

    def floor(self) -> TrayRegion | None:
        """The tray's floor in this picture (``tray_region``): from the corner markers when they are
        in it, else from the even area around its centre; None when neither tells it. Worked out once."""
        if "floor" not in self._cache:
            tray = find_tray(self.image)
            self._cache["floor"] = (TrayRegion.from_tray(tray, self.image.shape) if tray is not None
                                    else from_picture(self.image))
        region: TrayRegion | None = self._cache["floor"]
        return region

    def difference(self, frame: np.ndarray) -> np.ndarray:
        """Per pixel, how far the frame's colour is from the empty tray's (Lab, light evened out)."""
        ref: np.ndarray = self.image
        if ref.shape[:2] != frame.shape[:2]:
            ref = cv2.resize(ref, (frame.shape[1], frame.shape[0]), interpolation=cv2.INTER_AREA)
        return _distance(frame, ref)

    def changed_share(self, frame: np.ndarray) -> float:
        """The share of the frame that differs from the empty tray. Dice cover a small part of it; when
        most of it differs, the light or the camera has changed since the reference was taken."""
        mask, _ = self._changed(frame, SHARE_WIDTH)
        return float(np.count_nonzero(mask)) / float(mask.size)

    def matches(self, frame: np.ndarray) -> bool:
        """Is this still the tray the reference shows (same light, same camera)?"""
        if abs(frame.shape[1] / max(frame.shape[0], 1) - self.image.shape[1] / max(self.image.shape[0], 1)) > 0.02:
            return False  # another camera mode: another picture altogether
        return self.changed_share(frame) <= STALE_SHARE and not self.moved(frame)

    def moved(self, frame: np.ndarray) -> bool:
        """Has the camera moved? The reference's strong edges (a tray rim, a wall, a pattern) are
        looked for in the frame; when most of them are gone, the tray is no longer where it was. Plain
        felt has no such edges and cannot tell (nor does a small shift matter on it)."""
        ref = self._cache.get("edges")
        if ref is None:
            ref = self._cache["edges"] = _edges(_shrunk(self.image, SHARE_WIDTH)[0])
        if int(np.count_nonzero(ref)) < EDGE_PIXELS:
            return False
        small = _shrunk(frame, SHARE_WIDTH)[0]
        if small.shape[:2] != ref.shape:
            return True
        near = cv2.dilate(_edges(small, EDGE_LEVEL / 2), np.ones((3, 3), np.uint8))
        kept = float(np.count_nonzero(ref & near)) / float(np.count_nonzero(ref))
        return kept < EDGES_KEPT

    def _changed(self, frame: np.ndarray, width: int = WORK_WIDTH) -> tuple[np.ndarray, float]:
        """1 where the frame differs from the empty tray by more than the level, on both shrunk to
        ``width`` (the distance blurred: a die's body that differs a little all over is a change, a
        noisy pixel is not); and the scale from the frame to that mask."""
        last = self._cache.get(("last", width))
        if last is not None and last[0] is frame:  # one reading asks twice (die size, then places)
            return last[1], last[2]
        small, scale = _shrunk(frame, width)
        key = (small.shape[1], small.shape[0])
        ref = self._cache.get(key)
        if ref is None:
            ref = self._cache[key] = cv2.resize(self.image, key, interpolation=cv2.INTER_AREA)
        mask = (_blurred(_distance(small, ref)) > self.level).astype(np.uint8)
        self._cache[("last", width)] = (frame, mask, scale)
        return mask, scale

    def die_side(self, frame: np.ndarray) -> float | None:
        """The typical die side in the frame, from the die-sized places that differ from the empty tray
        (None when none does). Dark dice on dark felt leave segmentation only their pips to size them by;
        against the empty tray the whole die and its shadow differ."""
        changed, scale = self._changed(frame)
        short = float(min(changed.shape))
        mask = cv2.morphologyEx(changed, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        n, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
        keep = [i for i in range(1, n) if (short / 60) ** 2 <= stats[i, cv2.CC_STAT_AREA] <= (short / 3) ** 2]
        if not keep:
            return None
        # The widest disc that fits in a blob is about a die wide, whether the blob is one die or a row
        # of touching ones (whose area would make them one large die).
        dist = cv2.distanceTransform(mask, cv2.DIST_L2, 5)
        widest = []
        for i in keep:
            x, y, w, h = (int(v) for v in stats[i, :4])
            widest.append(float(dist[y : y + h, x : x + w][labels[y : y + h, x : x + w] == i].max()))
        return float(np.median(widest)) * 2.0 / SHADOWED / scale

    def changes(self, frame: np.ndarray, die_size: float) -> list[tuple[float, float, float]]:
        """Die-sized places where the frame differs from the empty tray: (cx, cy, window side). A blob
        larger than a die (dice touching) gives a window on each die-sized peak of its distance map."""
        if die_size <= 0:
            return []
        changed, scale = self._changed(frame)
        side = die_size * scale
        k = max(3, int(side * 0.15) | 1)
        opened = cv2.morphologyEx(changed, cv2.MORPH_OPEN, np.ones((k, k), np.uint8))
        mask = cv2.morphologyEx(opened, cv2.MORPH_CLOSE, np.ones((k, k), np.uint8))
        n, labels, stats, centroids = cv2.connectedComponentsWithStats(mask)
        area = side * side
        out: list[tuple[float, float, float]] = []
        for i in range(1, n):
            a = float(stats[i, cv2.CC_STAT_AREA])
            if not AREA_RANGE[0] * area <= a <= AREA_RANGE[1] * area:
                continue
            if a <= 1.6 * area:
                out.append((float(centroids[i][0]), float(centroids[i][1]), side * 1.15))
                continue
            dist = cv2.distanceTransform((labels == i).astype(np.uint8), cv2.DIST_L2, 5)
            peaks = (dist >= cv2.dilate(dist, np.ones((3, 3), np.uint8))) & (dist > side * 0.3)
            ys, xs = np.nonzero(peaks)
            for j in np.argsort(-dist[ys, xs]):
                x, y = float(xs[j]), float(ys[j])
                if all(np.hypot(x - cx, y - cy) > side * 0.7 for cx, cy, _ in out):
                    out.append((x, y, side * 1.15))
        return [((x + 0.5) / scale - 0.5, (y + 0.5) / scale - 0.5, w / scale) for x, y, w in out]


def _shrunk(frame: np.ndarray, width: int) -> tuple[np.ndarray, float]:
    """The frame at most ``width`` wide, and the scale it was shrunk by."""
    h, w = frame.shape[:2]
    if w <= width:
        return frame, 1.0
    scale = width / w
    return cv2.resize(frame, (width, max(1, round(h * scale))), interpolation=cv2.INTER_AREA), scale


def _distance(frame: np.ndarray, ref: np.ndarray) -> np.ndarray:
    """Per pixel colour distance (Lab, blurred) of two pictures of one size, each colour channel of the
    reference scaled to the frame's (a dimmer room or warmer light changes every pixel alike, a die
    only its own)."""
    step = max(1, min(frame.shape[:2]) // 64)  # the medians from a sparse grid: the same number, faster
    f = cv2.GaussianBlur(frame, (5, 5), 0)
    r = cv2.GaussianBlur(ref, (5, 5), 0).astype(np.float32)
    gain = (np.median(f[::step, ::step].reshape(-1, 3), axis=0) + 1.0) / (
        np.median(r[::step, ::step].reshape(-1, 3), axis=0) + 1.0)
    r = np.clip(r * gain.astype(np.float32), 0, 255).astype(np.uint8)
    a = cv2.cvtColor(f, cv2.COLOR_BGR2LAB).astype(np.float32)
    b = cv2.cvtColor(r, cv2.COLOR_BGR2LAB).astype(np.float32)
    d = cv2.subtract(a, b)
    out: np.ndarray = cv2.sqrt(cv2.transform(cv2.multiply(d, d), np.ones((1, 3), np.float32)))
    return out


def _blurred(distance: np.ndarray) -> np.ndarray:
    out: np.ndarray = cv2.GaussianBlur(distance, (0, 0), max(1.0, min(distance.shape[:2]) / 160.0))
    return out


def _edges(img: np.ndarray, level: float = EDGE_LEVEL) -> np.ndarray:
    """1 on the strong edges of a picture (grey Sobel magnitude above ``level``)."""
    grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY).astype(np.float32)
    mag = cv2.magnitude(cv2.Sobel(grey, cv2.CV_32F, 1, 0), cv2.Sobel(grey, cv2.CV_32F, 0, 1))
    out: np.ndarray = (mag > level).astype(np.uint8)
    return out
