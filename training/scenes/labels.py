"""Labels from the scene itself: each die's top face value, its box (the projection of its whole
mesh, clipped to the frame) and its top face's centre, in the YOLO-like lines
``training/detector/data.py`` reads: ``class cx cy w h`` normalised, class = value - 1, followed by
the top face centre ``tx ty`` (normalised; readers that want only five columns ignore them)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from training.scenes.camera import Camera
from training.scenes.die import FACE_NORMAL, rounded_cube
from training.scenes.layout import Placed


@dataclass(frozen=True)
class Label:
    value: int
    box: tuple[float, float, float, float]  # x0, y0, x1, y1 pixels, clipped
    top: tuple[float, float]  # the top face's centre, pixels
    top_point: tuple[float, float, float]  # the same in the world

    def yolo(self, width: int, height: int) -> str:
        x0, y0, x1, y1 = self.box
        return (
            f"{self.value - 1} {(x0 + x1) / 2 / width:.6f} {(y0 + y1) / 2 / height:.6f} "
            f"{(x1 - x0) / width:.6f} {(y1 - y0) / height:.6f} {self.top[0] / width:.6f} {self.top[1] / height:.6f}"
        )


def label(die: Placed, cam: Camera, edge: float) -> Label | None:
    """The die's label, or None when it is behind the camera or less than half of its box is in the
    frame (a die cut by the frame's edge still counts, as in the real sets' labels)."""
    v, _, _, _ = rounded_cube(die.half, 2 * die.half * edge, n=2)
    world = v @ die.rotation.T + die.centre
    top_n = die.rotation @ np.array(FACE_NORMAL[die.value], float)
    top_w = die.centre + top_n * die.half
    top = cam.project(top_w[None])[0]
    px = cam.project(world)
    if not np.all(np.isfinite(px)):
        return None
    (a0, b0), (a1, b1) = px.min(0), px.max(0)
    x0, y0 = np.clip([a0, b0], 0, [cam.width, cam.height])
    x1, y1 = np.clip([a1, b1], 0, [cam.width, cam.height])
    if (x1 - x0) * (y1 - y0) < 0.5 * (a1 - a0) * (b1 - b0):
        return None
    return Label(
        die.value,
        (float(x0), float(y0), float(x1), float(y1)),
        (float(top[0]), float(top[1])),
        (float(top_w[0]), float(top_w[1]), float(top_w[2])),
    )
