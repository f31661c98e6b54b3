"""Cut labelled 32x32 training patches from the TRAIN photos of the fixed split, plus rendered dice.

    .venv/bin/python training/make_patches.py --out /tmp/dice_patches.npz [--dev]
        [--sets rune55-gray-closeups chase-casino-crops] [--negatives [--mine-models M.onnx ...]]
        [--scenes /tmp/trays [--scene-count N] [--scene-jitter 4]]

Every patch has a class (0-5 faces 1-6, 6 the symbol face, 7 "not a die", 8 "off a die's top face":
a side face, a corner, two dice at once; -1 "no class": a window between centred and clearly off, whose
class loss is skipped) and, when a die is near, where
that die's top face is relative to the window: (dx, dy) in window sides and log(die side / window
side). The network learns both, so at run time a window from segmentation that sits on the side faces
of an obliquely seen die, or between two dice, is moved onto the top face and read again there.

Sources: the reader's own window proposals (what it sees at run time), windows jittered around each
label (centred ones teach the faces, off-centre ones teach "not a top face" and the offset), background
windows, rendered dice (the only source of symbol faces) and, with ``--negatives``, windows on the
places of the same photos where the die detector or the reader took something for a die and no labelled
die is (``training/hard_negatives.py``); with ``--scenes DIR``, the trays ``python -m training.scenes``
rendered (``training/scenes/read.py``). Held-back photos are never read; with ``--dev`` only the "fit"
part of the train photos is used (training/dev_split.py).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.vision.crops import PATCH  # noqa: E402
from companion.vision.evaluate import iterate  # noqa: E402
from companion.vision.render import BODY_BGR, RenderDie, RenderedDie, random_dice, render_dice  # noqa: E402
from companion.vision.segment import find_dice, windows  # noqa: E402
from training.dev_split import DATA, dev_split  # noqa: E402
from training.hard_negatives import Miner, off_dice  # noqa: E402
from training.scenes.read import CUT, ScenesError  # noqa: E402
from training.scenes.read import scenes as read_scenes  # noqa: E402
from training.sources import SOURCES  # noqa: E402

# How a label box relates to the whole die: nell and rune55 box the whole die, matteop65 only the top face;
# a chase crop (its label the whole crop) is the source project's detector box, with a rim of felt around the die.
WHOLE_DIE = {"nell-byler-d6": 1.0, "matteop65-webcam": 1.5, "rune55-gray-closeups": 1.0, "chase-casino-crops": 0.9}
# Close-ups and single-die crops, which segmentation alone sizes by their pips: at run time the detector's
# die size makes segmentation propose again, so their proposals are also made at the labelled die size.
HINTED = ("rune55-gray-closeups", "chase-casino-crops")
# Segmentation's own windows kept per die there without a die size: at run time the detector's size
# replaces them, so they only teach that a pip or a glint is no die, and need not outnumber the dice.
PROPOSALS_PER_DIE = 8
# More jittered windows per die where a set has few dice (182 one-die crops), times --jitter.
JITTER_TIMES = {"chase-casino-crops": 2}
# Windows cut around each mined hard negative (shifted, rescaled, turned), ``--negative-windows``: the
# reader moves and resizes a window before it settles, so one exact window would teach too little.
NEGATIVE_WINDOWS = 4
# Their sides, times the mined window's, drawn log-uniform: windows up to the 3x a reader grows on a
# screw are then as common per octave as those at the die's size (round 3 used 0.85-3.0).
NEGATIVE_SCALE = (0.85, 1.3)
# Jittered windows per die on generated trays (``--scenes``), a third of a real die's as for the 2D
# rendered dice: 600 trays hold about 3,600 dice, three times nell-byler-d6's train photos.
SCENE_JITTER = 4
BG = 7
SIDE = 8
IGNORE = -1
CENTRED = 0.12  # window centre within this many die sides of the top face: the window shows that face
OFF = 0.3  # ... further than this: "not a die" (a side face, a gap between dice)
NEAR = 0.65  # the offset is learnt for windows whose centre is within this many die sides


class Patches:
    def __init__(self) -> None:
        self.x: list[np.ndarray] = []
        self.y: list[int] = []
        self.off: list[tuple[float, float, float]] = []
        self.has_off: list[bool] = []

    def add(self, frame: np.ndarray, cx: float, cy: float, size: float, angle: float, label: int,
            target: tuple[float, float, float] | None) -> None:
        """A patch of side ``size`` at (cx, cy) rotated by ``angle``; ``target`` the top face's centre
        and the die's side in frame px (None: no die near)."""
        scale = PATCH / max(size, 1.0)
        m = cv2.getRotationMatrix2D((cx, cy), angle, scale)
        m[0, 2] += PATCH / 2 - cx
        m[1, 2] += PATCH / 2 - cy
        self.x.append(cv2.warpAffine(frame, m, (PATCH, PATCH), flags=cv2.INTER_LINEAR,
                                     borderMode=cv2.BORDER_REPLICATE))
        self.y.append(label)
        if target is None:
            self.off.append((0.0, 0.0, 0.0))
            self.has_off.append(False)
        else:
            tx, ty = m @ np.array([target[0], target[1], 1.0])
            self.off.append(((tx - PATCH / 2) / PATCH, (ty - PATCH / 2) / PATCH, math.log(target[2] / size)))
            self.has_off.append(True)

    def extend(self, other: Patches) -> None:
        self.x += other.x
        self.y += other.y
        self.off += other.off
        self.has_off += other.has_off


def class_for(value: int | str, d: float, ratio: float) -> int:
    """The class of a window whose centre is ``d`` die sides from a top face, ``ratio`` window/die."""
    if d > OFF or ratio > 2.3 or ratio < 0.75:
        return SIDE  # off the top face, two dice at once, or a part of one die (a pip read as a 1)
    if value == CUT:
        return IGNORE  # a generated die whose top face the frame cuts (training/scenes/read.py)
    if d < CENTRED and 0.9 <= ratio <= 1.7:
        return int(value) - 1 if value != "worm" else 6
    return IGNORE


Die = tuple[int | str, float, float, float]  # value, top face x, y, die side


def around_dice(out: Patches, frame: np.ndarray, dice: list[Die], rng: np.random.Generator, jitter: int) -> None:
    """Jittered windows around each die."""
    for value, tx, ty, side in dice:
        for i in range(2 * jitter):
            if i < jitter:  # centred: the faces
                r = abs(float(rng.normal(0, 0.05))) * side
            else:  # anywhere over the die: the offset, and "not a top face" further out
                r = side * NEAR * math.sqrt(float(rng.uniform(0, 1)))
            a = float(rng.uniform(0, 2 * math.pi))
            cx, cy = tx + r * math.cos(a), ty + r * math.sin(a)
            nearest = min(dice, key=lambda o: math.dist((o[1], o[2]), (cx, cy)))
            if nearest[1:3] != (tx, ty):
                continue  # closer to another die
            size = side * float(rng.uniform(1.0, 1.45) if i < jitter else rng.uniform(0.5, 1.6))
            out.add(frame, cx, cy, size, float(rng.uniform(0, 360)), class_for(value, r / side, size / side),
                    (tx, ty, side))


def between_dice(out: Patches, frame: np.ndarray, dice: list[Die], rng: np.random.Generator) -> None:
    """Windows over two touching or near dice: "not a top face", and the way to the nearer one. Without
    them a window on a pair reads as one die (the pips of both faces make a plausible face)."""
    for a in range(len(dice)):
        for b in range(a + 1, len(dice)):
            (_, ax, ay, aside), (_, bx, by, bside) = dice[a], dice[b]
            side = max(aside, bside)
            if math.dist((ax, ay), (bx, by)) > 1.8 * side:
                continue
            for _ in range(3):
                t = float(rng.uniform(0.2, 0.8))  # where along the line between them
                cx = ax + t * (bx - ax) + float(rng.normal(0, 0.08)) * side
                cy = ay + t * (by - ay) + float(rng.normal(0, 0.08)) * side
                near = dice[a] if t < 0.5 else dice[b]
                size = side * float(rng.uniform(1.2, 2.2))
                out.add(frame, cx, cy, size, float(rng.uniform(0, 360)), SIDE, near[1:])


def proposals(out: Patches, frame: np.ndarray, dice: list[Die], rng: np.random.Generator,
              die_size: float | None = None, limit: int | None = None) -> None:
    """The reader's own windows, labelled by the nearest die; ``die_size``: proposed at that size, as
    segmentation does when the detector sizes the dice; ``limit``: at most that many, drawn at random
    (segmentation takes a crop's pips and glints for hundreds of dice)."""
    cands, side = find_dice(frame, die_size=die_size)
    found = windows(cands, side, frame.shape)
    if limit is not None and len(found) > limit:
        found = [found[i] for i in sorted(rng.choice(len(found), limit, replace=False))]
    for cx, cy, size in found:
        angle = float(rng.choice([0, 90, 180, 270]))
        label, near = label_window(dice, cx, cy, size)
        out.add(frame, cx, cy, size, angle, label, None if near is None else near[1:])


def label_window(dice: list[Die], cx: float, cy: float, size: float) -> tuple[int, Die | None]:
    """A window's class and the die it is near (None: "not a die", further than ``NEAR`` from every die)."""
    near = min(dice, key=lambda o: math.dist((o[1], o[2]), (cx, cy)), default=None)
    if near is None or math.dist((near[1], near[2]), (cx, cy)) > NEAR * near[3]:
        return BG, None
    return class_for(near[0], math.dist((near[1], near[2]), (cx, cy)) / near[3], size / near[3]), near


def negative_patches(name: str, stems: list[str], miner: Miner, rng: np.random.Generator,
                     per_place: int = NEGATIVE_WINDOWS, scale: tuple[float, float] = NEGATIVE_SCALE
                     ) -> tuple[Patches, int]:
    """Windows on the places of a real set's photos that the detector or the reader took for dice where
    no labelled die is, ``per_place`` each, their sides ``scale`` times the place's; returns them and
    how many places there were."""
    out = Patches()
    k = WHOLE_DIE[name]
    places = 0
    for _, frame, labels in iterate(DATA / name, only=stems):
        dice = [(lab.value, lab.center[0], lab.center[1], lab.size * k) for lab in labels]
        mined = off_dice(miner.places(frame), [(d[1], d[2], d[3]) for d in dice], near=NEAR)
        places += len(mined)
        for px, py, side in mined:
            for _ in range(per_place):
                cx, cy = px + float(rng.normal(0, 0.08)) * side, py + float(rng.normal(0, 0.08)) * side
                size = side * float(np.exp(rng.uniform(*np.log(scale))))
                label, near = label_window(dice, cx, cy, size)
                out.add(frame, cx, cy, size, float(rng.uniform(0, 360)), label, None if near is None else near[1:])
    return out, places


def real_patches(name: str, stems: list[str], rng: np.random.Generator, jitter: int) -> Patches:
    """A real set's patches. A single-die crop is used as it is: the reader sees such a frame with its
    border replicated (``crops.patch``), and so does ``Patches.add``."""
    out = Patches()
    k = WHOLE_DIE[name]
    for _, frame, labels in iterate(DATA / name, only=stems):
        dice = [(lab.value, lab.center[0], lab.center[1], lab.size * k) for lab in labels]
        frame_patches(out, frame, dice, rng, jitter * JITTER_TIMES.get(name, 1), name in HINTED)
    return out


def frame_patches(out: Patches, frame: np.ndarray, dice: list[Die], rng: np.random.Generator, jitter: int,
                  hinted: bool = False) -> None:
    """One labelled photo's patches: the reader's proposals (``hinted``: also at the labelled die size, as
    for close-ups), windows jittered round and between the dice, and plain background."""
    if hinted and dice:
        proposals(out, frame, dice, rng, limit=PROPOSALS_PER_DIE * len(dice))
        proposals(out, frame, dice, rng, float(np.median([d[3] for d in dice])))
    else:
        proposals(out, frame, dice, rng)
    around_dice(out, frame, dice, rng, jitter)
    between_dice(out, frame, dice, rng)
    for _ in range(4):  # plain background
        cx, cy = rng.uniform(0, frame.shape[1]), rng.uniform(0, frame.shape[0])
        if dice and all(math.dist((cx, cy), (d[1], d[2])) > NEAR * d[3] for d in dice):
            out.add(frame, cx, cy, float(np.median([d[3] for d in dice])) * float(rng.uniform(0.9, 1.6)),
                    0.0, BG, None)


def scene_patches(folder: Path, rng: np.random.Generator, jitter: int, limit: int | None = None) -> Patches:
    """Patches of trays rendered by ``training.scenes`` (``training/scenes/read.py``): cut as a real
    tray's are, centred on each die's top face as the scene projects it. Their boxes hold the whole die,
    as nell-byler-d6's do."""
    out = Patches()
    for _, frame, dice in read_scenes(folder, limit):
        frame_patches(out, frame, dice, rng, jitter)
    return out


def odd_pips(rng: np.random.Generator, body: tuple[int, int, int], apart: float = 150.0) -> tuple[int, int, int]:
    """A random pip colour that stands out from the body by more than ``apart`` (150: a third of the
    colour cube)."""
    while True:
        pip = tuple(int(v) for v in rng.integers(0, 256, 3))
        if math.dist(pip, body) > apart:
            return pip  # type: ignore[return-value]


def any_tint(rng: np.random.Generator, die: RenderDie) -> RenderDie:
    """A die of any body colour, pale to dark, with pips of any colour at least a little apart from it
    (red on dark blue stands out less than white on black), a little larger or smaller than usual. The
    named tints and high-contrast pips alone left real dice of other colours unfamiliar."""
    hsv = np.array([[[rng.integers(0, 180), rng.integers(0, 256), rng.integers(35, 245)]]], np.uint8)
    body = tuple(int(v) for v in cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0])
    pip = odd_pips(rng, body, apart=70.0)  # type: ignore[arg-type]
    return replace(die, body=body, pip_colour=pip, pip_size=float(rng.uniform(0.75, 1.25)))  # type: ignore[arg-type]


def draw_marks(frame: np.ndarray, drawn: list[RenderedDie], rng: np.random.Generator, n: int, side: float
               ) -> list[tuple[float, float]]:
    """Dots and rings on the tray away from the dice (screws, holes, printed marks): a lone pip with no
    die around it is not a die. ``side``: the dice's size in px. Returns the marks' centres."""
    h, w = frame.shape[:2]
    marks = []
    for _ in range(n):
        cx, cy = float(rng.uniform(20, w - 20)), float(rng.uniform(20, h - 20))
        if any(math.dist((cx, cy), d.center) < 1.2 * d.size for d in drawn):
            continue
        r = max(2, round(side * float(rng.uniform(0.08, 0.3))))
        dark = rng.random() < 0.6
        colour = tuple(int(v) for v in (rng.integers(0, 90, 3) if dark else rng.integers(0, 256, 3)))
        thick = -1 if rng.random() < 0.75 else max(1, r // 3)
        cv2.circle(frame, (round(cx), round(cy)), r, colour, thick, cv2.LINE_AA)
        if rng.random() < 0.3:  # a pair, like two screws
            dx = float(rng.uniform(1.5, 4)) * r
            cv2.circle(frame, (round(cx + dx), round(cy)), r, colour, thick, cv2.LINE_AA)
        marks.append((cx, cy))
    if marks:
        frame[:] = cv2.GaussianBlur(frame, (3, 3), 0)
    return marks


def draw_coins(frame: np.ndarray, drawn: list[RenderedDie], rng: np.random.Generator, n: int, side: float
               ) -> list[tuple[float, float, float]]:
    """Coins, tokens and chips on the tray away from the dice: plain discs near a die's size, which the
    empty-tray reference shows as clearly as a die. A grey coin read as a 2 was a false die at the table
    (round 4's log). Returns each disc's centre and diameter."""
    h, w = frame.shape[:2]
    discs = []
    for _ in range(n):
        r = side * float(rng.uniform(0.35, 0.7))
        cx, cy = float(rng.uniform(r + 4, w - r - 4)), float(rng.uniform(r + 4, h - r - 4))
        if any(math.dist((cx, cy), d.center) < 0.8 * d.size + r for d in drawn):
            continue
        kind = rng.random()
        if kind < 0.4:  # silver: grey, a little blue or warm
            g = float(rng.uniform(90, 215))
            colour = (g + float(rng.uniform(-8, 15)), g, g - float(rng.uniform(-8, 15)))
        elif kind < 0.65:  # copper, brass, gold
            g = float(rng.uniform(70, 200))
            colour = (g * 0.35, g * float(rng.uniform(0.55, 0.85)), g)
        else:  # a token or a chip of any colour
            b, gr, rd = (float(v) for v in rng.integers(0, 256, 3))
            colour = (b, gr, rd)
        centre = (round(cx), round(cy))
        radius = max(3, round(r))
        if rng.random() < 0.5:  # its shadow
            cv2.circle(frame, (centre[0] + 2, centre[1] + 2), radius, (0, 0, 0), -1, cv2.LINE_AA)
        cv2.circle(frame, centre, radius, tuple(int(np.clip(v, 0, 255)) for v in colour), -1, cv2.LINE_AA)
        if rng.random() < 0.6:  # a raised rim, or a chip's coloured band
            rim = tuple(int(np.clip(v * float(rng.uniform(0.6, 1.4)), 0, 255)) for v in colour)
            cv2.circle(frame, centre, max(2, round(r * float(rng.uniform(0.7, 0.9)))), rim,
                       max(1, round(r * 0.12)), cv2.LINE_AA)
        if rng.random() < 0.5:  # a soft highlight from the lamp
            spot = np.zeros(frame.shape[:2], np.float32)
            cv2.circle(spot, (round(cx - r * 0.3), round(cy - r * 0.3)), max(2, round(r * 0.4)), 1.0, -1)
            spot = cv2.GaussianBlur(spot, (0, 0), max(1.0, r * 0.3)) * float(rng.uniform(20, 70))
            frame[:] = np.clip(frame + spot[..., None], 0, 255).astype(np.uint8)
        discs.append((cx, cy, 2 * r))
    return discs


def real_looks(rng: np.random.Generator, dice: list[RenderDie], share: float
               ) -> tuple[list[RenderDie], tuple[float, float]]:
    """Dice as real ones look, on a share of them: marbled, translucent; and, on that share of frames,
    an oblique camera that sees the side faces. Photos of one or two dice sets cannot show a network
    every die it will meet; without these, an unfamiliar real die looked least unlike a symbol face."""
    out = []
    for d in dice:
        if rng.random() < share:
            marble = tuple(int(v) for v in rng.integers(0, 256, 3)) if rng.random() < 0.5 else None
            clear = float(rng.uniform(0.2, 0.6)) if rng.random() < 0.5 else 0.0
            d = replace(d, marble=marble, translucent=clear)  # type: ignore[arg-type]
        out.append(d)
    tilt = (0.0, 0.0)
    if rng.random() < share:
        a, r = float(rng.uniform(0, 2 * math.pi)), float(rng.uniform(0.12, 0.5))
        tilt = (r * math.cos(a), r * math.sin(a))
    return out, tilt


def light_table(rng: np.random.Generator) -> tuple[tuple[int, int, int], float]:
    """A pale, low-saturation table (light wood, a white sheet, a beige mat), often with wood grain:
    white dice on it stand out from the table by their edges and shadows more than by colour."""
    grey = float(rng.uniform(150, 235))
    warm = float(rng.uniform(0, 35))
    bgr = (int(grey - warm), int(grey - warm / 2), int(min(255.0, grey + warm / 3)))
    return bgr, float(rng.uniform(4, 20)) if rng.random() < 0.6 else 0.0


def rendered_patches(n_frames: int, rng: np.random.Generator, jitter: int, odd: float = 0.0, marks: int = 0,
                     looks: float = 0.0, light: float = 0.0, tints: float = 0.0, symbols: float = 0.3,
                     coins: int = 0) -> Patches:
    out = Patches()
    coin_rng = np.random.default_rng(2)  # its own draws: without coins the patches stay as they were
    for seed in range(n_frames):
        n = int(rng.integers(1, 9))
        dice = random_dice(rng, n)
        # Symbol faces are rare on real tables but this is their only source: show more of them
        # (``symbols``; the draw is made for every die whatever the share, so other frames stay as they were).
        dice = [RenderDie("worm", d.colour) if rng.random() < symbols else d for d in dice]
        # Pips of any colour (red on black, yellow on green...): dice the photos have few of.
        if odd > 0:  # (no draws from rng otherwise: the default patches stay as they were)
            dice = [replace(d, pip_colour=odd_pips(rng, BODY_BGR[d.colour]))
                    if d.face != "worm" and rng.random() < odd else d for d in dice]
        if tints > 0:  # (no draws from rng otherwise)
            dice = [any_tint(rng, d) if d.face != "worm" and rng.random() < tints else d for d in dice]
        tilt = (0.0, 0.0)
        if looks > 0:  # (no draws from rng otherwise)
            dice, tilt = real_looks(rng, dice, looks)
        # (Drawn in this order so that the default patches stay as they were.)
        die_size, touching, glare = float(rng.uniform(24, 70)), bool(rng.random() < 0.4), bool(rng.random() < 0.4)
        noise, dim = float(rng.uniform(0, 8)), float(rng.uniform(0.45, 1.1))
        background: tuple[int, int, int] = tuple(int(v) for v in rng.integers(40, 220, 3))  # type: ignore[assignment]
        grain = 0.0
        if light > 0 and rng.random() < light:  # (no draws from rng otherwise)
            background, grain = light_table(rng)
        frame, drawn = render_dice(dice, seed=seed, size=(640, 480), die_size=die_size, touching=touching,
                                   glare=glare, noise=noise, dim=dim, blur=0.0, background=background,
                                   tilt=tilt, grain=grain)
        placed = [(d.face, d.center[0], d.center[1], d.size * 1.1) for d in drawn]
        if marks > 0:
            side = float(np.median([d.size for d in drawn])) if drawn else 40.0
            for mx, my in draw_marks(frame, drawn, rng, int(rng.integers(0, marks + 1)), side):
                out.add(frame, mx, my, side * float(rng.uniform(0.9, 1.4)), float(rng.uniform(0, 90)), BG, None)
        if coins > 0:
            side = float(np.median([d.size for d in drawn])) if drawn else 40.0
            for cx, cy, across in draw_coins(frame, drawn, coin_rng, int(coin_rng.integers(1, coins + 1)), side):
                for _ in range(3):  # the windows a reader tries there: a die's size up to the whole disc and more
                    x, y = cx + float(coin_rng.normal(0, 0.1 * across)), cy + float(coin_rng.normal(0, 0.1 * across))
                    size = max(side, across) * float(coin_rng.uniform(0.8, 1.5))
                    out.add(frame, x, y, size, float(coin_rng.uniform(0, 90)), BG, None)
        around_dice(out, frame, placed, rng, max(1, jitter // 3))
        between_dice(out, frame, placed, rng)
        proposals(out, frame, placed, rng)
        for _ in range(3):
            cx, cy = rng.uniform(40, 600), rng.uniform(40, 440)
            if all(math.dist((cx, cy), d.center) > 0.8 * d.size for d in drawn):
                out.add(frame, cx, cy, float(rng.uniform(30, 80)), 0.0, BG, None)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", default="/tmp/dice_patches.npz")
    ap.add_argument("--jitter", type=int, default=12)
    ap.add_argument("--rendered", type=int, default=900)
    ap.add_argument("--odd-pips", type=float, default=0.5, help="share of rendered dice with random pip colours")
    ap.add_argument("--marks", type=int, default=0, help="up to this many dots and rings per rendered frame")
    ap.add_argument("--looks", type=float, default=0.5,
                    help="share of rendered dice marbled or translucent, and of frames seen obliquely")
    ap.add_argument("--light", type=float, default=0.0,
                    help="share of rendered frames on a pale table, often with wood grain")
    ap.add_argument("--tints", type=float, default=0.0,
                    help="share of rendered dice of any body colour, with pips of any colour and size")
    ap.add_argument("--coins", type=int, default=0,
                    help="up to this many coins, tokens and chips per rendered frame, as 'none'")
    ap.add_argument("--symbols", type=float, default=0.3,
                    help="share of rendered dice turned into a symbol face, besides the 1 in 7 drawn so")
    ap.add_argument("--sets", nargs="*", default=[], choices=HINTED,
                    help="newer real sets to add; the shipped model has none (a model with both read the older "
                         "sets worse: docs/log/classifier-new-sets-2026-11-27.md)")
    ap.add_argument("--dev", action="store_true",
                    help="only the 'fit' part of the train photos (training/dev_split.py), for tuning")
    ap.add_argument("--negatives", action="store_true",
                    help="add windows on the detector's and the reader's false dice on the same photos, as 'none'")
    ap.add_argument("--negative-windows", type=int, default=NEGATIVE_WINDOWS, help="windows per mined place")
    ap.add_argument("--negative-scale", type=float, nargs=2, default=NEGATIVE_SCALE, metavar=("LO", "HI"),
                    help="their sides, times the mined window's")
    ap.add_argument("--mine-models", nargs="*", default=["shipped"],
                    help="classifiers the mining reader runs with ('shipped': the shipped one)")
    ap.add_argument("--scenes", type=Path, help="add the trays python -m training.scenes rendered into this folder")
    ap.add_argument("--scene-count", type=int, help="with --scenes: only the first this many trays (by name)")
    ap.add_argument("--scene-jitter", type=int, default=SCENE_JITTER,
                    help="with --scenes: jittered windows per die and kind, as --jitter for the real sets")
    args = ap.parse_args()
    if args.scenes is not None:  # a wrong folder stops here, before minutes of cutting
        try:
            next(read_scenes(args.scenes, 1))
        except ScenesError as e:
            ap.error(str(e))
    rng = np.random.default_rng(0)
    split = json.loads((ROOT / "companion" / "vision" / "split.json").read_text())
    allp = Patches()
    src: list[int] = []
    # The two older sets and the rendered dice first, as before the newer sets came: their patches and
    # the draws from rng that make them stay as they were.
    for name in ("nell-byler-d6", "matteop65-webcam", "rendered", *args.sets):
        if name == "rendered":
            p = rendered_patches(args.rendered, rng, args.jitter, args.odd_pips, args.marks, args.looks,
                                 args.light, args.tints, args.symbols, args.coins)
        else:
            stems = dev_split()[name][0] if args.dev else split[name]["train"]
            p = real_patches(name, stems, rng, args.jitter)
        print(name, len(p.y), np.bincount(np.array(p.y) + 1, minlength=10), flush=True)
        allp.extend(p)
        src += [SOURCES[name][0]] * len(p.y)
    if args.scenes is not None:  # their own rng: the patches above and below stay as they were
        p = scene_patches(args.scenes, np.random.default_rng(3), args.scene_jitter, args.scene_count)
        print("scenes", len(p.y), np.bincount(np.array(p.y) + 1, minlength=10), flush=True)
        allp.extend(p)
        src += [SOURCES["scenes"][0]] * len(p.y)
    if args.negatives:  # after every other patch, with its own rng: the patches above stay as they were
        miner = Miner([None if m == "shipped" else m for m in args.mine_models])
        neg_rng = np.random.default_rng(1)
        for name in ("nell-byler-d6", "matteop65-webcam", *args.sets):
            stems = dev_split()[name][0] if args.dev else split[name]["train"]
            p, places = negative_patches(name, stems, miner, neg_rng, args.negative_windows,
                                         tuple(args.negative_scale))
            print(name, "negatives:", places, "places,", len(p.y), np.bincount(np.array(p.y) + 1, minlength=10),
                  flush=True)
            allp.extend(p)
            src += [SOURCES[name][0]] * len(p.y)
    np.savez_compressed(args.out, x=np.stack(allp.x), y=np.array(allp.y, np.int64),
                        off=np.array(allp.off, np.float32), has_off=np.array(allp.has_off, bool),
                        src=np.array(src, np.int64))


if __name__ == "__main__":
    main()
