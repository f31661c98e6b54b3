"""The marks on a die's six faces drawn into one 3 x 2 atlas (colour and opacity): pips, numerals or
the Heckmeck worm on the 6, painted, inked or engraved (a dark cut ring round the colour)."""

from __future__ import annotations

import cv2
import numpy as np

from companion.vision.render_die import PIP_LAYOUT

CELL = 128
_P = 0.52  # a little wider apart than the 2D renderer's (0.5): the rounded edge takes the rim


def _side(x: float) -> float:
    return _P if x > 0 else -_P if x < 0 else 0.0


# the 2D renderer's layout (companion/vision/render_die.py), spread to this face
PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    v: tuple((_side(x), _side(y)) for x, y in spots) for v, spots in PIP_LAYOUT.items()
}

def _worm(alpha: np.ndarray, x0: int, y0: int) -> None:
    """A wriggling worm: a thick sine stroke with a round head (the symbol face of Heckmeck)."""
    xs = np.linspace(0.18, 0.78, 40)
    ys = 0.5 + 0.16 * np.sin(xs * 11.0)
    pts = np.stack([x0 + xs * CELL, y0 + ys * CELL], 1).astype(np.int32)
    cv2.polylines(alpha, [pts], False, 255, thickness=int(CELL * 0.11), lineType=cv2.LINE_AA)
    cv2.circle(
        alpha,
        (int(x0 + 0.8 * CELL), int(y0 + (0.5 + 0.16 * np.sin(0.8 * 11)) * CELL)),
        int(CELL * 0.09),
        255,
        -1,
        cv2.LINE_AA,
    )


def atlas(kind: str, style: str, pip_size: float = 1.0) -> np.ndarray:
    """H x W x 2 float32: the marks' coverage (channel 0) and where an engraved cut darkens (channel 1).
    ``kind``: "pips", "numerals" or "worm" (pips, with the worm on the 6)."""
    out = np.zeros((2 * CELL, 3 * CELL, 2), np.float32)
    cover = np.zeros((2 * CELL, 3 * CELL), np.uint8)
    cut = np.zeros_like(cover)
    for f in range(1, 7):
        x0, y0 = ((f - 1) % 3) * CELL, ((f - 1) // 3) * CELL
        if kind == "numerals":
            text = str(f)
            scale = CELL / 40
            (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_DUPLEX, scale, int(scale * 2.2))
            org = (int(x0 + (CELL - tw) / 2), int(y0 + (CELL + th) / 2))
            cv2.putText(cover, text, org, cv2.FONT_HERSHEY_DUPLEX, scale, 255, int(scale * 2.2), cv2.LINE_AA)
            if f in (6, 9):  # the underline that tells a 6 from a 9
                cv2.line(cover, (org[0], org[1] + 8), (org[0] + tw, org[1] + 8), 255, int(scale * 2), cv2.LINE_AA)
            if style == "engraved":
                cv2.putText(cut, text, org, cv2.FONT_HERSHEY_DUPLEX, scale, 255, int(scale * 3.4), cv2.LINE_AA)
            continue
        if kind == "worm" and f == 6:
            _worm(cover, x0, y0)
            continue
        r = CELL * 0.09 * pip_size * (1.25 if f == 1 else 1.0)
        for u, v in PIPS[f]:
            c = (int(x0 + CELL / 2 + u * CELL * 0.5 * 0.9), int(y0 + CELL / 2 - v * CELL * 0.5 * 0.9))
            cv2.circle(cover, c, int(r), 255, -1, cv2.LINE_AA)
            if style == "engraved":
                cv2.circle(cut, c, int(r * 1.25), 255, -1, cv2.LINE_AA)
    out[..., 0] = cover / 255.0
    out[..., 1] = np.maximum(cut, cover) / 255.0
    return out
