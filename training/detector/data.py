"""Training samples for the die detector: real photos (train part of ``split.json`` only) and rendered
trays, each turned into a square input with its target maps, under strong augmentation.

The dev part (for choosing settings) is cut from the *train* photos by a fixed rule, so the held-back
photos take no part in training or tuning: nell-byler-d6 the last 30 train photos by capture time,
matteop65-webcam the last quarter of each capture group (both as ``training/dev_split.py``),
rune55-gray-closeups and chase-casino-crops a fifth of the photo groups (``_dev_group``).
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from companion.vision.head_fit import targets as head_targets
from companion.vision.render import BODY_BGR, RenderDie, Scene, render_scene

ROOT = Path(__file__).resolve().parents[2]
SPLIT = ROOT / "companion" / "vision" / "split.json"
SETS = ("nell-byler-d6", "matteop65-webcam", "rune55-gray-closeups", "chase-casino-crops")
CACHE_SIDE = 384  # real photos are kept at this long side (training inputs are 256 px)


def data_root(given: str | None = None) -> Path:
    """The dice photos: ``given``, else ``../shared/data/dice`` beside the repository, else /work/shared."""
    if given:
        return Path(given)
    for p in (ROOT.parent / "shared" / "data" / "dice", Path("/work/shared/data/dice")):
        if p.is_dir():
            return p
    raise SystemExit("no dice photos found: pass --data")


def photo_group(name: str, stem: str) -> str:
    """Photos that must fall on one side of any split: augmented copies, crops of one photo."""
    if name == "rune55-gray-closeups":
        return stem[:5]
    if name == "chase-casino-crops":
        m = re.search(r"DJI_\d+_\d+", stem)
        return m.group(0) if m else stem
    return stem


def _dev_group(group: str) -> bool:
    return int(hashlib.sha256(("dev:" + group).encode()).hexdigest(), 16) % 100 < 20


def parts(name: str) -> dict[str, list[str]]:
    """'fit' (trained on), 'dev' (settings chosen on) and 'test' (held back) stems of a set."""
    split = json.loads(SPLIT.read_text())[name]
    train = sorted(split["train"])
    if name == "nell-byler-d6":
        fit, dev = train[:-30], train[-30:]
    elif name == "matteop65-webcam":
        groups: dict[str, list[str]] = defaultdict(list)
        for stem in train:
            m = re.match(r"(.*?)_?(\d+)$", stem)
            assert m is not None
            groups[m.group(1)].append(stem)
        fit, dev = [], []
        for stems in groups.values():
            stems.sort(key=lambda s: int(re.findall(r"\d+$", s)[0]))
            k = len(stems) - max(1, len(stems) // 4)
            fit += stems[:k]
            dev += stems[k:]
    else:
        dev = [s for s in train if _dev_group(photo_group(name, s))]
        fit = [s for s in train if not _dev_group(photo_group(name, s))]
    return {"fit": fit, "dev": dev, "test": sorted(split["test"])}


@dataclass
class Photo:
    """A labelled image: BGR, and its dice as (cx, cy, side) in its pixels."""

    name: str
    stem: str
    image: np.ndarray
    dice: np.ndarray  # k x 3 float32
    # hard negatives: places (cx, cy, side) a trained detector took for dice where none is (tray screws,
    # desk clutter), mined on the fit photos by ``train.py --mine``; weighed more in the loss
    negatives: np.ndarray = field(default_factory=lambda: np.zeros((0, 3), np.float32))


def load_photos(root: Path, name: str, stems: Iterable[str], cache_side: int | None = CACHE_SIDE) -> list[Photo]:
    wanted = set(stems)
    out = []
    folder = root / name / "images"
    for path in sorted(folder.iterdir()):
        if path.stem not in wanted:
            continue
        img = cv2.imread(str(path))
        lab = root / name / "labels" / (path.stem + ".txt")
        if img is None or not lab.exists():
            continue
        h, w = img.shape[:2]
        rows = []
        for line in lab.read_text().splitlines():
            p = line.split()
            if len(p) >= 5:
                cx, cy, bw, bh = (float(v) for v in p[1:5])
                rows.append((cx * w, cy * h, max(bw * w, bh * h)))
        dice = np.array(rows, np.float32).reshape(-1, 3)
        if cache_side and max(h, w) > cache_side:
            k = cache_side / max(h, w)
            img = cv2.resize(img, (round(w * k), round(h * k)), interpolation=cv2.INTER_AREA)
            dice = dice * k
        out.append(Photo(name, path.stem, img, dice))
    return out


def load_scenes(folder: Path, cache_side: int | None = CACHE_SIDE) -> list[Photo]:
    """The trays ``training/scenes`` rendered into ``folder`` (``images/`` and ``labels/``), as photos of
    a source named "scenes"."""
    stems = [p.stem for p in sorted((folder / "images").glob("*.jpg"))]
    photos = load_photos(folder.parent, folder.name, stems, cache_side)
    for ph in photos:
        ph.name = "scenes"
    return photos


# ---------------------------------------------------------------- rendered trays

FELTS = [(60, 30, 80), (40, 40, 150), (50, 110, 40), (40, 70, 110), (25, 25, 28), (120, 60, 30),
         (118, 124, 120), (180, 190, 200), (70, 100, 140), (90, 40, 120)]  # BGR: purple, red, green, brown...
GOLD = (40, 170, 215)


def _random_die(rng: np.random.Generator) -> RenderDie:
    face = int(rng.integers(1, 7))
    r = rng.random()
    if r < 0.2:  # dark die, gold or white pips
        body = tuple(int(v) for v in rng.integers(15, 60, 3))
        pip = GOLD if rng.random() < 0.5 else (230, 230, 230)
        return RenderDie(face, "black", body=body, pip_colour=pip)  # type: ignore[arg-type]
    if r < 0.4:  # translucent casino-like die
        colour = ["red", "blue", "green", "other"][int(rng.integers(4))]
        return RenderDie(face, colour, translucent=float(rng.uniform(0.3, 0.8)), pip_colour=(235, 235, 235))
    if r < 0.5:  # marbled
        colour = list(BODY_BGR)[int(rng.integers(len(BODY_BGR)))]
        return RenderDie(face, colour, marble=tuple(int(v) for v in rng.integers(0, 255, 3)))  # type: ignore[arg-type]
    if r < 0.6:  # neon / any body colour
        body = tuple(int(v) for v in rng.integers(0, 255, 3))
        pip = (20, 20, 20) if sum(body) > 380 else (240, 240, 240)
        return RenderDie(face, "other", body=body, pip_colour=pip, pip_size=float(rng.uniform(0.8, 1.2)))  # type: ignore[arg-type]
    colour = list(BODY_BGR)[int(rng.integers(len(BODY_BGR)))]
    return RenderDie(face, colour, cocked=bool(rng.random() < 0.05))


def render_tray(seed: int) -> Photo:
    """A rendered tray with random felt, light, dice and camera, maybe with walls the dice lean on."""
    rng = np.random.default_rng(seed)
    w, h = 640, 480
    side = float(rng.uniform(22, 80))
    n = int(rng.integers(1, 13))
    r, g, b = (int(np.clip(c + rng.integers(-25, 26), 0, 255)) for c in FELTS[int(rng.integers(len(FELTS)))])
    felt = (r, g, b)
    dice = [_random_die(rng) for _ in range(n)]
    wall = rng.random() < 0.4
    wx = int(rng.uniform(0.05, 0.2) * w) if wall else 0
    if wall:  # some dice pressed against the left wall
        k = min(n, int(rng.integers(1, 4)))
        for i in range(k):
            y = float(rng.uniform(side, h - side))
            dice[i] = RenderDie(dice[i].face, dice[i].colour, angle=float(rng.uniform(-6, 6)) % 90,
                                center=(wx + side * 0.53, y), pip_colour=dice[i].pip_colour,
                                translucent=dice[i].translucent, body=dice[i].body, marble=dice[i].marble)
    tilt = (float(rng.uniform(-0.35, 0.35)), float(rng.uniform(0.0, 0.45))) if rng.random() < 0.3 else (0.0, 0.0)
    scene = Scene(die_size=side, touching=bool(rng.random() < 0.5), glare=bool(rng.random() < 0.4),
                  noise=float(rng.uniform(0, 8)), dim=float(rng.uniform(0.45, 1.15)), hand=bool(rng.random() < 0.05),
                  blur=float(rng.uniform(2, 8)) if rng.random() < 0.15 else 0.0, background=felt,
                  tilt=tilt, grain=float(rng.uniform(5, 25)) if rng.random() < 0.3 else 0.0)
    img, drawn = render_scene(dice, scene, seed=seed, size=(w, h))
    if wall:
        colour = np.array([int(v) for v in rng.integers(20, 200, 3)], np.float32)
        band = np.zeros((h, w), np.uint8)
        band[:, :wx] = 255
        for d in drawn:
            cv2.rectangle(band, d.box[:2], d.box[2:], 0, -1)
        shade = np.linspace(0.6, 1.1, max(wx, 1), dtype=np.float32)
        wall_img = np.zeros_like(img, np.float32)
        wall_img[:, :wx] = colour * shade[None, :, None]
        img = np.where(band[..., None] > 0, wall_img, img).astype(np.uint8)
    boxes = np.array([((d.box[0] + d.box[2]) / 2, (d.box[1] + d.box[3]) / 2,
                       max(d.box[2] - d.box[0], d.box[3] - d.box[1])) for d in drawn], np.float32).reshape(-1, 3)
    shrink = CACHE_SIDE / w
    img = cv2.resize(img, (CACHE_SIDE, round(h * shrink)), interpolation=cv2.INTER_AREA)
    return Photo("rendered", f"r{seed}", img, boxes * shrink)


# ---------------------------------------------------------------- augmentation and targets

def mosaic(rng: np.random.Generator, crops: list[Photo], size: int = CACHE_SIDE, k: int | None = None) -> Photo:
    """Single-die crops tiled k x k (1-4 unless given) on felt-coloured ground: a tray of them, each
    tile one die."""
    k = int(rng.integers(1, 5)) if k is None else k
    cell = size // k
    img = np.empty((size, size, 3), np.uint8)
    img[:] = np.median(crops[0].image.reshape(-1, 3), axis=0)
    rows = []
    for i in range(k * k):
        if k > 1 and rng.random() < 0.2:
            continue  # an empty tile
        c = crops[int(rng.integers(len(crops)))]
        s = int(cell * rng.uniform(0.7, 1.0))
        tile = cv2.resize(c.image, (s, s))
        y0 = (i // k) * cell + int(rng.integers(0, cell - s + 1))
        x0 = (i % k) * cell + int(rng.integers(0, cell - s + 1))
        img[y0:y0 + s, x0:x0 + s] = tile
        rows.append((x0 + s / 2, y0 + s / 2, s * 0.95))
    return Photo("chase-casino-crops", "mosaic", img, np.array(rows, np.float32).reshape(-1, 3))


def tiled(rng: np.random.Generator, pool: list[Photo], k: int, size: int = CACHE_SIDE) -> Photo:
    """``k`` x ``k`` photos of one set side by side in one square: the same dice at 1/k of their size,
    as a whole tray shows them. Without it the only small real dice were two sets' (nell-byler-d6's and
    the webcam's, 11-21 px at a 224 px input), and a detector trained without nell-byler-d6 missed a
    third of that set's."""
    cell = size // k
    img = np.empty((size, size, 3), np.uint8)
    img[:] = np.median(pool[int(rng.integers(len(pool)))].image.reshape(-1, 3), axis=0)
    dice, negs = [], []
    for i in range(k * k):
        ph = pool[int(rng.integers(len(pool)))]
        h, w = ph.image.shape[:2]
        f = cell / max(h, w)
        tw, th = max(1, round(w * f)), max(1, round(h * f))
        x0 = (i % k) * cell + (cell - tw) // 2
        y0 = (i // k) * cell + (cell - th) // 2
        img[y0:y0 + th, x0:x0 + tw] = cv2.resize(ph.image, (tw, th), interpolation=cv2.INTER_AREA)
        dice.append(ph.dice * np.array([f, f, f], np.float32) + np.array([x0, y0, 0], np.float32))
        negs.append(ph.negatives * np.array([f, f, f], np.float32) + np.array([x0, y0, 0], np.float32))
    return Photo(pool[0].name, "tiled", img, np.concatenate(dice).astype(np.float32).reshape(-1, 3),
                 np.concatenate(negs).astype(np.float32).reshape(-1, 3))


def _photometric(rng: np.random.Generator, img: np.ndarray) -> np.ndarray:
    out: np.ndarray = img.astype(np.float32)
    if rng.random() < 0.5:  # hue / saturation shift: other felt and dice colours
        hsv = cv2.cvtColor(img, cv2.COLOR_BGR2HSV).astype(np.float32)
        hsv[..., 0] = (hsv[..., 0] + rng.uniform(-90, 90)) % 180
        hsv[..., 1] *= rng.uniform(0.5, 1.4)
        out = cv2.cvtColor(np.clip(hsv, 0, 255).astype(np.uint8), cv2.COLOR_HSV2BGR).astype(np.float32)
    if rng.random() < 0.15:
        g = out.mean(axis=2, keepdims=True)
        out = np.repeat(g, 3, axis=2)
    out = out * rng.uniform(0.6, 1.3) + rng.uniform(-30, 30)  # contrast, brightness
    if rng.random() < 0.3:  # uneven light
        h, w = out.shape[:2]
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        a, b = rng.uniform(-0.5, 0.5, 2)
        out *= (1 + a * (xx / w - 0.5) + b * (yy / h - 0.5))[..., None]
    if rng.random() < 0.15:  # glare: a bright soft spot
        h, w = out.shape[:2]
        spot: np.ndarray = np.zeros((h, w), np.float32)
        centre = (int(rng.uniform(0, w)), int(rng.uniform(0, h)))
        axes = (int(rng.uniform(5, w / 4)), int(rng.uniform(5, h / 4)))
        cv2.ellipse(spot, centre, axes, float(rng.uniform(0, 180)), 0, 360, 1.0, -1)
        spot = cv2.GaussianBlur(spot, (0, 0), float(rng.uniform(3, 15)))
        out += spot[..., None] * rng.uniform(60, 200)
    out = np.clip(out, 0, 255)
    if rng.random() < 0.5:
        gamma = rng.uniform(0.6, 1.6)
        out = 255.0 * (out / 255.0) ** gamma
    if rng.random() < 0.2:
        out = cv2.GaussianBlur(out, (0, 0), float(rng.uniform(0.5, 2.0)))
    if rng.random() < 0.3:
        out += rng.normal(0, rng.uniform(2, 10), out.shape).astype(np.float32)
    return np.clip(out, 0, 255).astype(np.uint8)


def augment(rng: np.random.Generator, photo: Photo, size: int) -> tuple[np.ndarray, np.ndarray]:
    """A ``size`` x ``size`` BGR input cut from ``photo`` (scaled, turned, a little in perspective,
    flipped, recoloured) and its dice (cx, cy, side) in input pixels."""
    img, dice, _ = augment_all(rng, photo, size)
    return img, dice


def augment_all(rng: np.random.Generator, photo: Photo, size: int, zoom: float = 0.0,
                die_px: tuple[float, float] | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """As ``augment``, with the photo's hard negatives moved along (cx, cy, side in input pixels).
    ``zoom``: the share of draws enlarged 1.6-3 times, as the detector's second read sees a frame
    (``companion/vision/detector.py``: a frame over 640 px is read again at 640, 2.9 times 224).
    ``die_px``: scale so that the median die is log-uniformly that many input pixels wide (generated
    trays, whose wide views hold only small dice, else teach that a pip-sized blob is a die)."""
    img, dice = photo.image, photo.dice
    negs = photo.negatives
    h, w = img.shape[:2]
    # Scale: mostly the whole frame into the input, as at inference, sometimes zoomed in or out.
    fit = size / max(h, w)
    if die_px is not None and len(dice):
        target = float(np.exp(rng.uniform(math.log(die_px[0]), math.log(die_px[1]))))
        scale = target / max(float(np.median(dice[:, 2])), 1.0)
    elif zoom > 0 and rng.random() < zoom:
        scale = fit * float(np.exp(rng.uniform(math.log(1.6), math.log(3.0))))
    else:
        scale = fit * float(np.exp(rng.uniform(math.log(0.7), math.log(1.6))))
    if len(dice):
        med = float(np.median(dice[:, 2])) * scale
        if med < 7:
            scale *= 7 / med
        if med > 0.7 * size:
            scale *= 0.7 * size / med
    angle = float(rng.uniform(-180, 180)) if rng.random() < 0.7 else 0.0
    # Centre of view: the frame's centre, or a die, when zoomed in.
    if scale > fit * 1.05 and len(dice) and rng.random() < 0.7:
        cx, cy = dice[int(rng.integers(len(dice)))][:2]
    else:
        cx, cy = w / 2, h / 2
    cx += rng.uniform(-0.1, 0.1) * w
    cy += rng.uniform(-0.1, 0.1) * h
    m = cv2.getRotationMatrix2D((float(cx), float(cy)), angle, scale)
    m[:, 2] += (size / 2 - cx, size / 2 - cy)
    persp = np.vstack([m, [0, 0, 1]]).astype(np.float64)
    if rng.random() < 0.4:  # a camera not quite overhead
        j = size * 0.08
        src = np.array([[0, 0], [size, 0], [size, size], [0, size]], np.float32)
        dst = src + rng.uniform(-j, j, (4, 2)).astype(np.float32)
        persp = cv2.getPerspectiveTransform(src, dst) @ persp
    if rng.random() < 0.5:
        border = cv2.BORDER_REFLECT_101
        value: tuple[int, ...] = (0, 0, 0)
    else:
        border = cv2.BORDER_CONSTANT
        value = tuple(int(v) for v in rng.integers(0, 255, 3))
    out = cv2.warpPerspective(img, persp, (size, size), flags=cv2.INTER_LINEAR, borderMode=border,
                              borderValue=value)
    if len(dice) and border == cv2.BORDER_REFLECT_101:
        # reflected dice beyond the frame edge would be unlabelled: only keep views where the frame
        # covers the input, else blank the outside
        mask = cv2.warpPerspective(np.full((h, w), 255, np.uint8), persp, (size, size), flags=cv2.INTER_NEAREST)
        out[mask == 0] = np.median(img.reshape(-1, 3), axis=0).astype(np.uint8)
    return _photometric(rng, out), _moved(dice, persp, size), _moved(negs, persp, size)


def _moved(points: np.ndarray, persp: np.ndarray, size: int) -> np.ndarray:
    """(cx, cy, side) rows through the perspective map, those left inside the input."""
    if not len(points):
        return np.zeros((0, 3), np.float32)
    pts = cv2.perspectiveTransform(points[None, :, :2].astype(np.float64), persp)[0]
    # the side's scale: how the map stretches around each point
    off = cv2.perspectiveTransform((points[None, :, :2] + [[1.0, 0.0]]).astype(np.float64), persp)[0]
    k = np.linalg.norm(off - pts, axis=1)
    moved = np.column_stack([pts, points[:, 2] * k]).astype(np.float32)
    inside = (moved[:, 0] >= 0) & (moved[:, 0] < size) & (moved[:, 1] >= 0) & (moved[:, 1] < size)
    out: np.ndarray = moved[inside]
    return out


def targets(dice: np.ndarray, size: int, stride: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Heatmap (g x g, Gaussian peaks of 1 at die centres), regression targets (3 x g x g: dx, dy,
    log side/stride) and their mask (g x g): the same targets the table's own refit of the head uses
    (``companion.vision.head_fit.targets``), on a square grid."""
    g = size // stride
    return head_targets([(float(cx), float(cy), float(side)) for cx, cy, side in dice], (g, g), stride)


def hard_weights(negatives: np.ndarray, heat: np.ndarray, stride: int, weight: float) -> np.ndarray:
    """Per heatmap cell, how much its "no die here" counts in the loss: 1, and up to ``1 + weight``
    on a hard negative (a disc the size of the thing there), never where a die's peak lies."""
    out = np.ones_like(heat)
    if not len(negatives) or weight <= 0:
        return out
    g = heat.shape[0]
    yy, xx = np.mgrid[0:g, 0:g].astype(np.float32)
    for cx, cy, side in negatives:
        x, y = cx / stride, cy / stride
        sigma = max(0.8, side / stride / 4.0)
        out += weight * np.exp(-((xx - x) ** 2 + (yy - y) ** 2) / (2 * sigma**2))
    out[heat > 0.3] = 1.0
    return out


def to_input(img: np.ndarray) -> np.ndarray:
    """Per image: minus its mean, over its standard deviation; what ``companion/vision/detector.py``
    does before the network."""
    x = img.astype(np.float32) / 255.0
    x = (x - x.mean()) / (x.std() + 0.02)
    return np.ascontiguousarray(x.transpose(2, 0, 1))
