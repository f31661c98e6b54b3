"""What the empty-tray reference adds, measured apart from the blind numbers, on rendered hard trays.

    .venv/bin/python training/experiments/empty_tray_reference.py [--trays 60] [--part test|dev] [--detector]
        [--json out.json]

No real data set has a fixed camera *and* a photo of its empty tray (matteop65-webcam's frames all
hold dice or hands; docs/log/detector-2026-11-25.md), so the reference is measured on rendered trays
whose empty tray is rendered exactly: the same felt, light and walls without the dice, with fresh
sensor noise. The trays are made hard on purpose: dark dice with gold pips on felt of nearly their
colour, translucent red and blue dice on felt close to their body, dice pressed against a tray wall,
dim light, touching dice. Rendered numbers show the mechanism; they are no accuracy claim.

Each tray is read by the reader without the learned detector blind and with the reference, and with
``--detector`` by the reader with it (the daemon's when ``tuning.USE_DETECTOR``), blind and with the
reference. Settings were
chosen on ``--part dev`` (seeds from 500000); the reported numbers are ``--part test`` (from 600000).

The second table says when the reference is taken as stale (``EmptyTray.matches``): the same trays
with the light or the camera changed after the reference was taken.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))  # this checkout's package, not whichever the venv installed

from companion.vision.detection_score import DetectionScore  # noqa: E402
from companion.vision.empty_tray import EmptyTray  # noqa: E402
from companion.vision.evaluate import LabelledDie, Score  # noqa: E402
from companion.vision.reader import DiceReader  # noqa: E402
from companion.vision.render import RenderDie, Scene, render_scene  # noqa: E402
from companion.vision.render_die import corners  # noqa: E402
from companion.vision.tuning import UNCERTAIN  # noqa: E402

SEEDS = {"dev": 500_000, "test": 600_000}
Tray = tuple[np.ndarray, EmptyTray, list[LabelledDie], str]
EMPTY_FRAMES = 5  # frames the calibration takes of the empty tray (companion/table/empty_reference.py)


def _felt_near(rng: np.random.Generator, bgr: tuple[int, int, int], spread: int) -> tuple[int, int, int]:
    return tuple(int(np.clip(c + rng.integers(-spread, spread + 1), 0, 255)) for c in bgr)  # type: ignore[return-value]


def hard_tray(seed: int) -> Tray:
    """One hard tray, its exact empty tray, the dice drawn and its kind."""
    rng = np.random.default_rng(seed)
    w, h = 640, 480
    side = float(rng.uniform(30, 55))
    kind = ["dark", "translucent", "wall"][seed % 3]
    n = int(rng.integers(3, 9))
    dice: list[RenderDie] = []
    if kind == "dark" or (kind == "wall" and rng.random() < 0.5):
        body = _felt_near(rng, (38, 40, 44), 8)
        felt = _felt_near(rng, body, 14)
        for _ in range(n):
            dice.append(RenderDie(int(rng.integers(1, 7)), "black", body=body, pip_colour=(40, 170, 215)))
    else:
        colour = ["red", "blue"][int(rng.integers(2))]
        tint = {"red": (40, 30, 190), "blue": (170, 80, 20)}[colour]
        felt = _felt_near(rng, tuple(int(c * 0.7) for c in tint), 25)  # type: ignore[arg-type]
        for _ in range(n):
            dice.append(RenderDie(int(rng.integers(1, 7)), colour, translucent=float(rng.uniform(0.5, 0.85)),
                                  pip_colour=(235, 235, 235)))
    wx = 0
    if kind == "wall":  # a tray wall on the left, some dice pressed against it
        wx = int(rng.uniform(0.08, 0.2) * w)
        k = min(n, int(rng.integers(1, 4)))
        slots = rng.permutation(int((h - 2 * side) // (side * 1.3)))[:k]  # along the wall, apart
        for i, slot in enumerate(slots):
            y = side + float(slot) * side * 1.3 + side / 2
            d = dice[i]
            dice[i] = RenderDie(d.face, d.colour, angle=float(rng.uniform(-6, 6)) % 90, center=(wx + side * 0.55, y),
                                pip_colour=d.pip_colour, translucent=d.translucent, body=d.body)
    scene = Scene(die_size=side, touching=bool(rng.random() < 0.4), background=felt, noise=float(rng.uniform(2, 5)),
                  dim=float(rng.uniform(0.55, 1.0)), glare=bool(rng.random() < 0.3))
    frame, drawn = render_scene(dice, scene, seed=seed, size=(w, h))
    # The empty tray as the calibration captures it: EMPTY_FRAMES frames of the same felt, light and
    # walls without the dice, each with its own sensor noise.
    bare, _ = render_scene([], replace(scene, noise=0.0), seed=seed, size=(w, h))
    noise = np.random.default_rng(seed + 1_000_000)
    empties = [np.clip(bare + noise.normal(0, scene.noise, bare.shape), 0, 255).astype(np.uint8)
               for _ in range(EMPTY_FRAMES)]
    if wx:
        wall_colour = np.array([int(v) for v in rng.integers(20, 200, 3)], np.float32)
        shade = np.linspace(0.6, 1.1, wx, dtype=np.float32)
        band = np.zeros((h, w), np.uint8)
        band[:, :wx] = 255
        wall_only = band.copy()
        for d in drawn:  # a die against the wall hides the wall behind it
            foot = corners(d.center[0], d.center[1], d.size * 1.02, d.angle)
            cv2.fillPoly(band, [np.round(foot).astype(np.int32)], 0)
        wall = np.zeros_like(frame, np.float32)
        wall[:, :wx] = wall_colour * shade[None, :, None] * scene.dim
        frame = np.where(band[..., None] > 0, wall, frame).astype(np.uint8)
        empties = [np.where(wall_only[..., None] > 0, wall, e).astype(np.uint8) for e in empties]
    empty = EmptyTray.capture(empties)
    labels = [LabelledDie(d.face, d.center, float(max(d.box[2] - d.box[0], d.box[3] - d.box[1]))) for d in drawn]
    return frame, empty, labels, kind


def score(reader: DiceReader, trays: list[Tray], with_empty: bool) -> dict[str, float | int]:
    found, faces = DetectionScore(), Score()
    short = 0
    looked_at_missed = 0
    missed = 0
    for frame, empty, labels, _ in trays:
        reading = reader.read(frame, empty=empty if with_empty else None)
        boxes = [d.box for d in reading.dice]
        found.add(labels, boxes)
        faces.add(labels, [(d.value, d.box, d.center, d.confidence) for d in reading.dice], reading.ms, UNCERTAIN)
        short += len(reading.dice) < len(labels)
        for lab in labels:  # a missed die: is there a grey circle on it?
            x, y = lab.center
            if any(b[0] <= x <= b[2] and b[1] <= y <= b[3] for b in boxes):
                continue
            missed += 1
            looked_at_missed += any(np.hypot(x - cx, y - cy) < 0.5 * s for cx, cy, s in reading.looked)
    s = faces.summary()
    return {"dice": found.dice, "found": found.found, "recall": found.recall, "proposals": found.proposals,
            "extra": found.extra, "precision": found.precision, "per_die": float(s["accuracy"]),  # type: ignore[arg-type]
            "confident_wrong": float(s["confident_wrong"]), "answered": float(s["answered"]),  # type: ignore[arg-type]
            "short_readings": short, "trays": len(trays), "missed": missed, "missed_circled": looked_at_missed,
            "ms_median": float(s["ms_median"])}  # type: ignore[arg-type]


def changed(frame: np.ndarray, how: str, rng: np.random.Generator) -> np.ndarray:
    """The tray after the reference was taken: the light or the camera changed."""
    h, w = frame.shape[:2]
    out = frame.astype(np.float32)
    if how == "dimmer room (x0.6)":
        out *= 0.6
    elif how == "brighter room (x1.3)":
        out *= 1.3
    elif how == "lamp from one side":
        xx = np.linspace(0.45, 1.35, w, dtype=np.float32)
        out *= xx[None, :, None]
    elif how == "warmer light":
        out *= np.array([0.7, 0.95, 1.25], np.float32)
    elif how.startswith("camera moved"):
        px = int(how.split()[2])
        m = np.float32([[1, 0, px], [0, 1, px // 2]])
        out = cv2.warpAffine(out, m, (w, h), borderMode=cv2.BORDER_REFLECT)
    elif how == "camera turned 3 degrees":
        m = cv2.getRotationMatrix2D((w / 2, h / 2), 3.0, 1.0)
        out = cv2.warpAffine(out, m, (w, h), borderMode=cv2.BORDER_REFLECT)
    return np.clip(out, 0, 255).astype(np.uint8)


CHANGES = ("none", "dimmer room (x0.6)", "brighter room (x1.3)", "warmer light", "lamp from one side",
           "camera moved 4 px", "camera moved 16 px", "camera moved 48 px", "camera turned 3 degrees")


def stale_table(trays: list[Tray]) -> dict[str, dict[str, float]]:
    rng = np.random.default_rng(7)
    out = {}
    for how in CHANGES:
        shares, kept = [], 0
        for frame, empty, _, _ in trays:
            ref = empty
            seen = frame if how == "none" else changed(frame, how, rng)
            shares.append(ref.changed_share(seen))
            kept += ref.matches(seen)
        out[how] = {"median_share": statistics.median(shares), "max_share": max(shares), "kept": kept / len(trays)}
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--trays", type=int, default=60)
    ap.add_argument("--part", choices=tuple(SEEDS), default="test")
    ap.add_argument("--detector", action="store_true", help="also the reader with the learned detector")
    ap.add_argument("--json", help="write the numbers here")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    trays = [hard_tray(SEEDS[args.part] + i) for i in range(args.trays)]
    n = sum(len(t[2]) for t in trays)
    print(f"{args.part}: {len(trays)} rendered hard trays, {n} dice "
          f"({', '.join(f'{k} {sum(t[3] == k for t in trays)}' for k in ('dark', 'translucent', 'wall'))})")
    readers = {"reader without the detector": DiceReader()}
    if args.detector:
        from companion.vision.detector import DieDetector

        readers["reader with detector"] = DiceReader(detector=DieDetector())
    results: dict[str, object] = {}
    for name, reader in readers.items():
        for with_empty in (False, True):
            tag = f"{name}, {'with the empty tray' if with_empty else 'blind'}"
            r = score(reader, trays, with_empty)
            results[tag] = r
            print(f"  {tag:<52} found {r['found']}/{r['dice']} = {100 * r['recall']:.2f}%, "
                  f"precision {100 * r['precision']:.2f}% ({r['extra']} extra), per-die {100 * r['per_die']:.2f}%, "
                  f"confident-wrong {100 * r['confident_wrong']:.2f}% (answered {100 * r['answered']:.1f}%), "
                  f"short readings {r['short_readings']}/{r['trays']}, missed dice circled "
                  f"{r['missed_circled']}/{r['missed']}, {r['ms_median']:.0f} ms median", flush=True)
    print("is the reference still taken? (share of the frame unlike it; stale above the limit)")
    stale = stale_table(trays)
    for how, row in stale.items():
        print(f"  {how:<28} median share {100 * row['median_share']:.1f}%, max {100 * row['max_share']:.1f}%, "
              f"reference kept on {100 * row['kept']:.0f}% of trays")
    results["stale"] = stale
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
