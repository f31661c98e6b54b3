"""Where the tray's floor is in the frame, so that a die-like thing outside it is not read as a die.

Two sources, the surer first: the four ArUco corner markers (``tray.find_tray``; their inner corners
are the floor's corners), else the empty-tray picture taken at calibration (``empty_tray.py``): the
large even area around the picture's centre (the felt), its outline filled and made convex (a tray's
floor is a convex polygon; the dice ghosting a median of rolls and the felt's texture leave holes and
bays that the hull closes). The picture is looked at once per empty tray (``EmptyTray.floor``); a
frame then costs one point-in-polygon test per die.

``from_picture`` answers None, and the reader then filters nothing, when it cannot tell the floor with
confidence: when the even area around the centre fills nearly the whole picture (a bare table: no edge
to tell inside from outside, and a floor guessed smaller than the table would drop real dice), when it
is a small part of it (the centre holds something else), when the centre itself is not even (a busy
picture), when the area is ragged (its colour leaks into the surroundings), or when just outside it
the colour only fades rather than changing clearly (a vignetted cloth or desk: the "edge" is the lens's
dimming, and real dice lie beyond it). A wrong
region costs real dice; no region only lets clutter outside the tray be read, as before."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.tray import Tray

WORK_WIDTH = 160  # the picture is judged shrunk to this width: the floor is far larger than a die
CENTRE = 0.3  # the centre patch (this share of each side) whose colour the floor is grown from
SPREAD = 3.0  # a floor pixel is within this many times the centre patch's own spread of its colour ...
LEAST_STEP = 12.0  # ... and never less than this Lab distance (plain felt has almost no spread)
BUSY = 18.0  # the centre patch's 75th percentile of distance above this: not an even floor
LEAST_SHARE = 0.15  # a floor smaller than this share of the picture: not the tray
FILLS = 0.97  # a floor hull covering this share of the picture: a bare table, nothing to tell by
SOLID = 0.75  # the floor's area / its hull's below this: a ragged area, no clear edge
RING = 4  # px of the small picture: the band just outside the floor that must differ clearly ...
EDGE = 2.0  # ... by this many times the floor's step, ...
SHARP = 0.6  # ... over this share of it (a wall, a rim, a table's other colour; not a vignetted cloth)
MARGIN = 0.75  # a die is inside when its centre lies within this many die sides of the floor


@dataclass(frozen=True)
class TrayRegion:
    """The tray's floor as a convex polygon in the pixels of a picture of ``shape`` (height, width)."""

    polygon: np.ndarray  # N x 2 float32, convex
    shape: tuple[int, int]
    source: str  # "markers" or "empty tray"
    die_px: float | None = None  # the die side the markers give (px of this picture), None from the felt

    @classmethod
    def from_tray(cls, tray: Tray, shape: tuple[int, ...]) -> TrayRegion:
        """The floor from the corner markers seen in a frame of ``shape``."""
        return cls(np.asarray(tray.corners, np.float32).reshape(-1, 2), (int(shape[0]), int(shape[1])), "markers",
                   float(tray.die_px))

    def die_side(self, shape: tuple[int, ...]) -> float | None:
        """The markers' die side in a frame of ``shape`` (None without markers)."""
        return None if self.die_px is None else self.die_px * shape[1] / self.shape[1]

    def distance(self, x: float, y: float, shape: tuple[int, ...]) -> float:
        """How far (frame px, frame of ``shape``) the point lies outside the floor; negative inside."""
        sx, sy = shape[1] / self.shape[1], shape[0] / self.shape[0]
        poly = (self.polygon * np.array([sx, sy], np.float32)).reshape(-1, 1, 2)
        return -float(cv2.pointPolygonTest(poly, (float(x), float(y)), True))

    def inside(self, x: float, y: float, die_side: float, shape: tuple[int, ...]) -> bool:
        """Whether a die of ``die_side`` centred at (x, y) counts: its centre within ``MARGIN`` die
        sides of the floor, so that a die against the wall or up on the rim is still read."""
        return self.distance(x, y, shape) <= MARGIN * die_side


def from_picture(image: np.ndarray) -> TrayRegion | None:
    """The floor of an empty tray's picture (BGR): the even area around the centre, filled and convex;
    None when it cannot be told with confidence (the module's docstring says when)."""
    h, w = image.shape[:2]
    scale = min(1.0, WORK_WIDTH / w)
    small = cv2.resize(image, (max(1, round(w * scale)), max(1, round(h * scale))), interpolation=cv2.INTER_AREA)
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.float32)  # the shrinking evens out the grain
    sh, sw = lab.shape[:2]
    y0, y1 = round(sh * (1 - CENTRE) / 2), round(sh * (1 + CENTRE) / 2)
    x0, x1 = round(sw * (1 - CENTRE) / 2), round(sw * (1 + CENTRE) / 2)
    centre = lab[y0:y1, x0:x1].reshape(-1, 3)
    seed = np.median(centre, axis=0)
    spread = float(np.percentile(np.linalg.norm(centre - seed, axis=1), 75))
    if spread > BUSY:
        return None
    dist = np.linalg.norm(lab - seed, axis=2)
    floor = (dist < max(LEAST_STEP, SPREAD * spread)).astype(np.uint8)
    floor = cv2.morphologyEx(floor, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))  # cut thin bridges out
    n, labels, stats, _ = cv2.connectedComponentsWithStats(floor)
    if n < 2:
        return None
    # the component holding most of the centre patch is the floor
    votes = np.bincount(labels[y0:y1, x0:x1].ravel(), minlength=n)
    votes[0] = 0
    k = int(np.argmax(votes))
    if votes[k] == 0:
        return None
    mask = (labels == k).astype(np.uint8)
    if _sharp_share(mask, dist, max(LEAST_STEP, SPREAD * spread)) < SHARP:
        return None  # the colour fades out (a vignetted table, a cloth): no wall, no edge to trust
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    outline = max(contours, key=cv2.contourArea)
    hull = cv2.convexHull(outline)
    hull_area = float(cv2.contourArea(hull))
    if hull_area < LEAST_SHARE * sh * sw or hull_area >= FILLS * sh * sw:
        return None
    if float(cv2.contourArea(outline)) < SOLID * hull_area:
        return None
    # back to the picture's pixels (pixel centres: +0.5 in the small picture, -0.5 in the large one)
    polygon = ((hull.reshape(-1, 2).astype(np.float32) + 0.5) / scale - 0.5).astype(np.float32)
    return TrayRegion(polygon, (h, w), "empty tray")


def _sharp_share(mask: np.ndarray, dist: np.ndarray, step: float) -> float:
    """The share of the band just outside the floor (away from the picture's border, where the floor
    may simply go on) whose colour is far from the floor's: near 1 at a tray's wall, low where the
    floor's colour only fades (vignetting on a bare table)."""
    ring = cv2.dilate(mask, np.ones((2 * RING + 1, 2 * RING + 1), np.uint8)) > mask
    ring[:RING, :] = ring[-RING:, :] = False
    ring[:, :RING] = ring[:, -RING:] = False
    if not ring.any():
        return 0.0  # the floor runs off every side: a table filling the frame
    return float(np.mean(dist[ring] > EDGE * step))
