"""Classical pip counting on one die: the reader's second opinion.

The top face is the flat region around the die's centre; pips are round blobs on it that differ from
the face colour, darker or lighter, whatever the colours (black pips on white, white on red, yellow on
green). Counting only round blobs of similar size near the centre ignores the pips of side faces, which
an oblique camera sees squashed at the die's rim. The classifier and this counter fail differently:
when they disagree the die is uncertain.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from companion.vision.crops import patch
from companion.vision.order import median_rows, percentile

SIDE = 64  # the die is resampled so that its window is this many px
MIRROR_TOL = 0.1  # a pip's mirror image through the face centre must fall this near another pip (die sides)
CENTRE_SHIFT = 0.2  # the face centre may be this far from the window's centre (die sides)


@dataclass(frozen=True)
class PipCount:
    count: int | None  # 1-6, or None when the blobs do not look like a pip pattern
    blobs: int  # round blobs found on the top face
    quality: float  # 0-1: how alike in size the counted blobs are


def count_pips(frame: np.ndarray, cx: float, cy: float, size: float) -> PipCount:
    """Count the pips of the die whose window (a square of side ``size``) is centred on (cx, cy)."""
    crop = patch(frame, cx, cy, size, SIDE).astype(np.float32)
    centre = crop[SIDE // 4 : 3 * SIDE // 4, SIDE // 4 : 3 * SIDE // 4].reshape(-1, 3)
    diff = crop - median_rows(centre)
    dist = np.sqrt(np.einsum("ijk,ijk->ij", diff, diff))
    inner = _disc(SIDE, int(0.40 * SIDE))
    # The threshold comes from the core of the face only: the tray at the die's corners may differ
    # from the face far more than its pips do (red pips on a black die on a light tray).
    values = dist[_disc(SIDE, int(0.32 * SIDE))]
    if values.size == 0 or float(values.max()) < 30.0:
        return PipCount(None, 0, 0.0)
    thr = max(30.0, 0.55 * percentile(values, 98))
    mask = ((dist > thr) & inner).astype(np.uint8)
    n, _, stats, cents = cv2.connectedComponentsWithStats(mask, connectivity=4)
    die_px = (SIDE / 1.25) ** 2
    st, ce = stats[1:].astype(np.float32), cents[1:].astype(np.float32)
    w, h, area = st[:, cv2.CC_STAT_WIDTH], st[:, cv2.CC_STAT_HEIGHT], st[:, cv2.CC_STAT_AREA]
    ok = (
        (np.hypot(ce[:, 0] - SIDE / 2, ce[:, 1] - SIDE / 2) <= 0.34 * SIDE)
        & (area >= 0.004 * die_px) & (area <= 0.09 * die_px)
        & (np.maximum(w, h) <= 2.6 * np.minimum(w, h))  # squashed: a side-face pip or an edge
        & (area >= 0.4 * w * h)
    )
    if not ok.any():
        return PipCount(None, 0, 0.0)
    areas = [float(v) for v in area[ok]]
    centres = ce[ok]
    keep_sym = _point_symmetric(centres, SIDE / 1.25)
    areas = [a for a, k in zip(areas, keep_sym, strict=True) if k]
    if not areas:
        return PipCount(None, 0, 0.0)
    a = np.array(areas, np.float32)
    big = percentile(a, 50)
    keep = a[a > 0.35 * big]
    # Two pips merged at low resolution make one blob of about twice the area of a single pip.
    single = float(np.min(keep)) if len(keep) > 1 else big
    merged = np.clip(np.round(keep / max(single, 1.0)), 1, 3) if single > 0.01 * die_px else np.ones(len(keep))
    per_pip = keep / merged
    spread = float(np.std(per_pip)) / max(float(np.mean(per_pip)), 1.0)
    quality = 1.0 - min(1.0, spread)
    count = int(merged.sum())
    return PipCount(count if 1 <= count <= 6 else None, count, quality)


def _point_symmetric(pts: np.ndarray, die: float) -> np.ndarray:
    """Which blobs belong to a pip pattern: every face's pips are symmetric about the face's centre,
    so each pip has a mirror image through it (the middle pip of 1, 3 and 5 is its own). Pips of a
    side face at the rim, glints and marbling have none. The centre is sought near the window's centre
    among the blobs and the midpoints of blob pairs, keeping the one that explains the most blobs."""
    n = len(pts)
    if n <= 1:
        return np.ones(n, bool)
    mid = np.float32(SIDE / 2)
    i, j = _pairs(n)
    centres = np.vstack([pts, (pts[i] + pts[j]) / 2, [[mid, mid]]])
    centres = centres[np.hypot(centres[:, 0] - mid, centres[:, 1] - mid) < CENTRE_SHIFT * die]
    if len(centres) == 0:
        return np.ones(n, bool)
    tol = MIRROR_TOL * die
    # mirror[c, a, b]: blob b is where blob a lands when mirrored through centre c
    mirrored = 2 * centres[:, None, :] - pts[None, :, :]
    near = np.hypot(mirrored[:, :, None, 0] - pts[None, None, :, 0],
                    mirrored[:, :, None, 1] - pts[None, None, :, 1]) < tol
    explained = near.any(axis=2)
    score = explained.sum(axis=1) - 0.01 * np.hypot(centres[:, 0] - mid, centres[:, 1] - mid)
    kept: np.ndarray = explained[int(np.argmax(score))]
    return kept


@lru_cache(maxsize=64)
def _pairs(n: int) -> tuple[np.ndarray, np.ndarray]:
    """Every pair of n blobs (numpy's triu_indices, made once per n: it costs a tenth of a count)."""
    i, j = np.triu_indices(n, 1)
    return i, j


@lru_cache(maxsize=64)
def _disc(side: int, radius: int) -> np.ndarray:
    mask = np.zeros((side, side), np.uint8)
    cv2.circle(mask, (side // 2, side // 2), radius, 1, -1)
    out: np.ndarray = mask > 0
    return out
