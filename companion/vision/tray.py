"""Optional tray calibration with four ArUco markers at the tray's corners.

Print the sheet from ``make_tray_sheet`` (markers 0-3 of the 4x4_50 dictionary, clockwise from the
top left), cut the four markers out and stick them at the tray's corners, inner corner towards the
tray. Then ``find_tray(frame)`` gives the tray outline, a perspective correction to a top-down view
and the expected die size in pixels, which the reader uses instead of guessing it.

    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "tray.png")
    >>> make_tray_sheet(path).shape[:2]
    (1654, 2339)
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

DICTIONARY = cv2.aruco.DICT_4X4_50
CORNER_IDS = (0, 1, 2, 3)  # top left, top right, bottom right, bottom left
DIE_MM = 16.0  # a standard d6


def _dictionary() -> cv2.aruco.Dictionary:
    return cv2.aruco.getPredefinedDictionary(DICTIONARY)


def make_tray_sheet(path: str | Path, *, paper_mm: tuple[float, float] = (297.0, 210.0),
                    marker_mm: float = 40.0, dpi: int = 200) -> np.ndarray:
    """Write a printable sheet (any format ``cv2.imwrite`` knows by the suffix; PNG is best) at ``dpi``
    with the four corner markers and cut lines, and return it. Print at 100% scale."""
    px_mm = dpi / 25.4
    w, h = round(paper_mm[0] * px_mm), round(paper_mm[1] * px_mm)
    sheet = np.full((h, w), 255, np.uint8)
    side = round(marker_mm * px_mm)
    gap = round(15 * px_mm)
    quiet = round(marker_mm * px_mm * 0.15)  # white border the detector needs around a marker
    spots = [(gap, gap), (w - gap - side, gap), (w - gap - side, h - gap - side), (gap, h - gap - side)]
    for marker_id, (x, y) in zip(CORNER_IDS, spots, strict=True):
        img = cv2.aruco.generateImageMarker(_dictionary(), marker_id, side)
        sheet[y : y + side, x : x + side] = img
        cv2.rectangle(sheet, (x - quiet, y - quiet), (x + side + quiet, y + side + quiet), 160, 1)
        corner = ("top left", "top right", "bottom right", "bottom left")[marker_id]
        label = f"marker {marker_id}: tray corner {corner}"
        cv2.putText(sheet, label, (x, y + side + quiet + round(6 * px_mm)), cv2.FONT_HERSHEY_SIMPLEX,
                    0.25 * px_mm, 0, max(1, round(px_mm / 4)), cv2.LINE_AA)
    note = f"Vegas Table Companion tray markers - print at 100%: each marker is {marker_mm:.0f} mm wide"
    cv2.putText(sheet, note, (gap, h // 2), cv2.FONT_HERSHEY_SIMPLEX, 0.3 * px_mm, 0,
                max(1, round(px_mm / 4)), cv2.LINE_AA)
    if not cv2.imwrite(str(path), sheet):
        raise OSError(f"cannot write {path}")
    return sheet


@dataclass(frozen=True)
class Tray:
    """Where the tray is in a frame."""

    corners: np.ndarray  # 4 x 2, the tray's inner corners in frame px (clockwise from top left)
    homography: np.ndarray  # frame px -> top-down tray px
    size: tuple[int, int]  # top-down view width, height
    die_px: float  # expected die side in frame px
    marker_px: float  # marker side in frame px

    def top_down(self, frame: np.ndarray) -> np.ndarray:
        """The tray seen from straight above."""
        out: np.ndarray = cv2.warpPerspective(frame, self.homography, self.size)
        return out

    def mask(self, shape: tuple[int, ...]) -> np.ndarray:
        """A 0/255 mask of the tray region in frame px."""
        m = np.zeros(shape[:2], np.uint8)
        cv2.fillConvexPoly(m, np.round(self.corners).astype(np.int32), 255)
        return m


def find_tray(frame: np.ndarray, *, marker_mm: float = 40.0, die_mm: float = DIE_MM) -> Tray | None:
    """Detect the four corner markers; None unless all four are seen."""
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
    detector = cv2.aruco.ArucoDetector(_dictionary(), cv2.aruco.DetectorParameters())
    corners, ids, _ = detector.detectMarkers(grey)
    if ids is None:
        return None
    found = {int(i): c.reshape(4, 2) for i, c in zip(ids.ravel(), corners, strict=True)}
    if not all(i in found for i in CORNER_IDS):
        return None
    # The inner corner of each marker (nearest the centre of all four) is the tray corner.
    centre = np.mean([found[i].mean(axis=0) for i in CORNER_IDS], axis=0)
    inner = np.array([min(found[i], key=lambda p: float(np.hypot(*(p - centre)))) for i in CORNER_IDS],
                     np.float32)
    marker_px = float(np.mean([np.linalg.norm(found[i][0] - found[i][1]) for i in CORNER_IDS]))
    px_per_mm = marker_px / marker_mm
    w = int(round(max(np.linalg.norm(inner[0] - inner[1]), np.linalg.norm(inner[3] - inner[2]))))
    h = int(round(max(np.linalg.norm(inner[0] - inner[3]), np.linalg.norm(inner[1] - inner[2]))))
    dst = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32)
    hom = cv2.getPerspectiveTransform(inner, dst)
    return Tray(inner, hom, (max(w, 1), max(h, 1)), die_mm * px_per_mm, marker_px)
