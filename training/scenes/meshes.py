"""Meshes the scene needs that Mitsuba has no shape for, written as OBJ files: the rounded die, the
marks' quads, the tray's floor, its walls and the seam along their foot."""

from __future__ import annotations

from pathlib import Path

import numpy as np


def write_obj(
    path: Path, verts: np.ndarray, tris: np.ndarray, uv: np.ndarray | None = None, normals: np.ndarray | None = None
) -> Path:
    lines = [f"v {x:.6f} {y:.6f} {z:.6f}" for x, y, z in verts]
    if uv is not None:
        lines += [f"vt {u:.6f} {v:.6f}" for u, v in uv]
    if normals is not None:
        lines += [f"vn {x:.6f} {y:.6f} {z:.6f}" for x, y, z in normals]
    for a, b, c in tris + 1:
        if uv is not None and normals is not None:
            lines.append(f"f {a}/{a}/{a} {b}/{b}/{b} {c}/{c}/{c}")
        elif uv is not None:
            lines.append(f"f {a}/{a} {b}/{b} {c}/{c}")
        elif normals is not None:
            lines.append(f"f {a}//{a} {b}//{b} {c}//{c}")
        else:
            lines.append(f"f {a} {b} {c}")
    path.write_text("\n".join(lines) + "\n")
    return path


def polygon(outline: np.ndarray, z: float, uv_scale: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A convex outline filled as a fan (facing up), uv from x and y."""
    verts = np.vstack([[0.0, 0.0, z], np.column_stack([outline, np.full(len(outline), z)])])
    k = len(outline)
    tris = np.array([(0, 1 + i, 1 + (i + 1) % k) for i in range(k)], np.int64)
    return verts, verts[:, :2] / uv_scale, tris


def walls(
    outline: np.ndarray, bottom: float, top: float, thick: float, uv_scale: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The tray's rim: inner face, flat top and outer face of a band ``thick`` wide round the outline."""
    c = np.linalg.norm(outline, axis=1, keepdims=True)
    outer = outline * (c + thick) / c
    rings = [(outline, bottom), (outline, top), (outer, top), (outer, 0.0)]
    verts, uv, tris = [], [], []
    k = len(outline)
    for r, (ring, z) in enumerate(rings):
        for i in range(k + 1):
            p = ring[i % k]
            verts.append((p[0], p[1], z))
            uv.append((i / k * 8, z / uv_scale + r))
    for r in range(len(rings) - 1):
        for i in range(k):
            a, b = r * (k + 1) + i, r * (k + 1) + i + 1
            c2, d = a + k + 1, b + k + 1
            tris += [(a, c2, d), (a, d, b)]
    return np.array(verts), np.array(uv), np.array(tris, np.int64)


def seam(outline: np.ndarray, z: float, inset: float, width: float) -> tuple[np.ndarray, np.ndarray]:
    """A thin band on the floor, ``inset`` in from the wall: the stitched edge of the felt."""
    c = np.linalg.norm(outline, axis=1, keepdims=True)
    a = outline * (c - inset) / c
    b = outline * (c - inset - width) / c
    k = len(outline)
    verts = np.vstack([np.column_stack([a, np.full(k, z)]), np.column_stack([b, np.full(k, z)])])
    tris = []
    for i in range(k):
        j = (i + 1) % k
        tris += [(i, j, k + j), (i, k + j, k + i)]
    return verts, np.array(tris, np.int64)
