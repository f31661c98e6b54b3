"""The learned die detector, run by ``cv2.dnn`` from the ONNX file shipped in ``models/``.

It proposes every die in a frame as a centre, a size and a score, where classical segmentation can
only find what stands out from the background (dark dice on dark felt, translucent dice and dice
against a wall it misses). The frame is shrunk to the network's square input (long side to ``input``
px, the rest padded with the frame's mean colour); the network gives, at stride 4, a die-centre
heatmap, the centre's place within its cell and the die's log size. Peaks of the heatmap are dice.
A frame larger than ``MAX_SIDE`` is read a second time at that size, where its small dice show pips;
unless that read sees the pips of dice the first read saw whole.
Trained by ``training/detector/train.py``; what it was trained on is in the model's JSON.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.vision.detector_head import FEATURES, Head

MODELS = Path(__file__).resolve().parent / "models"
DEFAULT_DETECTOR = MODELS / "dice_detector.onnx"

# A frame larger than MAX_SIDE px is read a second time, at MAX_SIDE px. At the network's 224 px a die
# of a photo of a whole tray, or of the rig's 2304 x 1296 frame (73 px a die, 7 px at 224), is a dot:
# on the left-out nell-byler-d6 tray seen so (its photos mirrored out to 1280 px) the reader read
# 40% of the dice with one read and 92% with the second (docs/log/detector-size-2026-11-28.md).
# Every photo of the data sets is at most 640 px, so their figures are those of one read. Dice of
# LARGE_DIE input px or more at the first read (a fifth of the frame) are taken from it: at
# MAX_SIDE they would be larger than any die the network trained on.
MAX_SIDE = 640
LARGE_DIE = 48.0
# A frame of an ordinary scene in more pixels (a phone's full-size photo: docs/log/large-frames-2026-11-28.md)
# is read right at 224 px; at 640 it is 2.9 times larger than the network trained on, and it takes pips
# and keys for dice. When the caller's die size (segmentation's) agrees with the first read's and the
# second read's dice are less than PIP_SIZE of it, the second read is seeing pips: the first read stands.
PIP_SIZE = 0.5
AGREE = (0.5, 2.0)  # the first read's dice agree with the caller's size within this ratio


@dataclass(frozen=True)
class Detection:
    cx: float
    cy: float
    size: float  # side of the die's box, frame px
    score: float  # heatmap peak, 0-1

    @property
    def box(self) -> tuple[int, int, int, int]:
        h = self.size / 2
        return int(self.cx - h), int(self.cy - h), int(np.ceil(self.cx + h)), int(np.ceil(self.cy + h))


def letterbox(frame: np.ndarray, side: int, square: bool = True) -> tuple[np.ndarray, float]:
    """The frame shrunk so its long side is ``side`` (a smaller frame is not enlarged: a die filling a
    small crop would be larger than any die in training), padded with its mean colour to a square
    (``square=False``: only to whole multiples of 32 px); and the scale used."""
    h, w = frame.shape[:2]
    scale = min(1.0, side / max(h, w))
    nw, nh = max(1, round(w * scale)), max(1, round(h * scale))
    # Halved (pyrDown: blur and drop every other pixel) while still twice the side, then linear:
    # about what training saw (photos cached by area, then warped linearly), and a tenth of the time
    # of an area resize at a ratio that is not a whole number.
    small = frame
    while small.shape[1] >= 2 * nw and small.shape[0] >= 2 * nh:
        small = cv2.pyrDown(small)
    if small.shape[:2] != (nh, nw):
        small = cv2.resize(small, (nw, nh), interpolation=cv2.INTER_LINEAR)
    oh, ow = (side, side) if square else (-(-nh // 32) * 32, -(-nw // 32) * 32)
    if (nh, nw) == (oh, ow):
        return small, scale
    out = np.empty((oh, ow, 3), np.uint8)
    out[:] = np.array(cv2.mean(small)[:3]).astype(np.uint8)
    out[:nh, :nw] = small
    return out, scale


def standardise(img: np.ndarray) -> np.ndarray:
    """1 x 3 x H x W float input: the image (as 0-1) minus its mean, over its standard deviation plus 0.02,
    as in training. OpenCV's mean and deviation per channel make the whole image's, and ``blobFromImage``
    subtracts, scales and reorders in one pass: a seventh of the time numpy took (0.14 against 0.94 ms
    at 224 px), the same numbers to 1e-6."""
    mean, dev = cv2.meanStdDev(img)
    m = float(mean.mean())
    sd = float(np.sqrt(max(float((dev[:, 0] ** 2 + mean[:, 0] ** 2).mean()) - m * m, 0.0)))
    out: np.ndarray = cv2.dnn.blobFromImage(img, scalefactor=1.0 / (sd + 0.02 * 255.0), mean=(m, m, m))
    return out


def decode(out: np.ndarray, stride: int, threshold: float, scale: float = 1.0) -> list[Detection]:
    """Dice from the network's 4 x g x g output: local maxima of the heatmap at least ``threshold``,
    in frame px (input px / ``scale``), one per die (weaker peaks within half a die of a stronger one
    go)."""
    logit = out[0].astype(np.float32)
    # peaks are found on the logits (the sigmoid keeps their order)
    cut = -np.inf if threshold <= 0 else np.inf if threshold >= 1 else float(np.log(threshold / (1 - threshold)))
    peaks = (logit >= cv2.dilate(logit, np.ones((3, 3), np.uint8))) & (logit >= cut)
    ys, xs = np.nonzero(peaks)
    heat = np.zeros_like(logit)
    heat[ys, xs] = 1.0 / (1.0 + np.exp(-logit[ys, xs]))  # the sigmoid only where it is needed
    order = np.argsort(-heat[ys, xs])
    found: list[Detection] = []
    for i in order:
        y, x = int(ys[i]), int(xs[i])
        cx = (x + float(out[1, y, x])) * stride / scale
        cy = (y + float(out[2, y, x])) * stride / scale
        size = float(np.exp(np.clip(out[3, y, x], -3.0, 6.0))) * stride / scale
        if all(np.hypot(cx - d.cx, cy - d.cy) > 0.5 * max(size, d.size) for d in found):
            found.append(Detection(cx, cy, size, float(heat[y, x])))
    return found


@dataclass(frozen=True)
class Found:
    """A frame's detections, and the heatmaps they came from (one per read, with the frame-to-input
    scale), which still say how die-like a place is far below the threshold."""

    dice: list[Detection]
    heatmaps: tuple[tuple[np.ndarray, float], ...]
    stride: int

    def heat(self, cx: float, cy: float, side: float) -> float:
        """The heatmap's highest value (0-1) in a square window of ``side`` frame px centred on (cx, cy),
        over every read."""
        best = -np.inf
        for logit, scale in self.heatmaps:
            k = scale / self.stride
            x0, x1 = max(0, int((cx - side / 2) * k)), int(np.ceil((cx + side / 2) * k)) + 1
            y0, y1 = max(0, int((cy - side / 2) * k)), int(np.ceil((cy + side / 2) * k)) + 1
            cell = logit[y0:y1, x0:x1]
            if cell.size:
                best = max(best, float(cell.max()))
        return float(1.0 / (1.0 + np.exp(-best))) if np.isfinite(best) else 0.0


class DieDetector:
    """Loads the network once; ``detect`` finds the dice of a BGR frame of any size."""

    def __init__(self, model_path: Path | str | None = None, second_read: bool = True,
                 head: Head | None = None) -> None:
        """``head``: the network's last two layers refitted on the table's own dice (``detector_head.py``),
        run in numpy on the shipped network's features; None: the network as shipped."""
        path = Path(model_path) if model_path is not None else DEFAULT_DETECTOR
        self.path = path
        self.head = head
        self.meta: dict[str, Any] = json.loads(path.with_suffix(".json").read_text())
        self.input = int(self.meta["input"])
        self.stride = int(self.meta["stride"])
        self.threshold = float(self.meta["threshold"])
        self.second_read = second_read
        # OpenCV 5's classic engine runs this all-convolution network about a tenth faster than the new
        # one, with the same outputs to 1e-5 on real frames (docs/log/speed-2026-11-27.md).
        engine = getattr(cv2.dnn, "ENGINE_CLASSIC", None)
        self._net = (cv2.dnn.readNetFromONNX(str(path)) if engine is None
                     else cv2.dnn.readNetFromONNX(str(path), engine=engine))

    def heatmap(self, frame: np.ndarray, side: int | None = None) -> tuple[np.ndarray, float]:
        """The raw 4 x gh x gw output for a frame and the scale from frame to input px: the square input
        of the network's own side, or (``side``) the frame at that long side, padded to multiples of 32."""
        img, scale = letterbox(frame, side or self.input, square=side is None)
        self._net.setInput(standardise(img))
        if self.head is not None:
            return self.head.apply(self._net.forward(FEATURES)[0]), scale
        out: np.ndarray = self._net.forward()[0]
        return out, scale

    def features(self, frame: np.ndarray, side: int | None = None) -> tuple[np.ndarray, float]:
        """The c x gh x gw features that feed the network's last two layers (``detector_head.py``) for a
        frame read as ``heatmap`` reads it, and the scale from frame to input px."""
        img, scale = letterbox(frame, side or self.input, square=side is None)
        self._net.setInput(standardise(img))
        feats: np.ndarray = self._net.forward(FEATURES)[0]
        return feats, scale

    def shipped_head(self) -> Head:
        """The last two layers as shipped (the starting point of a table's refit)."""
        return Head.of_net(self._net)

    def second_side(self, frame: np.ndarray) -> int | None:
        """The long side of the second read (``MAX_SIDE``), for a frame larger than that; else None."""
        return MAX_SIDE if self.second_read and max(frame.shape[:2]) > MAX_SIDE else None

    def detect(self, frame: np.ndarray, threshold: float | None = None, die_side: float | None = None
               ) -> list[Detection]:
        """The dice of ``frame`` at least ``threshold`` likely (default: the model's threshold).
        ``die_side``: the die's box side (frame px) as another finder sees it, which tells a second read
        that sees pips from one that sees dice too small for the first (``PIP_SIZE``)."""
        return self.find(frame, threshold, die_side).dice

    def find(self, frame: np.ndarray, threshold: float | None = None, die_side: float | None = None) -> Found:
        """``detect``'s dice, with the heatmaps of the reads that found them."""
        cut = self.threshold if threshold is None else threshold
        out, scale = self.heatmap(frame)
        found = decode(out, self.stride, cut, scale)
        maps: tuple[tuple[np.ndarray, float], ...] = ((out[0], scale),)
        side = self.second_side(frame)
        if side is None:
            return Found(found, maps, self.stride)
        out, second_scale = self.heatmap(frame, side)
        second = decode(out, self.stride, cut, second_scale)
        if die_side and self._sees_pips(found, second, die_side):
            return Found(found, maps, self.stride)
        maps += ((out[0], second_scale),)
        # A large die of the first read stands; where it is sure, what the second read saw on it that is
        # less than half its size (its pips) goes. A doubt must not hide dice: on a frame of tiny dice the
        # first read's few detections are not dice at all.
        large = [d for d in found if d.size * scale >= LARGE_DIE]
        sure = [d for d in large if d.score >= self.threshold]
        second = [e for e in second
                  if all(np.hypot(d.cx - e.cx, d.cy - e.cy) > 0.5 * d.size or e.size > 0.5 * d.size for d in sure)]
        return Found(sorted(second + large, key=lambda d: -d.score), maps, self.stride)

    def _sees_pips(self, first: list[Detection], second: list[Detection], die_side: float) -> bool:
        """Whether the second read's sure dice are pips: far smaller than the die, where the first read's
        sure dice are the die's size."""
        once = [d.size for d in first if d.score >= self.threshold]
        twice = [d.size for d in second if d.score >= self.threshold]
        if not once or not twice:
            return False
        return (float(np.median(twice)) < PIP_SIZE * die_side
                and AGREE[0] * die_side <= float(np.median(once)) <= AGREE[1] * die_side)


def available(model_path: Path | str | None = None) -> bool:
    """Whether the detector's model is on disk (the reader runs without it)."""
    path = Path(model_path) if model_path is not None else DEFAULT_DETECTOR
    return path.exists() and path.with_suffix(".json").exists()
