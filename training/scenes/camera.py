"""The camera as a pinhole matrix, the same one Mitsuba's ``perspective`` sensor uses (``look_at``
frame, field of view along x), so labels are the scene's points projected, not guessed from pixels."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Camera:
    origin: tuple[float, float, float]
    target: tuple[float, float, float]
    up: tuple[float, float, float]
    fov: float  # degrees, horizontal
    width: int
    height: int
    aperture: float = 0.0  # thin-lens radius (0: a pinhole, all in focus)
    focus: float = 1.0  # focus distance

    def frame(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Unit vectors right, up and forward of the image."""
        d = np.asarray(self.target, float) - np.asarray(self.origin, float)
        d /= np.linalg.norm(d)
        right = np.cross(d, np.asarray(self.up, float))
        right /= np.linalg.norm(right)
        return right, np.cross(right, d), d

    def focal(self) -> float:
        return self.width / 2 / math.tan(math.radians(self.fov) / 2)

    def project(self, points: np.ndarray) -> np.ndarray:
        """World points (k x 3) to pixels (k x 2; x right, y down); points behind the camera give nan."""
        right, up, fwd = self.frame()
        rel = np.atleast_2d(points) - np.asarray(self.origin, float)
        z = rel @ fwd
        f = self.focal()
        with np.errstate(divide="ignore", invalid="ignore"):
            x = self.width / 2 + f * (rel @ right) / z
            y = self.height / 2 - f * (rel @ up) / z
        out = np.stack([x, y], 1)
        out[z <= 0] = np.nan
        return out


def orbit(target: np.ndarray, distance: float, elevation: float, azimuth: float) -> np.ndarray:
    """A camera position ``distance`` from ``target`` seen ``elevation`` degrees above the table."""
    e, a = math.radians(elevation), math.radians(azimuth)
    return np.asarray(target, float) + distance * np.array(
        [math.cos(e) * math.cos(a), math.cos(e) * math.sin(a), math.sin(e)]
    )


def up_for(origin: np.ndarray, target: np.ndarray, azimuth: float) -> tuple[float, float, float]:
    """The image's up: the far side of the table, which is never parallel to a view from above it."""
    a = math.radians(azimuth)
    return (-math.cos(a), -math.sin(a), 0.0)
