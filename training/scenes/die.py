"""One die's geometry: which face is up for a rotation, the rounded-cube mesh and the quads its faces'
marks (pips, numerals, the worm) are painted on. Pure numpy, so tests run without Mitsuba."""

from __future__ import annotations

import math

import numpy as np

# Face normals in the die's own frame; opposite faces sum to 7, as on a real die.
FACE_NORMAL: dict[int, tuple[float, float, float]] = {
    1: (0.0, 0.0, 1.0),
    6: (0.0, 0.0, -1.0),
    2: (1.0, 0.0, 0.0),
    5: (-1.0, 0.0, 0.0),
    3: (0.0, 1.0, 0.0),
    4: (0.0, -1.0, 0.0),
}
# Each face's in-plane axes (u, v) with u x v = normal, so marks read the right way round from outside.
FACE_AXES: dict[int, tuple[tuple[float, float, float], tuple[float, float, float]]] = {
    1: ((1, 0, 0), (0, 1, 0)),
    6: ((-1, 0, 0), (0, 1, 0)),
    2: ((0, 1, 0), (0, 0, 1)),
    5: ((0, -1, 0), (0, 0, 1)),
    3: ((0, 0, 1), (1, 0, 0)),
    4: ((0, 0, -1), (1, 0, 0)),
}


def rot_axis(axis: np.ndarray, angle: float) -> np.ndarray:
    """Rotation matrix about ``axis`` by ``angle`` radians (Rodrigues)."""
    a = np.asarray(axis, float)
    a = a / np.linalg.norm(a)
    k = np.array([[0, -a[2], a[1]], [a[2], 0, -a[0]], [-a[1], a[0], 0]])
    out: np.ndarray = np.eye(3) + math.sin(angle) * k + (1 - math.cos(angle)) * (k @ k)
    return out


def face_up(value: int, yaw: float) -> np.ndarray:
    """A rotation that puts face ``value`` on top (+z), turned ``yaw`` radians about the vertical."""
    n = np.array(FACE_NORMAL[value], float)
    z = np.array([0.0, 0.0, 1.0])
    c = float(n @ z)
    if c > 0.999:
        r = np.eye(3)
    elif c < -0.999:
        r = rot_axis(np.array([1.0, 0.0, 0.0]), math.pi)
    else:
        r = rot_axis(np.cross(n, z), math.acos(c))
    return rot_axis(z, yaw) @ r


def top_face(rotation: np.ndarray) -> int:
    """The face whose normal points most nearly up under ``rotation`` (what a player reads)."""
    return max(FACE_NORMAL, key=lambda f: float((rotation @ np.array(FACE_NORMAL[f]))[2]))


def rounded_cube(half: float, radius: float, n: int = 4) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Vertices, vertex normals, texture coordinates and triangles of a cube of half-side ``half`` with
    edges and corners rounded to ``radius``: each face a grid whose outer rows bend round the edge, and
    face f textured by cell f-1 of a 3 x 2 atlas (``marks.py``), drawn the right way round from outside."""
    c = half - radius
    bend = [c + radius * math.sin(k * math.pi / 2 / n) for k in range(1, n + 1)]
    t = np.array([-b for b in reversed(bend)] + [-c, 0.0, c] + bend)
    verts: list[np.ndarray] = []
    tris: list[tuple[int, int, int]] = []
    uvs: list[tuple[float, float]] = []
    for f in FACE_NORMAL:
        nrm = np.array(FACE_NORMAL[f], float)
        u, v = (np.array(a, float) for a in FACE_AXES[f])
        col, row = (f - 1) % 3, (f - 1) // 3
        base = len(verts)
        for a in t:
            for b in t:
                verts.append(nrm * half + u * a + v * b)
                # image rows grow downwards, v upwards
                uvs.append(((col + (a / half + 1) / 2) / 3, 1 - (row + (1 - b / half) / 2) / 2))
        m = len(t)
        for i in range(m - 1):
            for j in range(m - 1):
                p, q, r, s = base + i * m + j, base + (i + 1) * m + j, base + (i + 1) * m + j + 1, base + i * m + j + 1
                tris += [(p, q, r), (p, r, s)]
    pts = np.array(verts)
    core = np.clip(pts, -c, c)
    d = pts - core
    norms = d / np.maximum(np.linalg.norm(d, axis=1, keepdims=True), 1e-9)
    return core + norms * radius, norms, np.array(uvs), np.array(tris, np.int64)
