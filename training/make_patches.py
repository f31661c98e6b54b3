"""Cut labelled 32x32 training patches from the TRAIN photos of the fixed split, plus rendered symbol faces.

    .venv/bin/python training/make_patches.py --out /tmp/dice_patches.npz

Classes: 0-5 faces 1-6, 6 the symbol face ("worm"), 7 "not a die". Patches come from the reader's own
window proposals (so training sees what the reader will see at run time), labelled by the nearest
label centre, plus jittered crops centred on each label for coverage. Held-back photos are never read.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.vision.crops import PATCH  # noqa: E402
from companion.vision.evaluate import iterate  # noqa: E402
from companion.vision.render import RenderDie, random_dice, render_dice  # noqa: E402
from companion.vision.segment import find_candidates, typical_side, windows  # noqa: E402

DATA = Path("/work/shared/data/dice")
# How a label box relates to the whole die: nell boxes the whole die, matteop65 only the top face.
WHOLE_DIE = {"nell-byler-d6": 1.0, "matteop65-webcam": 1.5}
BG = 7


def rotated_patch(frame: np.ndarray, cx: float, cy: float, size: float, angle: float) -> np.ndarray:
    scale = PATCH / max(size, 1.0)
    m = cv2.getRotationMatrix2D((cx, cy), angle, scale)
    m[0, 2] += PATCH / 2 - cx
    m[1, 2] += PATCH / 2 - cy
    out: np.ndarray = cv2.warpAffine(frame, m, (PATCH, PATCH), flags=cv2.INTER_LINEAR,
                                     borderMode=cv2.BORDER_REPLICATE)
    return out


def real_patches(name: str, stems: list[str], rng: np.random.Generator, jitter: int
                 ) -> tuple[list[np.ndarray], list[int]]:
    xs: list[np.ndarray] = []
    ys: list[int] = []
    k = WHOLE_DIE[name]
    for _, frame, labels in iterate(DATA / name, only=stems):
        cands = find_candidates(frame)
        side = typical_side(cands)
        for cx, cy, size in windows(cands, side, frame.shape):
            near = min(labels, key=lambda lab: math.dist(lab.center, (cx, cy)), default=None)
            d = math.dist(near.center, (cx, cy)) if near else float("inf")
            if near is not None and d < 0.2 * near.size * k and 0.85 * near.size * k < size < 1.9 * near.size * k:
                label = int(near.value) - 1 if near.value != "worm" else 6
            elif near is None or d > 0.6 * near.size * k:
                label = BG
            else:
                continue
            xs.append(rotated_patch(frame, cx, cy, size, float(rng.choice([0, 90, 180, 270]))))
            ys.append(label)
        for lab in labels:
            # Off-centre windows are "not a die": the classifier must fire only on a window centred
            # on the top face, not on side faces or on the gap between two dice.
            for _ in range(jitter // 2):
                r = lab.size * float(rng.uniform(0.4, 0.75))
                a = float(rng.uniform(0, 2 * math.pi))
                ox, oy = lab.center[0] + r * math.cos(a), lab.center[1] + r * math.sin(a)
                if any(math.dist((ox, oy), other.center) < 0.4 * other.size for other in labels):
                    continue
                s = lab.size * k * float(rng.uniform(1.05, 1.45))
                xs.append(rotated_patch(frame, ox, oy, s, float(rng.uniform(0, 360))))
                ys.append(BG)
            for _ in range(jitter):
                s = lab.size * k * float(rng.uniform(1.05, 1.45))
                dx, dy = rng.normal(0, 0.06 * lab.size, 2)
                xs.append(rotated_patch(frame, lab.center[0] + dx, lab.center[1] + dy, s,
                                        float(rng.uniform(0, 360))))
                ys.append(int(lab.value) - 1 if lab.value != "worm" else 6)
    return xs, ys


def rendered_patches(n_frames: int, rng: np.random.Generator) -> tuple[list[np.ndarray], list[int]]:
    xs: list[np.ndarray] = []
    ys: list[int] = []
    for seed in range(n_frames):
        n = int(rng.integers(1, 9))
        dice = random_dice(rng, n)
        # Symbol faces are rare on real tables but this is their only source: show more of them.
        dice = [RenderDie("worm", d.colour) if rng.random() < 0.3 else d for d in dice]
        frame, drawn = render_dice(dice, seed=seed, size=(640, 480), die_size=float(rng.uniform(24, 70)),
                                   touching=bool(rng.random() < 0.4), glare=bool(rng.random() < 0.4),
                                   noise=float(rng.uniform(0, 8)), dim=float(rng.uniform(0.45, 1.1)),
                                   blur=0.0, background=tuple(int(v) for v in rng.integers(40, 220, 3)))
        for d in drawn:
            s = d.size * float(rng.uniform(1.05, 1.45))
            dx, dy = rng.normal(0, 0.06 * d.size, 2)
            xs.append(rotated_patch(frame, d.center[0] + dx, d.center[1] + dy, s, float(rng.uniform(0, 360))))
            ys.append(int(d.face) - 1 if d.face != "worm" else 6)
        for _ in range(3):
            cx, cy = rng.uniform(40, 600), rng.uniform(40, 440)
            if all(math.dist((cx, cy), d.center) > 0.8 * d.size for d in drawn):
                xs.append(rotated_patch(frame, cx, cy, float(rng.uniform(30, 80)), 0.0))
                ys.append(BG)
    return xs, ys


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", default="/tmp/dice_patches.npz")
    ap.add_argument("--jitter", type=int, default=6)
    ap.add_argument("--rendered", type=int, default=600)
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    split = json.loads((ROOT / "companion" / "vision" / "split.json").read_text())
    xs: list[np.ndarray] = []
    ys: list[int] = []
    src: list[int] = []
    for i, name in enumerate(WHOLE_DIE):
        x, y = real_patches(name, split[name]["train"], rng, args.jitter)
        xs += x
        ys += y
        src += [i] * len(y)
        print(name, len(y), np.bincount(y, minlength=8))
    x, y = rendered_patches(args.rendered, rng)
    xs += x
    ys += y
    src += [2] * len(y)
    print("rendered", len(y), np.bincount(y, minlength=8))
    np.savez_compressed(args.out, x=np.stack(xs), y=np.array(ys, np.int64), src=np.array(src, np.int64))


if __name__ == "__main__":
    main()
