"""A second, stricter pip counter: fit the six faces' pip layouts to the die's top face.

Pips are where the colour differs from the face's own, darker or lighter, whatever the colours. A
difference of Gaussians of that colour distance marks round spots of a pip's size. Every face's pips
sit on one 3x3 grid, so the count is the layout (which grid positions hold a pip) that best fits the
marks, over the grid's centre, turn and pitch: a position scores by how pip-like it is beside the
face's strongest mark, and a strong mark the layout leaves unexplained costs it. A best layout that
fits badly gives no count (a symbol face, a smudge).

The reader does not weigh this count into a die's value (the blob counter in ``pips`` does that, with
tallies of how it errs). It only checks the value the reader settled on: where this counter finds a
different number, the die is not answered without a tap. It was measured to disagree with the value
on about half of the wrong dice of a set the network never saw, and on few of the right ones
(docs/vision.md, seventeenth round).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from companion.vision.crops import patch
from companion.vision.order import median_rows

SIDE = 64  # the die is resampled so that its window is this many px
DIE = SIDE / 1.25  # the die's side in the window, px
FAINT = 30.0  # below this colour distance nothing on the face stands out: no count
REACH = 0.34  # marks farther than this (window sides) from the centre are not the top face's
PITCHES = (0.15, 0.17, 0.19, 0.21, 0.23)  # grid pitch (centre to a side's middle), in die sides
TURNS = 12  # grid turns tried over a quarter turn (the layouts repeat every quarter turn)
SHIFTS = (-6, -4, -2, 0, 2, 4, 6)  # grid centre offsets tried each way, px of the window
SIGMAS = (1.6, 4.0)  # the difference of Gaussians: about a pip, and its surroundings
EPS = 0.05  # floor of a position's pip-likeness (and of its emptiness), so no position decides alone
FIT_FLOOR = -3.0  # a best layout fitting worse than this gives no count
STRONG = 0.35  # a mark this strong, beside the strongest, must be explained by the layout

# Grid positions in pitch units: centre, the four corners, the four sides' middles.
_GRID = np.array([[0, 0], [1, 1], [-1, -1], [1, -1], [-1, 1], [1, 0], [-1, 0], [0, 1], [0, -1]], np.float32)


def _layouts() -> tuple[np.ndarray, np.ndarray]:
    """Which grid positions hold a pip, per face; 2, 3 and 6 in both of their orientations."""
    pips = {1: [0], 2: [1, 2], 3: [0, 1, 2], 4: [1, 2, 3, 4], 5: [0, 1, 2, 3, 4], 6: [1, 2, 3, 4, 5, 6]}
    masks, faces = [], []
    for face, on in pips.items():
        mask = np.zeros(9, bool)
        mask[on] = True
        masks.append(mask)
        faces.append(face)
        if face in (2, 3):  # the other diagonal
            other = mask.copy()
            other[[1, 2]], other[[3, 4]] = False, True
            masks.append(other)
            faces.append(face)
        elif face == 6:  # rows instead of columns
            other = mask.copy()
            other[[5, 6]], other[[7, 8]] = False, True
            masks.append(other)
            faces.append(face)
    return np.array(masks), np.array(faces)


_LAYOUTS, _LAYOUT_FACE = _layouts()
_ON = _LAYOUTS.astype(np.float32)
_OFF = 1.0 - _ON


def _grids() -> tuple[np.ndarray, np.ndarray]:
    """Every grid tried: (grids, 9, 2) positions in window px, and each grid's pitch in px."""
    grids, pitches = [], []
    for pitch in PITCHES:
        for k in range(TURNS):
            t = k * (np.pi / 2) / TURNS
            turn = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]], np.float32) * (pitch * DIE)
            base = _GRID @ turn.T
            for dx in SHIFTS:
                for dy in SHIFTS:
                    grids.append(base + np.array([SIDE / 2 + dx, SIDE / 2 + dy], np.float32))
                    pitches.append(pitch * DIE)
    return np.array(grids, np.float32), np.array(pitches, np.float32)


_GRIDS, _GRID_PITCH = _grids()
_MAP_X = np.ascontiguousarray(_GRIDS[:, :, 0].reshape(1, -1))
_MAP_Y = np.ascontiguousarray(_GRIDS[:, :, 1].reshape(1, -1))


@dataclass(frozen=True)
class LayoutFit:
    count: int | None  # 1-6, or None when nothing stands out or no layout fits
    marks: int  # strong pip-like marks on the top face
    margin: float  # log-likelihood of the best layout over the best layout of another face
    fit: float = 0.0  # log-likelihood of the best layout


def pip_evidence(frame: np.ndarray, cx: float, cy: float, size: float) -> tuple[np.ndarray, float]:
    """How pip-like each pixel of the window is, and the largest colour distance near the centre."""
    crop = patch(frame, cx, cy, size, SIDE).astype(np.float32)
    q = SIDE // 4
    face = median_rows(crop[q : 3 * q, q : 3 * q].reshape(-1, 3))
    diff = crop - face
    dist = np.sqrt(np.einsum("ijk,ijk->ij", diff, diff))
    evidence = cv2.GaussianBlur(dist, (0, 0), SIGMAS[0]) - cv2.GaussianBlur(dist, (0, 0), SIGMAS[1])
    return evidence, float(dist[_disc(SIDE, int(0.32 * SIDE))].max())


def fit_layout(frame: np.ndarray, cx: float, cy: float, size: float) -> LayoutFit:
    """The face whose pip layout best fits the die whose window (side ``size``) is centred on (cx, cy)."""
    evidence, contrast = pip_evidence(frame, cx, cy, size)
    if contrast < FAINT:
        return LayoutFit(None, 0, 0.0)
    peaks = (evidence == cv2.dilate(evidence, np.ones((3, 3), np.uint8))) & _disc(SIDE, int(REACH * SIDE))
    ys, xs = np.nonzero(peaks)
    heights = evidence[ys, xs]
    if heights.size == 0 or float(heights.max()) <= 0:
        return LayoutFit(None, 0, 0.0)
    top = float(heights.max())
    # Each grid position: how pip-like it is beside the strongest mark (1: as strong, 0: not at all).
    like = cv2.remap(evidence, _MAP_X, _MAP_Y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    like = np.clip(like.reshape(-1, 9) / top, 0.0, 1.0)
    # (layouts, grids): log-likelihood of each layout on each grid.
    fit = _ON @ np.log(like.T + EPS) + _OFF @ np.log(1.0 - like.T + EPS)
    strong = heights > STRONG * top
    marks = np.stack([xs[strong], ys[strong]], axis=1).astype(np.float32)
    cost = np.log(1.0 - np.clip(heights[strong] / top, 0.0, 1.0) + EPS)  # an unexplained mark's cost
    # Only each layout's best centre for each pitch and turn is checked for unexplained marks.
    shifts = len(SHIFTS) ** 2
    best = fit.reshape(len(fit), -1, shifts).argmax(axis=2) + np.arange(0, fit.shape[1], shifts)  # (layouts, n)
    grids = _GRIDS[best]  # (layouts, n, 9, 2)
    gap = grids[:, :, :, None, :] - marks
    near = np.einsum("lbgmk,lbgmk->lbgm", gap, gap) < (0.5 * _GRID_PITCH[best])[:, :, None, None] ** 2
    explained = (near & _LAYOUTS[:, None, :, None]).any(axis=2)  # (layouts, n, marks)
    total = np.take_along_axis(fit, best, axis=1) + np.where(explained, 0.0, cost).sum(axis=2)
    per_layout = total.max(axis=1)
    per_face = np.array([per_layout[np.equal(_LAYOUT_FACE, f)].max() for f in range(1, 7)])
    first, second = np.argsort(-per_face)[:2]
    if per_face[first] < FIT_FLOOR:
        return LayoutFit(None, int(strong.sum()), 0.0, float(per_face[first]))
    return LayoutFit(int(first) + 1, int(strong.sum()), float(per_face[first] - per_face[second]),
                     float(per_face[first]))


@lru_cache(maxsize=8)
def _disc(side: int, radius: int) -> np.ndarray:
    """Pixels within ``radius`` of the window's centre (symmetric about it, as the grids are)."""
    yy, xx = np.mgrid[:side, :side]
    out: np.ndarray = np.hypot(xx - (side - 1) / 2, yy - (side - 1) / 2) <= radius
    return out
