"""Where the dice lie after a throw: inside the tray's outline, never overlapping, often touching one
another, some pressed against a wall, now and then one leaning on another. Pure numpy."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from training.scenes.die import face_up, rot_axis, top_face


def tray_outline(shape: str, radius: float) -> np.ndarray:
    """The tray's inner outline (k x 2, counter-clockwise): "hexagon", "square" or "round" (48-gon)."""
    k = {"hexagon": 6, "square": 4, "round": 48}[shape]
    start = math.pi / 4 if shape == "square" else 0.0
    a = start + np.arange(k) * 2 * math.pi / k
    return np.stack([np.cos(a), np.sin(a)], 1) * radius


def inside_distance(outline: np.ndarray, p: np.ndarray) -> float:
    """Signed distance from ``p`` to the outline's edges, positive inside (a convex outline)."""
    best = math.inf
    for i in range(len(outline)):
        a, b = outline[i], outline[(i + 1) % len(outline)]
        e = b - a
        n = np.array([-e[1], e[0]]) / np.linalg.norm(e)  # inward for counter-clockwise
        best = min(best, float((p - a) @ n))
    return best


@dataclass
class Placed:
    """One die at rest: centre (x, y, z of its centre), rotation (die frame to world), half side."""

    centre: np.ndarray
    rotation: np.ndarray
    half: float
    leaning: bool = False

    @property
    def value(self) -> int:
        return top_face(self.rotation)

    def footprint(self) -> np.ndarray:
        """The four corners of its square shadow on the floor (x, y), from its yaw."""
        ex = self.rotation[:2, :] @ np.eye(3)
        cols = [ex[:, i] for i in range(3) if abs(self.rotation[2, i]) < 0.7]
        u, v = (cols + [np.array([-cols[0][1], cols[0][0]])])[:2]
        u = u / max(np.linalg.norm(u), 1e-9) * self.half
        v = v / max(np.linalg.norm(v), 1e-9) * self.half
        c = self.centre[:2]
        return np.array([c + u + v, c - u + v, c - u - v, c + u - v])


def squares_overlap(a: np.ndarray, b: np.ndarray, gap: float = 0.0) -> bool:
    """Whether two convex quads (4 x 2) overlap, by separating axes; ``gap`` extra room they must keep."""
    for poly in (a, b):
        for i in range(4):
            e = poly[(i + 1) % 4] - poly[i]
            n = np.array([-e[1], e[0]]) / max(np.linalg.norm(e), 1e-12)
            pa, pb = a @ n, b @ n
            if pa.max() + gap <= pb.min() or pb.max() + gap <= pa.min():
                return False
    return True


def place_dice(
    rng: np.random.Generator,
    outline: np.ndarray,
    count: int,
    half: float,
    floor: float,
    touch: float = 0.5,
    wall: float = 0.25,
    lean: float = 0.08,
    tries: int = 300,
) -> list[Placed]:
    """``count`` dice (fewer if the tray is full) resting on the floor at height ``floor``. Each die is
    put beside one already placed with probability ``touch``, against the wall with ``wall``, else
    anywhere; with ``lean`` it is tilted 15-35 degrees against a neighbour instead of lying flat."""
    placed: list[Placed] = []
    for _ in range(count):
        for _ in range(tries):
            value = int(rng.integers(1, 7))
            yaw = float(rng.uniform(0, 2 * math.pi))
            rot = face_up(value, yaw)
            r = rng.random()
            if placed and r < touch:
                other = placed[int(rng.integers(len(placed)))]
                ang = float(rng.uniform(0, 2 * math.pi))
                d = 2 * half * float(rng.uniform(1.0, 1.35))
                xy = other.centre[:2] + d * np.array([math.cos(ang), math.sin(ang)])
            elif r < touch + wall:
                i = int(rng.integers(len(outline)))
                a, b = outline[i], outline[(i + 1) % len(outline)]
                p = a + (b - a) * float(rng.uniform(0.15, 0.85))
                xy = p * (1 - half * 1.5 / max(float(np.linalg.norm(p)), 1e-9))
            else:
                xy = outline.min(0) + rng.random(2) * (outline.max(0) - outline.min(0))
            centre = np.array([xy[0], xy[1], floor + half])
            die = Placed(centre, rot, half)
            if placed and rng.random() < lean:
                die = _leaning(rng, die, placed, floor)
            if inside_distance(outline, die.centre[:2]) < half * 1.45:
                continue
            if any(
                squares_overlap(die.footprint(), p.footprint(), gap=half * 0.02)
                for p in placed
                if not (die.leaning and p is die)
            ):
                continue
            placed.append(die)
            break
    return placed


def _leaning(rng: np.random.Generator, die: Placed, placed: list[Placed], floor: float) -> Placed:
    """The die tilted about a horizontal axis, as one propped on a neighbour after a throw: its lowest
    edge on the floor, its centre raised accordingly (the footprint kept free, so it never overlaps)."""
    tilt = math.radians(float(rng.uniform(15, 35)))
    axis = np.array([math.cos(rng.uniform(0, math.pi)), math.sin(rng.uniform(0, math.pi)), 0.0])
    rot = rot_axis(axis, tilt) @ die.rotation
    corners = np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)]) * die.half
    low = float((corners @ rot.T)[:, 2].min())
    centre = die.centre.copy()
    centre[2] = floor - low
    return Placed(centre, rot, die.half, leaning=True)
