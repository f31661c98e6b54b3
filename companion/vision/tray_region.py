"""Where the tray's floor is in the frame, so that a die-like thing outside it is not read as a die.

Two sources, the surer first: the four ArUco corner markers (``tray.find_tray``; their inner corners
are the floor's corners), else the empty-tray picture taken at calibration (``empty_tray.py``): the area
around the picture's centre that no edge crosses (the felt up to the crease or wall), its outline
filled and made convex (a tray's floor is a convex polygon; the hull closes the bays a prop or a shadow
leaves). The picture is looked at once per empty tray (``EmptyTray.floor``); a frame then costs one
point-in-polygon test per die.

``from_picture`` answers None, and the reader then filters nothing, when it cannot tell the floor with
confidence: when the area fills nearly the whole picture (a bare table or desk: no edge to tell
inside from outside), when it is a small part of it (the centre holds something else, or the
picture is busy), when it is ragged, or when just beyond its edge the colour goes on as the floor's
(a cable across a desk, a seam, a vignetted cloth: that edge is no wall, and real dice lie beyond it).
A wrong floor costs real dice; no floor only lets clutter outside the tray be read, as before. On the
webcam set's desks no picture gives a floor; on a real tray with walls (nell-byler-d6, dice painted
out of the photos) a fifth do (``training/experiments/tray_margin.py``)."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.tray import Tray

WORK_WIDTH = 160  # the picture is judged shrunk to this width: the floor is far larger than a die
CANNY = (20, 60)  # edge thresholds (grey, shrunk picture): a tray's crease, wall or rim; not felt grain
CENTRE = 0.3  # the area holding most of the centre patch (this share of each side) is the floor
SPREAD = 3.0  # the floor's step: this many times the floor's own colour spread (75th percentile) ...
LEAST_STEP = 12.0  # ... and never less than this Lab distance (plain felt has almost no spread)
RING = 4  # px of the small picture: the band just outside the floor's edge, away from the border, ...
SHARP = 0.75  # ... must differ from the floor by more than its step over this share (a wall, a rim)
LEAST_SHARE = 0.15  # a floor smaller than this share of the picture: not the tray
FILLS = 0.97  # a floor hull covering this share of the picture: a bare table, nothing to tell by
SOLID = 0.75  # the floor's area / its hull's below this: a ragged area, no clear edge
# A die counts when its centre lies within this many die sides of the floor the empty picture shows:
# dice against a sloped wall lie beyond its crease (1.33 label sides at most on nell-byler-d6's train
# photos, tray_margin.py; at 1.5 a die in a corner was lost, at 2.0 none: tray_region_check.py) ...
MARGIN = 2.0
# ... and of the markers' inner corners, stuck at the tray's own corners: a marker (40 mm, 2.5 dice)
# has its centre 1.77 die sides out, and must never be read as a die.
MARKER_MARGIN = 1.0


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
        sides of the floor (``MARKER_MARGIN`` of the markers' corners), so that a die against the wall
        or up on the rim is still read."""
        return self.distance(x, y, shape) <= (MARKER_MARGIN if self.source == "markers" else MARGIN) * die_side


def from_picture(image: np.ndarray) -> TrayRegion | None:
    """The floor of an empty tray's picture (BGR): the area around the centre that no edge crosses,
    filled and convex; None when it cannot be told with confidence (the module's docstring says when)."""
    h, w = image.shape[:2]
    scale = min(1.0, WORK_WIDTH / w)
    small = cv2.resize(image, (max(1, round(w * scale)), max(1, round(h * scale))), interpolation=cv2.INTER_AREA)
    edges = cv2.dilate(cv2.Canny(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), *CANNY), np.ones((3, 3), np.uint8))
    n, labels = cv2.connectedComponents((edges == 0).astype(np.uint8), connectivity=4)
    sh, sw = labels.shape
    y0, y1 = round(sh * (1 - CENTRE) / 2), round(sh * (1 + CENTRE) / 2)
    x0, x1 = round(sw * (1 - CENTRE) / 2), round(sw * (1 + CENTRE) / 2)
    votes = np.bincount(labels[y0:y1, x0:x1].ravel(), minlength=n)
    votes[0] = 0  # the edges themselves
    if n < 2 or votes.max() == 0:
        return None
    mask = (labels == int(np.argmax(votes))).astype(np.uint8)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    outline = max(contours, key=cv2.contourArea)
    hull = cv2.convexHull(outline)
    hull_area = float(cv2.contourArea(hull))
    if not LEAST_SHARE * sh * sw <= hull_area < FILLS * sh * sw:
        return None
    if float(cv2.contourArea(outline)) < SOLID * hull_area:
        return None
    if _sharp_share(mask, cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.float32)) < SHARP:
        return None  # beyond the edge the floor goes on (a cable, a seam, a vignetted desk)
    # back to the picture's pixels (pixel centres: +0.5 in the small picture, -0.5 in the large one);
    # the edge's dilation took a pixel off the floor all round: given back
    wider, _ = cv2.findContours(cv2.dilate(mask, np.ones((3, 3), np.uint8)), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    grown = cv2.convexHull(max(wider, key=cv2.contourArea))
    polygon = ((grown.reshape(-1, 2).astype(np.float32) + 0.5) / scale - 0.5).astype(np.float32)
    return TrayRegion(polygon, (h, w), "empty tray")


def _sharp_share(mask: np.ndarray, lab: np.ndarray) -> float:
    """The share of the band just beyond the floor's edge (away from the picture's border, where the
    floor may simply go on) whose colour differs from the floor's by more than its step: near 1 at a
    tray's wall or rim, low where the same desk goes on past a cable or only dims (vignetting)."""
    floor = lab[mask > 0]
    seed = np.median(floor, axis=0)
    step = max(LEAST_STEP, SPREAD * float(np.percentile(np.linalg.norm(floor - seed, axis=1), 75)))
    near = cv2.dilate(mask, np.ones((3, 3), np.uint8))  # past the edge pixels themselves
    ring = cv2.dilate(mask, np.ones((2 * RING + 3, 2 * RING + 3), np.uint8)) > near
    ring[: RING + 1, :] = False
    ring[-RING - 1 :, :] = False
    ring[:, : RING + 1] = False
    ring[:, -RING - 1 :] = False
    if not ring.any():
        return 0.0  # the floor runs off every side: a table filling the frame
    return float(np.mean(np.linalg.norm(lab[ring] - seed, axis=1) > step))
