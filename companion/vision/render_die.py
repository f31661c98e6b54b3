"""Drawing one die on a frame: its body, rim and shadow, the pips or the symbol face on top, the side
faces an oblique camera sees, a die cocked against another, marbled and translucent bodies.

Every random draw comes from the frame's generator in a fixed order, so a scene renders the same
frame for the same seed (``render.py`` lays out the scene; ``render_tray.py`` draws the tray)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision import FACES

Face = int | str

# Body colour (BGR) and the usual pip colour for each colour name.
BODY_BGR: dict[str, tuple[int, int, int]] = {
    "white": (236, 238, 240),
    "black": (32, 30, 30),
    "red": (40, 30, 190),
    "blue": (170, 80, 20),
    "green": (60, 150, 30),
    "yellow": (40, 205, 235),
    "other": (140, 60, 120),  # a purple die
}
PIP_BGR: dict[str, tuple[int, int, int]] = {
    "white": (25, 25, 25),
    "black": (235, 235, 235),
    "red": (240, 240, 240),
    "blue": (240, 240, 240),
    "green": (240, 240, 240),
    "yellow": (25, 25, 25),
    "other": (230, 230, 230),
}
WORM_BGR = (40, 60, 170)  # the symbol face: a brick-red worm

# Pip positions on a unit face centred on 0, in units of the face half-width.
_P = 0.5
PIP_LAYOUT: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0.0, 0.0),),
    2: ((-_P, -_P), (_P, _P)),
    3: ((-_P, -_P), (0.0, 0.0), (_P, _P)),
    4: ((-_P, -_P), (_P, -_P), (-_P, _P), (_P, _P)),
    5: ((-_P, -_P), (_P, -_P), (0.0, 0.0), (-_P, _P), (_P, _P)),
    6: ((-_P, -_P), (_P, -_P), (-_P, 0.0), (_P, 0.0), (-_P, _P), (_P, _P)),
}


@dataclass(frozen=True)
class RenderDie:
    """One die to draw: its top face, body colour and optional pose.

    ``angle`` in degrees (None: random), ``center`` in pixels (None: random free spot), ``pip_colour``
    a BGR triple (None: the usual one for the body), ``cocked``: leaning on another die or the wall,
    so the top face is tilted and two faces show. ``marble``: a second body colour swirled through the
    first; ``translucent``: how strongly the pips of the hidden faces show through the body (0-1);
    ``body``: a BGR body colour in place of the named colour's usual tint (``colour`` stays its name);
    ``pip_size``: pips this much larger or smaller than usual.
    """

    face: Face
    colour: str = "white"
    angle: float | None = None
    center: tuple[float, float] | None = None
    pip_colour: tuple[int, int, int] | None = None
    cocked: bool = False
    marble: tuple[int, int, int] | None = None
    translucent: float = 0.0
    body: tuple[int, int, int] | None = None
    pip_size: float = 1.0

    @property
    def body_bgr(self) -> tuple[int, int, int]:
        return self.body or BODY_BGR[self.colour]

    def __post_init__(self) -> None:
        if self.face not in FACES:
            raise ValueError(f"face must be 1-6 or 'worm', not {self.face!r}")
        if self.colour not in BODY_BGR:
            raise ValueError(f"colour must be one of {sorted(BODY_BGR)}, not {self.colour!r}")


def corners(cx: float, cy: float, s: float, angle: float) -> np.ndarray:
    """The four corners of a face of side ``s`` centred on (cx, cy), turned by ``angle`` degrees."""
    a = math.radians(angle)
    c, sn = math.cos(a), math.sin(a)
    half = s / 2
    pts = [(-half, -half), (half, -half), (half, half), (-half, half)]
    return np.array([(cx + x * c - y * sn, cy + x * sn + y * c) for x, y in pts], np.float32)


def _to_frame(cx: float, cy: float, s: float, angle: float, u: float, v: float) -> tuple[float, float]:
    a = math.radians(angle)
    x, y = u * s / 2, v * s / 2
    return cx + x * math.cos(a) - y * math.sin(a), cy + x * math.sin(a) + y * math.cos(a)


def bounding_box(pts: np.ndarray, w: int, h: int) -> tuple[int, int, int, int]:
    """The points' box (x0, y0, x1, y1) in whole pixels, kept inside a ``w`` x ``h`` frame."""
    x0, y0 = np.floor(pts.min(axis=0)).astype(int)
    x1, y1 = np.ceil(pts.max(axis=0)).astype(int)
    return max(0, int(x0)), max(0, int(y0)), min(w, int(x1)), min(h, int(y1))


_SHIFT = 4  # sub-pixel drawing: coordinates times 16
_K = 1 << _SHIFT


def _poly(img: np.ndarray, pts: np.ndarray, colour: tuple[int, int, int]) -> None:
    cv2.fillPoly(img, [np.round(pts * _K).astype(np.int32)], colour, cv2.LINE_AA, _SHIFT)


def _disc(img: np.ndarray, xy: tuple[float, float], r: float, colour: tuple[int, int, int]) -> None:
    centre = (round(xy[0] * _K), round(xy[1] * _K))
    cv2.circle(img, centre, max(1, round(r * _K)), colour, -1, cv2.LINE_AA, _SHIFT)


def _rounded(cx: float, cy: float, s: float, angle: float, r: float = 0.18) -> np.ndarray:
    """A rounded square outline (die body seen from above)."""
    pts = []
    half = 1.0 - r
    for qx, qy, start in ((1, 1, 0), (-1, 1, 90), (-1, -1, 180), (1, -1, 270)):
        for k in range(5):
            t = math.radians(start + k * 22.5)
            pts.append(_to_frame(cx, cy, s, angle, qx * half + r * math.cos(t), qy * half + r * math.sin(t)))
    return np.array(pts, np.float32)


def shadow(img: np.ndarray, cx: float, cy: float, s: float, angle: float) -> None:
    """A soft shadow under the die, drawn first so that the die covers most of it."""
    h, w = img.shape[:2]
    pts = _rounded(cx + s * 0.12, cy + s * 0.15, s * 1.05, angle)
    x0, y0, x1, y1 = bounding_box(pts, w, h)
    pad = int(s * 0.3) + 2
    x0, y0, x1, y1 = max(0, x0 - pad), max(0, y0 - pad), min(w, x1 + pad), min(h, y1 + pad)
    if x1 <= x0 or y1 <= y0:
        return
    mask = np.zeros((h, w), np.float32)
    _poly(mask, pts, (1, 1, 1))
    sub = cv2.GaussianBlur(mask[y0:y1, x0:x1], (0, 0), s * 0.08 + 0.5)
    img[y0:y1, x0:x1] = (img[y0:y1, x0:x1] * (1.0 - 0.45 * sub[..., None])).astype(np.uint8)


def _shade(bgr: tuple[int, int, int], f: float) -> tuple[int, int, int]:
    return (min(255, int(bgr[0] * f)), min(255, int(bgr[1] * f)), min(255, int(bgr[2] * f)))


def draw_die(
    img: np.ndarray,
    rng: np.random.Generator,
    die: RenderDie,
    cx: float,
    cy: float,
    s: float,
    angle: float,
    *,
    glare: bool,
) -> tuple[int, int, int, int]:
    """A die lying flat: rim, top face, its pips or symbol, and a glare spot; returns its box."""
    h, w = img.shape[:2]
    body = die.body_bgr
    # A darker rim (the rounded edges) then the flat top face.
    _poly(img, _rounded(cx, cy, s, angle), _shade(body, 0.72))
    _poly(img, _rounded(cx, cy, s * 0.9, angle, 0.25), _shade(body, float(rng.uniform(0.93, 1.05))))
    if die.marble is not None or die.translucent > 0:
        _body_look(img, rng, die, cx, cy, s, angle)
    _draw_face(img, die, cx, cy, s * 0.9, angle)
    if glare:
        u, v = rng.uniform(-0.5, 0.5, 2)
        gx, gy = _to_frame(cx, cy, s, angle, float(u), float(v))
        disc = np.zeros((h, w), np.float32)
        _disc(disc, (gx, gy), s * float(rng.uniform(0.08, 0.2)), (1, 1, 1))
        spot = cv2.GaussianBlur(disc, (0, 0), s * 0.06 + 0.5)
        img[:] = np.clip(img + 150.0 * spot[..., None], 0, 255).astype(np.uint8)
    return bounding_box(corners(cx, cy, s, angle), w, h)


def _body_look(img: np.ndarray, rng: np.random.Generator, die: RenderDie, cx: float, cy: float, s: float,
               angle: float) -> None:
    """Marbling and translucency, inside the die's outline: a second colour in smooth swirls, and the
    pips of the hidden faces seen blurred through the body."""
    h, w = img.shape[:2]
    x0, y0, x1, y1 = bounding_box(corners(cx, cy, s * 1.1, angle), w, h)
    if x1 - x0 < 4 or y1 - y0 < 4:
        return
    mask = np.zeros((h, w), np.float32)
    _poly(mask, _rounded(cx, cy, s, angle), (1, 1, 1))
    m = mask[y0:y1, x0:x1, None]
    roi: np.ndarray = img[y0:y1, x0:x1].astype(np.float32)
    if die.marble is not None:
        noise = rng.normal(0, 1, (y1 - y0, x1 - x0)).astype(np.float32)
        field: np.ndarray = cv2.GaussianBlur(noise, (0, 0), s * 0.12 + 0.5)
        field = field / (float(field.std()) + 1e-6)
        swirl = 1.0 / (1.0 + np.exp(-3.0 * (field - float(rng.uniform(-0.5, 0.8)))))
        a = (swirl * float(rng.uniform(0.5, 0.9)))[..., None] * m
        roi = roi * (1 - a) + np.array(die.marble, np.float32) * a
    if die.translucent > 0:
        ghost = np.zeros((h, w), np.float32)
        for _ in range(int(rng.integers(1, 3))):
            face = int(rng.integers(1, 7))
            du, dv = rng.uniform(-0.35, 0.35, 2)
            turn = float(rng.uniform(0, 90))
            for u, v in PIP_LAYOUT[face]:
                _disc(ghost, _to_frame(cx, cy, s, angle + turn, u * 1.1 + du, v * 1.1 + dv), s * 0.11, (1, 1, 1))
        g = cv2.GaussianBlur(ghost[y0:y1, x0:x1], (0, 0), s * 0.05 + 0.5)[..., None] * m * die.translucent
        pip = np.array(die.pip_colour or PIP_BGR[die.colour], np.float32)
        roi = roi * (1 - g) + pip * g
    img[y0:y1, x0:x1] = np.clip(roi, 0, 255).astype(np.uint8)


def draw_sides(img: np.ndarray, rng: np.random.Generator, die: RenderDie, cx: float, cy: float, s: float,
                angle: float, tilt: tuple[float, float]) -> np.ndarray:
    """The side faces an oblique camera sees below the top face, shaded, with their pips squashed.
    Returns the foot's corners."""
    top = corners(cx, cy, s, angle)
    d = np.array(tilt, np.float32) * s
    foot: np.ndarray = top + d
    body = die.body_bgr
    pip = die.pip_colour or PIP_BGR[die.colour]
    top_face = die.face if isinstance(die.face, int) else 6
    others = [f for f in range(1, 7) if f not in (top_face, 7 - top_face)]
    centre = top.mean(axis=0)
    for i in range(4):
        a, b = top[i], top[(i + 1) % 4]
        outward = (a + b) / 2 - centre
        if float(outward @ d) <= 0:
            continue  # this side faces away from the camera
        _poly(img, np.array([a, b, b + d, a + d], np.float32), _shade(body, float(rng.uniform(0.55, 0.85))))
        face = others[int(rng.integers(len(others)))]
        r = 0.2 if face == 1 else 0.13
        turns = np.linspace(0, 2 * math.pi, 12, endpoint=False)
        circle = [(math.cos(t) * r * 0.8, math.sin(t) * r * 0.8) for t in turns]
        for u, v in PIP_LAYOUT[face]:
            pu, pv = (u * 0.95 + 1) / 2, (v * 0.95 + 1) / 2  # 0-1 along the edge and down the side
            pts = [a + (b - a) * (pu + cu) + d * (pv + cv) for cu, cv in circle]
            _poly(img, np.array(pts, np.float32), pip)
    return foot


def _draw_face(img: np.ndarray, die: RenderDie, cx: float, cy: float, s: float, angle: float) -> None:
    if die.face == "worm":
        _draw_worm(img, cx, cy, s, angle)
        return
    assert isinstance(die.face, int)
    pip = die.pip_colour or PIP_BGR[die.colour]
    for u, v in PIP_LAYOUT[die.face]:
        r = (0.2 if die.face == 1 else 0.13) * die.pip_size
        _disc(img, _to_frame(cx, cy, s, angle, u * 1.1, v * 1.1), r * s / 2 * 1.6, pip)


def _draw_worm(img: np.ndarray, cx: float, cy: float, s: float, angle: float) -> None:
    """The symbol face: a wriggling worm drawn as a thick sine stroke with a head."""
    pts = []
    for k in range(13):
        u = -0.65 + 1.3 * k / 12
        pts.append(_to_frame(cx, cy, s, angle, u, 0.28 * math.sin(u * 5.0)))
    arr = np.round(np.array(pts) * _K).astype(np.int32)
    thickness = max(1, round(s * 0.14))
    cv2.polylines(img, [arr], False, WORM_BGR, thickness, cv2.LINE_AA, _SHIFT)
    _disc(img, pts[-1], s * 0.11, WORM_BGR)
    _disc(img, _to_frame(cx, cy, s, angle, 0.68, 0.28 * math.sin(0.65 * 5.0) - 0.04), s * 0.025, (20, 20, 20))


def draw_cocked(
    img: np.ndarray, rng: np.random.Generator, die: RenderDie, cx: float, cy: float, s: float, angle: float
) -> tuple[int, int, int, int]:
    """A die leaning over: a foreshortened top face and one side face both show."""
    h, w = img.shape[:2]
    body = die.body_bgr
    a = math.radians(angle)
    lean = float(rng.uniform(0.35, 0.6))
    top = corners(cx, cy, s, angle)
    # Squash the top face along one axis and add the side face below it.
    axis = np.array([math.cos(a), math.sin(a)], np.float32)
    rel = top - np.array([cx, cy], np.float32)
    along = rel @ axis
    top = top - np.outer(along * lean, axis).astype(np.float32)
    side = np.array([top[1], top[2], top[2] + axis * s * lean, top[1] + axis * s * lean], np.float32)
    _poly(img, side, _shade(body, 0.7))
    _poly(img, top, body)
    pip = die.pip_colour or PIP_BGR[die.colour]
    if isinstance(die.face, int):
        for u, v in PIP_LAYOUT[die.face]:
            x, y = _to_frame(cx, cy, s, angle, u * 0.95 * (1 - lean), v * 0.95)
            _disc(img, (x, y), s * 0.09, pip)
    return bounding_box(np.vstack([top, side]), w, h)
