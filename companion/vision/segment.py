"""Classical die finding: where in the frame are the dice?

A die is a small, roughly square object that differs from the tray around it in colour or brightness and
carries sharp detail (pips, edges). The tray is estimated by a median filter much larger than a die
(the dice vanish from it); what differs from it, in colour or in local detail, is foreground. Blobs of
foreground are dice candidates; blobs about two dice large are split at the narrowest point (touching
dice). Candidates are deliberately generous: the face classifier has a "not a die" class that rejects
tray walls, cables and hands, so a missed die costs more here than an extra candidate.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.order import percentile

WORK_WIDTH = 320  # candidates are found on a frame scaled to this width (speed); boxes map back
MAX_MEDIAN = 255  # the largest median window of the tray model, in quarter-scale px
CRUMB = 0.4  # blobs smaller than this times the upper quartile of blob sizes do not set the die size
PEAK_SCALES = (1.0, 0.7)  # die sizes (times the typical one) sought in blobs of several dice
SAME_WINDOW = 0.45  # windows nearer than this (city-block, times their size) to a placed one are not placed
OBLONG = 1.4  # blobs longer than this times their width are taken for two dice side by side
SMALLEST = 0.25  # blobs smaller than this times the die area are not dice
TRAY = 1 / 7  # the tray model is a median over this share of the frame's width (more once the die size is known)
MIN_SIDE = 12  # dice smaller than this (working px) are searched again at a finer scale ...
FINE_SIDE = 16  # ... where they are this large
LOST_FACE = 1.2  # a die's side over that of its face where the face was lost into the tray model


@dataclass(frozen=True)
class Candidate:
    """A region that may hold one die, in the frame's own pixels."""

    box: tuple[int, int, int, int]  # x0, y0, x1, y1
    center: tuple[float, float]
    size: float  # side of the square that the die's blob fills, px
    angle: float  # orientation of its minimum-area rectangle, degrees


@dataclass(frozen=True)
class _Scale:
    """How finely a frame is searched: the working width, the tray model's median window (a share of
    the width) and the largest hole filled in a blob (working px)."""

    width: int
    tray: float
    hole: float

    @staticmethod
    def for_die(frame_width: int, die: float | None) -> _Scale:
        """The default scale; with a known die size, one where the dice are neither lost as specks
        (``MIN_SIDE``) nor so large that they do not vanish from the tray model."""
        if die is None or die <= 0:
            return _Scale(WORK_WIDTH, TRAY, WORK_WIDTH / 10)
        width = WORK_WIDTH
        if die * WORK_WIDTH / frame_width < MIN_SIDE:
            width = min(frame_width, round(WORK_WIDTH * FINE_SIDE / (die * WORK_WIDTH / frame_width)))
        side = die * width / frame_width
        return _Scale(width, max(TRAY, 3.0 * die / frame_width), max(width / 10, 1.5 * side))


def _foreground(frame: np.ndarray, at: _Scale) -> tuple[np.ndarray, np.ndarray, float, list[float]]:
    """Mask, score map in units of the threshold (above 1 is foreground), scale, and the sides of
    faces lost into the tray model (working px)."""
    h, w = frame.shape[:2]
    scale = at.width / w
    small = cv2.resize(frame, (at.width, max(1, round(h * scale))), interpolation=cv2.INTER_AREA)
    lab8 = cv2.cvtColor(small, cv2.COLOR_BGR2LAB)
    # The tray: a median over ``at.tray`` of the width at quarter scale, where a die is a few pixels.
    tiny = cv2.resize(lab8, (max(1, at.width // 4), max(1, lab8.shape[0] // 4)), interpolation=cv2.INTER_AREA)
    # OpenCV's 8-bit median fails an assertion on very large apertures (a die proposed several times
    # the frame's size asked for ~1,000); past MAX_MEDIAN the window is wider than the image anyway.
    bg_tiny = cv2.medianBlur(tiny, min(MAX_MEDIAN, _odd(round(at.width * at.tray / 4))))
    bg = cv2.resize(bg_tiny, (lab8.shape[1], lab8.shape[0]), interpolation=cv2.INTER_LINEAR)
    # Per plane with OpenCV's arithmetic: numpy on interleaved channels is several times slower here,
    # and splitting the 8-bit planes before the float difference is several times faster than after.
    d_l, d_a, d_b = (cv2.subtract(p, q, dtype=cv2.CV_32F) for p, q in zip(cv2.split(lab8), cv2.split(bg), strict=True))
    d_l = np.maximum(d_l, 0.3 * d_l)  # darker than the tray counts less: shadows
    colour = cv2.sqrt(d_l * d_l + 2.0 * (d_a * d_a + d_b * d_b))
    grey = lab8[..., 0].astype(np.float32)
    mean = cv2.blur(grey, (5, 5))
    detail = cv2.sqrt(np.maximum(cv2.blur(grey * grey, (5, 5)) - mean * mean, 0))
    score = colour + 1.5 * detail
    sample = score[::3, ::3].ravel()  # a robust noise level needs no more than every ninth pixel
    noise = percentile(sample, 50)
    mad = percentile(np.abs(sample - noise), 50) + 1e-3
    thr = max(22.0, noise + 6.0 * mad)
    mask = (score > thr).astype(np.uint8) * 255
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    filled, lost = _fill_holes(mask, at.hole)
    return filled, score / thr, scale, lost


def find_dice(frame: np.ndarray, *, die_size: float | None = None) -> tuple[list[Candidate], float]:
    """Regions that may be dice, and the side of a typical die in frame px (``die_size`` if given).

    Without a die size the frame is searched at the default scale; dice found there as specks (a wide
    frame of a large table) are searched again at a finer scale."""
    w = frame.shape[1]
    if die_size is not None:
        return _find(frame, _Scale.for_die(w, die_size), die_size)[:2]
    cands, side, lost = _find(frame, _Scale.for_die(w, None), None)
    if lost:  # dice so large that their faces went into the tray model: the die is a bit more than the face
        return _find(frame, _Scale.for_die(w, LOST_FACE * float(np.median(lost)) * w / WORK_WIDTH), None)[:2]
    if 0 < side * WORK_WIDTH / w < MIN_SIDE and w > WORK_WIDTH:
        return _find(frame, _Scale.for_die(w, side), None)[:2]
    return cands, side


def _find(frame: np.ndarray, at: _Scale, die_size: float | None) -> tuple[list[Candidate], float, list[float]]:
    """Candidates, die side (frame px) and lost faces (working px) at one scale."""
    mask, score, scale, lost = _foreground(frame, at)
    h, w = frame.shape[:2]
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    min_area = 20
    blobs = [i for i in range(1, n) if stats[i, cv2.CC_STAT_AREA] >= min_area]
    side = die_size * scale if die_size is not None else _typical_side(mask, min_area, at.width)
    out: list[Candidate] = []
    for i in blobs:
        x, y, bw, bh, area = (int(v) for v in stats[i])
        if side > 0 and area < SMALLEST * side * side:
            continue
        fill = area / float(bw * bh)
        if side > 0 and (area > 1.4 * side * side or (area > 0.8 * side * side and fill < 0.6)):
            # Several dice, or dice and something else: look for die-sized peaks at two scales
            # (perspective makes far dice smaller); the classifier and suppression sort them out.
            comp = labels[y : y + bh, x : x + bw] == i
            sub = score[y : y + bh, x : x + bw] * comp
            for k in PEAK_SCALES:
                out += _peaks(sub, x, y, k * side, scale)
            continue
        comp8 = (labels[y : y + bh, x : x + bw] == i).astype(np.uint8)
        cand = _candidate(comp8, x, y, scale, w, h)
        if cand is not None:
            out.append(cand)
    return out, side / scale, lost


def _peaks(score: np.ndarray, x: int, y: int, side: float, scale: float) -> list[Candidate]:
    """Die centres inside a blob of several dice (or dice merged with a wall): local maxima of a
    centre-surround filter the size of a die over the foreground score. Touching dice give one peak
    each, a die pressed against the tray wall still stands out of the wall's straight band."""
    s_in = _odd(round(side))
    s_out = _odd(round(side * 1.6))
    inner = cv2.boxFilter(score, -1, (s_in, s_in), borderType=cv2.BORDER_CONSTANT)
    outer = cv2.boxFilter(score, -1, (s_out, s_out), borderType=cv2.BORDER_CONSTANT)
    a_in, a_out = s_in * s_in, s_out * s_out
    ring = (outer * a_out - inner * a_in) / (a_out - a_in)
    resp = inner - 0.5 * ring
    k = _odd(round(side * 0.7))
    peak = (resp >= cv2.dilate(resp, np.ones((k, k), np.uint8)) - 1e-6) & (inner > 0.8) & (resp > 0.5)
    n, _, _, cents = cv2.connectedComponentsWithStats(peak.astype(np.uint8))
    inv = 1.0 / scale
    half = side * 0.5 * inv
    out = []
    for px, py in cents[1:]:
        cx, cy = (x + px + 0.5) * inv, (y + py + 0.5) * inv
        box = (max(0, int(cx - half)), max(0, int(cy - half)), int(cx + half) + 1, int(cy + half) + 1)
        out.append(Candidate(box, (cx, cy), side * inv, 0.0))
    return out


def _typical_side(mask: np.ndarray, min_area: int, width: int) -> float:
    """The side of a typical die at working scale, from blobs of plausible size and shape.

    A square-ish blob is one die: its side is the root of its area. An oblong blob up to 2.6:1 is two
    dice side by side (or one die seen obliquely): its short side is a die's side. Without the oblong
    ones a tray where every die touches another would be read at twice the die size.
    Crumbs of clutter and shadow at the frame's edges are many but small and must not drag the
    estimate below the dice (which would then each look like several), nor may a few large blobs
    (touching dice, a laptop corner) lift it above them (then lone dice are dropped as crumbs): the
    median is taken over the blobs at least ``CRUMB`` times as large as the upper quartile."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    sides = []
    shorts = []  # the fallback when no blob looks like one or two dice: every blob's short side
    for c in contours:
        area = cv2.contourArea(c)
        if area < min_area:
            continue
        (_, _), (rw, rh), _ = cv2.minAreaRect(c)
        short, long = min(rw, rh), max(rw, rh)
        if short >= 6 and long <= width / 2:
            shorts.append(short)
        if short < 6 or long > width / 4 or area < 0.5 * rw * rh:
            continue
        if long <= OBLONG * short:
            sides.append(np.sqrt(area))
        elif long <= 2.6 * short and area > 0.7 * rw * rh:
            sides.append(short)
    if not sides:
        return float(np.median(shorts)) if shorts else 0.0
    s = np.array(sides)
    return float(np.median(s[s >= CRUMB * np.percentile(s, 75)]))


def _candidate(part: np.ndarray, x: int, y: int, scale: float, w: int, h: int) -> Candidate | None:
    pts = cv2.findNonZero(part)
    if pts is None or len(pts) < 12:
        return None
    (cx, cy), (rw, rh), angle = cv2.minAreaRect(pts)
    size = float(np.sqrt(len(pts)))
    if max(rw, rh) > 2.6 * max(min(rw, rh), 1.0):
        return None  # a stick, an edge or a cable, not a die
    bx, by, bw, bh = cv2.boundingRect(pts)
    inv = 1.0 / scale
    box = (
        max(0, int((x + bx) * inv)),
        max(0, int((y + by) * inv)),
        min(w, int(np.ceil((x + bx + bw) * inv))),
        min(h, int(np.ceil((y + by + bh) * inv))),
    )
    return Candidate(box, ((x + cx + 0.5) * inv, (y + cy + 0.5) * inv), size * inv, float(angle))


def _fill_holes(mask: np.ndarray, largest: float) -> tuple[np.ndarray, list[float]]:
    """Fill die-sized holes (a face whose colour matches the tray), not the inside of the tray wall;
    also the sides of square holes too large to fill (faces of dice too large for the tray model).

    A hole is a contour inside a blob (OpenCV's two-level hierarchy); a region of tray that reaches
    the frame's edge is never one."""
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return mask, []
    limit = largest**2
    holes, large = [], []
    for c, (_, _, _, parent) in zip(contours, hierarchy[0], strict=True):
        if parent < 0:
            continue
        area = _hole_area(c)
        if area < limit:
            holes.append(c)
        elif area < (mask.shape[1] / 4) ** 2:
            (_, _), (rw, rh), _ = cv2.minAreaRect(c)
            if max(rw, rh) <= OBLONG * min(rw, rh) and area >= 0.6 * rw * rh and _holds_pips(mask, c, area):
                large.append(float(np.sqrt(area)))
    if not holes:
        return mask, large
    filled = mask.copy()
    cv2.drawContours(filled, holes, -1, 255, thickness=cv2.FILLED)
    return filled, large


def _holds_pips(mask: np.ndarray, hole: np.ndarray, area: float) -> bool:
    """Whether a hole holds pips: separate blobs inside it, each a small part of it, covering a
    little of it (a lost face keeps its pips; a gap between objects or a mirrored shape rarely
    holds one to six small blobs)."""
    x, y, w, h = cv2.boundingRect(hole)
    inside = np.zeros((h, w), np.uint8)
    cv2.drawContours(inside, [hole - (x, y)], -1, 255, thickness=cv2.FILLED)
    spots = cv2.bitwise_and(mask[y : y + h, x : x + w], inside)
    spots = cv2.erode(spots, np.ones((3, 3), np.uint8))  # the hole's own rim is foreground
    n, _, stats, _ = cv2.connectedComponentsWithStats(spots, connectivity=8)
    sizes = stats[1:, cv2.CC_STAT_AREA]
    pips = sizes[(sizes >= 0.005 * area) & (sizes <= 0.1 * area)]
    return 1 <= len(pips) <= 6 and float(sizes.sum()) <= 0.4 * area


def _hole_area(contour: np.ndarray) -> float:
    """About how many pixels a hole has. Its contour runs through the centres of the blob's pixels
    around it, so the polygon also takes in half a pixel all along the contour."""
    return cv2.contourArea(contour) - 0.5 * cv2.arcLength(contour, True)


def _odd(k: int) -> int:
    return max(3, k | 1)


def windows(candidates: list[Candidate], side: float, frame_shape: tuple[int, ...]) -> list[tuple[int, int, int]]:
    """Square windows (cx, cy, size) for the classifier: one per die-sized candidate, a grid over larger ones.

    A candidate holding several touching dice (or a die merged with the tray wall) is covered by
    overlapping die-sized windows; the classifier's "not a die" class and non-maximum suppression pick
    the dice out of them.
    """
    h, w = frame_shape[:2]
    out: list[tuple[int, int, int]] = []
    if side <= 0:
        return out
    win = side * 1.25
    placed: list[tuple[int, int]] = []
    for c in candidates:
        x0, y0, x1, y1 = c.box
        bw, bh = x1 - x0, y1 - y0
        if max(bw, bh) <= 1.5 * win:
            cx, cy, size = round((x0 + x1) / 2), round((y0 + y1) / 2), round(max(bw, bh, side) * 1.1)
            # Peaks found at two scales often coincide: one window is enough.
            if not placed or np.min(np.abs(np.array(placed) - (cx, cy)).sum(axis=1)) > SAME_WINDOW * size:
                out.append((cx, cy, size))
                placed.append((cx, cy))
            continue
        step = side * 0.5
        nx = max(1, int(np.ceil((bw - win) / step)) + 1)
        ny = max(1, int(np.ceil((bh - win) / step)) + 1)
        for j in range(ny):
            for i in range(nx):
                gx = x0 + win / 2 + (bw - win) * (i / (nx - 1) if nx > 1 else 0.5)
                gy = y0 + win / 2 + (bh - win) * (j / (ny - 1) if ny > 1 else 0.5)
                out.append((round(min(max(gx, 0), w)), round(min(max(gy, 0), h)), round(win)))
                placed.append(out[-1][:2])
    return out
