"""A synthetic dice-tray renderer.

It draws top-down frames of a tray with dice on it, and knows exactly what it drew, so it serves the
mock camera, the settle-detector tests and the edge cases real photos rarely show (symbol faces, a hand
in the tray, a cocked die). Rendered frames are never used for accuracy claims: they are too clean.

    >>> frame, drawn = render_dice([RenderDie(3, "red"), RenderDie("worm", "white")], seed=1)
    >>> frame.shape, [d.face for d in drawn]
    ((480, 640, 3), [3, 'worm'])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from companion.vision import FACES
from companion.vision.render_die import (
    BODY_BGR,
    PIP_BGR,
    PIP_LAYOUT,
    WORM_BGR,
    Face,
    RenderDie,
    bounding_box,
    corners,
    draw_cocked,
    draw_die,
    draw_sides,
    shadow,
)
from companion.vision.render_tray import background, draw_hand, motion_blur, place, wood

__all__ = ["BODY_BGR", "PIP_BGR", "PIP_LAYOUT", "WORM_BGR", "Face", "RenderDie", "RenderedDie", "Scene", "random_dice",
           "render_dice", "render_scene", "with_faces"]


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
    img = background(rng, width, height, scene.background)
    if scene.grain > 0:
        img = wood(rng, img, scene.grain)
    if scene.tray_seed is not None:  # the frame's own draws above still happen, so its dice lie as before
        tray = np.random.default_rng(scene.tray_seed)
        img = background(tray, width, height, scene.background)
        if scene.grain > 0:
            img = wood(tray, img, scene.grain)
    placed = place(rng, dice, width, height, side, scene.touching)
    drawn: list[RenderedDie] = []
    for die, (cx, cy, angle) in zip(dice, placed, strict=True):
        s = side * float(rng.uniform(0.95, 1.05))
        shadow(img, cx, cy, s, angle)
        if die.cocked:
            box = draw_cocked(img, rng, die, cx, cy, s, angle)
        else:
            foot = draw_sides(img, rng, die, cx, cy, s, angle, scene.tilt) if any(scene.tilt) else None
            box = draw_die(img, rng, die, cx, cy, s, angle, glare=scene.glare and rng.random() < 0.6)
            if foot is not None:
                box = bounding_box(np.vstack([corners(cx, cy, s, angle), foot]), width, height)
        drawn.append(RenderedDie(die.face, die.colour, (cx, cy), box, angle % 90.0, s, die.cocked))
    if scene.hand:
        draw_hand(img, rng, width, height)
    out = img.astype(np.float32)
    if scene.blur > 0:
        out = motion_blur(out, scene.blur, float(rng.uniform(0, 180)))
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


def with_faces(dice: Sequence[RenderDie], faces: Sequence[Face]) -> list[RenderDie]:
    """The same dice showing other faces (a reroll for the mock camera)."""
    return [replace(d, face=f) for d, f in zip(dice, faces, strict=True)]
