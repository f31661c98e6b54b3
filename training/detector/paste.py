"""Copy-paste augmentation for the die detector: real dice cut from the fit photos of one set and laid
on the photos of another, or on rendered felt.

Why: left out of training, a set's dice were found at 63-67% (``docs/log/leave-one-source-out-*``),
while a set whose dice were seen on another background kept 99%. What a new table changes first is
which dice lie on which ground; the photos only ever show each source's dice on its own tray. Pasting
(Ghiasi et al., "Simple Copy-Paste", 2021) makes those pairs, and recolouring the pasted die (hue,
brightness, negative: a white die with black pips becomes a black die with white pips) makes dice no
source has.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from training.detector.data import Photo

PAD = 1.3  # a patch's side over its die's (the die's box); the margin is blended away by the mask


@dataclass(frozen=True)
class DiePatch:
    """One labelled die with a margin of its own ground, square, BGR; ``side`` is the die's box side in
    the patch's pixels."""

    image: np.ndarray
    side: float


def cut_patches(photos: list[Photo], min_side: float = 8.0) -> list[DiePatch]:
    """Every die of ``photos`` whose box lies inside its photo and that no other die overlaps much
    (a neighbour pasted along would be an unlabelled part of a die). Where the margin leaves the photo
    (a single-die crop) its edge pixels are repeated; the mask blends most of the margin away."""
    out = []
    for ph in photos:
        h, w = ph.image.shape[:2]
        for i, (cx, cy, s) in enumerate(ph.dice):
            if s < min_side:
                continue
            half = PAD * s / 2
            x0, y0, x1, y1 = round(cx - half), round(cy - half), round(cx + half), round(cy + half)
            inner = 0.45 * s
            if cx - inner < 0 or cy - inner < 0 or cx + inner > w or cy + inner > h:
                continue
            others = np.delete(ph.dice, i, axis=0)
            if len(others) and np.min(np.hypot(others[:, 0] - cx, others[:, 1] - cy) - others[:, 2] / 2) < 0.45 * s:
                continue
            pad = max(0, -x0, -y0, x1 - w, y1 - h)
            image = ph.image if not pad else cv2.copyMakeBorder(ph.image, pad, pad, pad, pad, cv2.BORDER_REPLICATE)
            crop = image[y0 + pad:y1 + pad, x0 + pad:x1 + pad].copy()
            out.append(DiePatch(crop, float(s) * (x1 - x0) / (2 * half)))
    return out


def _mask(n: int, die: float) -> np.ndarray:
    """n x n weights: 1 over the die's box, falling to 0 across the patch's margin (a soft rounded square)."""
    c = (n - 1) / 2
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32)
    r = ((np.abs(xx - c) ** 6 + np.abs(yy - c) ** 6) ** (1 / 6)) / max(die / 2, 1.0)
    return np.clip((1.04 - r) / 0.12, 0.0, 1.0)


def _recolour(rng: np.random.Generator, tile: np.ndarray) -> np.ndarray:
    """A die of another colour: a hue turn, a negative, brighter or darker; sometimes unchanged."""
    out = tile
    if rng.random() < 0.15:
        out = 255 - out
    if rng.random() < 0.5:
        hsv = cv2.cvtColor(out, cv2.COLOR_BGR2HSV).astype(np.float32)
        hsv[..., 0] = (hsv[..., 0] + rng.uniform(0, 180)) % 180
        hsv[..., 1] = np.clip(hsv[..., 1] * rng.uniform(0.6, 1.8) + rng.uniform(0, 40), 0, 255)
        out = cv2.cvtColor(hsv.astype(np.uint8), cv2.COLOR_HSV2BGR)
    if rng.random() < 0.3:
        out = np.clip(out.astype(np.float32) * rng.uniform(0.5, 1.3), 0, 255).astype(np.uint8)
    return out


def paste(rng: np.random.Generator, photo: Photo, patches: list[DiePatch], count: int) -> Photo:
    """``photo`` with up to ``count`` patches laid where they overlap none of its dice, each at about
    its dice's size (a photo without dice: 5-15% of its long side), turned by right angles, maybe
    mirrored and recoloured. Hard negatives under a pasted die are dropped."""
    img = photo.image.copy()
    h, w = img.shape[:2]
    dice = [tuple(float(v) for v in d) for d in photo.dice]
    ref = float(np.median(photo.dice[:, 2])) if len(photo.dice) else rng.uniform(0.05, 0.15) * max(h, w)
    for _ in range(count):
        p = patches[int(rng.integers(len(patches)))]
        s = ref * math.exp(rng.uniform(math.log(0.8), math.log(1.25)))
        n = round(p.image.shape[0] * s / p.side)
        if n < 8 or n >= min(h, w):
            continue
        tile = cv2.resize(p.image, (n, n), interpolation=cv2.INTER_AREA if n < p.image.shape[0] else cv2.INTER_LINEAR)
        tile = np.rot90(tile, int(rng.integers(4)))
        if rng.random() < 0.5:
            tile = tile[:, ::-1]
        tile = _recolour(rng, np.ascontiguousarray(tile))
        for _try in range(10):
            x0, y0 = int(rng.integers(0, w - n + 1)), int(rng.integers(0, h - n + 1))
            cx, cy = x0 + n / 2, y0 + n / 2
            if all(math.hypot(cx - dx, cy - dy) > 0.55 * (s + ds) for dx, dy, ds in dice):
                break
        else:
            continue
        m = _mask(n, s)[..., None]
        roi = img[y0:y0 + n, x0:x0 + n].astype(np.float32)
        img[y0:y0 + n, x0:x0 + n] = (m * tile + (1 - m) * roi).astype(np.uint8)
        dice.append((cx, cy, s))
    negs = photo.negatives
    if len(negs) and len(dice) > len(photo.dice):
        new = np.array(dice[len(photo.dice):], np.float32)
        keep = [all(math.hypot(x - dx, y - dy) > 0.6 * ds for dx, dy, ds in new) for x, y, _ in negs]
        negs = negs[np.array(keep, bool)]
    return Photo(photo.name, photo.stem + "+paste", img, np.array(dice, np.float32).reshape(-1, 3), negs)
