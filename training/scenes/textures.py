"""Surface textures drawn with numpy (linear RGB, 0-1): felt with its fibres, wood grain, speckled
carpet, marbled swirls, glitter flakes. Seeded, so a scene is the same every time."""

from __future__ import annotations

import cv2
import numpy as np


def _noise(rng: np.random.Generator, side: int, blur: float) -> np.ndarray:
    n = rng.normal(0, 1, (side, side)).astype(np.float32)
    if blur > 0:
        n = np.asarray(cv2.GaussianBlur(n, (0, 0), blur, borderType=cv2.BORDER_REFLECT_101), np.float32)
    out: np.ndarray = n / (n.std() + 1e-6)
    return out


def felt(rng: np.random.Generator, colour: tuple[float, float, float], side: int = 256) -> np.ndarray:
    """Felt: the colour with fine fibre noise and a faint blotchiness."""
    k = 1 + 0.12 * _noise(rng, side, 0.7) + 0.06 * _noise(rng, side, 12)
    return np.clip(np.array(colour, np.float32)[None, None] * k[..., None], 0, 1)


def wood(rng: np.random.Generator, colour: tuple[float, float, float], side: int = 512) -> np.ndarray:
    """Wood: bands along x bent by low noise, darker late wood."""
    y = np.linspace(0, 1, side, dtype=np.float32)[:, None] * np.ones((1, side), np.float32)
    warp = _noise(rng, side, 30) * 0.04
    bands = 0.5 + 0.5 * np.sin((y + warp) * float(rng.uniform(40, 120)))
    k = 0.75 + 0.35 * bands**3 + 0.05 * _noise(rng, side, 1)
    base = np.array(colour, np.float32) * np.array([1.0, 0.7, 0.45], np.float32)
    return np.clip(base[None, None] * k[..., None], 0, 1)


def carpet(rng: np.random.Generator, colour: tuple[float, float, float], side: int = 512) -> np.ndarray:
    """Carpet: speckles of three colours, the kind a die-finder mistakes for pips."""
    cols = [
        np.array(colour, np.float32),
        rng.uniform(0, 1, 3).astype(np.float32),
        rng.uniform(0, 0.15, 3).astype(np.float32),
    ]
    n = _noise(rng, side, 1.2)
    out = np.where(n[..., None] > 1.0, cols[1], np.where(n[..., None] < -1.2, cols[2], cols[0]))
    return np.clip(out * (1 + 0.1 * _noise(rng, side, 0.6))[..., None], 0, 1).astype(np.float32)


def marble(
    rng: np.random.Generator,
    a: tuple[float, float, float],
    b: tuple[float, float, float],
    side: int = 256,
    contrast: float = 1.0,
) -> np.ndarray:
    """Two colours swirled: a sine of x bent by turbulence."""
    x = np.linspace(0, 1, side, dtype=np.float32)[None, :] * np.ones((side, 1), np.float32)
    t = _noise(rng, side, 14) * 1.2 + _noise(rng, side, 5) * 0.4
    m = 0.5 + 0.5 * np.sin((x * float(rng.uniform(4, 10)) + t) * np.pi)
    m = np.clip((m - 0.5) * contrast * 2 + 0.5, 0, 1) ** 2
    return (np.array(a, np.float32) * (1 - m[..., None]) + np.array(b, np.float32) * m[..., None]).astype(np.float32)


def flakes(rng: np.random.Generator, side: int = 256, share: float = 0.06) -> np.ndarray:
    """Glitter: where the metallic flakes are (1) in the plastic (0)."""
    return (rng.random((side, side)) < share).astype(np.float32)
