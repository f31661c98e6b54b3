"""A whole scene described from a seed, before any rendering: the tray, the table, the dice and their
looks, the lights, the camera and what happens to the photo afterwards. Pure numpy and dataclasses, so
the same seed gives the same description on any machine, and tests need no renderer. Lengths in cm."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from training.scenes.camera import Camera, orbit, up_for
from training.scenes.layout import Placed, place_dice, tray_outline

# Felt colours (linear RGB 0-1): green, dark green, blue, navy, red, wine, purple, black, grey, brown, teal,
# orange, light grey, beige, white
FELTS = [
    (0.05, 0.28, 0.08), (0.02, 0.12, 0.04), (0.05, 0.12, 0.45), (0.02, 0.03, 0.15), (0.45, 0.03, 0.03),
    (0.18, 0.01, 0.04), (0.18, 0.05, 0.30), (0.02, 0.02, 0.02), (0.20, 0.20, 0.21), (0.18, 0.09, 0.04),
    (0.02, 0.25, 0.25), (0.55, 0.18, 0.02), (0.50, 0.50, 0.50), (0.55, 0.45, 0.30), (0.75, 0.75, 0.72),
]
BODY_KINDS = ("opaque", "translucent", "marbled", "neon", "pearl", "metallic", "glitter")
BODY_WEIGHTS = (0.34, 0.2, 0.12, 0.1, 0.08, 0.06, 0.1)
PIP_COLOURS = {
    "white": (0.85, 0.85, 0.83),
    "black": (0.02, 0.02, 0.02),
    "gold": (0.8, 0.6, 0.2),
    "red": (0.6, 0.02, 0.02),
}


@dataclass
class DieLook:
    body: str  # one of BODY_KINDS
    colour: tuple[float, float, float]
    second: tuple[float, float, float]  # the swirl of a marbled or pearl die, glitter's flakes
    marks: str  # "pips", "numerals", "worm"
    pip: str  # a PIP_COLOURS name
    style: str  # "painted", "inked", "engraved"
    roughness: float
    pip_size: float


@dataclass
class Light:
    kind: str  # "lamp", "window", "ring", "flash"
    position: tuple[float, float, float]
    colour: tuple[float, float, float]
    power: float
    size: float


@dataclass
class SceneSpec:
    seed: int
    tray: str
    tray_radius: float
    wall_height: float
    felt: tuple[float, float, float]
    wall_felt: bool  # walls covered in the same felt (else wood or leatherette)
    wall_colour: tuple[float, float, float]
    table: str  # "wood", "carpet", "desk"
    table_colour: tuple[float, float, float]
    clutter: list[tuple[str, float, float, float, float]]  # kind, x, y, size, turn
    dice: list[Placed]
    looks: list[DieLook]
    lights: list[Light]
    camera: Camera
    motion_blur: float  # px
    noise: float  # sensor noise, std of 0-255
    jpeg: int
    exposure: float  # the mean brightness the photo is exposed for
    floor: float = 0.3
    extra: dict[str, float] = field(default_factory=dict)


def _colour(rng: np.random.Generator, lo: float = 0.0, hi: float = 1.0) -> tuple[float, float, float]:
    c = rng.uniform(lo, hi, 3)
    return (float(c[0]), float(c[1]), float(c[2]))


def _tint(rng: np.random.Generator, c: tuple[float, float, float], k: float) -> tuple[float, float, float]:
    out = np.clip(np.array(c) * rng.uniform(1 - k, 1 + k, 3), 0, 1)
    return (float(out[0]), float(out[1]), float(out[2]))


def die_look(rng: np.random.Generator, worm: bool) -> DieLook:
    body = str(rng.choice(BODY_KINDS, p=BODY_WEIGHTS))
    colour = _colour(rng, 0.02, 0.9)
    if body == "neon":
        n = np.roll([0.95, float(rng.uniform(0.3, 0.9)), 0.02], int(rng.integers(3)))
        colour = (float(n[0]), float(n[1]), float(n[2]))
    if body == "pearl":
        colour = _tint(rng, (0.8, 0.78, 0.74), 0.15)
    if rng.random() < 0.25 and body == "opaque":
        colour = (0.85, 0.85, 0.82) if rng.random() < 0.5 else (0.02, 0.02, 0.02)
    light = sum(colour) / 3 > 0.45
    pip = "black" if light and body != "translucent" else str(rng.choice(["white", "gold", "red", "white"]))
    if rng.random() < 0.15:
        pip = str(rng.choice(list(PIP_COLOURS)))
    marks = "worm" if worm else ("numerals" if rng.random() < 0.12 else "pips")
    return DieLook(
        body,
        colour,
        _colour(rng, 0.0, 1.0),
        marks,
        pip,
        str(rng.choice(["painted", "inked", "engraved"], p=[0.5, 0.2, 0.3])),
        float(rng.uniform(0.02, 0.3)),
        float(rng.uniform(0.8, 1.25)),
    )


def _lights(rng: np.random.Generator, cam: np.ndarray, radius: float) -> list[Light]:
    warm = rng.random() < 0.5
    tint = (1.0, 0.78, 0.55) if warm else (0.85, 0.92, 1.0)
    tint = _tint(rng, tint, 0.08)
    kinds = ["lamp", "window", "ring", "flash"]
    main = kinds[int(rng.choice(4, p=[0.4, 0.3, 0.15, 0.15]))]
    out = []
    if main == "lamp":
        a = rng.uniform(0, 2 * math.pi)
        d = rng.uniform(0.3, 2.5) * radius
        out.append(
            Light(
                "lamp",
                (d * math.cos(a), d * math.sin(a), float(rng.uniform(35, 90))),
                tint,
                float(rng.uniform(0.6, 1.6)),
                float(rng.uniform(0.3, 3.0)),
            )
        )
    elif main == "window":
        a = rng.uniform(0, 2 * math.pi)
        d = rng.uniform(60, 150)
        out.append(
            Light(
                "window",
                (d * math.cos(a), d * math.sin(a), float(rng.uniform(40, 100))),
                tint,
                float(rng.uniform(0.6, 1.4)),
                float(rng.uniform(40, 90)),
            )
        )
    elif main == "ring":
        out.append(
            Light(
                "ring",
                (float(cam[0]), float(cam[1]), float(cam[2])),
                (1.0, 0.97, 0.95),
                float(rng.uniform(0.6, 1.3)),
                float(rng.uniform(6, 14)),
            )
        )
    else:
        out.append(
            Light(
                "flash",
                (float(cam[0]), float(cam[1]), float(cam[2])),
                (1.0, 0.98, 0.96),
                float(rng.uniform(0.6, 1.3)),
                0.4,
            )
        )
    if rng.random() < 0.4:  # a second, weaker lamp from elsewhere
        a = rng.uniform(0, 2 * math.pi)
        out.append(
            Light(
                "lamp",
                (80 * math.cos(a), 80 * math.sin(a), float(rng.uniform(60, 150))),
                _tint(rng, (1.0, 0.9, 0.8), 0.2),
                float(rng.uniform(0.15, 0.5)),
                float(rng.uniform(2, 10)),
            )
        )
    return out


def describe(seed: int, width: int = 512, height: int = 384) -> SceneSpec:
    """The scene of ``seed``: every random choice is drawn here, in a fixed order."""
    rng = np.random.default_rng([58, seed])
    tray = str(rng.choice(["hexagon", "square", "round"]))
    radius = float(rng.uniform(9, 18))
    half = float(rng.uniform(0.6, 1.0))
    outline = tray_outline(tray, radius)
    count = int(rng.integers(1, 13))
    worm_set = rng.random() < 0.08
    dice = place_dice(
        rng,
        outline,
        count,
        half,
        floor=0.3,
        touch=float(rng.uniform(0.2, 0.7)),
        wall=float(rng.uniform(0.1, 0.35)),
        lean=0.08,
    )
    same = rng.random() < 0.4  # a matched set: one look for all
    first = die_look(rng, worm_set)
    looks = [first if same else die_look(rng, worm_set) for _ in dice]
    table = str(rng.choice(["wood", "carpet", "desk"]))
    clutter = []
    if table == "desk" or rng.random() < 0.3:
        for _ in range(int(rng.integers(1, 7))):
            a, d = rng.uniform(0, 2 * math.pi), radius * rng.uniform(1.25, 2.2)
            clutter.append(
                (
                    str(rng.choice(["box", "pen", "paper", "coin", "mug"])),
                    float(d * math.cos(a)),
                    float(d * math.sin(a)),
                    float(rng.uniform(0.8, 4.0)),
                    float(rng.uniform(0, 180)),
                )
            )
    elevation = float(rng.uniform(45, 90))
    azimuth = float(rng.uniform(0, 360))
    fov = float(rng.uniform(38, 65))
    # near: part of the tray fills the frame; far: the whole tray and some table around it
    span = radius * float(rng.uniform(0.55, 1.6))
    distance = span / math.tan(math.radians(fov) / 2)
    target = np.array([rng.uniform(-0.3, 0.3) * radius, rng.uniform(-0.3, 0.3) * radius, 0.3])
    origin = orbit(target, distance, elevation, azimuth)
    blur = rng.random() < 0.3
    camera = Camera(
        (float(origin[0]), float(origin[1]), float(origin[2])),
        (float(target[0]), float(target[1]), float(target[2])),
        up_for(origin, target, azimuth),
        fov,
        width,
        height,
        aperture=float(rng.uniform(0.05, 0.4)) if blur else 0.0,
        focus=float(distance * rng.uniform(0.9, 1.1)),
    )
    return SceneSpec(
        seed=seed,
        tray=tray,
        tray_radius=radius,
        wall_height=float(rng.uniform(1.2, 4.0)),
        felt=_tint(rng, FELTS[int(rng.integers(len(FELTS)))], 0.25),
        wall_felt=bool(rng.random() < 0.6),
        wall_colour=_colour(rng, 0.02, 0.5),
        table=table,
        table_colour=_colour(rng, 0.05, 0.7),
        clutter=clutter,
        dice=dice,
        looks=looks,
        lights=_lights(rng, origin, radius),
        camera=camera,
        motion_blur=float(rng.uniform(1, 7)) if rng.random() < 0.15 else 0.0,
        noise=float(rng.uniform(0.5, 7)),
        jpeg=int(rng.integers(45, 96)),
        exposure=float(rng.uniform(0.3, 0.55)),
    )
