"""Drawing the tray and the camera's faults: felt with an uneven light, wood grain, where the dice lie
(free spots or touching pairs), a hand reaching in, motion blur.

Every random draw comes from the frame's generator in a fixed order (``render.py`` calls these in
turn), so a scene renders the same frame for the same seed."""

from __future__ import annotations

import math
from collections.abc import Sequence

import cv2
import numpy as np

from companion.vision.render_die import RenderDie


def background(rng: np.random.Generator, w: int, h: int, bgr: tuple[int, int, int]) -> np.ndarray:
    """The empty tray's felt in colour ``bgr``."""
    base = np.empty((h, w, 3), np.float32)
    base[:] = bgr
    # Felt texture and an uneven light: low-frequency gradient plus fine noise.
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    gx, gy = rng.uniform(-0.15, 0.15, 2)
    light = 1.0 + gx * (xx / w - 0.5) + gy * (yy / h - 0.5)
    base *= light[..., None]
    grain = cv2.GaussianBlur(rng.normal(0, 6, (h, w)).astype(np.float32), (0, 0), 1.2)
    base += grain[..., None]
    return np.clip(base, 0, 255).astype(np.uint8)


def wood(rng: np.random.Generator, img: np.ndarray, strength: float) -> np.ndarray:
    """Wood grain: noise drawn out into long streaks, turned to a random direction."""
    h, w = img.shape[:2]
    n = int(np.hypot(h, w)) + 2
    raw = cv2.GaussianBlur(rng.normal(0, 1, (n, n)).astype(np.float32), (0, 0), sigmaX=float(rng.uniform(20, 60)),
                           sigmaY=float(rng.uniform(0.8, 2.5)))
    streaks: np.ndarray = raw / (float(raw.std()) + 1e-6)
    turn = cv2.getRotationMatrix2D((n / 2, n / 2), float(rng.uniform(0, 180)), 1.0)
    turn[:, 2] -= ((n - w) / 2, (n - h) / 2)
    streaks = cv2.warpAffine(streaks, turn, (w, h), borderMode=cv2.BORDER_REFLECT)
    out = img.astype(np.float32) + strength * streaks[..., None]
    return np.clip(out, 0, 255).astype(np.uint8)


def place(
    rng: np.random.Generator, dice: Sequence[RenderDie], w: int, h: int, side: float, touching: bool
) -> list[tuple[float, float, float]]:
    """Centres and angles; random free spots, or touching pairs when asked."""
    out: list[tuple[float, float, float]] = []
    margin = side * 0.9
    minimum = side * 1.6
    i = 0
    while i < len(dice):
        die = dice[i]
        angle = die.angle if die.angle is not None else float(rng.uniform(0, 90))
        if die.center is not None:
            out.append((die.center[0], die.center[1], angle))
            i += 1
            continue
        for _ in range(400):
            cx = float(rng.uniform(margin, w - margin))
            cy = float(rng.uniform(margin, h - margin))
            if all(math.hypot(cx - x, cy - y) > minimum for x, y, _ in out):
                break
        if touching and i + 1 < len(dice) and dice[i + 1].center is None:
            # Two dice of the same angle, face to face: the hard case for segmentation.
            a = math.radians(angle)
            dx, dy = math.cos(a) * side * 0.52, math.sin(a) * side * 0.52
            nxt = dice[i + 1].angle
            a2 = nxt if nxt is not None else angle
            out.append((cx - dx, cy - dy, angle))
            out.append((cx + dx, cy + dy, a2))
            i += 2
            continue
        out.append((cx, cy, angle))
        i += 1
    return out


def draw_hand(img: np.ndarray, rng: np.random.Generator, w: int, h: int) -> None:
    """A hand reaching in from one edge: palm ellipse plus four fingers."""
    skin = (int(rng.integers(90, 140)), int(rng.integers(130, 170)), int(rng.integers(180, 225)))
    edge_x = float(rng.uniform(0.2, 0.8)) * w
    reach = float(rng.uniform(0.35, 0.6)) * h
    palm_axes = (int(w * 0.12), int(reach * 0.55))
    cv2.ellipse(img, (int(edge_x), int(reach * 0.45)), palm_axes, 0, 0, 360, skin, -1)
    for k in range(4):
        fx = int(edge_x + (k - 1.5) * w * 0.05)
        tip = (fx + int((k - 1.5) * 6), int(reach * 1.05))
        cv2.line(img, (fx, int(reach * 0.8)), tip, skin, int(w * 0.035))


def motion_blur(img: np.ndarray, length: float, angle: float) -> np.ndarray:
    """The frame smeared along a line ``length`` px long: rolling dice, a shaken camera."""
    n = max(3, int(length) | 1)
    line = np.zeros((n, n), np.float32)
    line[n // 2, :] = 1.0
    rot = cv2.getRotationMatrix2D(((n - 1) / 2, (n - 1) / 2), angle, 1.0)
    kernel = cv2.warpAffine(line, rot, (n, n)).astype(np.float32)
    kernel = kernel / max(float(kernel.sum()), 1e-6)
    return cv2.filter2D(img, -1, kernel)
