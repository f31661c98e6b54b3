"""Issue 58, item 3, on real photos: the sets with an empty tray (matteop65-webcam: each capture
group's per-pixel median of 5 train frames, as ``benchmarks/vision_detection.py``) read as the daemon
reads (detector, empty tray), with the tray's floor bounding the dice and without it; per-die, recall,
the dice dropped as outside (drawn to ``--show DIR`` to look at), and which groups' pictures gave a floor.
``--paint-out`` (a set without a fixed camera, nell-byler-d6): each photo's floor is found in the photo
with its dice painted out (``tray_margin.painted_out``) and given to the reader as ``tray=`` (the
reader reads blind otherwise: the painted picture is never its empty tray, which would know the dice).

    OMP_NUM_THREADS=1 .venv/bin/python training/experiments/tray_region_check.py [--part test|train] [--show DIR]
    OMP_NUM_THREADS=1 .venv/bin/python training/experiments/tray_region_check.py --data DIR --paint-out
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT / "training" / "experiments"))

from tray_margin import painted_out  # noqa: E402
from vision_detection import calibration_stems, group  # noqa: E402

from companion.vision import tray_region  # noqa: E402
from companion.vision.detection_score import DetectionScore  # noqa: E402
from companion.vision.detector import DieDetector  # noqa: E402
from companion.vision.empty_tray import EmptyTray  # noqa: E402
from companion.vision.evaluate import Score, iterate  # noqa: E402
from companion.vision.reader import DiceReader  # noqa: E402
from companion.vision.tray_region import from_picture  # noqa: E402
from companion.vision.tuning import UNCERTAIN  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default="/work/shared/data/dice/matteop65-webcam", type=Path)
    ap.add_argument("--part", default="test", choices=["test", "train"])
    ap.add_argument("--show", type=Path)
    ap.add_argument("--paint-out", action="store_true")
    ap.add_argument("--margin", type=float, help="tray_region.MARGIN for this run (die sides)")
    args = ap.parse_args()
    if args.margin is not None:
        tray_region.MARGIN = args.margin
    if args.paint_out:
        return painted(args)
    split = json.loads((ROOT / "companion" / "vision" / "split.json").read_text())[args.data.name]
    train = split["train"]
    by_group: dict[str, list[str]] = defaultdict(list)
    for s in train:
        by_group[group(s)].append(s)
    empties = {g: EmptyTray.from_frames([f for _, f, _ in iterate(args.data, only=m[:: max(1, len(m) // 5)][:5])])
               for g, m in by_group.items()}
    print("floor from the empty picture:", {g: (None if e.floor() is None else e.floor().source)  # type: ignore[union-attr]
                                           for g, e in empties.items()})
    stems = split["test"] if args.part == "test" else [s for s in train if s not in calibration_stems(train)]
    reader = DiceReader(detector=DieDetector())
    photos = list(iterate(args.data, only=stems))
    for bounded in (False, True):
        found, faces, dropped = DetectionScore(), Score(), 0
        for stem, frame, labels in photos:
            empty = empties[group(Path(str(stem)).stem)]
            if not bounded:
                empty = EmptyTray(empty.image, empty.level)
                empty._cache["floor"] = None  # the same picture, no floor: the reader as before
            r = reader.read(frame, empty=empty)
            found.add(labels, [d.box for d in r.dice])
            faces.add(labels, [(d.value, d.box, d.center, d.confidence) for d in r.dice], r.ms, UNCERTAIN)
            dropped += len(r.outside)
            if r.outside and args.show is not None:
                args.show.mkdir(parents=True, exist_ok=True)
                img = frame.copy()
                for x, y, s in r.outside:
                    cv2.circle(img, (round(x), round(y)), round(s / 2), (0, 0, 255), 2)
                floor = empty.floor()
                if floor is not None:
                    cv2.polylines(img, [np.round(floor.polygon).astype(np.int32)], True, (0, 255, 255), 1)
                cv2.imwrite(str(args.show / f"{Path(str(stem)).stem}.png"), img)
        print(f"{'with' if bounded else 'without'} the floor: {len(photos)} photos, {faces.dice} dice, per die "
              f"{100 * faces.right / max(faces.dice, 1):.2f}% ({faces.right}), recall {100 * found.recall:.2f}%, "
              f"missed {faces.missed}, extra {faces.extra}, dropped as outside {dropped}")
    return 0


def painted(args: argparse.Namespace) -> int:
    split = json.loads((ROOT / "companion" / "vision" / "split.json").read_text())[args.data.name]
    train = split["train"]
    stems = split["test"] if args.part == "test" else [s for s in train if s not in calibration_stems(train)]
    reader = DiceReader(detector=DieDetector())
    photos = list(iterate(args.data, only=stems))
    floors = [from_picture(painted_out(frame, labels)) for _, frame, labels in photos]
    print(f"a floor in {sum(f is not None for f in floors)} of {len(photos)} photos")
    for bounded in (False, True):
        found, faces, dropped = DetectionScore(), Score(), 0
        for (stem, frame, labels), floor in zip(photos, floors, strict=True):
            r = reader.read(frame, tray=floor if bounded else None)
            found.add(labels, [d.box for d in r.dice])
            faces.add(labels, [(d.value, d.box, d.center, d.confidence) for d in r.dice], r.ms, UNCERTAIN)
            dropped += len(r.outside)
            if r.outside and args.show is not None and floor is not None:
                args.show.mkdir(parents=True, exist_ok=True)
                img = frame.copy()
                cv2.polylines(img, [np.round(floor.polygon).astype(np.int32)], True, (0, 255, 255), 1)
                for x, y, side in r.outside:
                    cv2.circle(img, (round(x), round(y)), round(side / 2), (0, 0, 255), 2)
                cv2.imwrite(str(args.show / f"{Path(str(stem)).stem}.png"), img)
        print(f"{'with' if bounded else 'without'} the floor: {len(photos)} photos, {faces.dice} dice, per die "
              f"{100 * faces.right / max(faces.dice, 1):.2f}% ({faces.right}), recall {100 * found.recall:.2f}%, "
              f"missed {faces.missed}, extra {faces.extra}, dropped as outside {dropped}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
