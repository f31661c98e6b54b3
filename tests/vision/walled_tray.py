"""A tray with walls on a wooden table, drawn for the tray-region tests: the felt floor, a wall band
around it, the table beyond; dice placed where a test says (on the floor, against the wall, up on the
rim, out on the table). The empty tray is the same drawing with no dice."""

from __future__ import annotations

import cv2
import numpy as np

from companion.vision.render import RenderDie, RenderedDie, Scene, render_scene
from companion.vision.render_die import corners
from companion.vision.render_tray import wood

SIZE = (640, 480)
SIDE = 40.0  # die side, px
FLOOR = (150, 80, 490, 400)  # x0, y0, x1, y1: the felt inside the walls
FELT = (70, 110, 60)
WALL_BGR = (120, 170, 205)
TABLE_BGR = (40, 70, 110)
SCENE = Scene(die_size=SIDE, background=FELT, noise=2.0, tray_seed=5)


def paint(img: np.ndarray, drawn: list[RenderedDie], wall: float) -> np.ndarray:
    """The wall band (``wall`` px wide) and the table painted over the felt, except under the dice."""
    x0, y0, x1, y1 = FLOOR
    w = round(wall)
    outer = np.full(img.shape[:2], 255, np.uint8)
    cv2.rectangle(outer, (x0, y0), (x1 - 1, y1 - 1), 0, -1)
    table = np.full(img.shape[:2], 255, np.uint8)
    cv2.rectangle(table, (x0 - w, y0 - w), (x1 - 1 + w, y1 - 1 + w), 0, -1)
    for d in drawn:
        hole = [np.round(corners(d.center[0], d.center[1], d.size * 1.02, d.angle)).astype(np.int32)]
        cv2.fillPoly(outer, hole, 0)
        cv2.fillPoly(table, hole, 0)
    grain = wood(np.random.default_rng(9), np.full_like(img, TABLE_BGR), 10.0)
    out = img.copy()
    out[outer > 0] = WALL_BGR
    out[table > 0] = grain[table > 0]
    return out


def walled(dice: list[RenderDie], *, wall: float = 24.0, seed: int = 1) -> tuple[np.ndarray, list[RenderedDie]]:
    """The frame with ``dice`` (each with its centre given) and what was drawn."""
    frame, drawn = render_scene(dice, SCENE, seed=seed, size=SIZE)
    return paint(frame, drawn, wall), drawn


def empty(*, wall: float = 24.0) -> np.ndarray:
    """The same tray with no dice."""
    return paint(render_scene([], SCENE, seed=100, size=SIZE)[0], [], wall)
