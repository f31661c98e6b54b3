"""How far outside the tray's floor (found in the empty tray's picture, ``tray_region.from_picture``)
the centres of real dice lie, to choose ``tray_region.MARGIN``: on nell-byler-d6's train photos (a
real tray with walls, photographed by hand, so there is no empty picture) each photo's dice are painted
out (``cv2.inpaint`` over their label boxes, grown to take their shadows) to stand in for its empty
tray. Prints how many photos gave a floor and, in die sides, the labelled dice furthest outside it;
``--show DIR`` draws the floor and the dice beyond ``--flag`` die sides. Train photos only: never tune
on the held-back ones.

    .venv/bin/python training/experiments/tray_margin.py [--show DIR] [--flag 0.5]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from companion.vision.evaluate import iterate  # noqa: E402
from companion.vision.tray_region import from_picture  # noqa: E402


def painted_out(frame: np.ndarray, labels: list) -> np.ndarray:  # type: ignore[type-arg]
    mask = np.zeros(frame.shape[:2], np.uint8)
    for lab in labels:
        r = round(lab.size * 0.75)
        x, y = (round(c) for c in lab.center)
        cv2.rectangle(mask, (x - r, y - r), (x + r, y + r), 255, -1)
    out: np.ndarray = cv2.inpaint(frame, mask, 7, cv2.INPAINT_TELEA)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default="/work/shared/data/dice/nell-byler-d6", type=Path)
    ap.add_argument("--show", type=Path)
    ap.add_argument("--flag", type=float, default=0.5)
    args = ap.parse_args()
    train = json.loads((ROOT / "companion" / "vision" / "split.json").read_text())[args.data.name]["train"]
    photos = regions = dice = 0
    out: list[tuple[float, str]] = []
    for stem, frame, labels in iterate(args.data, only=train):
        photos += 1
        region = from_picture(painted_out(frame, labels))
        if region is None:
            continue
        regions += 1
        name = Path(str(stem)).stem
        far = []
        for lab in labels:
            dice += 1
            d = region.distance(*lab.center, frame.shape) / lab.size
            out.append((d, name))
            if d > args.flag:
                far.append((lab, d))
        if far and args.show is not None:
            args.show.mkdir(parents=True, exist_ok=True)
            img = frame.copy()
            cv2.polylines(img, [np.round(region.polygon).astype(np.int32)], True, (0, 0, 255), 2)
            for lab, d in far:
                cv2.circle(img, (round(lab.center[0]), round(lab.center[1])), round(lab.size / 2) + 4, (255, 0, 255), 2)
                cv2.putText(img, f"{d:.2f}", (round(lab.center[0]), round(lab.center[1])), cv2.FONT_HERSHEY_SIMPLEX,
                            0.5, (255, 0, 255), 1)
            cv2.imwrite(str(args.show / f"{name}.png"), img)
    out.sort(reverse=True)
    ds = np.array([d for d, _ in out])
    print(f"{photos} train photos, a floor in {regions}; {dice} dice on them")
    for m in (0.0, 0.25, 0.5, 0.75, 1.0):
        print(f"  beyond {m:.2f} die sides: {int((ds > m).sum())}")
    print("  furthest:", [(round(d, 2), s) for d, s in out[:8]])
    return 0


if __name__ == "__main__":
    sys.exit(main())
