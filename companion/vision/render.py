"""A synthetic dice-tray renderer.

It draws top-down frames of a tray with dice on it, and knows exactly what it drew, so it serves the
mock camera, the settle-detector tests and the edge cases real photos rarely show (symbol faces, a hand
in the tray, a cocked die). Rendered frames are never used for accuracy claims: they are too clean.

    >>> frame, drawn = render_dice([RenderDie(3, "red"), RenderDie("worm", "white")], seed=1)
    >>> frame.shape, [d.face for d in drawn]
    ((480, 640, 3), [3, 'worm'])
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

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


@dataclass(frozen=True)
class RenderedDie:
    """A die as drawn: what it shows and where, in the frame's pixels."""

    face: Face
    colour: str
    center: tuple[float, float]
    box: tuple[int, int, int, int]
    angle: float
    size: float
    cocked: bool = False


@dataclass(frozen=True)
class Scene:
    """Conditions of a rendered frame (all optional)."""

    die_size: float | None = None  # face width in px; None: about 1/11 of the short side
    touching: bool = False  # place dice in touching pairs
    glare: bool = False  # specular spots on some dice
    noise: float = 0.0  # sensor noise, std-dev in grey levels
    dim: float = 1.0  # overall brightness factor, e.g. 0.4 for a dim room
    hand: bool = False  # a hand reaching into the tray
    blur: float = 0.0  # motion blur length in px (rolling dice, a shaken camera)
    background: tuple[int, int, int] = (118, 124, 120)  # tray felt, BGR
    # An oblique camera: each die's foot is shifted by this much (in die sides, x and y) from its top
    # face, so the side faces turned to the camera show, pips and all, as in a webcam beside a desk.
    tilt: tuple[float, float] = (0.0, 0.0)
    grain: float = 0.0  # wood grain in the tray: streaks along one direction, this strong (grey levels)
    # The tray's own texture and light drawn from this seed rather than the frame's: one fixed tray under
    # one fixed camera for every roll (the mock camera), so an empty frame is that tray's empty reference.
    tray_seed: int | None = None


def render_dice(
    dice: Sequence[RenderDie],
    *,
    seed: int,
    size: tuple[int, int] = (640, 480),
    die_size: float | None = None,
    touching: bool = False,
    glare: bool = False,
    noise: float = 0.0,
    dim: float = 1.0,
    hand: bool = False,
    blur: float = 0.0,
    background: tuple[int, int, int] = (118, 124, 120),
    tilt: tuple[float, float] = (0.0, 0.0),
    grain: float = 0.0,
) -> tuple[np.ndarray, list[RenderedDie]]:
    """Draw ``dice`` on a tray and return the BGR frame (``size`` is width, height) and what was drawn.

    The same arguments and ``seed`` always give the same frame.
    """
    scene = Scene(die_size, touching, glare, noise, dim, hand, blur, background, tilt, grain)
    return render_scene(dice, scene, seed=seed, size=size)


def render_scene(
    dice: Sequence[RenderDie], scene: Scene, *, seed: int, size: tuple[int, int] = (640, 480)
) -> tuple[np.ndarray, list[RenderedDie]]:
    """Like ``render_dice`` with the conditions gathered in a ``Scene``."""
    rng = np.random.default_rng(seed)
    width, height = size
    side = scene.die_size or min(width, height) / 11.0
    img = _background(rng, width, height, scene.background)
    if scene.grain > 0:
        img = _wood(rng, img, scene.grain)
    if scene.tray_seed is not None:  # the frame's own draws above still happen, so its dice lie as before
        tray = np.random.default_rng(scene.tray_seed)
        img = _background(tray, width, height, scene.background)
        if scene.grain > 0:
            img = _wood(tray, img, scene.grain)
    placed = _place(rng, dice, width, height, side, scene.touching)
    drawn: list[RenderedDie] = []
    for die, (cx, cy, angle) in zip(dice, placed, strict=True):
        s = side * float(rng.uniform(0.95, 1.05))
        _shadow(img, cx, cy, s, angle)
        if die.cocked:
            box = _draw_cocked(img, rng, die, cx, cy, s, angle)
        else:
            foot = _draw_sides(img, rng, die, cx, cy, s, angle, scene.tilt) if any(scene.tilt) else None
            box = _draw_die(img, rng, die, cx, cy, s, angle, glare=scene.glare and rng.random() < 0.6)
            if foot is not None:
                box = _box(np.vstack([_corners(cx, cy, s, angle), foot]), width, height)
        drawn.append(RenderedDie(die.face, die.colour, (cx, cy), box, angle % 90.0, s, die.cocked))
    if scene.hand:
        _draw_hand(img, rng, width, height)
    out = img.astype(np.float32)
    if scene.blur > 0:
        out = _motion_blur(out, scene.blur, float(rng.uniform(0, 180)))
    out *= scene.dim
    if scene.noise > 0:
        out += rng.normal(0.0, scene.noise, out.shape).astype(np.float32)
    return np.clip(out, 0, 255).astype(np.uint8), drawn


def random_dice(rng: np.random.Generator, n: int, *, worms: bool = True) -> list[RenderDie]:
    """``n`` dice with random faces and colours (for mock mode and fuzzing)."""
    faces: list[Face] = list(FACES if worms else FACES[:6])
    colours = list(BODY_BGR)
    return [
        RenderDie(faces[int(rng.integers(len(faces)))], colours[int(rng.integers(len(colours)))])
        for _ in range(n)
    ]


def _background(rng: np.random.Generator, w: int, h: int, bgr: tuple[int, int, int]) -> np.ndarray:
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


def _wood(rng: np.random.Generator, img: np.ndarray, strength: float) -> np.ndarray:
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


def _place(
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


def _corners(cx: float, cy: float, s: float, angle: float) -> np.ndarray:
    a = math.radians(angle)
    c, sn = math.cos(a), math.sin(a)
    half = s / 2
    pts = [(-half, -half), (half, -half), (half, half), (-half, half)]
    return np.array([(cx + x * c - y * sn, cy + x * sn + y * c) for x, y in pts], np.float32)


def _to_frame(cx: float, cy: float, s: float, angle: float, u: float, v: float) -> tuple[float, float]:
    a = math.radians(angle)
    x, y = u * s / 2, v * s / 2
    return cx + x * math.cos(a) - y * math.sin(a), cy + x * math.sin(a) + y * math.cos(a)


def _box(pts: np.ndarray, w: int, h: int) -> tuple[int, int, int, int]:
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


def _shadow(img: np.ndarray, cx: float, cy: float, s: float, angle: float) -> None:
    h, w = img.shape[:2]
    pts = _rounded(cx + s * 0.12, cy + s * 0.15, s * 1.05, angle)
    x0, y0, x1, y1 = _box(pts, w, h)
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


def _draw_die(
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
    return _box(_corners(cx, cy, s, angle), w, h)


def _body_look(img: np.ndarray, rng: np.random.Generator, die: RenderDie, cx: float, cy: float, s: float,
               angle: float) -> None:
    """Marbling and translucency, inside the die's outline: a second colour in smooth swirls, and the
    pips of the hidden faces seen blurred through the body."""
    h, w = img.shape[:2]
    x0, y0, x1, y1 = _box(_corners(cx, cy, s * 1.1, angle), w, h)
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


def _draw_sides(img: np.ndarray, rng: np.random.Generator, die: RenderDie, cx: float, cy: float, s: float,
                angle: float, tilt: tuple[float, float]) -> np.ndarray:
    """The side faces an oblique camera sees below the top face, shaded, with their pips squashed.
    Returns the foot's corners."""
    top = _corners(cx, cy, s, angle)
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


def _draw_cocked(
    img: np.ndarray, rng: np.random.Generator, die: RenderDie, cx: float, cy: float, s: float, angle: float
) -> tuple[int, int, int, int]:
    """A die leaning over: a foreshortened top face and one side face both show."""
    h, w = img.shape[:2]
    body = die.body_bgr
    a = math.radians(angle)
    lean = float(rng.uniform(0.35, 0.6))
    top = _corners(cx, cy, s, angle)
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
    return _box(np.vstack([top, side]), w, h)


def _draw_hand(img: np.ndarray, rng: np.random.Generator, w: int, h: int) -> None:
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


def _motion_blur(img: np.ndarray, length: float, angle: float) -> np.ndarray:
    n = max(3, int(length) | 1)
    line = np.zeros((n, n), np.float32)
    line[n // 2, :] = 1.0
    rot = cv2.getRotationMatrix2D(((n - 1) / 2, (n - 1) / 2), angle, 1.0)
    kernel = cv2.warpAffine(line, rot, (n, n)).astype(np.float32)
    kernel = kernel / max(float(kernel.sum()), 1e-6)
    return cv2.filter2D(img, -1, kernel)


def with_faces(dice: Sequence[RenderDie], faces: Sequence[Face]) -> list[RenderDie]:
    """The same dice showing other faces (a reroll for the mock camera)."""
    return [replace(d, face=f) for d, f in zip(dice, faces, strict=True)]
